"""The shipped rule packs: every example passes, lint is clean, and each rule meets the bar."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from crfdeid.cli import main
from crfdeid.rules import (
    RuleError,
    lint,
    load_rule_file,
    load_rules,
    pack_scheme,
    read_manifest,
    resolve_pack,
    run_examples,
    shipped_packs,
)

PACKS = shipped_packs()


def test_the_spanish_pack_is_shipped():
    assert "es" in PACKS


@pytest.mark.parametrize("pack", PACKS)
def test_rules_test_passes_for_every_shipped_pack(pack: str, capsys):
    code = main(["rules", "test", pack])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "0 failed" in out and "FAIL" not in out


@pytest.mark.parametrize("pack", PACKS)
def test_lint_is_clean_for_every_shipped_pack(pack: str):
    # Unit tests do not time things: the slow-pattern limit here is ten times the CLI default, so
    # only a pattern that backtracks catastrophically fails; `crfdeid rules lint` applies 20 ms.
    findings = lint(load_rules(pack), slow_seconds=0.2)
    assert [f"{f.rule.id}: {f.code}: {f.message}" for f in findings] == []


@pytest.mark.parametrize("pack", PACKS)
def test_each_rule_has_examples_a_description_and_a_label_of_its_pack_scheme(pack: str):
    scheme = pack_scheme(pack)
    for rule in load_rules(pack):
        assert len(rule.examples) >= 2 and len(rule.counter_examples) >= 1, rule.id
        assert rule.description.strip().endswith((".", ")", '"')), rule.id
        assert rule.label in scheme.labels and rule.scheme == scheme.name


@pytest.mark.parametrize("pack", PACKS)
def test_manifest_records_origin_licence_and_date(pack: str):
    manifest = read_manifest(resolve_pack(pack))
    assert {"origin", "licence", "date", "scheme"} <= set(manifest)
    assert manifest["language"] == pack


def test_the_german_pack_is_shipped_with_the_generic_scheme():
    assert "de" in PACKS
    assert read_manifest(resolve_pack("de"))["scheme"] == "generic"
    assert {r.scheme for r in load_rules("de")} == {"generic"}
    assert {r.scheme for r in load_rules("es")} == {"meddocan"}


def test_german_pack_covers_the_issue_list():
    labels = {r.label for r in load_rules("de")}
    assert {"DATE", "AGE", "SEX", "ZIP", "PHONE", "FAX", "EMAIL", "URL", "IP", "ID_CASE", "ID_PATIENT",
            "ID_INSURANCE"} <= labels
    assert {"de.kvnr", "de.postal_code", "ch.ssn"} <= {r.validator for r in load_rules("de")}


def test_a_generic_label_needs_a_pack_that_says_so(tmp_path: Path):
    rule = ("description: x\nrules:\n  - id: d\n    label: DATE\n    description: A date.\n"
            "    pattern: '\\d+'\n")
    (tmp_path / "dates.yaml").write_text(rule, encoding="utf-8")
    with pytest.raises(RuleError, match="unknown label 'DATE'; expected a label of scheme 'meddocan'"):
        load_rules(tmp_path)
    (tmp_path / "pack.yaml").write_text("name: x\nscheme: generic\n", encoding="utf-8")
    assert [r.label for r in load_rules(tmp_path)] == ["DATE"]
    assert [r.label for r in load_rule_file(tmp_path / "dates.yaml")] == ["DATE"]  # the manifest beside it
    (tmp_path / "pack.yaml").write_text("name: x\nscheme: hipaa2\n", encoding="utf-8")
    with pytest.raises(RuleError, match="no label scheme 'hipaa2'"):
        load_rules(tmp_path)


def test_spanish_pack_covers_the_issue_list():
    labels = {r.label for r in load_rules("es")}
    assert {"CORREO_ELECTRONICO", "NUMERO_TELEFONO", "NUMERO_FAX", "ID_SUJETO_ASISTENCIA",
            "ID_ASEGURAMIENTO", "ID_TITULACION_PERSONAL_SANITARIO", "ID_CONTACTO_ASISTENCIAL", "FECHAS",
            "EDAD_SUJETO_ASISTENCIA", "TERRITORIO", "URL_WEB", "DIREC_PROT_INTERNET", "INSTITUCION",
            "CENTRO_SALUD", "PROFESION", "ID_EMPLEO_PERSONAL_SANITARIO"} <= labels
    validators = {r.validator for r in load_rules("es")}
    assert {"es.dni", "es.nie", "es.nss", "es.postal_code"} <= validators


def test_the_readme_rule_example_loads_and_passes(tmp_path: Path):
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    [block] = [b for b in re.findall(r"```yaml\n(.*?)```", readme, flags=re.S) if "rules:" in b]
    (tmp_path / "records.yaml").write_text(block, encoding="utf-8")
    rules = load_rules(tmp_path / "records.yaml")
    outcomes = run_examples(rules)
    assert len(outcomes) == 3 and all(o.passed for o in outcomes)
