"""Streets (``StreetGenerator`` in crfdeid/surrogates/streets.py): road codes and kilometre
points kept as structure, street names from the province of the note's surrogate town, the
towns a road is named after replaced by towns."""

from __future__ import annotations

import re

import pytest

from crfdeid.surrogates import build_registry, fold, normalise, surrogate_data
from crfdeid.surrogates.streets import _ROAD_CODE

from .surrogate_kit import new_texts, run, state

DATA = surrogate_data("es")
REG = build_registry(DATA)
T = "TERRITORIO"
NATIONAL = {fold(r) for r in DATA.national_roads}


def street(text: str, seed: int = 1) -> str:
    return REG["CALLE"].generate(text, "CALLE", 0, state(text, seed)).text


def code_in(text: str) -> re.Match:
    match = _ROAD_CODE.search(text)
    assert match, text
    return match


# --- roads: the code is structure of its own ---------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_a_national_road_becomes_another_national_road_and_its_kilometre_stays(seed):
    # issue 12: "Ctra. N-332, km 5" became "Ctra. Pozoantiguo853"
    new = street("Ctra. N-332, km 5", seed)
    m = re.fullmatch(r"Ctra\. (N-\d+), km (\d)", new)
    assert m, new
    assert fold(m[1]) in NATIONAL and m[1] != "N-332"


@pytest.mark.parametrize(
    ("original", "shape"),
    [
        ("A7, km. 187", r"A\d+, km\. \d{3}"),  # dev: no type, the code first, no hyphen kept
        ("Carretera Nacional IV, km. 665", r"Carretera Nacional (?!IV\b)[IVX]+, km\. \d{3}"),
        ("Carretera Nacional 330 km 539", r"Carretera Nacional (?!330\b)\d{3} km \d{3}"),
        ("Ctra. N-IV km 12", r"Ctra\. N-(?!IV\b)[IVX]+ km \d{2}"),
        ("Autopista AP-7, km 10", None),  # "Autopista" is no type of the pack: still a name
    ],
)
def test_road_codes_keep_their_kind(original, shape):
    for seed in range(4):
        new = street(original, seed)
        if shape:
            assert re.fullmatch(shape, new), new
        assert normalise(new) != normalise(original)


@pytest.mark.parametrize("code", ["CV-500", "M-30", "C-31", "GI-600", "M-608"])
def test_a_regional_road_keeps_its_letters_and_gets_a_number_of_as_many_digits(code):
    prefix, number = code.split("-")
    for seed in range(4):
        new = street(f"Ctra. {code}, km 41", seed)
        m = code_in(new)
        assert m["prefix"] == prefix and m["sep"] == "-" and len(m["number"]) == len(number)
        assert m["number"] != number and m["number"][0] != "0", new
        assert re.search(r", km \d\d$", new), new


def test_a_roman_regional_road_gets_another_numeral():
    for seed in range(4):
        m = code_in(street("Carretera AS-II, km 3", seed))
        assert m["prefix"] == "AS" and re.fullmatch(r"[IVX]+", m["number"]) and m["number"] != "II"


def test_a_door_that_looks_like_a_code_is_not_a_road():
    # dev: "Av. Montiboli 188 A-6" (a flat), not the A-6 motorway
    new = street("Av. Montiboli 188 A-6")
    assert re.fullmatch(r"Av\. [^\d]+ \d{3} [a-hA-H]-\d", new), new


@pytest.mark.parametrize(
    "original",
    [
        "Ctra. de Colmenar, km. 9,100",
        "Ctra. Colmenar Viejo Km 9,1",
        "Carretera de Toledo, km. 12.500",
        "Ctra. Madrid - Cartagena s/n",
        "Ctra. N-332 Valencia-Alicante, s/n",
        "Carretera de Alpedrete a Moralzarzal M-608 Km 41",
        "Carretera del Rosario S/N",
    ],
)
def test_a_road_is_named_after_other_towns(original):
    """The real forms of MEDDOCAN: the towns a road goes to become towns, its connectors,
    separators, kilometre point and "s/n" stay."""
    for seed in range(4):
        new = street(original, seed)
        assert normalise(new) != normalise(original)
        assert new.split()[0] == original.split()[0]  # the type as written
        assert ("km" in fold(new)) == ("km" in fold(original)) and ("s/n" in fold(new)) == (
            "s/n" in fold(original)
        )
        _, _, name, _ = REG["CALLE"].split(new)
        for piece in _ROAD_CODE.split(name)[::4]:  # the text between codes (4 groups a match)
            piece = re.sub(r"^(?:de|del)\s+", "", piece.strip())
            for town in filter(None, re.split(r"\s*-\s*|\s+a\s+", piece)):
                assert DATA.find_town(town), (new, town)
        originals = {fold(w) for w in re.findall(r"[^\W\d_]{4,}", original)} - {"carretera", "ctra"}
        assert not originals & {fold(w) for w in re.findall(r"[^\W\d_]+", new)}, new


