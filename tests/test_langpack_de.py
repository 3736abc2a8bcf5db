"""The German language pack: the same lists as the Spanish one, loaded strictly, with the fields
later stages need, and hand-written closed lists that say what they should."""

from __future__ import annotations

import pytest
import yaml

from crfdeid.gazetteer import GazetteerMatcher
from crfdeid.langpack import fold, load_pack, pack_dir
from crfdeid.tokenize import tokenize


@pytest.fixture(scope="module")
def pack():
    return load_pack("de")


def _manifest(language: str) -> dict:
    return yaml.safe_load((pack_dir(language) / "pack.yaml").read_text(encoding="utf-8"))


def test_same_lists_as_the_spanish_pack() -> None:
    es, de = _manifest("es"), _manifest("de")
    # every list the matcher uses; lists only the surrogates read (match: false, e.g. the Spanish
    # pack's foreign_place) may be missing: the generators fall back without them
    matched = {name for name, entry in es["gazetteers"].items() if entry.get("match", True)}
    assert matched <= set(de["gazetteers"])
    assert set(es["closed_lists"]) == set(de["closed_lists"])
    assert de["language"] == "de" and de["rules"] == "rules/de"


def test_pack_has_every_list_with_plausible_sizes(pack) -> None:
    sizes = {name: len(t) for name, t in pack.tables.items()}
    assert sizes["given_name"] > 2_500
    assert sizes["surname"] > 1_200
    assert sizes["municipality"] > 10_000
    assert sizes["province"] == 16 + 9 + 26
    assert sizes["community"] == 3
    assert sizes["country"] > 240
    assert sizes["hospital"] > 50
    assert sizes["profession"] > 1_500
    assert all(size > 0 for size in sizes.values())


def test_given_names_by_sex_and_surnames(pack) -> None:
    rows = {r["name"]: r for r in pack.table("given_name").rows}
    assert int(rows["Jürgen"]["male"]) > 0 and rows["Jürgen"]["female"] == "0"
    assert int(rows["Ursula"]["female"]) > 0 and rows["Ursula"]["male"] == "0"
    surnames = {r["name"] for r in pack.table("surname").rows}
    assert {"Müller", "Schmidt", "Huber", "Gruber"} <= surnames


def test_towns_have_state_country_and_austrian_postal_codes(pack) -> None:
    towns = {(r["name"], r["province"]): r for r in pack.table("municipality").rows}
    assert towns[("München", "Bayern")]["country"] == "Deutschland"
    assert towns[("Graz", "Steiermark")]["postal_code"] == "8010"
    assert towns[("Zürich", "Zürich")]["country"] == "Schweiz"
    assert "St. Pölten" in towns[("Sankt Pölten", "Niederösterreich")]["aliases"].split("|")
    assert "frankfurt" in {fold(e) for e in pack.table("municipality").entries}
    states = {r["name"]: r for r in pack.table("province").rows}
    assert states["Bayern"]["code"] == "DE-BY" and states["Tirol"]["community"] == "Österreich"


def test_postal_code_ranges_cover_germany_and_austria(pack) -> None:
    ranges = pack.table("postal_code").rows

    def state(code: str) -> list[str]:
        return [r["state"] for r in ranges
                if len(r["first"]) == len(code) and r["first"] <= code <= r["last"]]

    assert state("80331") == ["Bayern"] and state("1010") == ["Wien"] and state("6020") == ["Tirol"]


def test_hospitals_have_a_type_of_the_pack_and_a_known_town(pack) -> None:
    types = set(pack.facility_types)
    towns = {(fold(r["name"]), r["province"]) for r in pack.table("municipality").rows}
    for row in pack.table("hospital").rows:
        assert row["type"] in types, row
        assert (fold(row["municipality"]), row["province"]) in towns, row


def test_professions_have_both_genders(pack) -> None:
    rows = {r["masculine"]: r["feminine"] for r in pack.table("profession").rows}
    assert rows["Arzt"] == "Ärztin" and rows["Bäcker"] == "Bäckerin"
    assert rows["Bankkaufmann"] == "Bankkauffrau"
    assert "Metallbearbeitung" not in rows  # a field of work, not a person


@pytest.mark.parametrize(
    ("word", "sex", "generation"),
    [("Tochter", "f", -1), ("Söhne", "m", -1), ("Lebensgefährtin", "f", 0), ("Opa", "m", 2),
     ("Ehemann", "m", 0), ("Schwiegermutter", "f", 1), ("Enkelin", "f", -2)],
)
def test_kinship(pack, word, sex, generation) -> None:
    term = pack.kinship_term(word)
    assert term is not None and (term.sex, term.generation) == (sex, generation)
    assert pack.kinship_term("Frau").ambiguous and pack.kinship_term("Schwester").ambiguous


