"""Places stay in their province; postal codes agree with their town; streets and facilities
keep their type; countries stay countries."""

from __future__ import annotations

import re

from crfdeid.langpack import fold
from crfdeid.surrogates import build_registry, surrogate_data, too_close

from .surrogate_kit import new_texts, run, state

DATA = surrogate_data("es")
REG = build_registry(DATA)
T = "TERRITORIO"


def test_towns_stay_in_their_province_and_postal_codes_agree():
    for seed in range(8):
        text = "Domicilio: CP 50017 Zaragoza. Vive en Calatayud. CP: 28029."
        town, other, code, code2 = None, None, None, None
        result = run(text, (T, "50017"), (T, "Zaragoza"), (T, "Calatayud"), (T, "28029"), seed=seed)
        code, town, other, code2 = new_texts(result)
        assert DATA.find_town(town)[1] == "Zaragoza" and DATA.find_town(other)[1] == "Zaragoza"
        assert town != "Zaragoza" and other != "Calatayud"
        assert code.startswith("50") and code2.startswith("28") and code != "50017"
        capital = town == DATA.capitals["Zaragoza"]
        assert (code[2] == "0") == capital  # 500xx is the capital's, 50[1-9]xx another town's


def test_the_same_town_is_the_same_surrogate_and_case_is_kept():
    result = run("ZARAGOZA. Vive en Zaragoza.", (T, "ZARAGOZA"), (T, "Zaragoza"))
    upper, title = new_texts(result)
    assert upper == title.upper()


def test_provinces_and_communities():
    province = REG[T].generate("Guadalajara", T, 0, state("Guadalajara")).text
    assert DATA.province_community.get(province) == "Castilla-La Mancha" or DATA.find_town(province)
    community = REG[T].generate("Andalucía", T, 0, state("Andalucía")).text
    assert community in DATA.communities and community != "Andalucía"


def test_streets_keep_type_spelling_and_shape():
    for seed in range(10):
        text = "c/ del Abedul 5-7, 2º dcha"
        new = REG["CALLE"].generate(text, "CALLE", 0, state(text, seed)).text
        m = re.fullmatch(r"c/ (de|del|de la|de las|de los) (.+) (\d)-(\d+), (\d)º dcha", new)
        assert m, new
        assert int(m[4]) - int(m[3]) == 2 and not too_close(new, text)
    new = REG["CALLE"].generate("Avda. Gaspar Aguilar, 90", "CALLE", 0, state()).text
    assert re.fullmatch(r"Avda\. [^\d,]+, \d\d", new) and "Gaspar" not in new


def test_facilities_keep_their_type():
    for text in (
        "Hospital Universitario Miguel Servet",
        "Complejo Hospitalario de Navarra",
        "Hospital General",
    ):
        new = REG["HOSPITAL"].generate(text, "HOSPITAL", 0, state(text)).text
        gen = REG["HOSPITAL"]
        assert gen.facility_type(new)[1] == gen.facility_type(text)[1] and new != text
    new = REG["CENTRO_SALUD"].generate("Centro de Salud Delicias Sur", "CENTRO_SALUD", 0, state()).text
    assert new.startswith("Centro de Salud ") and "Delicias" not in new
    assert REG["HOSPITAL"].generate("HUMS", "HOSPITAL", 0, state()).text.isupper()


def test_countries_and_institutions():
    country = REG["PAIS"].generate("España", "PAIS", 0, state()).text
    assert fold(country) in DATA.country_lookup and country != "España"
    inst = REG["INSTITUCION"].generate("Universidad de Valencia", "INSTITUCION", 0, state()).text
    assert inst.startswith("Universidad de ") and "Valencia" not in inst
    assert re.fullmatch(r"[A-Z]{3}", REG["INSTITUCION"].generate("MSD", "INSTITUCION", 0, state()).text)


def test_pack_countries_are_in_the_country_table():
    assert all(fold(c) in DATA.country_lookup for c in DATA.extra["countries"])
