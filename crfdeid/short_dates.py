"""A day and month written without the year, in a note that writes the year elsewhere.

A nursing sheet or a cycle chart dates its entries "05/11, 10:20:", "Controles ecográficos: 09/10
(…), 12/10 (…) y 14/10" once its header or table has said "05/11/2025": no cue word ("el",
"día") before them, so the rules (which want one: a bare "4/5" is a muscle's strength) and the
tagger left them in clear (the fifteenth set written blind: a dialysis sheet, an IVF chart).
Here a two-digit day and a two-digit month parted by a slash are a date when the note has a
whole numeric date of the same month: the note counts time in that month. Over MEDDOCAN
train+dev no such pair exists outside a gold date; over the fifteen sets written blind and the
formats set the step would take 25, each a gold date, and nothing else. A single-digit part
("4/5", "9/10") is left alone: strengths, scores and pain scales are written that way.
"""

from __future__ import annotations

from collections.abc import Iterable

import regex

from .merge import LabelledStep, Ranges, with_found
from .types import Span

#: Where a detected span carries it (``Span.source``).
SOURCE = "short-date"

#: A whole numeric date: day, month, year (two or four digits), parted by "/", "-" or ".".
_WHOLE = regex.compile(r"(?<![\d/.-])(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})(?![\d/]|[.-]\d)")
#: A day and a month of two digits each, parted by a slash, and nothing of a number around them.
_SHORT = regex.compile(r"(?<![\d/.,:-])(\d{2})/(\d{2})(?![\d/]|[.,:-]\d)")
#: A measure written as two numbers parted by a slash, just before: a blood pressure in cmHg
#: ("TA 13/10"), a strength, a scale, a visual acuity.
_MEASURE = regex.compile(
    r"(?i)(?<![\p{L}])(?:T\.?A\.?[SD]?|P\.?A\.?|tensi[oó]n(?:\ arterial)?|presi[oó]n(?:\ arterial)?|fuerza"
    r"|balance|EVA|EVN|Glasgow|GCS|AV|agudeza(?:\ visual)?|visi[oó]n|escala|puntuaci[oó]n|score|cmHg|mmHg"
    r"|dolor|Pfeiffer|MMSE|minimental|Barthel|Lawton|Norton|Braden|Apgar|test|OD|OI|AO)"
    # its eye, side or "de" between: "Tensión arterial de 13/10", "AV OD 10/10, OI 09/10"
    r"(?:\W{1,4}(?:de|del|en|OD|OI|AO|ojo\ (?:derecho|izquierdo)|derecho|izquierdo|sc|cc))*\W{0,4}$")
#: What a score says after it ("Pfeiffer 02/10 errores").
_SCORE_AFTER = regex.compile(r"(?i)[ \t]*(?:errores|puntos|pts|aciertos|fallos)(?![\p{L}])")


class ShortDates(LabelledStep):
    """The completion step: the scheme's label for a date."""

    def spans(self, text: str, taken: Iterable[tuple[int, int]] = ()) -> list[Span]:
        """The short dates of ``text`` outside the ``taken`` ranges."""
        label = self.labels.get("date")
        if label is None or "/" not in text:
            return []
        months = {int(m[3]) for m in _WHOLE.finditer(text) if 1 <= int(m[1]) <= 31 and 1 <= int(m[3]) <= 12}
        if not months:
            return []
        ranges = Ranges(taken)
        found: list[Span] = []
        for m in _SHORT.finditer(text):
            day, month = int(m[1]), int(m[2])
            if not (1 <= day <= 31 and month in months):
                continue
            if ranges.near(m.start(), m.end()):
                continue
            line_start = text.rfind("\n", 0, m.start()) + 1
            if _MEASURE.search(text[max(line_start, m.start() - 32) : m.start()]) or _SCORE_AFTER.match(
                    text, m.end()):
                continue
            found.append(Span(m.start(), m.end(), label, source=SOURCE))
        return found


def with_short_dates(text: str, spans: Iterable[Span], step: ShortDates | None) -> list[Span]:
    """``spans`` with the short dates ``step`` finds where no span is."""
    spans = list(spans)
    if step is None:
        return spans
    found = step.spans(text, [(s.start, s.end) for s in spans])
    return with_found(spans, found) if found else spans
