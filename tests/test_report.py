"""The run report (``deidentify --report``): what it shows, what it never shows, and that it
changes nothing else.

The notes are the example notes; a ``Scored`` detector returns their gold spans with made-up CRF
scores (no model to load), so the lowest-confidence table has something to sort.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from crfdeid.batch import BatchOptions, run_batch
from crfdeid.cli import main
from crfdeid.deidentify import Deidentifier, DeidentifierSpec
from crfdeid.errors import OutputError
from crfdeid.io.brat import read_brat
from crfdeid.pipeline import Detection
from crfdeid.rules import RuleTimeout
from crfdeid.types import Document

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "notes"
SPEC = DeidentifierSpec(rules_only=True, seed=3)


class Scored:
    """The gold spans of the example notes as CRF spans with scores; a rule timeout in one note."""

    name = "scored"

    def __init__(self, timeout_in: str | None = None) -> None:
        self.gold = {p.stem: read_brat(p).spans for p in EXAMPLES.glob("*.txt")}
        self.timeout_in = timeout_in

    def run(self, document: Document) -> Detection:
        spans = tuple(replace(s, source="crf", score=round(0.3 + 0.7 * ((s.start * 7919) % 100) / 100, 3))
                      for s in self.gold.get(document.id.rpartition("/")[2], ()))
        timeouts = ()
        if self.timeout_in and document.id.endswith(self.timeout_in):
            timeouts = (RuleTimeout("phone-labelled", document.id, 0.5, 10, 90),)
        return Detection(document.id, spans, timeouts)

    def detect(self, document: Document) -> list:
        return list(self.run(document).spans)


def notes(tmp_path: Path) -> Path:
    src = tmp_path / "in"
    src.mkdir()
    for path in EXAMPLES.glob("*.txt"):
        shutil.copy(path, src / path.name)
    return src


def run(src: Path, out: Path, report: Path | None, *, originals: bool = True, timeout_in: str | None = None,
        **kwargs):
    options = BatchOptions(out, report=report, report_originals=originals, **kwargs)
    return run_batch([src], SPEC, options, deidentifier=Deidentifier(Scored(timeout_in), seed=3))


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def originals_of(src: Path) -> list[str]:
    """The PHI strings of the example notes (their gold spans)."""
    documents = [read_brat(EXAMPLES / p.name) for p in src.glob("*.txt")]
    return [d.span_text(s) for d in documents for s in d.spans]


def test_the_report_changes_no_other_output(tmp_path):
    src = notes(tmp_path)
    run(src, tmp_path / "plain", None)
    summary = run(src, tmp_path / "reported", tmp_path / "private" / "run.html")
    assert summary.exit_status == 0
    assert tree(tmp_path / "plain") == tree(tmp_path / "reported")


def test_the_report_is_one_self_contained_private_file_with_every_section(tmp_path):
    src, report = notes(tmp_path), tmp_path / "private" / "run.html"
    run(src, tmp_path / "out", report, timeout_in="nota-002")
    assert os.stat(report).st_mode & 0o777 == 0o600
    assert [p.name for p in report.parent.iterdir()] == ["run.html"]  # no temporary file left
    page = report.read_text(encoding="utf-8")
    assert "This report contains PHI" in page
    for section in ("Spans per label and strategy", "Lowest-confidence spans", "Rule timeouts", "Leftovers",
                    "Held back", "Failures", "Notes (3)"):
        assert section in page
    assert not re.search(r"""(src|href)=["']?(https?:|//)""", page) and "<link" not in page
    assert "default-src 'none'" in page  # the page may load nothing, even if a note asked it to
    for name in ("nota-001", "nota-002", "nota-003"):
        assert f">{name}</span>" in page
    assert "Ferrer Galindo" in page  # the original view
    timeouts = page[page.index("<h2>Rule timeouts"):page.index("<h2>Leftovers")]
    assert "nota-002" in timeouts and "phone-labelled" in timeouts and "10–90" in timeouts


