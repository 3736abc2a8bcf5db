"""The review web app (Flask): the page, its static files, and a small JSON API over ``Review``.

Every request must carry the run's token: in the query string on the first load (the URL the
command prints), which sets a cookie (HttpOnly, SameSite=Strict) and redirects to a URL without
it; then in that cookie or the ``X-Review-Token`` header. State-changing requests (POST) need the
header itself, which only the page (served to a token holder) sends, so another site open in the
same browser cannot act through the cookie. Tokens are compared in constant time; anything else
gets 403. The ``Host`` header must name the loopback address the server is bound to (a DNS
rebinding page cannot reach it under another name). Nothing is loaded from elsewhere: the CSS
and JS are files of the package, and the Content-Security-Policy forbids anything else.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify, redirect, request, send_from_directory

from ..errors import CrfdeidError
from .session import Review

STATIC = Path(__file__).resolve().parent / "static"
COOKIE = "crfdeid_review"
HEADER = "X-Review-Token"
#: No external asset, no framing, no referrer, nothing cached (the pages hold PHI).
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; "
    "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def _same(given: str | None, token: str) -> bool:
    return given is not None and hmac.compare_digest(given.encode("utf-8", "replace"), token.encode("utf-8"))


def create_app(
    review: Review,
    token: str,
    *,
    export: Callable[[], dict[str, Any]],
    hosts: Collection[str] | None = None,
    info: dict[str, Any] | None = None,
) -> Flask:
    """The app for one review. ``export`` writes the export and returns what to tell the page;
    ``hosts`` are the ``Host`` values accepted (None: any, for the test client)."""
    app = Flask(__name__, static_folder=None)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    page = (STATIC / "index.html").read_text(encoding="utf-8").replace("{{TOKEN}}", token)

    @app.before_request
    def guard() -> Response | None:
        if hosts is not None and request.host not in hosts:
            return _refuse("unknown host")
        given = request.args.get("token") or request.headers.get(HEADER) or request.cookies.get(COOKIE)
        if not _same(given, token):
            return _refuse("a valid token is required: open the URL crfdeid review printed")
        if request.method == "POST" and not _same(request.headers.get(HEADER), token):
            return _refuse(f"a change needs the {HEADER} header")
        return None

    @app.after_request
    def secure(response: Response) -> Response:
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    @app.errorhandler(CrfdeidError)
    def refused(exc: CrfdeidError) -> tuple[Response, int]:
        return jsonify({"error": str(exc)}), 400

    @app.errorhandler(Exception)
    def broken(exc: Exception) -> tuple[Response, int]:
        code = getattr(exc, "code", None)
        if isinstance(code, int) and 400 <= code < 500:
            return jsonify({"error": getattr(exc, "description", str(exc))}), code
        return jsonify(
            {"error": f"internal error ({type(exc).__name__}); rerun with --debug and report it"}
        ), 500

    @app.get("/")
    def index() -> Response:
        if "token" in request.args:  # first load: the token moves to a cookie, out of the address bar
            response = redirect("/", code=303)
            response.set_cookie(COOKIE, token, httponly=True, samesite="Strict", path="/")
            return response
        return Response(page, mimetype="text/html")

    @app.get("/static/<path:name>")
    def static_file(name: str) -> Response:
        return send_from_directory(STATIC, name, max_age=0)

    @app.get("/api/notes")
    def notes() -> Response:
        listing = review.listing()
        since = request.args.get("since", type=int)
        if since is not None and since == listing["version"]:
            return jsonify(
                {
                    "unchanged": True,
                    "version": listing["version"],
                    "detected": listing["detected"],
                    "total": listing["total"],
                }
            )
        return jsonify({**listing, **(info or {})})

    @app.get("/api/note")
    def note() -> Response:
        return jsonify(review.view(_arg("id")))

    @app.get("/api/why")
    def why() -> Response:
        return jsonify(review.why(_arg("id"), _arg("span")))

    @app.post("/api/act")
    def act() -> Response:
        body = _body()
        return jsonify(
            review.act(
                str(body.get("note")),
                str(body.get("span")),
                str(body.get("action")),
                label=body.get("label"),
                value=body.get("value"),
            )
        )

    @app.post("/api/add")
    def add() -> Response:
        body = _body()
        return jsonify(
            review.add(str(body.get("note")), body.get("start"), body.get("end"), str(body.get("label")))
        )

    @app.post("/api/done")
    def done() -> Response:
        body = _body()
        return jsonify(review.mark_done(str(body.get("note")), bool(body.get("done", True))))

    @app.post("/api/export")
    def do_export() -> Response:
        return jsonify(export())

    return app


def _arg(name: str) -> str:
    value = request.args.get(name)
    if value is None:
        raise CrfdeidError(f"the request lacks ?{name}=")
    return value


def _body() -> dict[str, Any]:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise CrfdeidError("the request body must be a JSON object")
    return body


def _refuse(why: str) -> Response:
    response = jsonify({"error": why})
    response.status_code = 403
    for name, value in SECURITY_HEADERS.items():
        response.headers[name] = value
    return response
