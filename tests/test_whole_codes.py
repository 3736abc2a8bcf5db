"""A code found in part where the note has the whole of it elsewhere."""

from __future__ import annotations

from crfdeid.types import Span
from crfdeid.whole_codes import with_whole_codes

TEXT = """USUARIO  IP_ORIGEN
U20417   10.52.7.31

Usuarios identificados
U20417  Dra. Carmen Abadía Latorre, facultativa de Urgencias
"""


def _at(text: str, piece: str, label: str, nth: int = 0) -> Span:
    at = -1
    for _ in range(nth + 1):
        at = text.index(piece, at + 1)
    return Span(at, at + len(piece), label, source="crf")


def test_a_code_cut_by_the_tagger_takes_the_whole_code_found_elsewhere() -> None:
    whole = _at(TEXT, "U20417", "ID_EMPLEO_PERSONAL_SANITARIO")
    cut = _at(TEXT, "20417", "OTRO_NUMERO_IDENTIF", nth=1)  # the "20417" of the list's "U20417"
    out = with_whole_codes(TEXT, [whole, cut])
    assert [(TEXT[s.start : s.end], s.label) for s in out] == [("U20417", "ID_EMPLEO_PERSONAL_SANITARIO")] * 2


def test_a_cut_with_no_whole_code_elsewhere_stays() -> None:
    text = "Ref. AB-20417-X y nada más."
    cut = _at(text, "20417", "OTRO_NUMERO_IDENTIF")
    assert with_whole_codes(text, [cut]) == [cut]


def test_a_word_is_no_code() -> None:
    text = "Hospital Sanitas y Sanitaseguro."
    at = text.index("Sanitaseguro")
    spans = [_at(text, "Sanitas", "HOSPITAL"), Span(at, at + 7, "X")]
    assert with_whole_codes(text, spans) == spans  # "Sanitaseguro" has no digit: no code