def test_the_towns_of_a_road_are_two_different_towns():
    # dev, before: "Ctra. Madrid - Cartagena s/n" -> "Ctra. Sevilla - Sevilla s/n"
    for seed in range(20):
        first, second = re.fullmatch(
            r"Ctra\. (.+) - (.+) s/n", street("Ctra. Madrid - Cartagena s/n", seed)
        ).groups()
        assert first != second


def test_a_road_named_after_a_town_of_the_note_takes_that_towns_surrogate():
    text = "Domicilio: Ctra. de Toledo, km. 12.500. Localidad: Toledo."
    road, town = new_texts(run(text, ("CALLE", "Ctra. de Toledo, km. 12.500"), (T, "Toledo")))
    assert road.startswith(f"Ctra. de {town}, km. ") or road.startswith(f"Ctra. del {town[3:]}, km. ")


def test_del_before_a_town_becomes_de():
    for seed in range(6):
        new = street("Carretera del Rosario S/N", seed)
        assert re.fullmatch(r"Carretera (de (?!El )|del )\S.* S/N", new), new


# --- streets of the surrogate town's province ----------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_a_street_comes_from_the_province_of_the_surrogate_town_beside_it(seed):
    text = "Domicilio: Calle Carmen Romero, 23, 1D. Localidad/ Provincia: Utrera (Sevilla). CP: 41710."
    items = [("CALLE", "Calle Carmen Romero, 23, 1D"), (T, "Utrera"), (T, "Sevilla"), (T, "41710")]
    new_street, town, province, _ = new_texts(run(text, *items, seed=seed))
    name = re.fullmatch(r"Calle (.+), \d\d, \d[A-H]", new_street)[1]
    assert province == DATA.find_town(town)[1] != "Sevilla"
    local = DATA.streets_in.get((province, "calle"), []) + DATA.streets_in.get((province, "*"), [])
    assert name in local or re.sub(r"^(de|del|de la|de los|de las) ", "", name) in local, (name, province)


def test_without_a_town_a_street_is_one_common_to_many_provinces():
    for seed in range(8):
        name = re.fullmatch(r"Calle (.+), \d\d", street("Calle Carmen Romero, 23", seed))[1]
        assert re.sub(r"^(de|del) ", "", name) in DATA.common_streets["*"], name


def test_the_street_lists_know_their_provinces():
    assert len(DATA.streets_in) > 100 and all(len(v) > 0 for v in DATA.streets_in.values())
    assert {"Mayor", "Real"} <= set(DATA.common_streets["*"])
    names = set(DATA.streets["*"])
    # a type as the name ("Calle Plaza") or a name of the Franco regime is never drawn
    for bad in (
        "Plaza",
        "La Plaza",
        "Carretera",
        "Generalísimo",
        "General Franco",
        "Calvo Sotelo",
        "José Antonio",
    ):
        assert bad not in names, bad
    # dev: "Paseo de Mariaª Amaro", "Pso. María AuxIliadora" (typos of the source)
    assert not [n for n in names if "ª" in n or re.search(r"[a-zá-ú][A-Z]", n)]


def test_a_connector_goes_before_a_person_or_a_saint_not_before_a_single_word():
    gen = REG["CALLE"]
    assert gen.named_after("San Antonio") and gen.named_after("Blas Infante")
    assert (
        not gen.named_after("Mayor")
        and not gen.named_after("Real")
        and not gen.named_after("Virgen del Carmen")
    )
    for seed in range(10):
        new = street("Calle de Los Alisos, 10", seed)  # dev, before: "Calle de Real, 38"
        name = re.fullmatch(r"Calle (.+), \d\d", new)[1]
        assert not re.fullmatch(r"de \S+", name), new


