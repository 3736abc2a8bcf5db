"""E-mails follow the surrogate name and keep public providers; URLs and IPs keep their shape."""

from __future__ import annotations

import ipaddress
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.langpack import PackError, _load_surrogate
from crfdeid.resources import data_dir
from crfdeid.surrogates import build_registry, fold, surrogate_data
from crfdeid.surrogates.base import LETTERS
from crfdeid.surrogates.vocabulary import invented_words, pack_vocabulary

from .surrogate_kit import new_texts, run, state

DATA = surrogate_data("es")
REG = build_registry(DATA)
VOCAB = pack_vocabulary("es")


def real_local_part(local: str) -> bool:
    """Every letter run of a local part is pack words with at most a few initials (no original
    word excuses anything here)."""
    return all(VOCAB.glued(run) for run in LETTERS.findall(local))


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


@pytest.mark.parametrize("original", ["10.52.7.31", "192.168.10.24", "172.20.3.118", "83.57.190.12",
                                      "8.8.4.4"])
def test_an_ip_address_keeps_its_octets_digits_and_a_private_one_stays_private(original):
    # an access log's columns stay aligned, a workstation stays on the hospital's network (the
    # sixteenth set written blind: "10.52.7.31" had become "96.235.76.46", the log's columns shifted)
    for seed in range(20):
        new = REG["DIREC_PROT_INTERNET"].generate(original, "DIREC_PROT_INTERNET", 0, state(seed=seed)).text
        assert new != original and [len(o) for o in new.split(".")] == [len(o) for o in original.split(".")]
        assert ipaddress.ip_address(new).is_private == ipaddress.ip_address(original).is_private, new


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


def test_a_number_dictated_in_words_is_another_in_words():
    # the twelfth set written blind: "a su móvil seis cuatro nueve dos uno ocho tres tres cero"
    # had become letters scrambled ("pbnc lptjog …")
    text = "seis cuatro nueve dos uno ocho tres tres cero"
    names = ["cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve"]
    digit = {w: str(i) for i, w in enumerate(names)}
    for seed in range(5):
        new = REG["NUMERO_TELEFONO"].generate(text, "NUMERO_TELEFONO", 0, state(text, seed)).text
        words = new.split()
        assert len(words) == 9 and all(w in digit for w in words) and new != text, new
        assert words[0] == "seis"  # a mobile stays a mobile
    # as its digits would be, the same number in digits elsewhere the same surrogate
    st_ = state(text, 2)
    spoken = REG["NUMERO_TELEFONO"].generate(text, "NUMERO_TELEFONO", 0, st_).text
    written = REG["NUMERO_TELEFONO"].generate("649218330", "NUMERO_TELEFONO", 0, st_).text
    assert "".join(digit[w] for w in spoken.split()) == written


def test_text_filed_as_an_ip_address_is_replaced_whole_with_real_words():
    new = REG["DIREC_PROT_INTERNET"].generate("Juan Pérez", "DIREC_PROT_INTERNET", 0, state()).text
    assert "Juan" not in new and "Pérez" not in new
    assert all(w in surrogate_data("es").domain_words for w in fold(new).split())


def test_letters_of_a_local_part_no_name_explains_become_a_name_not_random_letters():
    # dev, before: "rauluidgfv@…", "sancheztgbcl@…" (the name rebuilt, the rest random letters)
    text = "Dr. Raúl Sánchez Ortega. Correo: rauluidgfv@hotmail.com; sanchezrtgb@hotmail.com"
    result = run(
        text,
        ("NOMBRE_PERSONAL_SANITARIO", "Raúl Sánchez Ortega"),
        ("CORREO_ELECTRONICO", "rauluidgfv@hotmail.com"),
        ("CORREO_ELECTRONICO", "sanchezrtgb@hotmail.com"),
    )
    name, first, second = new_texts(result)
    given_name, surname = (fold(w) for w in name.split()[:2])
    local1, local2 = first.split("@")[0], second.split("@")[0]
    assert local1.startswith(given_name) and local2.startswith(surname)
    assert real_local_part(local1) and real_local_part(local2)
    for original, new in (("rauluidgfv@hotmail.com", first), ("sanchezrtgb@hotmail.com", second)):
        assert invented_words(original, new, "CORREO_ELECTRONICO", VOCAB) == []