@pytest.mark.parametrize(
    ("form", "title", "sex"),
    [("Herr", "herr", "m"), ("Frau", "frau", "f"), ("Dr. med.", "doktor", "any"),
     ("Dr. med. dent.", "doktor", "any"), ("Prof. Dr.", "professor", "any"), ("PD", "privatdozent", "any"),
     ("Univ.-Prof.", "professor", "any"), ("Oberärztin", "oberärztin", "f"), ("CA", "chefarzt", "m")],
)
def test_honorifics(pack, form, title, sex) -> None:
    honorific = pack.honorific(form)
    assert honorific is not None and (honorific.title, honorific.sex) == (title, sex)


def test_calendar_agrees_with_cldr(pack) -> None:
    babel = pytest.importorskip("babel")
    for locale_name in ("de", "de_AT"):
        locale = babel.Locale.parse(locale_name)
        for n, month in enumerate(pack.months, 1):
            wide = locale.months["format"]["wide"][n]
            assert fold(wide) in {fold(month.name), *month.abbreviations}, (locale_name, wide)
            for width in ("abbreviated",):
                for context in ("format", "stand-alone"):
                    short = fold(locale.months[context][width][n]).rstrip(".")
                    assert short in {fold(month.name), *month.abbreviations}, (locale_name, short)
    locale = babel.Locale("de")
    assert [d.name for d in pack.weekdays] == [locale.days["format"]["wide"][n] for n in range(7)]
    for n, day in enumerate(pack.weekdays):
        assert fold(locale.days["format"]["abbreviated"][n]).rstrip(".") in day.abbreviations
    assert pack.month("Jänner").number == 1 and pack.month("Sept.").number == 9
    assert pack.month("März").number == 3 and pack.month("XII").number == 12


def test_stop_list_has_the_eponyms(pack) -> None:
    for word in ("Alzheimer", "Parkinson", "Crohn", "Hodgkin", "Basedow", "Hashimoto", "Bechterew",
                 "Wilson", "Cushing", "Addison"):
        assert pack.is_stopword(word), word
    assert not pack.is_stopword("Wittmann")


def test_street_types_and_word_classes(pack) -> None:
    assert {"straße", "weg", "platz", "allee", "gasse", "ring", "damm"} <= set(pack.street_types)
    assert "Str." in pack.street_types["straße"]
    assert pack.word_classes[fold("der")] == "DET" and pack.word_classes[fold("für")] == "ADP"
    assert pack.word_classes["null"] == "NUM"


def test_surrogate_countries_are_in_the_country_table(pack) -> None:
    names = {r["name"] for r in pack.table("country").rows}
    assert set(pack.surrogate["countries"]) <= names
    states = {r["name"] for r in pack.table("province").rows}
    assert set(pack.surrogate["capitals"]) <= states


def test_the_matcher_reads_a_german_letter(pack) -> None:
    text = ("Frau Dr. med. Anna Müller, Universitätsklinikum Heidelberg. Die Tochter lebt in Frankfurt. "
            "Morbus Crohn.")
    tokens = tokenize(text)
    tags = {t.text: set(m) for t, m in zip(tokens, GazetteerMatcher(pack).membership(tokens), strict=True)}
    assert "honorific:B" in tags["Frau"] and "given_name:B" in tags["Anna"] and "surname:B" in tags["Müller"]
    assert "hospital:B" in tags["Universitätsklinikum"] and "kinship:B" in tags["Tochter"]
    assert "municipality:B" in tags["Frankfurt"] and "stop:B" in tags["Crohn"]
    assert not any(tag.startswith("weekday") for tag in tags["Die"])


def test_organisations_match_and_surnames_stay_out(pack) -> None:
    table = pack.table("organisation")
    assert len(table) > 150 and {r["kind"] for r in table.rows} >= {"insurer", "university", "manufacturer"}
    text = ("Versichert bei der AOK; Befund des Instituts für Rechtsmedizin der Universität Leipzig. "
            "Implantat (Medtronic), Infusion (Fresenius Kabi). Herr Bayer, Frau Braun, Lilly Hartmann.")
    tokens = tokenize(text)
    found = [text[tokens[m.start].start:tokens[m.end - 1].end]
             for m in GazetteerMatcher(pack, lists=["organisation"]).match(tokens)]
    assert found == ["AOK", "Universität Leipzig", "Medtronic", "Fresenius Kabi"]