@pytest.mark.parametrize(
    ("original", "pattern"),
    [
        ("Apartado de Correos 20134", r"Apartado de Correos \d{5}"),  # dev: became a street
        ("Apartado de correos 41", r"Apartado de correos \d\d"),
        ("Ctra. Málaga n.o 119", r"Ctra\. [^\d]+ n\.o \d{3}"),  # dev: "n.o" became "n.e"
        ("Avda. Valdecilla sn", r"Avda\. [^\d]+ sn"),  # dev: "sn" was lost
    ],
)
def test_post_office_boxes_and_number_words_stay(original, pattern):
    for seed in range(4):
        new = street(original, seed)
        assert re.fullmatch(pattern, new) and normalise(new) != normalise(original), new


# --- the real forms of the corpus -----------------------------------------------------------


def test_every_road_of_meddocan_keeps_its_structure(meddocan_dir):
    """Every CALLE span of train and dev naming a road ("Ctra", "Carretera", a code, "km"):
    the kilometre point and "s/n" stay, a code stays a code of its kind, no original word of
    four letters or more but the type survives."""
    roads = set()
    for ann in meddocan_dir.glob("*/*.ann"):
        for line in ann.read_text(encoding="utf-8").splitlines():
            parts = line.split("\t")
            if (
                len(parts) == 3
                and parts[1].startswith("CALLE ")
                and re.search(r"(?i)\bctra|\bcarretera|\bkm\b|^[A-Z]{1,2}-?\d", parts[2])
            ):
                roads.add(parts[2])
    assert len(roads) > 20
    gen = REG["CALLE"]
    structure = {"carretera", "ctra", "crta", "nacional", "nnal"}
    for original in sorted(roads):
        new = street(original)
        assert normalise(new) != normalise(original), original
        for word in ("km", "s/n"):
            assert (word in fold(new)) == (word in fold(original)), (original, new)
        kept = {fold(w) for w in re.findall(r"[^\W\d_]{4,}", original)} & {
            fold(w) for w in re.findall(r"[^\W\d_]+", new)
        }
        assert not kept - structure, (original, new)
        type_text, kind, _, _ = gen.split(original)
        if gen.is_road(kind, original[len(type_text) :]):
            old_code, new_code = _ROAD_CODE.search(original), _ROAD_CODE.search(new)
            assert (old_code is None) == (new_code is None), (original, new)
            if old_code:
                assert new_code["prefix"] == old_code["prefix"] != new_code[0] != old_code[0], (original, new)


@pytest.mark.parametrize("seed", range(5))
def test_an_ordinal_mark_typed_as_a_letter_is_kept(seed):
    # dev S0365-66912009001100005-3: "C/. Piamonte, 7, 3.o B" became "…, 6, 6.b C"
    new = street("C/. Piamonte, 7, 3.o B", seed)
    assert re.search(r", \d, \d\.o [A-H]$", new), new


@pytest.mark.parametrize("seed", range(5))
def test_catalan_floor_and_door_ordinals_keep_their_endings(seed: int) -> None:
    # a Catalan emergency discharge written blind: "C/ Major, 27, 2n 1a" had become "… 6n 4d"
    text = "C/ Major, 27, 2n 1a"
    new = REG["CALLE"].generate(text, "CALLE", 0, state(text, seed=seed)).text
    assert re.search(r", \d+, \dn \da$", new), new


@pytest.mark.parametrize("seed", range(4))
def test_a_type_written_after_the_name_stays_and_a_second_streets_type_too(seed):
    # blind set 7: "Lamuza kalea, 7" -> "Sabino Arana, 2" (the type lost), "Las Atalayas, C/ Azahar,
    # 14" -> "La Iglesia, D/ Zheng, 76" (the type's letter redrawn)
    basque = street("Lamuza kalea, 7, 4. ezk.", seed)
    assert re.fullmatch(r"[^\d,]+ kalea, \d, \d\. ezk\.", basque) and not basque.startswith("Lamuza"), basque
    assert street("Gran Vía, 12", seed).count("Vía") <= 1  # a capitalised last word is the name's
    assert re.fullmatch(r"[^,]+, C/ [^,]+, \d\d", street("Las Atalayas, C/ Azahar, 14", seed))

