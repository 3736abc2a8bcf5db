"""scripts/build_gazetteers.py: the shipped tables are exactly what the script builds from the
sources (so nobody hand-edits derived data), and its name helpers do what they say."""

from __future__ import annotations

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


@pytest.fixture(scope="module")
def build():
    spec = importlib.util.spec_from_file_location("build_gazetteers", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_gazetteers"] = module
    spec.loader.exec_module(module)
    return module


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


def test_shipped_tables_are_exactly_what_the_script_builds(build, tmp_path: Path) -> None:
    shared = shared_dir()
    sources = shared / "sources" if shared else None
    if sources is None or not sources.is_dir():
        pytest.skip("../shared/sources not found: cannot rebuild the gazetteers")
    shipped = pack_dir("es")
    out = tmp_path / "es"
    shutil.copytree(shipped, out)
    for table in out.glob("*.tsv"):
        if table.name not in ("provinces.tsv", "communities.tsv"):
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
    return [dict(zip(header, ln.split("\t"), strict=True)) for ln in lines[1:]]
