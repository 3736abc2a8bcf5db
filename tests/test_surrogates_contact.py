"""E-mails follow the surrogate name and keep public providers; URLs and IPs keep their shape."""

from __future__ import annotations

import ipaddress

import pytest

from crfdeid.surrogates import build_registry, fold, surrogate_data

from .surrogate_kit import new_texts, run, state

REG = build_registry(surrogate_data("es"))


def test_email_local_part_follows_the_surrogate_name():
    text = "Dr. Tomás Arregui Sanz. Correo: tarregui@salud.aragon.es. Otro: tomas.arregui@gmail.com"
    result = run(
        text,
        ("NOMBRE_PERSONAL_SANITARIO", "Tomás Arregui Sanz"),
        ("CORREO_ELECTRONICO", "tarregui@salud.aragon.es"),
        ("CORREO_ELECTRONICO", "tomas.arregui@gmail.com"),
    )
    name, institutional, public = new_texts(result)
    given, surname, _ = (fold(w) for w in name.split())
    assert institutional.split("@")[0] == given[0] + surname
    assert public == f"{given}.{surname}@gmail.com"  # public provider kept
    domain = institutional.split("@")[1]
    assert domain != "salud.aragon.es" and domain.endswith(".es") and domain.count(".") == 2


def test_email_not_from_a_name_gets_a_plausible_one():
    new = REG["CORREO_ELECTRONICO"].generate("maje1946@yahoo.es", "CORREO_ELECTRONICO", 0, state()).text
    local, domain = new.split("@")
    assert domain == "yahoo.es" and local[-4:].isdigit() and local[:-4].isalpha() and local != "maje1946"


def test_urls_and_ip_addresses():
    url = REG["URL_WEB"].generate("https://www.hospital-ejemplo.es/citas", "URL_WEB", 0, state()).text
    assert (
        url.startswith("https://www.")
        and url.endswith(".es/" + url.rsplit("/", 1)[1])
        and "ejemplo" not in url
    )
    ip = REG["DIREC_PROT_INTERNET"].generate("192.168.10.24", "DIREC_PROT_INTERNET", 0, state()).text
    assert ipaddress.ip_address(ip) and ip != "192.168.10.24"


@pytest.mark.parametrize("text", ["12", "5", "91 5"])
def test_phone_numbers_with_few_digits_still_change(text):
    for seed in range(10):
        new = REG["NUMERO_TELEFONO"].generate(text, "NUMERO_TELEFONO", 0, state(text, seed)).text
        assert new != text and len(new) == len(text)


def test_a_phone_whose_prefix_leaves_no_safe_number_has_every_digit_replaced():
    st_ = state()
    st_.forbidden.update(f"6 {a} {b}" for a in range(10) for b in range(10))  # every "6 x y"
    surrogate = REG["NUMERO_TELEFONO"].generate("6 1 2", "NUMERO_TELEFONO", 0, st_)
    assert surrogate.fallback == "anywhere" and not surrogate.text.startswith("6")


def test_text_filed_as_an_ip_address_is_scrambled_whole():
    new = REG["DIREC_PROT_INTERNET"].generate("Juan Pérez", "DIREC_PROT_INTERNET", 0, state()).text
    assert "Juan" not in new and "Pérez" not in new and len(new) == len("Juan Pérez")
