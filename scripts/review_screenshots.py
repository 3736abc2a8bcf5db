"""Take the README's screenshots of ``crfdeid review`` (docs/review-*.png) in headless Chromium.

    python scripts/review_screenshots.py [--model MODEL_DIR] [--out docs]

It reviews a scratch copy of the invented example notes (examples/notes, never a corpus), clicks
through what the README describes, and saves: the list and a note with its "why" panel
(review-note.png), and the popup that adds a selected span (review-add.png). Needs the
``review`` extra, Playwright and Debian's Chromium (/usr/bin/chromium, or $CRFDEID_CHROMIUM).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--model", default=None, help="a model folder (default: the embedded model)")
    parser.add_argument("--out", default=str(ROOT / "docs"), help="where the PNGs go (default: docs/)")
    args = parser.parse_args()
    from playwright.sync_api import expect, sync_playwright

    work = Path(tempfile.mkdtemp(prefix="crfdeid-shots-"))
    notes = work / "notes"
    notes.mkdir()
    for path in sorted((ROOT / "examples" / "notes").glob("*.txt")):
        shutil.copyfile(path, notes / path.name)
    command = [
        sys.executable,
        "-m",
        "crfdeid",
        "review",
        str(notes),
        "--state",
        str(work / "review.json"),
        "--seed",
        "7",
        "--reviewer",
        "Dra. Ruiz",
    ] + (["--model", args.model] if args.model else [])
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    try:
        url = proc.stdout.readline().strip()  # type: ignore[union-attr]
        if not re.match(r"http://127\.0\.0\.1:\d+/\?token=", url):
            raise SystemExit(f"crfdeid review did not start (printed {url!r})")
        chromium = os.environ.get("CRFDEID_CHROMIUM", "/usr/bin/chromium")
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=chromium, args=["--headless", "--no-sandbox", "--disable-gpu"]
            )
            page = browser.new_page(viewport={"width": 1360, "height": 760})
            page.goto(url)
            expect(page.locator("#progress")).to_contain_text("3 / 3")
            page.locator("#notes li[data-id='nota-002']").click()
            page.wait_for_selector("#orig mark")
            page.locator("#orig mark", has_text="Quintana Robles").first.click()
            expect(page.locator("#why")).to_contain_text("Strongest features")
            page.locator("#orig mark", has_text="90233").click()
            page.keyboard.press("r")
            expect(page.locator("#deid")).to_contain_text("NHC: 90233.")
            page.locator("#orig mark", has_text="Quintana Robles").first.click()
            expect(page.locator("#why")).to_contain_text("Strongest features")
            page.screenshot(path=str(out / "review-note.png"))
            page.locator("#orig mark", has_text="Carmen").click()
            page.keyboard.press("r")  # proposed as another label: rejected, then added anew
            expect(page.locator("#orig mark.rejected", has_text="Carmen")).to_have_count(1)
            page.evaluate("""() => {
                const pane = document.getElementById('orig');
                const walker = document.createTreeWalker(pane, NodeFilter.SHOW_TEXT);
                let node;
                while ((node = walker.nextNode())) {
                    const at = node.data.indexOf('Carmen');
                    if (at >= 0) {
                        const range = document.createRange();
                        range.setStart(node, at);
                        range.setEnd(node, at + 6);
                        window.getSelection().removeAllRanges();
                        window.getSelection().addRange(range);
                        return;
                    }
                }
            }""")
            page.keyboard.press("n")
            page.select_option("#add-label", "FAMILIARES_SUJETO_ASISTENCIA")
            page.screenshot(
                path=str(out / "review-add.png"), clip={"x": 0, "y": 0, "width": 1360, "height": 420}
            )
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        shutil.rmtree(work, ignore_errors=True)
    print(f"wrote {out / 'review-note.png'} and {out / 'review-add.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
