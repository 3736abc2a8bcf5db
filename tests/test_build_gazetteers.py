"""scripts/build_gazetteers.py: the shipped tables are exactly what the script builds from the
sources (so nobody hand-edits derived data), and its name helpers do what they say."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import shutil
import sys
from collections import Counter
from pathlib import Path

import pytest

from crfdeid.langpack import pack_dir
from crfdeid.resources import shared_dir

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "build_gazetteers.py"


def load_script(path: Path):
    """A script of scripts/ as a module (registered, so that one build script can import another)."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def build():
    return load_script(SCRIPT)


@pytest.mark.parametrize(
    ("upper", "display"),
    [
        ("MARTINEZ", "MARTÍNEZ"),
        ("RODRIGUEZ", "RODRÍGUEZ"),
        ("VAZQUEZ", "VÁZQUEZ"),
        ("SUAREZ", "SUÁREZ"),
        ("GUTIERREZ", "GUTIÉRREZ"),
        ("LOPEZ", "LÓPEZ"),
        ("PELAEZ", "PELÁEZ"),
        ("ENRIQUEZ", "ENRÍQUEZ"),
        ("PEZ", "PEZ"),
    ],
)
def test_accent_of_ez_surnames(build, upper, display) -> None:
    assert build._accent_ez(upper) == display


def test_display_names(build) -> None:
    assert build.display_name("MARIA DEL CARMEN", {}) == "María del Carmen"
    assert build.display_name("JEREZ", {}) == "Jerez"
    assert build.display_name("GARCIA-VALDECASAS", {}) == "García-Valdecasas"


def test_uninvert_ine_articles(build) -> None:
    assert build.uninvert("Bonillo, El") == "El Bonillo"
    assert build.uninvert("Palmas de Gran Canaria, Las") == "Las Palmas de Gran Canaria"
    assert build.uninvert("Hospitalet de Llobregat, L'") == "L'Hospitalet de Llobregat"
    assert build.uninvert("Madrid") == "Madrid"


def skip_unless_recorded_packages(pack: Path) -> None:
    """Skip when an installed package differs from the version provenance.json records: its
    data, and so the tables, may differ."""
    recorded = json.loads((pack / "provenance.json").read_text(encoding="utf-8"))
    for source in recorded["sources"].values():
        package = source.get("package") if isinstance(source, dict) else None
        if package:
            name, _, version = package.partition("==")
            try:
                installed = importlib.metadata.version(name)
            except importlib.metadata.PackageNotFoundError:
                installed = None
            if installed != version:
                pytest.skip(f"the tables were built with {package} (provenance.json); installed: "
                            f"{installed}. pip install '.[test]' installs it")


def test_shipped_tables_are_exactly_what_the_script_builds(build, tmp_path: Path) -> None:
    shared = shared_dir()
    sources = shared / "sources" if shared else None
    if sources is None or not sources.is_dir():
        pytest.skip("../shared/sources not found: cannot rebuild the gazetteers")
    shipped = pack_dir("es")
    skip_unless_recorded_packages(shipped)
    out = tmp_path / "es"
    shutil.copytree(shipped, out)
    for table in out.glob("*.tsv"):
        if table.name not in ("provinces.tsv", "communities.tsv", "organisations.tsv"):  # hand-written
            table.unlink()
    assert build.main(["--sources", str(sources), "--out", str(out)]) == 0
    for built in [*sorted(out.glob("*.tsv")), out / "provenance.json"]:
        assert built.read_bytes() == (shipped / built.name).read_bytes(), (
            f"{built.name} differs from the build"
        )
    provenance = json.loads((out / "provenance.json").read_text(encoding="utf-8"))
    for name, info in provenance["outputs"].items():
        assert info["rows_written"] > 0, name
        assert all(s in provenance["sources"] for s in info["sources"])
    for source in provenance["sources"].values():
        assert source["licence"] and source["attribution"] and source["files"]