@pytest.mark.parametrize(
    "local, pattern",
    [
        ("anab_j_r", r"[a-z]{3,}_[a-z]_[a-z]"),  # initials stay initials
        ("lucia31_07", r"[a-z]{3,}\d\d_\d\d"),  # digits stay digits, in place
        ("mjl.robles.ferrer", r"[a-z]{3,}\.[a-z]{3,}\.[a-z]{3,}"),
        ("jm.arenas", r"[a-z]{2}\.[a-z]{3,}"),
    ],
)
def test_local_parts_keep_their_structure(local, pattern):
    new = REG["CORREO_ELECTRONICO"].generate(f"{local}@gmail.com", "CORREO_ELECTRONICO", 0, state()).text
    new_local = new.split("@")[0]
    assert re.fullmatch(pattern, new_local) and new_local != local and real_local_part(new_local)


def test_an_address_with_a_space_after_the_at_is_still_an_address():
    # dev: an address with a space after its "@" was not read as one and scrambled whole
    text = "lucia.ferrer@ saludcastilla.es"
    new = REG["CORREO_ELECTRONICO"].generate(text, "CORREO_ELECTRONICO", 0, state(text)).text
    local, domain = new.split("@ ")
    assert re.fullmatch(r"[a-z]+\.[a-z]+", local) and real_local_part(local)
    assert domain.endswith(".es") and "saludcastilla" not in domain


def test_a_url_path_gets_real_words_and_digits():
    text = "http://www.clinicadental.com/casos/caso27.html"
    url = REG["URL_WEB"].generate(text, "URL_WEB", 0, state()).text
    host, path = url[len("http://www."):].split("/", 1)
    words = set(surrogate_data("es").domain_words) | {"html"}
    assert all(w in words for w in re.findall(r"[a-z]+", path)) and re.search(r"\d\d", path)
    assert "clinicadental" not in host and "casos" not in path


_PART = st.one_of(
    st.sampled_from(["maria", "garcia", "lopez", "jose", "perez", "dr", "doc", "info"]),
    st.text("abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=9),
    st.text("0123456789", min_size=1, max_size=4),
)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(_PART, st.sampled_from(["", ".", "_", "-"])), min_size=1, max_size=4))
def test_email_local_parts_contain_no_word_outside_the_pack(parts):
    local = "".join(p + sep for p, sep in parts).strip("._-") or "x"
    if not real_local_part(local):
        # more initials than words already ("drgarciadr": "dr" twice is four initials, as the
        # checker counts a 2-letter run): initials stay initials, so no word check applies
        return
    text = "Dra. María José García López, correo: " + local + "@hotmail.com"
    name = ("NOMBRE_PERSONAL_SANITARIO", "María José García López")
    result = run(text, name, ("CORREO_ELECTRONICO", local + "@hotmail.com"))
    new = new_texts(result)[1]
    if new == surrogate_data("es").neutral["email"]:  # no safe address at all ("0@…"): the class word
        return
    assert new.endswith("@hotmail.com") and real_local_part(new.split("@")[0]), new


def test_a_rebuilt_address_never_spells_a_name_of_the_note_inside_its_letters():
    # "icegar" explains no name of the note as written: its letters become drawn names, and a
    # drawn "garcia" beside a Dra. García would show her surname inside "mgarcia"
    from crfdeid.pseudonymise import Pseudonymiser
    from crfdeid.types import Document, Span

    text = "Remitido por: Dra. Irene Cebrián García. Correo electrónico: icegar@gmail.com Hospital."
    name, mail = text.index("Irene"), text.index("icegar")
    document = Document("d", text, (Span(name, name + 25, "NOMBRE_PERSONAL_SANITARIO", "gold"),
                                    Span(mail, mail + 16, "CORREO_ELECTRONICO", "gold")))
    for seed in range(60):
        result = Pseudonymiser(seed=seed).pseudonymise(document)
        local = result.text.split("electrónico: ")[1].split("@")[0]
        assert not any(word in local for word in ("garcia", "cebrian", "irene")), (seed, local)


