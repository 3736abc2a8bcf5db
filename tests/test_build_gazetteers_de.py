"""scripts/build_gazetteers_de.py: the shipped German tables are exactly what the script builds
from the pinned packages (so nobody hand-edits derived data), and its helpers do what they say."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from crfdeid.langpack import pack_dir

from .test_build_gazetteers import load_script, skip_unless_recorded_packages

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "build_gazetteers_de.py"


@pytest.fixture(scope="module")
def build():
    return load_script(SCRIPT)


def test_shipped_german_tables_are_exactly_what_the_script_builds(build, tmp_path: Path) -> None:
    shipped = pack_dir("de")
    skip_unless_recorded_packages(shipped)
    recorded = json.loads((shipped / "provenance.json").read_text(encoding="utf-8"))
    out = tmp_path / "de"
    shutil.copytree(shipped, out)
    for name in recorded["outputs"]:
        (out / name).unlink()
    (out / "provenance.json").unlink()
    assert build.main(["--out", str(out)]) == 0
    for name in [*recorded["outputs"], "provenance.json"]:
        assert (out / name).read_bytes() == (shipped / name).read_bytes(), f"{name} differs from the build"
    for source in recorded["sources"].values():
        assert source["licence"] and source["attribution"] and source["files"] and source["package"]


def test_hand_tables_are_not_outputs_of_the_build() -> None:
    recorded = json.loads((pack_dir("de") / "provenance.json").read_text(encoding="utf-8"))
    hand = {"states.tsv", "communities.tsv", "hospitals.tsv", "health_centres.tsv", "streets.tsv",
            "territories.tsv", "organisations.tsv"}
    assert not hand & set(recorded["outputs"])
    assert {"given_names.tsv", "surnames.tsv", "municipalities.tsv", "countries.tsv",
            "professions.tsv", "postal_codes.tsv"} == set(recorded["outputs"])


@pytest.mark.parametrize(
    ("masculine", "feminine"),
    [("Bankkaufmann", "Bankkauffrau"), ("Beamter", "Beamtin"), ("Bäcker", "Bäckerin")],
)
def test_regular_feminine_of_a_job(build, masculine, feminine) -> None:
    assert build.feminine_of(masculine) == feminine


def test_town_aliases(build) -> None:
    assert build.town_aliases("Sankt Pölten", "Sankt Pölten", 55_000) == ["St. Pölten"]
    assert build.town_aliases("Frankfurt am Main", "Frankfurt am Main", 650_000) == ["Frankfurt"]
    assert build.town_aliases("Halle (Saale)", "Halle (Saale)", 237_000) == ["Halle"]
    assert build.town_aliases("Wien", "Vienna", 1_700_000) == ["Vienna"]
    small = "Neustadt an der Aisch"  # too small for its bare name: there are many Neustadts
    assert build.town_aliases(small, small, 12_000) == []
