"""How fast ``crfdeid review`` shows a 1,000-note folder: the URL, the list, a note, the background.

    python benchmarks/review_list.py [--dev DIR] [--model M] [--copies 4]

Copies the MEDDOCAN dev notes (.txt only) ``--copies`` times under other names into a scratch
folder (never the repository), starts ``crfdeid review`` on it, and times: the URL printed
(model load included), ``/api/notes`` (the list's data), headless Chromium loading the page
until the list shows every note, opening a note far down the list, and how many notes per second
the background detection gets through. Prints one JSON object. Needs the ``review`` extra,
Playwright and Debian's Chromium.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from crfdeid.resources import meddocan_dir


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    found = meddocan_dir()
    parser.add_argument(
        "--dev", default=str(found / "dev") if found else None, help="the MEDDOCAN dev folder"
    )
    parser.add_argument("--model", default=None, help="a model folder (default: the embedded model)")
    parser.add_argument("--copies", type=int, default=4, help="copies of the dev notes (default: 4)")
    args = parser.parse_args()
    if not args.dev:
        raise SystemExit("MEDDOCAN not found: pass --dev")
    from playwright.sync_api import expect, sync_playwright

    work = Path(tempfile.mkdtemp(prefix="crfdeid-review-bench-"))
    notes = work / "notes"
    notes.mkdir()
    for copy in range(args.copies):
        for path in sorted(Path(args.dev).glob("*.txt")):
            shutil.copyfile(path, notes / f"{copy}-{path.name}")
    total = len(list(notes.iterdir()))
    command = [
        sys.executable,
        "-m",
        "crfdeid",
        "review",
        str(notes),
        "--state",
        str(work / "r.json"),
        "--seed",
        "1",
    ]
    command += ["--model", args.model] if args.model else []
    started = time.monotonic()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        url = proc.stdout.readline().strip()  # type: ignore[union-attr]
        url_s = time.monotonic() - started
        port, token = re.search(r":(\d+)/\?token=(.*)", url).groups()  # type: ignore[union-attr]
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/notes", headers={"X-Review-Token": token}
        )
        t = time.monotonic()
        body = urllib.request.urlopen(request).read()
        api_s = time.monotonic() - t
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox"]
            )
            page = browser.new_page(viewport={"width": 1400, "height": 800})
            t = time.monotonic()
            page.goto(url)
            expect(page.locator("#notes li")).to_have_count(total, timeout=60000)
            page_s = time.monotonic() - t
            t = time.monotonic()
            page.locator("#notes li").nth(int(total * 0.7)).click()
            page.wait_for_selector("#orig mark")
            open_s = time.monotonic() - t
            browser.close()
        before = json.loads(urllib.request.urlopen(request).read())["detected"]
        time.sleep(20)
        after = json.loads(urllib.request.urlopen(request).read())["detected"]
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        shutil.rmtree(work, ignore_errors=True)
    print(
        json.dumps(
            {
                "notes": total,
                "url_printed_s": round(url_s, 2),
                "api_notes_s": round(api_s, 3),
                "api_notes_bytes": len(body),
                "page_lists_all_s": round(page_s, 2),
                "open_note_s": round(open_s, 2),
                "background_notes_per_s": round((after - before) / 20, 1),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
