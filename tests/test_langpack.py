"""The Spanish language pack: its lists load strictly, carry the fields later stages need, and
the hand-written closed lists say what they should."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from crfdeid.langpack import PackError, fold, load_pack, pack_dir, read_tsv


@pytest.fixture(scope="module")
def pack():
    return load_pack("es")


def test_fold_ignores_case_and_accents() -> None:
    assert fold("Cuéllar") == fold("CUELLAR") == "cuellar"
    assert fold("Núñez") == "nunez"
    assert fold("plain") == "plain"


def test_pack_has_every_list_with_plausible_sizes(pack) -> None:
    sizes = {name: len(t) for name, t in pack.tables.items()}
    assert sizes["given_name"] > 40_000
    assert sizes["surname"] > 20_000
    assert sizes["municipality"] > 8_000
    assert sizes["province"] == 52
    assert sizes["community"] == 19
    assert sizes["country"] > 200
    assert sizes["hospital"] > 500
    assert sizes["health_centre"] > 9_000
    assert sizes["profession"] > 2_000
    assert sizes["organisation"] > 300
    assert pack.language == "es" and pack.version


def test_given_names_keep_counts_by_sex(pack) -> None:
    rows = {fold(r["name"]): r for r in pack.table("given_name").rows}
    assert int(rows["antonio"]["male"]) > 100_000 and int(rows["antonio"]["female"]) == 0
    assert int(rows["carmen"]["female"]) > 100_000
    # a name borne by both sexes keeps both counts
    assert int(rows["maria"]["male"]) > 0 and int(rows["maria"]["female"]) > int(rows["maria"]["male"])
    assert rows["jose"]["name"] == "José"  # display form has its accent back


def test_surnames_have_frequency_and_accents(pack) -> None:
    rows = {fold(r["name"]): r for r in pack.table("surname").rows}
    assert rows["martinez"]["name"] == "Martínez"
    assert rows["rodriguez"]["name"] == "Rodríguez"
    assert rows["jerez"]["name"] == "Jerez"  # stressed on the last syllable: no accent
    assert int(rows["garcia"]["count"]) > int(rows["navarro"]["count"]) > 0


def test_municipalities_have_province_and_population(pack) -> None:
    rows = [r for r in pack.table("municipality").rows if r["name"] == "Castejón"]
    assert {r["province"] for r in rows} >= {"Navarra", "Cuenca"}  # same name, two provinces
    madrid = next(r for r in pack.table("municipality").rows if r["name"] == "Madrid")
    assert madrid["province"] == "Madrid" and int(madrid["population"]) > 3_000_000
    provinces = {r["name"] for r in pack.table("province").rows}
    assert all(r["province"] in provinces for r in pack.table("municipality").rows)
    assert any(r["name"] == "El Bonillo" for r in pack.table("municipality").rows)  # "Bonillo, El" uninverted


def test_provinces_carry_postal_prefix_and_community(pack) -> None:
    rows = {r["name"]: r for r in pack.table("province").rows}
    assert rows["Madrid"]["code"] == "28" and rows["Sevilla"]["community"] == "Andalucía"
    assert sorted(r["code"] for r in rows.values()) == [f"{n:02d}" for n in range(1, 53)]


def test_facilities_have_known_types(pack) -> None:
    types = set(pack.facility_types)
    for table in ("hospital", "health_centre"):
        assert {r["type"] for r in pack.table(table).rows} <= types
    assert {r["type"] for r in pack.table("health_centre").rows} == {"centro de salud", "consultorio"}


def test_organisations_have_a_kind_and_set_ambiguous_acronyms_aside(pack) -> None:
    table = pack.table("organisation")
    assert len(table) > 300 and table.match
    kinds = {r["kind"] for r in table.rows}
    assert {"health_service", "university", "research", "forensic", "emergency", "association",
            "justice", "manufacturer"} <= kinds
    rows = {r["name"]: r for r in table.rows}
    assert "SERMAS" in rows["Servicio Madrileño de Salud"]["aliases"].split("|")
    assert "ICS" in rows["Institut Català de la Salut"]["unmatched"].split("|")
    entries = {fold(e) for e in table.entries}
    # acronyms and words that in clinical text mostly mean something else are never matched
    for word in ("ICS", "SES", "SMS", "SCS", "SNS", "EMA", "CDC", "NIH", "ONCE", "Salud", "Esteve",
                 "Ferrer", "Almirall", "Dista", "Nutricia"):
        assert fold(word) not in entries, word
    clinical = {fold(a) for a in pack.surrogate["medical_acronyms"]}
    assert not entries & clinical
    hospitals = {fold(e) for e in pack.table("hospital").entries}
    assert not entries & hospitals


def test_professions_have_both_genders(pack) -> None:
    rows = {r["masculine"]: r["feminine"] for r in pack.table("profession").rows}
    assert rows["abogado"] == "abogada"
    assert any(m != f for m, f in rows.items())


@pytest.mark.parametrize(
    ("word", "sex", "generation"),
    [
        ("padre", "m", 1),
        ("madre", "f", 1),
        ("hijo", "m", -1),
        ("hija", "f", -1),
        ("hermano", "m", 0),
        ("hermana", "f", 0),
        ("abuelo", "m", 2),
        ("abuela", "f", 2),
        ("nieto", "m", -2),
        ("nieta", "f", -2),
        ("tío", "m", 1),
        ("tía", "f", 1),
        ("sobrino", "m", -1),
        ("sobrina", "f", -1),
        ("primo", "m", 0),
        ("prima", "f", 0),
        ("esposo", "m", 0),
        ("esposa", "f", 0),
        ("marido", "m", 0),
        ("mujer", "f", 0),
        ("pareja", "any", 0),
        ("suegro", "m", 1),
        ("suegra", "f", 1),
        ("yerno", "m", -1),
        ("nuera", "f", -1),
        ("cuñado", "m", 0),
        ("cuñada", "f", 0),
        ("HIJAS", "f", -1),
        ("Tia", "f", 1),
    ],
)
def test_kinship_terms_have_sex_and_generation(pack, word, sex, generation) -> None:
    term = pack.kinship_term(word)
    assert term is not None, word
    assert (term.sex, term.generation) == (sex, generation)


def test_kinship_replacements_preserving_sex_and_generation_exist(pack) -> None:
    """The pseudonymiser may swap "hija" for another term of the same sex and generation."""
    hija = pack.kinship_term("hija")
    same = {t.lemma for t in pack.kinship.values() if (t.sex, t.generation) == (hija.sex, hija.generation)}
    assert "sobrina" in same and "nieta" not in same and "madre" not in same


@pytest.mark.parametrize(
    ("form", "title", "sex"),
    [
        ("Dr.", "doctor", "m"),
        ("Dra.", "doctora", "f"),
        ("Sr.", "señor", "m"),
        ("Sra.", "señora", "f"),
        ("D.", "don", "m"),
        ("Dña.", "doña", "f"),
        ("DRA", "doctora", "f"),
    ],
)
def test_honorifics(pack, form, title, sex) -> None:
    honorific = pack.honorific(form)
    assert honorific is not None and (honorific.title, honorific.sex) == (title, sex)


def test_calendar_names_agree_with_cldr(pack) -> None:
    babel = pytest.importorskip("babel")
    locale = babel.Locale("es")
    assert [m.name for m in pack.months] == [locale.months["format"]["wide"][n] for n in range(1, 13)]
    # CLDR numbers weekdays from Monday = 0
    assert [d.name for d in pack.weekdays] == [locale.days["format"]["wide"][n] for n in range(7)]
    assert (
        pack.month("Sept.").number == 9 and pack.month("XII").number == 12 and pack.month("Marzo").number == 3
    )
    assert pack.month("lunes") is None and pack.month(".") is None and pack.month("") is None


def test_stop_list_covers_common_clinical_words_and_eponyms(pack) -> None:
    for word in ("Cabeza", "Mayor", "Lumbar", "Sala", "Parkinson", "Crohn", "Down"):
        assert pack.is_stopword(word), word
    assert not pack.is_stopword("Navarro")


def test_street_types_have_abbreviations(pack) -> None:
    assert "c/" in pack.street_types["calle"] and "avda." in pack.street_types["avenida"]
    assert "ctra." in pack.street_types["carretera"] and "pza." in pack.street_types["plaza"]


def test_word_classes(pack) -> None:
    assert pack.word_classes["el"] == "DET" and pack.word_classes["de"] == "ADP"
    assert pack.word_classes["y"] == "CCONJ" and pack.word_classes["nosotros"] == "PRON"


def test_unknown_language_is_a_clear_error() -> None:
    with pytest.raises(PackError, match="no language pack 'xx'") as err:
        load_pack("xx")
    assert "es" in str(err.value)


def test_unknown_table_is_a_clear_error(pack) -> None:
    with pytest.raises(PackError, match="no gazetteer 'nicknames'"):
        pack.table("nicknames")


def _copy_pack(tmp_path: Path) -> Path:
    target = tmp_path / "pack"
    shutil.copytree(pack_dir("es"), target)
    return target


def test_unknown_manifest_key_names_the_file(tmp_path: Path) -> None:
    root = _copy_pack(tmp_path)
    manifest = root / "pack.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "colour: blue\n", encoding="utf-8")
    with pytest.raises(PackError, match=r"unknown key.*'colour'") as err:
        load_pack(root)
    assert str(manifest) in str(err.value)


def test_malformed_table_row_names_file_and_line(tmp_path: Path) -> None:
    root = _copy_pack(tmp_path)
    table = root / "countries.tsv"
    lines = table.read_text(encoding="utf-8").splitlines()
    lines[6] = "XX\tNowhere\textra\tcells\tmore"
    table.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(PackError) as err:
        load_pack(root)
    assert f"{table}:7:" in str(err.value)


def test_kinship_with_bad_sex_is_rejected(tmp_path: Path) -> None:
    root = _copy_pack(tmp_path)
    kinship = root / "kinship.yaml"
    kinship.write_text(
        kinship.read_text(encoding="utf-8").replace("padre:      {sex: m", "padre:      {sex: x"),
        encoding="utf-8",
    )
    with pytest.raises(PackError, match="kinship 'padre': sex"):
        load_pack(root)


def test_invalid_yaml_names_the_line(tmp_path: Path) -> None:
    root = _copy_pack(tmp_path)
    (root / "honorifics.yaml").write_text("titles:\n  doctor: {sex: m\n", encoding="utf-8")
    with pytest.raises(PackError, match="invalid YAML") as err:
        load_pack(root)
    assert "honorifics.yaml:" in str(err.value)


def test_read_tsv_requires_a_header(tmp_path: Path) -> None:
    path = tmp_path / "empty.tsv"
    path.write_text("# only a comment\n", encoding="utf-8")
    with pytest.raises(PackError, match="no header"):
        read_tsv(path)


def test_yaml_booleans_in_word_lists_are_rejected(tmp_path: Path) -> None:
    """Unquoted `no` is a boolean in YAML: a word list must not silently lose it."""
    root = _copy_pack(tmp_path)
    classes = root / "word_classes.yaml"
    classes.write_text(
        classes.read_text(encoding="utf-8").replace('["no", sí,', "[no, sí,"), encoding="utf-8"
    )
    with pytest.raises(PackError, match="False is not a word") as err:
        load_pack(root)
    assert "quote the word" in str(err.value)


def test_months_of_the_co_official_languages_read_as_their_month(pack) -> None:
    babel = pytest.importorskip("babel")
    for language, region, style in (("ca", "CA", "name"), ("gl", "GL", "name"), ("eu", "EU", "short")):
        wide = babel.Locale(language).months["stand-alone"]["wide"]
        assert [m.written(style, region) for m in pack.months] == [wide[n] for n in range(1, 13)]
    # the Basque date's genitive: the nominative and "-ren" ("urria" -> "urriaren")
    assert all(m.written("name", "EU") == m.written("short", "EU") + "ren" for m in pack.months)
    assert pack.month("xaneiro").number == 1 and pack.month("urriaren").number == 10
    assert pack.month("març").number == 3 and pack.month("Outubro").number == 10
    # "març" folds to "marc": a given name is no month where only a region's forms are excluded
    assert pack.month("Marc", regional=False) is None and pack.month("marzo", regional=False).number == 3
    assert pack.month_elision == {"CA": ("de ", "d'")}
