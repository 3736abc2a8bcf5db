"""`crfdeid pack check DIR`: the shipped packs pass, and each kind of breakage in a copy is
reported by name with exit status 1."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from crfdeid.cli import main
from crfdeid.langpack import pack_dir
from crfdeid.packcheck import ERROR, check_pack


def run(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


@pytest.mark.parametrize("language", ["es", "de"])
def test_shipped_packs_pass(capsys, language: str) -> None:
    code, out = run(capsys, "pack", "check", str(pack_dir(language)))
    assert code == 0, out
    assert "0 error(s)" in out and "ERROR" not in out
    assert "rules (" in out and "all pass" in out  # the manifest's rule pack is checked too
    assert "12 months, 7 weekdays" in out


def test_json_format(capsys) -> None:
    code, out = run(capsys, "pack", "check", str(pack_dir("de")), "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["ok"] is True
    assert {c["name"] for c in data["checks"]} >= {"manifest", "provenance.json", "pack loads"}


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    copy = tmp_path / "de"
    shutil.copytree(pack_dir("de"), copy)
    return copy


def _errors(folder: Path, rules: Path | None = None) -> dict[str, str]:
    return {c.name: c.detail for c in check_pack(folder, rules=rules) if c.status == ERROR}


def test_a_missing_table_an_empty_list_and_a_row_given_twice(broken: Path) -> None:
    (broken / "territories.tsv").unlink()
    streets = broken / "streets.tsv"
    streets.write_text(streets.read_text(encoding="utf-8") + "Hauptstraße\tstraße\n", encoding="utf-8")
    (broken / "health_centres.tsv").write_text("# nothing\nname\ttype\tmunicipality\tprovince\n",
                                               encoding="utf-8")
    errors = _errors(broken, rules=Path("rules/de"))
    assert "gazetteer table not found" in errors["table territory"]
    assert "given twice" in errors["table street (streets.tsv)"]
    assert "empty" in errors["table health_centre (health_centres.tsv)"]
    assert "pack loads" in errors  # the engine would refuse it too


def test_a_bad_column_a_long_row_and_a_hand_edited_table(broken: Path) -> None:
    manifest = broken / "pack.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("column: masculine", "column: male"),
                        encoding="utf-8")
    countries = broken / "countries.tsv"
    countries.write_text(countries.read_text(encoding="utf-8") + "XY\tNirgendland\textra\n", encoding="utf-8")
    errors = _errors(broken, rules=Path("rules/de"))
    assert "'male' is not a column" in errors["table profession"]
    assert "3 cells, the header has 2" in errors["table country"]
    surnames = broken / "surnames.tsv"
    countries.write_text(countries.read_text(encoding="utf-8").rsplit("XY", 1)[0], encoding="utf-8")
    surnames.write_text(surnames.read_text(encoding="utf-8") + "Neuname\t1\tDE\n", encoding="utf-8")
    assert "provenance says" in _errors(broken, rules=Path("rules/de"))["provenance.json"]


def test_an_incomplete_calendar_and_an_unknown_manifest_key(broken: Path, capsys) -> None:
    calendar = broken / "calendar.yaml"
    lines = [ln for ln in calendar.read_text(encoding="utf-8").splitlines() if "Dezember" not in ln]
    calendar.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out = run(capsys, "pack", "check", str(broken), "--rules", "rules/de")
    assert code == 1 and "expected numbers 1..12" in out
    manifest = broken / "pack.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "colour: blue\n", encoding="utf-8")
    code, out = run(capsys, "pack", "check", str(broken))
    assert code == 1 and "unknown key(s) 'colour'" in out


def test_failing_rule_examples(broken: Path, tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    shutil.copytree("rules/de", rules)
    ages = rules / "ages.yaml"
    ages.write_text(ages.read_text(encoding="utf-8").replace('phi: "49 J."', 'phi: "49"'), encoding="utf-8")
    assert "1 failed" in _errors(broken, rules=rules)[f"rules ({rules})"]


def test_not_a_pack_folder_is_exit_2(capsys, tmp_path: Path) -> None:
    code = main(["pack", "check", str(tmp_path)])
    assert code == 2 and "no pack.yaml" in capsys.readouterr().err
