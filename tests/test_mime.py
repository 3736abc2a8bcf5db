"""A raw message's structure, which no span may touch: an e-mail's (``tests/test_encodings.py``
has its end-to-end cases) and an HTTP capture's."""

from __future__ import annotations

from crfdeid.mime import MimeMessage

CAPTURE = """=== PETICIÓN 1 ===
POST /api/v2/citas/solicitud HTTP/1.1
Host: citaweb.example.org
User-Agent: Mozilla/5.0 (Linux; Android 14; SM-A546B) AppleWebKit/537.36 Chrome/130.0 Mobile Safari/537.36
Content-Type: application/x-www-form-urlencoded; charset=UTF-8
Referer: https://citaweb.example.org/centro/CS-ALMONTE?nuhsa=AN0438226150
X-Forwarded-For: 203.0.113.58, 10.21.4.17

nombre=Jos%C3%A9+Antonio&apellidos=Cabrera+Ma%C3%B1as

=== RESPUESTA 1 ===
HTTP/1.1 422 Unprocessable Entity
Content-Type: application/json; charset=utf-8

{"error":"VALIDACION","campo":"apellidos","valor":"Cabrera Ma\\u00f1as"}

203.0.113.58 - - [26/Nov/2026:09:14:08 +0100] "POST /api/v2/citas HTTP/1.1" 422 118 "-" "Mozilla/5.0 (Linux)"
"""


def test_an_http_captures_protocol_words_take_no_span() -> None:
    # the eighteenth set written blind: a debugging proxy's capture had "HTTP/1.1 201 Created"
    # written "201 Punta Umbría", the browser "Mozilla/5.0 … Chrome/130.0" "Blas Infante/5.0 …
    # Paterna del Campo/130.0", and "charset=utf-8" "utf-calle"
    spans, blocked = MimeMessage().read(CAPTURE)
    assert spans == []
    covered = [CAPTURE[a:b].strip() for a, b in blocked]
    assert "HTTP/1.1 422 Unprocessable Entity" in covered and "POST" in covered and "HTTP/1.1" in covered
    assert any(c.startswith("Mozilla/5.0 (Linux; Android 14") for c in covered)
    assert "application/json; charset=utf-8" in covered and "Mozilla/5.0 (Linux)" in covered
    # the headers that hold addresses and identifiers, and the bodies, are read
    text = "".join(CAPTURE[a:b] for a, b in blocked)
    for read in ("citaweb.example.org", "AN0438226150", "203.0.113.58", "Jos%C3%A9", "Cabrera", "/api/v2"):
        assert read not in text, read


def test_a_de_identified_capture_keeps_its_protocol_and_reads_its_bodies() -> None:
    from crfdeid.deidentify import Deidentifier

    out = Deidentifier(seed=3).deidentify(CAPTURE).text
    for kept in ("HTTP/1.1 422 Unprocessable Entity", "charset=utf-8", "Chrome/130.0 Mobile Safari/537.36",
                 '"Mozilla/5.0 (Linux)"', "POST /api/v2/citas/solicitud HTTP/1.1"):
        assert kept in out, kept
    for original in ("Jos%C3%A9", "Cabrera", "Ma\\u00f1as", "AN0438226150", "203.0.113.58"):
        assert original not in out, original
    assert "\\u00" in out.split('"valor":"')[1].split('"')[0] or out.split('"valor":"')[1].isascii()
    assert MimeMessage().read("Texto sin cabeceras: HTTP/1.1 no es una petición.") == ([], [])