def test_other_names_of_towns_go_to_the_right_town_and_a_typo_stops_the_build(build, tmp_path: Path) -> None:
    aliases = build.load_town_aliases(pack_dir("es") / "town_aliases.yaml")
    assert aliases[("Torrent", "Valencia")] == ["Torrente"] and ("Torrent", "Girona") not in aliases
    assert aliases[("Vitoria-Gasteiz", "Álava")] == ["Vitoria", "Gasteiz"]
    rows = {(r[0], r[1]): r for r in (ln.split("\t") for ln in
            (pack_dir("es") / "municipalities.tsv").read_text(encoding="utf-8").splitlines()
            if not ln.startswith("#"))}
    assert rows[("Terrassa", "Barcelona")][3] == "Tarrasa"
    assert rows[("Torrent", "Girona")][3] == ""
    assert rows[("Villajoyosa/Vila Joiosa, la", "Alicante")][3] == "Villajoyosa|La Vila Joiosa"
    shared = shared_dir()
    if shared is None or not (shared / "sources").is_dir():
        pytest.skip("../shared/sources not found: cannot rebuild the municipalities")
    provinces = build.ProvinceIndex(build.read_tsv(pack_dir("es") / "provinces.tsv"))
    with pytest.raises(SystemExit, match="Tarrassa"):
        build.build_municipalities(shared / "sources", provinces, {("Tarrassa", "Barcelona"): ["Tarrasa"]})


def test_the_organisation_list_is_checked(build, tmp_path: Path) -> None:
    table = tmp_path / "organisations.tsv"
    shutil.copy(pack_dir("es") / "organisations.tsv", table)
    hospitals, clinical = ["Hospital Universitario La Paz"], ["PCR", "TAC"]
    stats = build.check_organisations(table, hospitals, clinical)
    assert stats["rows"] > 300 and stats["kinds"]["manufacturer"] > 100
    original = table.read_text(encoding="utf-8")
    for row, problem in [
        ("Hospital Universitario La Paz\tresearch\t\t", "is a hospital"),
        ("Servicio de Gestión\tresearch\tPCR\t", "clinical acronym"),
        ("Sermas\thealth_service\t\t", "listed twice"),
        ("Otra Cosa\tbank\t\t", "unknown kind"),
        ("Institut Català\thealth_service\tICS\t", "both matched and unmatched"),
    ]:
        table.write_text(original + row + "\n", encoding="utf-8")
        with pytest.raises(SystemExit, match=problem):
            build.check_organisations(table, hospitals, clinical)


def test_professions_carry_their_isco_group(build) -> None:
    rows = {r["masculine"]: r for r in _read_professions()}
    assert rows["carpintero"]["isco"].startswith("71")  # ESCO: building frame workers
    assert rows["administrador"]["feminine"] == "administradora"  # MEDDOCAN pairs -or/-ora
    assert rows["presidente"]["feminine"] == "presidenta"
    assert build.dominant_group(Counter({"7233": 5, "7231": 4, "7412": 1})) == "7233"
    assert build.dominant_group(Counter({"5120": 3, "4312": 3, "9112": 2})) == ""  # spread: none


def _read_professions() -> list[dict[str, str]]:
    lines = [ln for ln in (pack_dir("es") / "professions.tsv").read_text(encoding="utf-8").splitlines()
             if not ln.startswith("#")]
    header = lines[0].split("\t")
    # a row may leave its last cells out, as the pack's reader allows (the language of a regional
    # form is written only for those forms)
    rows = [ln.split("\t") for ln in lines[1:]]
    assert all(len(cells) <= len(header) for cells in rows)
    return [dict(zip(header, cells + [""] * (len(header) - len(cells)), strict=True)) for cells in rows]


@pytest.mark.parametrize(
    ("catalan", "spanish"),
    [
        ("València", "Valencia"),  # penultimate stress, ends in a vowel: no accent in Spanish
        ("Vallès", "Vallés"),
        ("Barberà", "Barberá"),
        ("Besòs", "Besós"),
        ("Òdena", "Ódena"),
        ("Monòver", "Monóver"),
        ("Eulàlia", "Eulalia"),
        ("Madrid", "Madrid"),
        ("Martí", "Martí"),
    ],
)
def test_catalan_grave_accents_are_written_as_spanish_writes_them(build, catalan, spanish) -> None:
    assert build.castilian_accent(catalan) == spanish


