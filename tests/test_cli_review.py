"""crfdeid review on the command line: options, the printed URL, --export-only."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.request

import pytest

pytest.importorskip("flask", reason="crfdeid review needs Flask (pip install 'crfdeid[review]')")

from crfdeid.cli import main

from .review_kit import copy_notes, make_review, row, rules_deidentifier


def test_export_only_writes_the_reviewed_notes(tmp_path, capsys):
    review = make_review(tmp_path, rules_deidentifier())
    view = review.view("nota-001")
    review.act("nota-001", row(view, "4471902")["id"], "reject")
    review.mark_done("nota-001")
    argv = [
        "review",
        str(tmp_path / "notes"),
        "--state",
        str(tmp_path / "review.json"),
        "--rules-only",
        "--seed",
        "5",
        "--export-only",
    ]
    assert main(argv) == 0, capsys.readouterr().err
    out = tmp_path / "review-export"
    assert "NHC: 4471902." in (out / "released" / "nota-001.txt").read_text(encoding="utf-8")
    assert sorted(p.name for p in (out / "corpus").iterdir()) == ["nota-001.ann", "nota-001.txt"]
    # another seed is another review: refused, nothing mixed
    assert main([*argv[:-3], "--seed", "6", "--export-only"]) == 2
    assert "another seed" in capsys.readouterr().err


def test_the_review_file_may_not_sit_among_the_notes(tmp_path, capsys):
    notes = copy_notes(tmp_path)
    assert (
        main(["review", str(notes), "--state", str(notes / "review.json"), "--rules-only", "--export-only"])
        == 2
    )
    assert "inside an input folder" in capsys.readouterr().err


def test_the_command_prints_its_url_and_serves_with_the_token(tmp_path):
    notes = copy_notes(tmp_path)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "crfdeid",
            "review",
            str(notes),
            "--state",
            str(tmp_path / "r.json"),
            "--rules-only",
            "--seed",
            "1",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        match = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/\?token=([A-Za-z0-9_-]{40,})\n", line)
        assert match, line
        base = f"http://127.0.0.1:{match.group(1)}"
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(base + "/api/notes", timeout=10)
        assert refused.value.code == 403
        request = urllib.request.Request(base + "/api/notes", headers={"X-Review-Token": match.group(2)})
        deadline = time.monotonic() + 60
        while True:  # the background detection fills the list
            body = json.loads(urllib.request.urlopen(request, timeout=10).read())
            if body["detected"] == 3 or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert body["total"] == 3 and body["detected"] == 3
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    assert match.group(2) not in err.replace(line.strip(), "")  # the token is printed once, with the URL
