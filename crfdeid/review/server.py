"""Serving the review app on 127.0.0.1 only, with a fresh random token per run.

Werkzeug's threaded WSGI server (Flask's own) is enough for one officer on one machine, and
starts in milliseconds with nothing to configure. Its request log is silenced: the first URL
carries the token, and a secret never goes to a log.
"""

from __future__ import annotations

import secrets
import threading
from typing import Any

from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

HOST = "127.0.0.1"


class _QuietHandler(WSGIRequestHandler):
    def log_request(self, *args: Any, **kwargs: Any) -> None:  # the URL may hold the token
        pass

    def log(self, type: str, message: str, *args: Any) -> None:
        if type == "error":
            super().log(type, "%s", "request failed")


def new_token() -> str:
    """32 random bytes, URL-safe: unguessable, and new for every run."""
    return secrets.token_urlsafe(32)


class ReviewServer:
    """The app on 127.0.0.1:``port`` (0: a free port), in this thread or a background one."""

    def __init__(self, app_factory: Any, port: int = 0) -> None:
        """``app_factory(hosts)`` builds the app once the port (hence the Host header) is known."""
        self.token = new_token()
        self._server: BaseWSGIServer = make_server(
            HOST,
            port,
            None,
            threaded=True,  # type: ignore[arg-type]
            request_handler=_QuietHandler,
        )
        self.port = self._server.server_port
        hosts = {f"{HOST}:{self.port}", f"localhost:{self.port}"}
        self._server.app = app_factory(self.token, hosts)
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}/?token={self.token}"

    def serve_forever(self) -> None:
        self._server.serve_forever()

    def start(self) -> ReviewServer:
        self._thread = threading.Thread(target=self._server.serve_forever, name="crfdeid-review", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
