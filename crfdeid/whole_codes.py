"""A code found in part where the note has the whole of it elsewhere.

An audit lists its users' codes in a table ("U20417" under "USUARIO", read whole by the table
step) and then names each one at a line's start ("U20417  Dra. Carmen Abadía Latorre, …"); there
the tagger took the digits alone, "20417", and the pseudonymiser gave the same user two codes:
"I55758" in the table and "U" + "91948" below (the sixteenth set written blind). A span that cuts
a code — letters, digits and the dashes and slashes between them — is widened to the whole code
when another span of the note is exactly that code, and takes that span's label: one code, one
surrogate.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import regex

from .types import Span

#: A code: letters and digits, joined by dashes, slashes, dots or underscores, with a digit.
_CODE = regex.compile(r"[\p{L}\p{N}]+(?:[-/_.][\p{L}\p{N}]+)*")


def with_whole_codes(text: str, spans: Iterable[Span]) -> list[Span]:
    """``spans``, each that cuts a code widened to it where another span is that code."""
    spans = list(spans)
    cut = [i for i, s in enumerate(spans) if s.fragments is None and s.end > s.start and (
        (s.start > 0 and text[s.start - 1].isalnum() and text[s.start].isalnum())
        or (s.end < len(text) and text[s.end].isalnum() and text[s.end - 1].isalnum()))]
    if not cut:
        return spans
    whole: dict[str, str] = {}
    for s in spans:
        if s.fragments is None:
            whole.setdefault(text[s.start : s.end], s.label)
    out = list(spans)
    changed = False
    for i in cut:
        s = spans[i]
        start, end = s.start, s.end
        while start > 0 and (text[start - 1].isalnum() or (
                text[start - 1] in "-/_." and start > 1 and text[start - 2].isalnum())):
            start -= 1
        while end < len(text) and (text[end].isalnum() or (
                text[end] in "-/_." and end + 1 < len(text) and text[end + 1].isalnum())):
            end += 1
        code = text[start:end]
        label = whole.get(code)
        if label is None or not any(c.isdigit() for c in code) or not _CODE.fullmatch(code):
            continue
        out[i] = replace(s, start=start, end=end, label=label)
        changed = True
    if not changed:
        return spans
    out.sort(key=lambda s: (s.start, s.end, s.label))
    kept: list[Span] = []
    for s in out:  # a widened span may now cover another: the widest one stays
        if kept and s.fragments is None and kept[-1].fragments is None and kept[-1].start <= s.start \
                and s.end <= kept[-1].end:
            continue
        kept.append(s)
    return kept
