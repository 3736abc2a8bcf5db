"""crfdeid.review.app: the token on every request, and the JSON API a page drives (no browser)."""

from __future__ import annotations

import pytest

pytest.importorskip("flask", reason="crfdeid review needs Flask (pip install 'crfdeid[review]')")

from crfdeid.review.app import COOKIE, HEADER, create_app
from crfdeid.review.export import export_review

from .review_kit import make_review, rules_deidentifier

TOKEN = "t0ken-for-the-tests-only-0123456789"
NOTE = "nota-001"


@pytest.fixture(scope="module")
def deid():
    return rules_deidentifier()


@pytest.fixture
def setup(tmp_path, deid):
    review = make_review(tmp_path, deid)

    def export():
        manifest = export_review(review, tmp_path / "export")
        return {"folder": str(tmp_path / "export"), "released": manifest["released"]}

    app = create_app(review, TOKEN, export=export, hosts={"127.0.0.1:5000"})
    return app.test_client(), review, tmp_path


def _h():
    return {HEADER: TOKEN, "Host": "127.0.0.1:5000"}


def test_every_request_needs_the_token(setup):
    client, _, _ = setup
    host = {"Host": "127.0.0.1:5000"}
    for path in ("/", "/api/notes", f"/api/note?id={NOTE}", "/static/review.js"):
        assert client.get(path, headers=host).status_code == 403, path
        assert client.get(path, headers={**host, HEADER: "wrong"}).status_code == 403, path
    assert client.post("/api/export", json={}, headers=host).status_code == 403
    # a known token under another host name (DNS rebinding) is refused too
    assert client.get("/api/notes", headers={HEADER: TOKEN, "Host": "evil.example:5000"}).status_code == 403


def test_first_load_moves_the_token_to_a_cookie(setup):
    client, _, _ = setup
    first = client.get(f"/?token={TOKEN}", headers={"Host": "127.0.0.1:5000"})
    assert first.status_code == 303 and first.headers["Location"].endswith("/")
    cookie = first.headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE}={TOKEN}") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    page = client.get("/", headers={"Host": "127.0.0.1:5000"})  # the cookie now
    assert page.status_code == 200 and b"review.js" in page.data
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]
    assert b"http://" not in page.data and b"https://" not in page.data  # no external asset
    js = client.get("/static/review.js", headers={"Host": "127.0.0.1:5000"}).data
    assert b"http://" not in js and b"https://" not in js
    # a change needs the header, not just the cookie (another site cannot act through it)
    assert (
        client.post("/api/done", json={"note": NOTE}, headers={"Host": "127.0.0.1:5000"}).status_code == 403
    )


def test_api_actions(setup):
    client, _, tmp_path = setup
    listing = client.get("/api/notes", headers=_h()).get_json()
    assert listing["total"] == 3 and "FECHAS" in listing["labels"]
    assert client.get(f"/api/notes?since={listing['version']}", headers=_h()).get_json()["unchanged"]
    view = client.get(f"/api/note?id={NOTE}", headers=_h()).get_json()
    nhc = next(r for r in view["spans"] if r["text"] == "4471902")
    view = client.post(
        "/api/act", json={"note": NOTE, "span": nhc["id"], "action": "reject"}, headers=_h()
    ).get_json()
    assert "NHC: 4471902." in view["deid"]["text"]
    # the hospital the rules leave ("Nombre:  Lucía." is a name field's since the seventeenth round)
    start = view["text"].index("Hospital Universitario Miguel Servet")
    view = client.post(
        "/api/add",
        json={"note": NOTE, "start": start, "end": start + 36, "label": "HOSPITAL"},
        headers=_h(),
    ).get_json()
    assert "Miguel Servet" not in view["deid"]["text"]
    bad = client.post(
        "/api/act",
        json={"note": NOTE, "span": nhc["id"], "action": "surrogate", "value": "4471902"},
        headers=_h(),
    )
    assert bad.status_code == 400 and "refused" in bad.get_json()["error"]
    why = client.get(f"/api/why?id={NOTE}&span={nhc['id']}", headers=_h()).get_json()
    assert why["rule"]["id"] == "nhc-labelled"
    assert client.get("/api/note?id=nope", headers=_h()).status_code == 400
    assert client.post("/api/done", json={"note": NOTE}, headers=_h()).get_json()["done"]
    exported = client.post("/api/export", json={}, headers=_h()).get_json()
    assert exported["released"] == 1
    released = (tmp_path / "export" / "released" / "nota-001.txt").read_text(encoding="utf-8")
    assert "Miguel Servet" not in released and "NHC: 4471902." in released
