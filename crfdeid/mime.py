"""A raw e-mail's structure, which no span may touch.

A mailbox export keeps a message raw: its headers (``Content-Type: multipart/mixed;
boundary="----=_Part_5512_88410"``, ``Content-Transfer-Encoding: base64``, ``Date: Tue, 11 Nov
2025 08:14:52 +0100``), the boundary lines between its parts, an attachment's base64 body. The
fifteenth set written blind showed what detection made of them: the boundary's "Part" became a
town, "charset=UTF-8" "UTF-calle", "base64" "santa ana27", the time zone "+0100" a number — a
message no mail reader opens. The step labels nothing; it says where no span may be
(``merge.with_read``): header names, the values of the headers that describe the message's
structure (but a file name in them, which may name the patient, stays readable), the time zone of
a date, boundary lines, and a base64 body (left as it is: its bytes are no text to read).

Found by a ``MIME-Version`` or ``Content-Type`` header at a line's start (as
``crfdeid.encodings`` finds a message to decode); anything else is left alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from .encodings import declared_boundaries, is_boundary
from .types import Span

#: A message: a MIME header at a line's start.
_MIME = regex.compile(r"(?im)^(?:mime-version|content-type):")
#: A header line and its folded continuation lines.
_HEADER = regex.compile(r"(?m)^(?P<name>[A-Za-z][A-Za-z0-9-]*):(?P<value>[^\n]*(?:\n[ \t][^\n]*)*)")
#: The first header of a message (an export may put a line of its own before it).
_FIRST_HEADER = regex.compile(
    r"(?im)^(?:from|return-path|received|date|to|subject|mime-version|content-type|message-id):")
#: The end of a header block.
_BLANK = regex.compile(r"\n[ \t]*\r?\n")
#: A boundary line ("------=_Part_5512_88410", its closing "--" too).
_BOUNDARY_LINE = regex.compile(r"(?m)^--(?P<boundary>[^\s]+?)(?:--)?[ \t]*\r?$")
#: Headers whose values describe the message, not a person.
_STRUCTURAL = frozenset({"content-type", "content-transfer-encoding", "mime-version", "content-disposition",
                         "message-id", "in-reply-to", "references", "content-id", "x-mailer",
                         "content-language", "x-ms-has-attach", "x-priority", "importance"})
#: Parameters of a structural header that may name someone ("analitica-Etxeberria.pdf").
_FILE_PARAMETER = regex.compile(r"""(?i)\b(?:file)?name\*?=\s*(?:"(?P<q>[^"\n]*)"|(?P<bare>[^;\s]+))""")
#: A date's time zone ("+0100", "-0500").
_ZONE = regex.compile(r"(?<=\d{2}:\d{2}(?::\d{2})?\s)[+-]\d{4}\b")
#: Headers with a date.
_DATED = frozenset({"date", "received", "resent-date", "delivery-date"})


@dataclass(frozen=True)
class MimeMessage:
    """The completion step (no label of its own: it only blocks a message's structure)."""

    def read(self, text: str) -> tuple[list[Span], list[tuple[int, int]]]:
        """No span; where no span may be."""
        http = _http_blocked(text) if "HTTP/" in text else []
        if _MIME.search(text) is None:
            return [], http
        blocked: list[tuple[int, int]] = http
        boundaries = declared_boundaries(text)
        for block_start, block_end in _header_blocks(text, boundaries):
            encoding = ""
            for header in _HEADER.finditer(text, block_start, block_end):
                name = header["name"].lower()
                blocked.append((header.start("name"), header.end("name") + 1))
                value_start, value_end = header.span("value")
                if name in _STRUCTURAL:
                    keep = [(m.start("q") if m["q"] is not None else m.start("bare"),
                             m.end("q") if m["q"] is not None else m.end("bare"))
                            for m in _FILE_PARAMETER.finditer(text, value_start, value_end)]
                    at = value_start
                    for a, b in keep:
                        blocked.append((at, a))
                        at = b
                    blocked.append((at, value_end))
                    if name == "content-transfer-encoding":
                        encoding = header["value"].strip().lower()
                elif name in _DATED:
                    blocked += [m.span() for m in _ZONE.finditer(text, value_start, value_end)]
            if encoding == "base64":  # the part's body, up to the next boundary line
                body_end = next((m.start() for m in _BOUNDARY_LINE.finditer(text, block_end)
                                 if is_boundary(text, m.start(), boundaries)), len(text))
                blocked.append((block_end, body_end))
        for line in _BOUNDARY_LINE.finditer(text):
            if is_boundary(text, line.start(), boundaries):
                blocked.append(line.span())
        return [], [(a, b) for a, b in blocked if a < b]