def test_town_names_keep_their_letters(build) -> None:
    assert build.castilian_town("Barberà del Vallès") == "Barberá del Vallés"
    assert build.castilian_town("Vall d'Alcalà, la") == "Vall d'Alcalá, la"
    for name in ("Barberà del Vallès", "L'Hospitalet de Llobregat", "València"):
        assert build.fold(build.castilian_town(name)) == build.fold(name)  # matching unchanged


def test_name_speller_asks_its_sources_in_turn(build) -> None:
    frequencies = {
        "avila": {"avila": 1e-6, "ávila": 5e-6},
        "vera": {"vera": 1e-5, "verá": 2e-5},
        "paso": {"paso": 2e-4, "pasó": 3e-4},
        "pena": {"pena": 1e-4, "peña": 3e-5},
        "oscar": {"oscar": 3e-5, "óscar": 7e-6},
    }
    speller = build.NameSpeller({"oscar": "Óscar"}, ["Vera", "Expósito"], {}, frequencies)
    assert speller.name("AVILA") == "Ávila"  # wordfreq: the accented spelling is the usual one
    assert speller.name("VERA") == "Vera"  # a name list wins over the verb "verá"
    assert speller.name("PASO") == "Paso"  # a verb form ("pasó", pasar) gives no accent
    assert speller.name("PENA") == "Pena"  # ñ is a letter, not an accent
    assert speller.name("EXPOSITO") == "Expósito"
    assert speller.name("OSCAR") == "Óscar"  # the hand list first
    assert speller.name("MARIA DEL CARMEN") == "Maria del Carmen"


def test_shipped_names_and_towns_carry_their_spanish_accents() -> None:
    def first_column(name: str) -> set[str]:
        lines = (pack_dir("es") / name).read_text(encoding="utf-8").splitlines()
        return {ln.split("\t")[0] for ln in lines if not ln.startswith("#")}

    surnames, given = first_column("surnames.tsv"), first_column("given_names.tsv")
    towns = first_column("municipalities.tsv")
    for word in ("Ávila", "Alcalá", "Rabadán", "Expósito", "Millán", "Galán", "Sáenz", "Cortés", "Vera"):
        assert word in surnames, word
    for word in ("Óscar", "Luis", "Julia", "Ángel"):
        assert word in given, word
    assert {"Valencia", "Barberá del Vallés", "Sant Adriá de Besós"} <= towns
    assert not [t for t in towns if any(c in t for c in "àèòÀÈÒ")]  # Spanish has no grave accent


@pytest.mark.parametrize(
    ("name", "forms"),
    [
        ("Alicante/Alacant", ["Alicante", "Alacant"]),
        ("Campello, el", ["El Campello"]),
        ("Alfás del Pi, l'", ["L'Alfás del Pi"]),
        ("Villajoyosa/Vila Joiosa, la", ["Villajoyosa", "La Vila Joiosa"]),
        ("Pinós, el/Pinoso", ["El Pinós", "Pinoso"]),
        ("Náquera/Náquera", ["Náquera"]),
        ("Cruïlles, Monells i Sant Sadurní de l'Heura", []),  # a comma, no article after it
        ("Madrid", []),
    ],
)
def test_written_forms_of_a_register_name(build, name: str, forms: list[str]) -> None:
    assert build.written_forms(name) == forms


def test_titlecase_keeps_a_numeral_after_a_name(build) -> None:
    # "Hospital Universitari Joan Xxiii de Tarragona" had been drawn as a surrogate
    assert build.titlecase("HOSPITAL UNIVERSITARI JOAN XXIII DE TARRAGONA") == (
        "Hospital Universitari Joan XXIII de Tarragona")
    assert build.titlecase("CENTRO DE SALUD ISABEL II") == "Centro de Salud Isabel II"
    assert build.titlecase("CENTRO MIXTO CIVIL") == "Centro Mixto Civil"  # words, no numerals
    # the catalogue spells some numerals letter by letter; a last "I" is no Catalan "i" (and)
    assert build.titlecase("LA BAÑEZA I I") == "La Bañeza II"
    assert build.titlecase("ALZIRA I") == "Alzira I"
    assert build.titlecase("SANT JOAN I MARTÍ") == "Sant Joan i Martí"