def test_a_fixed_phone_takes_a_landline_prefix_of_the_surrogate_towns_province():
    text = "Domicilio: Teruel. Tfno: 973 252 181. Móvil: 626 331 898. Fax: 902 100 200."
    items = [("TERRITORIO", "Teruel"), ("NUMERO_TELEFONO", "973 252 181"), ("NUMERO_TELEFONO", "626 331 898"),
             ("NUMERO_FAX", "902 100 200")]
    for seed in range(6):
        town, phone, mobile, fax = new_texts(run(text, *items, seed=seed))
        codes = DATA.area_codes[DATA.capital_of.get(town) or DATA.find_town(town)[1]]
        assert any(phone.replace(" ", "").startswith(c) for c in codes), (town, phone)
        assert mobile.startswith("6") and fax.startswith("90")  # a mobile, a non-geographic number


def test_landline_prefixes_are_pack_data():
    assert DATA.area_province("976123456") == "Zaragoza" and DATA.area_province("912345678") == "Madrid"
    assert DATA.area_province("626331898") is None
    assert all(p in DATA.province_code for p in DATA.area_codes)


def test_a_fixed_phone_with_no_town_beside_it_follows_where_the_notes_towns_went():
    text = "Natural de Zaragoza." + " Sin antecedentes de interés." * 6 + "\n\nTeléfono: 976 123 456."
    for seed in range(6):
        town, phone = new_texts(run(text, ("TERRITORIO", "Zaragoza"), ("NUMERO_TELEFONO", "976 123 456"),
                                    seed=seed))
        codes = DATA.area_codes[DATA.capital_of[town]]
        assert any(phone.replace(" ", "").startswith(c) for c in codes), (town, phone)


def test_a_pack_with_landline_prefixes_that_are_not_digits_is_refused(tmp_path):
    text = (data_dir("gazetteers") / "es" / "surrogates.yaml").read_text(encoding="utf-8")
    broken = tmp_path / "surrogates.yaml"
    broken.write_text(text.replace('Teruel: ["978"]', 'Teruel: ["97x"]'), encoding="utf-8")
    with pytest.raises(PackError, match="area_codes"):
        _load_surrogate(broken)


@pytest.mark.parametrize("text, country, phone, code", [
    ("Su hermano vive en Rumanía. Tel. +40 721 345 678.", "Rumanía", "40 721 345 678", "40"),
    ("Su hija vive en Bolivia (+591 2 2441234).", "Bolivia", "591 2 2441234", "591"),
    ("Hijo en Marruecos, tfno. 00212 661 48 20 37.", "Marruecos", "00212 661 48 20 37", "212"),
])
def test_a_foreign_calling_code_follows_its_countrys_surrogate(text, country, phone, code):
    # hostile notes (2026-12-06): "+40 …" stayed beside "Ucrania", the surrogate of "Rumanía"
    for seed in range(6):
        new_country, new_phone = new_texts(run(text, ("PAIS", country), ("NUMERO_TELEFONO", phone),
                                               seed=seed))
        number = DATA.country_calling[DATA.country_code[fold(new_country)]]
        digits = new_phone.removeprefix("00")
        assert new_country != country and digits.startswith(number) and not digits.startswith(code), \
            (seed, new_country, new_phone)


def test_a_calling_code_alone_or_the_home_countrys_stays():
    text = "Móvil: +34 600 123 456. Su padre, en EE. UU.: +1 212 555 0187."
    for seed in range(4):
        spain, usa = new_texts(run(text, ("NUMERO_TELEFONO", "34 600 123 456"),
                                   ("NUMERO_TELEFONO", "1 212 555 0187"), seed=seed))
        assert spain.startswith("34 6") and usa.startswith("1 "), (spain, usa)


def test_every_country_with_a_calling_code_has_its_own():
    # a code several countries share names the most populous ("1": the United States)
    assert DATA.calling_country["1"] == "US" and DATA.calling_country["44"] == "GB"
    assert DATA.country_calling["RO"] == "40" and DATA.country_calling["UA"] == "380"
    assert len(DATA.calling_country) == len(DATA.country_calling)


def test_a_log_that_uses_every_address_of_its_small_network_still_gets_addresses():
    # 81 addresses of "192.168.d.d": every same-shape private one is taken; the review of the
    # eighteenth round found them all replaced by the neutral "dirección IP"
    st = state(seed=3)
    gen = REG["DIREC_PROT_INTERNET"]
    outs = [gen.generate(f"192.168.{a}.{b}", "DIREC_PROT_INTERNET", 0, st)
            for a in range(1, 10) for b in range(1, 10)]
    assert all(ipaddress.ip_address(o.text) for o in outs) and len({o.text for o in outs}) == 81