def _header_blocks(text: str, boundaries: frozenset[str]) -> list[tuple[int, int]]:
    """The message's header block and each part's (after a line of a boundary the message
    declares), up to the blank line that ends it; blocks never overlap (a line of dashes in a
    body is no boundary, and "Paciente:" after it no header)."""
    first = _FIRST_HEADER.search(text)
    starts = [first.start() if first else 0] + [
        m.end() + 1 for m in _BOUNDARY_LINE.finditer(text) if is_boundary(text, m.start(), boundaries)]
    out: list[tuple[int, int]] = []
    for start in starts:
        if start >= len(text) or (out and start < out[-1][1]):
            continue
        if _HEADER.match(text, start) is None:
            continue
        blank = _BLANK.search(text, start)
        out.append((start, blank.start() + 1 if blank else len(text)))
    return out


# -- HTTP ----------------------------------------------------------------------------------------
#: A request line ("POST /api/v2/citas HTTP/1.1") or a status line ("HTTP/1.1 201 Created").
_HTTP_START = regex.compile(
    r"(?m)^(?:(?P<method>GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)[ ]\S+[ ](?P<version>HTTP/\d(?:\.\d)?)"
    r"|(?P<status>HTTP/\d(?:\.\d)?[ ]\d{3}(?:[ ][^\n]*)?))$")
#: Headers of an HTTP message whose values are the protocol's or a program's words, not a
#: person's: a browser's name and version ("Mozilla/5.0 … Chrome/130.0 Mobile Safari/537.36" had
#: become "Blas Infante/5.0 … Paterna del Campo/130.0"), a charset, a length, an encoding. Host,
#: Referer, Location, Cookie and X-Forwarded-For are read: they hold addresses and identifiers.
_HTTP_STRUCTURAL = frozenset({
    "user-agent", "content-type", "content-length", "accept", "accept-encoding", "accept-language",
    "accept-charset", "connection", "cache-control", "content-encoding", "transfer-encoding",
    "x-requested-with", "upgrade-insecure-requests", "pragma", "etag", "server", "vary", "keep-alive",
    "x-powered-by", "strict-transport-security", "content-security-policy", "x-content-type-options",
    "x-frame-options", "sec-fetch-site", "sec-fetch-mode", "sec-fetch-dest", "sec-fetch-user",
    "sec-ch-ua", "sec-ch-ua-mobile", "sec-ch-ua-platform", "dnt", "te", "upgrade", "via", "age"})
#: One header line of an HTTP message (no folding: HTTP/1.1 deprecates it).
_HTTP_HEADER = regex.compile(r"(?P<name>[A-Za-z][A-Za-z0-9-]*):(?P<value>[^\n]*)")
#: A web server's access log line (the common or combined format): the request's method and
#: protocol, and the browser's name after the referrer, are the server's words.
_ACCESS_LINE = regex.compile(
    r'(?m)^\S+[ ]\S+[ ]\S+[ ]\[[^\]\n]+\][ ]"(?P<method>[A-Z]+)[ ][^"\n]*?[ ](?P<version>HTTP/\d(?:\.\d)?)"'
    r'[ ]\d{3}[ ](?:\d+|-)(?:[ ]"[^"\n]*"[ ]"(?P<agent>[^"\n]*)")?')


def _http_blocked(text: str) -> list[tuple[int, int]]:
    """An HTTP capture's structure: its request and status lines' protocol words, its header
    names and the values of the headers of ``_HTTP_STRUCTURAL``, an access log's methods,
    protocols and browsers (the eighteenth set written blind: a debugging proxy's capture had
    "HTTP/1.1 201 Created" written "201 Punta Umbría" and "charset=utf-8" "utf-calle")."""
    blocked: list[tuple[int, int]] = []
    for start in _HTTP_START.finditer(text):
        if start["status"]:
            blocked.append(start.span("status"))
        else:
            blocked += [start.span("method"), start.span("version")]
        # its headers: the lines right after it that are headers, up to the first that is not
        # (a blank line, the body, the next message's start line): one pass, whatever follows
        at = start.end() + 1
        while at < len(text) and (header := _HTTP_HEADER.match(text, at)) is not None:
            blocked.append((header.start("name"), header.end("name") + 1))
            if header["name"].lower() in _HTTP_STRUCTURAL:
                blocked.append(header.span("value"))
            at = header.end() + 1
    for line in _ACCESS_LINE.finditer(text):
        blocked += [line.span("method"), line.span("version")]
        if line["agent"]:
            blocked.append(line.span("agent"))
    return blocked