def test_titlecase_gives_an_article_that_starts_a_name_its_capital(build) -> None:
    towns = frozenset({"a coruna", "alcala la real", "la rambla"})
    assert build.titlecase("COMPLEXO HOSPITALARIO UNIVERSITARIO A CORUÑA", towns) == (
        "Complexo Hospitalario Universitario A Coruña"
    )
    assert (
        build.titlecase("HOSPITAL UNIVERSITARIO Y POLITECNICO LA FE")
        == "Hospital Universitario y Politecnico La Fe"
    )
    assert build.titlecase("HOSPITAL DE LA SANTA CREU") == "Hospital de la Santa Creu"  # after "de": lower
    assert build.titlecase("ALCALA LA REAL", towns) == "Alcala la Real"  # the town's own spelling
    assert build.titlecase("CARRETERA A ITERO", towns) == "Carretera a Itero"  # "a", a preposition
    assert build.titlecase("HOSPITAL UNIVERSITARI VALL D'HEBRON") == "Hospital Universitari Vall d'Hebron"
    assert build.titlecase("L'HOSPITALET") == "L'Hospitalet"


def test_foreign_places_are_of_other_countries_with_their_source() -> None:
    pack = pack_dir("es")
    lines = [
        ln
        for ln in (pack / "foreign_places.tsv").read_text(encoding="utf-8").splitlines()
        if not ln.startswith("#")
    ]
    header, rows = (
        lines[0].split("\t"),
        [dict(zip(lines[0].split("\t"), ln.split("\t"), strict=True)) for ln in lines[1:]],
    )
    assert header == ["name", "country", "kind", "source"]
    codes = {
        ln.split("\t")[0] for ln in (pack / "countries.tsv").read_text(encoding="utf-8").splitlines()[4:]
    }
    assert rows and all(r["country"] in codes and r["country"] != "ES" for r in rows)
    assert {r["kind"] for r in rows} == {"city", "region"}
    assert {r["source"].split(":")[0] for r in rows} == {"cldr", "faker", "geonames"}
    names = {(r["name"], r["country"]) for r in rows}
    assert {("Londres", "GB"), ("La Habana", "CU"), ("Casablanca", "MA"), ("Caracas", "VE")} <= names
    assert ("Guatemala", "GT") not in names  # a city named as its country: the country is meant
    # GeoNames: the patients' own towns (the eighth set written blind left them in clear), a
    # capital that is also a verb form, a Spanish spelling among the unlabelled alternate names
    by_name = {(r["name"], r["country"]): r["source"] for r in rows}
    assert by_name[("Azogues", "EC")] == by_name[("Quito", "EC")] == by_name[("Nador", "MA")] == "geonames"
    assert by_name[("Tetuán", "MA")] == "geonames:alias"
    # not a common word ("Rincón" of M'diq), nor a name a thousand Spaniards bear ("Victoria" of
    # Hong Kong: "llamó a Victoria" would name a place)
    assert ("Rincón", "MA") not in names and ("Victoria", "HK") not in names
    provenance = json.loads((pack / "provenance.json").read_text(encoding="utf-8"))
    assert provenance["outputs"]["foreign_places.tsv"]["sources"] == [
        "cldr_cities",
        "faker_address",
        "geonames_cities",
        "wordfreq_es",
        "cldr_countries",
    ]
    assert provenance["sources"]["cldr_cities"]["package"].startswith("babel==")


def test_regional_occupations_name_their_language_and_are_never_drawn() -> None:
    # the fourth and fifth sets written blind: "Llaurador" is found; "albañil" had become "fuster"
    rows = {r["masculine"]: r for r in _read_professions()}
    assert rows["llaurador"]["language"] == "ca" and rows["mariñeiro"]["language"] == "gl"
    assert rows["carpintero"]["language"] == ""
    from crfdeid.surrogates import surrogate_data

    data = surrogate_data("es")
    drawn = {form for pair in data.professions for form in pair}
    assert "llaurador" not in drawn and "fuster" not in drawn and "carpintero" in drawn
    assert "llaurador" in data.profession_lookup  # still found in notes