def test_the_lowest_scored_spans_come_first_and_link_to_their_span(tmp_path):
    src, report = notes(tmp_path), tmp_path / "run.html"
    run(src, tmp_path / "out", report)
    page = report.read_text(encoding="utf-8")
    table = page[page.index("<h2>Lowest-confidence spans"):page.index("<h2>Rule timeouts")]
    scores = [float(s) for s in re.findall(r'<td class="n">(0\.\d+)</td>', table)]
    assert scores and scores == sorted(scores)
    scored = [round(0.3 + 0.7 * ((s.start * 7919) % 100) / 100, 3) for p in src.glob("*.txt")
              for s in read_brat(EXAMPLES / p.name).spans]
    assert scores[0] == min(scored) and len(scores) == min(len(scored), 100)
    for anchor in re.findall(r'href="#(n\d+-[do]\d+)"', table):
        assert f'id="{anchor}"' in page


def test_without_originals_no_original_string_is_in_the_report(tmp_path):
    src, report = notes(tmp_path), tmp_path / "out" / "run.html"  # allowed inside OUT_DIR
    out = tmp_path / "out"
    run(src, out, report, originals=False, timeout_in="nota-002")
    page = report.read_text(encoding="utf-8")
    assert "No originals in this report" in page and "This report contains PHI" not in page
    released = "".join(p.read_text(encoding="utf-8") for p in out.glob("*.txt"))
    leaked = [s for s in originals_of(src) if len(s) > 3 and s not in released and s in page]
    assert leaked == []
    held = page[page.index('id="n1"'):page.index('id="n2"')]  # nota-002, held for its timeout
    assert "not shown in a report without originals" in held and "<pre" not in held


def test_a_report_with_originals_is_refused_inside_the_output_folder(tmp_path):
    src = notes(tmp_path)
    with pytest.raises(OutputError, match="holds the original notes"):
        run(src, tmp_path / "out", tmp_path / "out" / "run.html")
    with pytest.raises(OutputError, match="over an input"):
        run(src, tmp_path / "out", src / "nota-001.txt")


def test_hostile_note_text_is_escaped(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    (src / "evil.txt").write_text('<script>alert("x")</script><img src=http://example.invalid/x.png>\n'
                                  "NHC: 2347865.\n", encoding="utf-8")
    report = tmp_path / "run.html"
    options = BatchOptions(tmp_path / "out", report=report)
    run_batch([src], SPEC, options)
    page = report.read_text(encoding="utf-8")
    assert '<script>alert("x")' not in page and "<img src=http" not in page
    assert "&lt;script&gt;alert(" in page


def test_failures_are_listed_and_the_report_survives_a_bad_note(tmp_path):
    src = notes(tmp_path)
    (src / "roto.txt").write_bytes(b"Nombre: \xff\xfe Ana\n")
    report = tmp_path / "run.html"
    summary = run(src, tmp_path / "out", report)
    assert summary.failed == 1
    page = report.read_text(encoding="utf-8")
    failures = page[page.index("<h2>Failures"):page.index("<h2>Notes")]
    assert "roto" in failures and "cannot decode" in failures


def test_the_cli_writes_the_report_and_says_what_it_holds(tmp_path, capsys):
    src = notes(tmp_path)
    report = tmp_path / "private" / "run.html"
    status = main(["deidentify", str(src), "-o", str(tmp_path / "out"), "--rules-only", "--seed", "1",
                   "--report", str(report)])
    assert status == 0 and report.is_file()
    assert main(["deidentify", str(src), "-o", str(tmp_path / "o2"), "--rules-only", "--seed", "1",
                 "--report-no-originals"]) == 2
    assert "pass --report FILE too" in capsys.readouterr().err
    manifest = [json.loads(x) for x in (tmp_path / "out" / "manifest.jsonl").read_text().splitlines()]
    assert len(manifest) == 3
