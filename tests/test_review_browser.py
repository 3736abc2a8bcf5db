"""crfdeid review as a person uses it: headless Chromium opens a note, rejects a span, adds one by
selecting text, marks the note reviewed, exports, and the exported BRAT and text are checked.

Playwright drives Debian's own Chromium (``/usr/bin/chromium``; the browser builds Playwright
downloads are never fetched). The tests skip, saying why, without either. One browser for the
module. ``CRFDEID_SCREENSHOTS=DIR`` also saves the screenshots the README shows.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

pytest.importorskip("flask", reason="crfdeid review needs Flask (pip install 'crfdeid[review]')")
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed (pip install playwright)"
)
expect = sync_api.expect

from crfdeid.io.corpus import load_corpus  # noqa: E402
from crfdeid.review.app import create_app  # noqa: E402
from crfdeid.review.export import export_summary  # noqa: E402
from crfdeid.review.server import ReviewServer  # noqa: E402

from .review_kit import make_review, rules_deidentifier  # noqa: E402

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium() -> str | None:
    for candidate in (
        os.environ.get("CRFDEID_CHROMIUM"),
        "/usr/bin/chromium",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


@pytest.fixture(scope="module")
def browser():
    path = chromium()
    if path is None:
        pytest.skip("no Chromium found (apt-get install chromium, or set CRFDEID_CHROMIUM)")
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=path, headless=True, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def served(tmp_path):
    review = make_review(tmp_path, rules_deidentifier())
    out = tmp_path / "export"

    def export():
        return export_summary(review, out)

    server = ReviewServer(
        lambda token, hosts: create_app(
            review, token, export=export, hosts=hosts, info={"reviewer": "tester"}
        )
    ).start()
    yield server, review, tmp_path
    server.stop()


def _shot(page, name: str) -> None:
    folder = os.environ.get("CRFDEID_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name))


def test_open_reject_add_export(browser, served):
    server, review, tmp_path = served
    context = browser.new_context(viewport={"width": 1400, "height": 800})
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(server.url)
    assert "token=" not in page.url  # moved to a cookie
    page.locator("#notes li[data-id='nota-001']").click()
    page.wait_for_selector("#orig mark")
    # reject the record number: click it, press r
    page.locator("#orig mark", has_text="4471902").click()
    page.wait_for_selector("#span-panel:not([hidden])")
    page.keyboard.press("r")
    expect(page.locator("#deid")).to_contain_text("NHC: 4471902.")
    assert "rejected" in page.locator("#orig mark", has_text="4471902").get_attribute("class")
    # add the hospital the rules missed: select it, press n, choose the label, Add
    page.evaluate("""() => {
        const pane = document.getElementById('orig');
        const walker = document.createTreeWalker(pane, NodeFilter.SHOW_TEXT);
        let node;
        while ((node = walker.nextNode())) {
            const at = node.data.indexOf('Hospital Universitario Miguel Servet');
            if (at >= 0) {
                const range = document.createRange();
                range.setStart(node, at);
                range.setEnd(node, at + 'Hospital Universitario Miguel Servet'.length);
                const sel = window.getSelection();
                sel.removeAllRanges();
                sel.addRange(range);
                return;
            }
        }
        throw new Error('text not found');
    }""")
    page.locator("#orig").focus()
    page.keyboard.press("n")
    page.wait_for_selector("#add-popup:not([hidden])")
    page.select_option("#add-label", "HOSPITAL")
    page.click("#add-ok")
    expect(page.locator("#deid")).not_to_contain_text("Miguel Servet")
    assert page.locator("#orig mark.added", has_text="Miguel Servet").count() == 1
    page.locator("#orig mark", has_text="Miguel Servet").click()
    expect(page.locator("#why")).to_contain_text("added by the reviewer")
    _shot(page, "review-note.png")
    # mark the note reviewed (d), export from the button
    page.keyboard.press("d")
    expect(page.locator("#done")).to_have_text("Reopen")
    page.click("#export")
    expect(page.locator("#toast")).to_contain_text("exported 1")
    context.close()
    corpus = load_corpus([tmp_path / "export" / "corpus"])
    spans = {(corpus["nota-001"].span_text(s), s.label) for s in corpus["nota-001"].spans}
    assert ("Hospital Universitario Miguel Servet", "HOSPITAL") in spans
    assert not any(text == "4471902" for text, _ in spans)
    released = (tmp_path / "export" / "released" / "nota-001.txt").read_text(encoding="utf-8")
    assert "NHC: 4471902." in released and "Miguel Servet" not in released
    assert released == review.view("nota-001")["deid"]["text"]


def test_a_page_without_the_token_is_refused(browser, served):
    server, _, _ = served
    context = browser.new_context()
    page = context.new_page()
    response = page.goto(server.url.split("?")[0])
    assert response is not None and response.status == 403
    context.close()
