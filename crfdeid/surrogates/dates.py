"""Dates: one shift per document, by whole weeks, each date written exactly as it was.

The shift is a whole number of weeks, so weekdays stay true ("el lunes 5 de marzo") and the
order and distance of every event of a note survive. Each date is cut into its components
(day, month as number, name, abbreviation or Roman numeral, year), the shifted date is
computed, and each component is written back in its original form — separators, zero padding,
2- or 4-digit year, the case of a month name — while everything else in the span is left as it
was. Partial dates shift too: "marzo de 2012" through the 15th of the month, "2012" through
1 July. The default range (53–260 weeks, always into the past: a shifted admission date is
never in the future of the note) guarantees that even a year alone changes. A date that
cannot be read has its digits replaced instead; one with no digits and no month (e.g. "ayer")
is kept, since it cannot be shifted and does not identify anyone. Only ASCII digits are read:
a date written with other digits ('①', '²', '٣') is not readable, and has every digit replaced
(into ASCII digits), its format kept — the fallback the audit records as ``digits``.

Where the pack's calendar says how its months are written (``written`` and ``regional`` in
calendar.yaml), a month name keeps the original's style exactly: the full name, the abbreviation
of running text with its own dot or without one ("Sept. 2022" -> "Juni 2020", "Jan." -> "Mai"),
the short form ("Sep" -> "Jun"), and a region's spelling where the note uses one ("Jänner" stays
Austrian: "3. Jänner 2022" -> "14. Jänner 2019", "März" -> "Jänner" in a note that writes
"Jänner"); a day before a month name is zero-padded only where the original was ("3. Mai",
"03. Mai"). The pack's ``date_readings`` (surrogates.yaml) add the readings of two numbers its
language writes: ``day_month`` ("12.4.", "28.11.": day and month, with the separators listed) and
``month_year`` ("03/19": month and two-digit year). A day and month without a year are then
shifted in the year most of the note's full dates are in, so they keep their weekday and their
place in the note's timeline.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections import Counter
from dataclasses import dataclass
from functools import cached_property

from ..langpack import CalendarName
from .base import DocumentState, Level, Surrogate, chosen, fold, match_case, normalise, scramble
from .data import SurrogateData

_TOKEN = re.compile(r"[0-9]+|[^\W\d_]+")
#: The year of a full date (a day, a month as number or word, a four-digit year): "14.03.2019",
#: "3. Jänner 2022", "12. März 2019".
_FULL_DATE_YEAR = re.compile(r"(?<!\d)\d{1,2}\.\s?(?:\d{1,2}\.|[^\W\d_]{3,}\.?\s)\s?((?:19|20)\d\d)(?!\d)")
#: The region code of English months (the pack's calendar, ``EN``): a form counts as English only
#: capitalised as English writes it ("May", not the Spanish abbreviation of "23-may-2019").
_ENGLISH = "EN"
_ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII")
#: Two-digit years at or below this are 20xx, above it 19xx.
PIVOT = 30
REFERENCE_YEAR = 2000  # a leap year: "29 de febrero" without a year still has a date


def _counts(form_region: str, written: str, note_region: str) -> bool:
    """Does a region's month form, as ``written``, say the date is in that region's language?
    An English one only capitalised, in a note that writes English months (``note_region``):
    "May" is Spanish's short form too, and any other English month makes a note English."""
    return form_region != _ENGLISH or (written.istitle() and note_region == _ENGLISH)


@dataclass
class Part:
    start: int
    end: int
    role: str  # day, month_num, month_name, month_roman, year
    text: str


@dataclass
class ParsedDate:
    day: int | None
    month: int | None
    year: int | None
    parts: list[Part]

    def reference(self) -> dt.date:
        year = self.year if self.year is not None else REFERENCE_YEAR
        month = self.month if self.month is not None else 7
        day = self.day if self.day is not None else (15 if self.month is not None else 1)
        return dt.date(year, month, day)


def full_year(text: str) -> int:
    value = int(text)
    if len(text) == 2:
        return 2000 + value if value <= PIVOT else 1900 + value
    return value


class DateGenerator:
    name = "dates"
    phase = 2

    def __init__(self, data: SurrogateData, min_weeks: int = 53, max_weeks: int = 260) -> None:
        if not 0 < min_weeks <= max_weeks:
            raise ValueError("date shift: need 0 < min_weeks <= max_weeks")
        self.data = data
        self.min_weeks = min_weeks
        self.max_weeks = max_weeks
        #: the pack's calendar says how its months are written: dates keep the original's style
        self.styled = any(r == "" and style != "name" for m in data.pack.months for r, style, _ in m.forms)
        #: the regions that elide their "of" before a month ("d'octubre"): region -> (full, elided)
        self.elision = data.pack.month_elision
        #: a region's own month spellings (letters, case folded, not the standard's) -> region;
        #: a form the standard's name begins with is its abbreviation too and says no region
        #: (English "May" is Spanish "may": "14-may-2024" had made a Spanish note English)
        standard = {f.rstrip(".").casefold() for m in data.pack.months for r, _, f in m.forms if not r}
        self.regional = {f.rstrip(".").casefold(): r for m in data.pack.months for r, _, f in m.forms
                         if r and f.rstrip(".").casefold() not in standard
                         and not fold(m.name).startswith(fold(f).rstrip("."))}
        #: the pack's readings of two numbers (``date_readings``: day_month, month_year) -> separators
        self.readings = data.date_readings

    def shift(self, state: DocumentState) -> dt.timedelta:
        """The document's shift: drawn once from the secret and the document id."""
        if state.date_shift is None:
            rng = state.secret.rng("date-shift", state.document_id)
            weeks = -rng.randint(self.min_weeks, self.max_weeks)  # backwards: no dates in the future
            state.date_shift = dt.timedelta(weeks=weeks)
        return state.date_shift

    def neutral_category(self, text: str, label: str) -> str:
        return "date"

    def parse(self, text: str) -> ParsedDate | None:
        """The date's components, or None when it cannot be read (digits of another script
        included: their value would be a guess)."""
        if any(c.isnumeric() and not c.isascii() for c in text):
            return None
        tokens = [(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(text)]
        tokens = [t for t in tokens if not _is_clock(text, t[0], t[1])]
        month_index = None
        for i, (_, _, tok) in enumerate(tokens):
            if tok.isdigit():
                continue
            if tok.upper() in _ROMAN and tok.isupper() and _between_numbers(tokens, i):
                month_index, role = i, "month_roman"
                break
            if len(tok) >= 3 and self.data.pack.month(tok) is not None:
                month_index, role = i, "month_name"
                break
        numbers = [(i, t) for i, t in enumerate(tokens) if t[2].isdigit()]
        if month_index is not None:
            s, e, tok = tokens[month_index]
            name = self.data.pack.month(tok)
            month = _ROMAN.index(tok.upper()) + 1 if role == "month_roman" or name is None else name.number
            if role == "month_name" and self.styled and text[e : e + 1] == ".":
                e, tok = e + 1, tok + "."  # the dot is the abbreviation's: "Sept." -> "Juni"
            parts = [Part(s, e, role, tok)]
            day = year = None
            before = [(i, t) for i, t in numbers if i < month_index]
            after = [(i, t) for i, t in numbers if i > month_index]
            if before and len(before[-1][1][2]) <= 2 and 1 <= int(before[-1][1][2]) <= 31:
                t = before[-1][1]
                day = int(t[2])
                parts.append(Part(t[0], t[1], "day", t[2]))
            elif before and len(before[-1][1][2]) == 4 and (day_after := _day(after[:1])):
                # the year first, the day after the month: Basque "2024ko urriaren 3a"
                t = before[-1][1]
                year = full_year(t[2])
                parts += [Part(t[0], t[1], "year", t[2]), Part(*day_after[:2], "day", day_after[2])]
                day = int(day_after[2])
            elif (day_after := _day(after[:1])) and len(after) > 1 and len(after[1][1][2]) == 4:
                after = after[1:]  # the day after the month, the year after both: "octubre 3, 2024"
                parts.append(Part(*day_after[:2], "day", day_after[2]))
                day = int(day_after[2])
            if year is None and day is None and before and len(before[-1][1][2]) == 4 and not after:
                t = before[-1][1]  # the year first: Basque "2024ko urria"
                year = full_year(t[2])
                parts.append(Part(t[0], t[1], "year", t[2]))
            if year is None and after and len(after[0][1][2]) in (2, 4):
                t = after[0][1]
                year = full_year(t[2])
                parts.append(Part(t[0], t[1], "year", t[2]))
            return _checked(ParsedDate(day, month, year, parts))
        values = [t for _, t in numbers]
        if len(values) == 3:
            a, b, c = values
            if len(a[2]) == 4:  # 2012-03-05
                y, m, d = a, b, c
            else:
                d, m, y = a, b, c
                if len(d[2]) <= 2 and len(m[2]) <= 2 and int(m[2]) > 12 >= int(d[2]):
                    d, m = m, d  # 03/25/2012, written month first
            if len(y[2]) not in (2, 4) or len(d[2]) > 2 or len(m[2]) > 2:
                return None
            parts = [
                Part(d[0], d[1], "day", d[2]),
                Part(m[0], m[1], "month_num", m[2]),
                Part(y[0], y[1], "year", y[2]),
            ]
            return _checked(ParsedDate(int(d[2]), int(m[2]), full_year(y[2]), parts))
        if (len(values) == 2 and len(values[0][2]) == 8 and len(values[1][2]) in (4, 6)
                and text[values[0][1] : values[1][0]] in ("T", "t")):
            # ISO 8601's basic form, the time of day after a "T" ("20261112T081500", an
            # iCalendar's DTSTART: it had become "33169498R989669"): the date, the time stays
            return _compact(values[0])
        if len(values) == 2:
            m, y = values
            if len(m[2]) <= 2 and 1 <= int(m[2]) <= 12 and len(y[2]) == 4:
                parts = [Part(m[0], m[1], "month_num", m[2]), Part(y[0], y[1], "year", y[2])]
                return _checked(ParsedDate(None, int(m[2]), int(y[2]), parts))
            return self.two_numbers(text, m, y)
        if len(values) == 1 and len(values[0][2]) in (8, 12, 14):
            return _compact(values[0])
        if len(values) == 1 and len(values[0][2]) == 4 and 1800 <= int(values[0][2]) <= 2200:
            y = values[0]
            return ParsedDate(None, None, int(y[2]), [Part(y[0], y[1], "year", y[2])])
        return None

    def two_numbers(
        self, text: str, first: tuple[int, int, str], second: tuple[int, int, str]
    ) -> ParsedDate | None:
        """Two numbers the pack's ``date_readings`` read: a day and a month ("12.4."), or a
        month and a two-digit year ("03/19"), by what separates them."""
        gap = text[first[1] : second[0]].strip()
        a, b = first[2], second[2]
        if len(a) > 2 or len(b) > 2:
            return None
        if gap in self.readings.get("month_year", ()) and len(b) == 2 and 1 <= int(a) <= 12:
            parts = [Part(first[0], first[1], "month_num", a), Part(second[0], second[1], "year", b)]
            return _checked(ParsedDate(None, int(a), full_year(b), parts))
        if gap in self.readings.get("day_month", ()) and 1 <= int(b) <= 12 and 1 <= int(a) <= 31:
            parts = [Part(first[0], first[1], "day", a), Part(second[0], second[1], "month_num", b)]
            return _checked(ParsedDate(int(a), int(b), None, parts))
        return None

    def render(self, text: str, parsed: ParsedDate, new: dt.date, region: str = "") -> str:
        # two-digit day and month are zero-padded unless another number of the date shows
        # the writer does not pad ("14/7/1958")
        numeric = [p for p in parsed.parts if p.role in ("day", "month_num")]
        pad = not any(len(p.text) == 1 for p in numeric)
        named = self.styled and any(p.role == "month_name" for p in parsed.parts)
        prose = any(p.role == "month_name" for p in parsed.parts) and any(  # "20a": Basque's case ending
            p.role == "day" and (text[p.end : p.end + 1] == " " or text[p.end : p.end + 1].isalpha())
            for p in parsed.parts)
        if named or prose:  # "13. Juni" -> "1. Juli", "03. Juni" -> "01. Juli", "12 de marzo" -> "1 de
            # agosto"; "12-dic-2009" -> "03-may-2008"
            pad = any(p.role == "day" and p.text.startswith("0") for p in parsed.parts)
        out = text
        for part in sorted(parsed.parts, key=lambda p: -p.start):
            start = part.start
            if named and part.role == "month_name":
                new_part = self.styled_month(part, new, region)
            elif part.role == "month_name" and (own := self.regional_form(text, part, region)):
                new_part = self.data.pack.months[new.month - 1].written(own[1], own[0])
                new_part = match_case(part.text, new_part)
                start, new_part = self.elided(text, part.start, own[0], new_part)
            else:
                new_part = self.render_part(part, new, pad)
            out = out[:start] + new_part + out[part.end :]
        return out

    def regional_form(self, text: str, part: Part, region: str) -> tuple[str, str] | None:
        """(region, style) of a month written in a region's language — its own form ("xaneiro",
        "urriaren"), or a name it shares with the standard ("octubre") after the region's elided
        "of" ("d'octubre") or in a note that writes the region's months ("marzo" in a Galician
        note) — else None: the new month is then written as the standard writes it."""
        old = self.data.pack.month(part.text)
        if old is None or not old.forms:
            return None
        folded = fold(part.text).rstrip(".")
        if folded != fold(old.name):
            return next(((r, style) for r, style, form in old.forms
                         if r and fold(form).rstrip(".") == folded and _counts(r, part.text, region)), None)
        before = text[: part.start].casefold().replace("’", "'")
        region = next((r for r, (_, elided) in self.elision.items() if before.endswith(elided.casefold())),
                      region)
        # the note's region only where the month as written is one of its spellings too
        # (Galician "marzo"): "20 de octubre" beside "2026ko urriaren 20a" is Spanish, and
        # once became "26 de irailaren" (a Basque genitive in a Spanish date)
        return (region, "name") if region and any(
            r == region and fold(form).rstrip(".") == folded for r, _, form in old.forms) else None

    def elided(self, text: str, start: int, region: str, word: str) -> tuple[int, str]:
        """The new month with its "of" as the region writes it before the month's first sound:
        "d'octubre" -> "de març", "de gener" -> "d'abril"; (where the rewrite starts, the text).
        Only an "of" inside the date's span is rewritten."""
        if region not in self.elision:
            return start, word
        full, elided = self.elision[region]
        before = text[:start]
        vowel = fold(word[:1]) in "aeiouh"
        for form in (elided, elided.replace("'", "’"), full):
            if before.casefold().endswith(form.casefold()):
                written = before[len(before) - len(form):]
                new = elided if vowel else full
                if "’" in written:
                    new = new.replace("'", "’")
                return start - len(form), match_case(written, new) + word
        return start, word

    def styled_month(self, part: Part, new: dt.date, region: str) -> str:
        """The new month in the original's style (and the note's region, or the original's own
        where it is written in a region's form), in its case; a dot after a full name stays."""
        written = part.text.rstrip(".")
        dot = part.text[len(written) :]
        old = self.data.pack.month(written)
        target = self.data.pack.months[new.month - 1]
        style, own = self.month_style(written, bool(dot), old, region)
        word = target.written(style, own or region)
        return match_case(written, word) + (dot if style == "name" else "")

    @staticmethod
    def month_style(
        written: str, dotted: bool, month: CalendarName | None, region: str = ""
    ) -> tuple[str, str]:
        """(style, region) of a month as written: the style and region of the pack's form with
        its letters (the standard forms first; an English one only in an English note: "May"
        there is the full name, in a Spanish note the short form), else the full name, or by
        its dot "abbreviated" and without one "short"."""
        letters = written.casefold()
        forms = sorted(month.forms if month is not None else (), key=lambda f: f[0] != "")
        region = next((r for r, _, form in forms
                       if form.rstrip(".").casefold() == letters and _counts(r, written, region)), "")
        if (month is not None and fold(written) == fold(month.name)) or any(
                form.casefold() == letters for r, style, form in forms if style == "name" and r == region):
            return "name", region
        return ("abbreviated" if dotted else "short"), region

    def in_note_year(self, parsed: ParsedDate, state: DocumentState) -> dt.date | None:
        """A day and month without a year ("7.1.", "13. Juni") in the year most of the note's
        dates are written in: shifted in its own year, it keeps its weekday and its distance to
        the note's other dates ("3. Jänner 2022 bis 11. Jänner 2022 … ab 7.1." stays inside the
        stay). None for a date with a year, or a note without one (then the reference year)."""
        if parsed.year is not None or parsed.day is None or parsed.month is None:
            return None
        if state.date_year is None:
            years = Counter(int(m[1]) for m in _FULL_DATE_YEAR.finditer(state.text))
            state.date_year = max(years, key=lambda y: (years[y], y)) if years else 0
        try:
            return dt.date(state.date_year, parsed.month, parsed.day) if state.date_year else None
        except ValueError:  # 29 February of a common year
            return None

    def note_region(self, state: DocumentState) -> str:
        """The region whose own month spellings the note uses ("Jänner"): its dates are all
        written so. "" when none (or the pack has no regional forms)."""
        if state.date_region is None:
            state.date_region = ""
            if self.regional:
                words = {w.casefold() for w in _TOKEN.findall(state.text) if not w.isdigit()}
                state.date_region = next((r for w, r in self.regional.items() if w in words), "")
        return state.date_region

    def render_part(self, part: Part, new: dt.date, pad: bool = True) -> str:
        if part.role in ("day", "month_num"):
            value = new.day if part.role == "day" else new.month
            return f"{value:02d}" if len(part.text) == 2 and pad else str(value)
        if part.role == "year":
            return f"{new.year % 100:02d}" if len(part.text) == 2 else f"{new.year:04d}"
        if part.role == "month_roman":
            roman = _ROMAN[new.month - 1]
            return roman if part.text.isupper() else roman.lower()
        old = self.data.pack.month(part.text)
        target = self.data.pack.months[new.month - 1]
        folded = fold(part.text)
        word = target.name
        ours = [a for a in old.abbreviations if a not in old.regional_keys] if old is not None else []
        if old is not None and folded != fold(old.name) and folded in ours:
            index = ours.index(folded)  # a region's forms are not abbreviations: regional_form
            abbreviations = [a for a in target.abbreviations if a not in target.regional_keys] \
                or (target.name[:3],)
            word = abbreviations[min(index, len(abbreviations) - 1)]
        return match_case(part.text, word)

    def in_words(self, text: str, state: DocumentState) -> Surrogate | None:
        """A date whose year is written in words ("a doce de noviembre de dos mil veinticinco", a
        letter's or a certificate's), or a day in words and its month ("diecisiete de marzo", a
        dictated report's), shifted like any other and written back in words — the day in words
        or digits as it was, the month in its case. None for any other date. Before, it was read
        as a month alone and kept: the whole date in clear."""
        words = self._word_values
        tokens = list(_TOKEN.finditer(text))
        worded = [words.get(fold(t.group())) for t in tokens if not t.group().isdigit()]
        if not any(v is not None for v in worded):
            return None  # no number in words: the usual reading's (most dates, at no cost)
        at = next((i for i, t in enumerate(tokens) if not t.group().isdigit() and len(t.group()) >= 3
                   and self.data.pack.month(t.group()) is not None), None)
        if at is None:
            return None
        year_run = None
        if 1000 in worded:
            year_run = _number_run(tokens, at + 1, words, skip=("de", "del", "año"))
            if year_run is None or year_run[2] < 1000:
                return None
        elif any(t.group().isdigit() for t in tokens) or at + 1 != len(tokens):
            return None  # a day in words and its month only ("diecisiete de marzo"), nothing after
        day_run = None
        before = [t for t in tokens[:at] if fold(t.group()) not in ("de", "a", "el", "dia")]
        if before and before[-1].group().isdigit() and 1 <= int(before[-1].group()) <= 31:
            day_run = (before[-1].start(), before[-1].end(), int(before[-1].group()))
        elif before:
            day_run = _number_run(tokens, tokens.index(before[-1]), words, backwards=True)
        month = self.data.pack.month(tokens[at].group())
        if month is None:
            return None
        day = day_run[2] if day_run is not None and 1 <= day_run[2] <= 31 else None
        if year_run is None and day is None:
            return None
        try:  # no year written: a leap year's calendar, where every day and month can be
            reference = dt.date(year_run[2] if year_run else 2000, month.number, day or 15)
            new = reference + self.shift(state)
            spelled = [(year_run, self._spelled(new.year, text[year_run[0]:year_run[1]]))] if year_run else []
        except (ValueError, OverflowError, KeyError):
            return None
        target = self.data.pack.months[new.month - 1]
        month_word = match_case(tokens[at].group(), target.name)
        spelled.append(((tokens[at].start(), tokens[at].end(), 0), month_word))
        if day_run is not None and day is not None:
            old = text[day_run[0]:day_run[1]]
            spelled.append((day_run, str(new.day) if old.isdigit() else self._spelled(new.day, old)))
        out = text
        for (start, end, _), word in sorted(spelled, key=lambda x: -x[0][0]):
            out = out[:start] + word + out[end:]
        return Surrogate(out, note="shifted, in words")

    @cached_property
    def _word_values(self) -> dict[str, int]:
        """folded number word -> value (the pack's ``number_words``)."""
        return {fold(f): value for value, forms in self.data.number_words.items() for f in forms}

    def _spelled(self, value: int, like: str) -> str:
        """``value`` in the pack's number words (1-99, hundreds and thousands a year needs), in the
        case of ``like``; KeyError when the pack lacks a word it needs."""
        forms = self.data.number_words

        def below_hundred(n: int) -> str:
            if n in forms:
                return forms[n][0]
            return f"{forms[n - n % 10][0]} y {forms[n % 10][0]}"  # the pack's tens and units

        parts = []
        thousands, rest = divmod(value, 1000)
        if thousands:
            parts.append(forms[1000][0] if thousands == 1 else f"{below_hundred(thousands)} {forms[1000][0]}")
        hundreds, rest = divmod(rest, 100) if rest >= 100 else (0, rest)
        if hundreds:
            parts.append(forms[hundreds * 100][0])
        if rest:
            parts.append(below_hundred(rest))
        return match_case(like, " ".join(parts))

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        """Fallback chain: shifted -> digits replaced (unreadable, or the shift would not show)."""
        worded = self.in_words(text, state)
        if worded is not None and normalise(worded.text) != normalise(text):
            return worded
        parsed = self.parse(text)
        stripped = text.strip()
        if parsed is None and stripped.isascii() and stripped.isdigit() and len(stripped) <= 2 \
                and 1 <= int(stripped) <= 31:
            # a day alone, the first of a range whose end is a date ("2–8/11", "del 29 al 30 de
            # noviembre"): another day of the month, never "83"
            return self.day_alone(text, start, state)
        if parsed is None or not parsed.parts:
            if any(c.isnumeric() for c in text):
                return self.digits(text, state, "date not readable: its digits replaced, its format kept")
            return Surrogate(text, kept=True, note="no date to shift")
        region, reference = "", parsed.reference()
        month_alone = parsed.year is None and parsed.day is None
        if month_alone and parsed.month is None:
            return Surrogate(text, kept=True, note="no date to shift")
        if self.styled:
            region = self.note_region(state)
            reference = self.in_note_year(parsed, state) or reference
        elif self.regional and any(p.role == "month_name" for p in parsed.parts):
            region = self.note_region(state)  # "octubre" in a note that writes "xaneiro"
        try:
            shifted = reference + self.shift(state)
            if month_alone and shifted.month == parsed.month:
                # a shift of about whole years leaves the month: the month before it instead, so
                # the original is never released ("en febrero" had been kept, whatever the shift,
                # beside the note's shifted dates: "16/10/2025 … cita en octubre" read
                # "11/07/2024 … cita en octubre")
                shifted = (shifted.replace(day=1) - dt.timedelta(days=1)).replace(day=15)
            result = self.render(text, parsed, shifted, region)
        except (ValueError, OverflowError):  # shifted out of the calendar: not a real date
            return self.digits(text, state, "date out of the calendar once shifted: its digits replaced")
        stripped = text.strip()
        if (len(stripped) == 4 and stripped.isdigit() and result.strip().isdigit() and state.text
                and _DECADE_BEFORE.search(state.text, max(0, start - 20), start)):
            # a decade stays a decade ("en la década de 1970" had become "de 1965"): the shifted
            # year's, never the original's
            decade = int(result.strip()) // 10 * 10
            if decade == int(stripped) // 10 * 10:
                decade -= 10
            return Surrogate(text.replace(stripped, str(decade)), note="shifted, a decade")
        if normalise(result) == normalise(text):
            return self.digits(text, state, "the shifted date reads like the original: its digits replaced")
        return Surrogate(result, note="shifted")  # never the shift itself: it would undo every date

    def day_alone(self, text: str, start: int, state: DocumentState) -> Surrogate:
        """A day of the month written alone. The first day of a range whose end is a date
        ("2–8/11", "del 29 al 30 de noviembre") is shifted with it, so the range keeps its
        length; any other, another day from 1 to 28. As many digits wide as it was."""
        day = text.strip()
        width = len(day) if day.startswith("0") else 1  # "02" stays two digits wide
        end = _RANGE_END.match(state.text, start + len(text)) if state.text else None
        parsed = self.parse(end["date"]) if end is not None else None
        if parsed is not None and parsed.day is not None:
            try:
                last = parsed.reference()
                # the first day in the last day's month, else in the month before ("del 29 al 2
                # de diciembre": the round's review)
                first = (last.replace(day=int(day)) if int(day) <= last.day
                         else (last.replace(day=1) - dt.timedelta(days=1)).replace(day=int(day)))
                within = (last - first).days <= 31
                shifted = str((first + self.shift(state)).day).zfill(width) if within else day
            except (ValueError, OverflowError):
                shifted = day
            if shifted != day:
                return Surrogate(text.replace(day, shifted), note="shifted, the first day of a range")

        def draw(rng: random.Random) -> str:
            return text.replace(day, str(rng.randint(1, 28)).zfill(width))

        level = Level(draw, "date-day", "day", "a day alone: another day of the month", False)
        new, _ = state.draw_chain(text, [level], "date-day")
        return chosen(new, level)

    def digits(self, text: str, state: DocumentState, reason: str) -> Surrogate:
        """Every digit replaced, separators and letters kept; checked like any drawn surrogate
        (the first draw is the one of old, so outputs did not change)."""
        close = sum(c.isnumeric() for c in text) > 1  # one digit is always one edit away
        level = Level(lambda rng: scramble(text, rng), "date-digits", "digits", reason, close)
        new, _ = state.draw_chain(text, [level], "date-digits")
        return chosen(new, level)


#: What ends a range after its first day: a dash or "al" (a weekday maybe), then the last day's
#: date ("2–8/11", "3-6/11/2026", "29 al lunes 30 de noviembre").
_RANGE_END = re.compile(
    r"[ \t]*(?:[–-]|al[ \t]+(?:(?:lunes|martes|mi[ée]rcoles|jueves|viernes|s[áa]bado|domingo)[ \t]+)?)[ \t]*"
    r"(?P<date>\d{1,2}(?:/\d{1,2}(?:/\d{2,4})?|[ \t]+de[ \t]+\w+(?:[ \t]+de[ \t]+\d{4})?))", re.IGNORECASE)
#: What says a year is a decade: "la década de 1970", "los años 1980".
_DECADE_BEFORE = re.compile(r"(?i:d[ée]cada|años)\s+(?:de\s+(?:los\s+)?)?$")


def _number_run(tokens: list[re.Match[str]], at: int, words: dict[str, int], skip: tuple[str, ...] = (),
                backwards: bool = False) -> tuple[int, int, int] | None:
    """(start, end, value) of the run of number words from token ``at`` on (or back from it),
    ``skip`` words before it: "dos mil veinticinco" -> 2025, "mil novecientos cincuenta y ocho"
    -> 1958. "y" joins tens and units only ("… veinticinco y tres días" ends at "veinticinco");
    a thousand multiplies what comes before it."""
    step = -1 if backwards else 1
    i = at
    while not backwards and 0 <= i < len(tokens) and fold(tokens[i].group()) in skip:
        i += 1
    run: list[re.Match[str]] = []
    while 0 <= i < len(tokens) and (fold(tokens[i].group()) in words or fold(tokens[i].group()) == "y"):
        run.append(tokens[i])
        i += step
    run.sort(key=lambda m: m.start())
    values = [words.get(fold(m.group())) for m in run]
    for k, value in enumerate(values):  # a "y" not between tens and a unit cuts the run there
        if value is None and not (0 < k < len(values) - 1 and values[k - 1] in _TENS
                                  and (values[k + 1] or 0) in range(1, 10)):
            run, values = (run[k + 1:], values[k + 1:]) if backwards else (run[:k], values[:k])
            break
    if not run or values[0] is None:
        return None
    total = current = 0
    for value in values:
        if value == 1000:
            total += (current or 1) * 1000
            current = 0
        elif value is not None:
            current += value
    return run[0].start(), run[-1].end(), total + current


_TENS = frozenset(range(30, 100, 10))


def _is_clock(text: str, start: int, end: int) -> bool:
    """Digits of a time of day ("10:30", "10.30 h") are not part of the date."""
    return text[end : end + 1] == ":" or text[start - 1 : start] == ":"


def _between_numbers(tokens: list[tuple[int, int, str]], i: int) -> bool:
    return 0 < i < len(tokens) - 1 and tokens[i - 1][2].isdigit() and tokens[i + 1][2].isdigit()


def _day(numbers: list[tuple[int, tuple[int, int, str]]]) -> tuple[int, int, str] | None:
    """The first of ``numbers`` if it can be a day of the month (one or two digits, 1–31)."""
    if numbers and len(numbers[0][1][2]) <= 2 and 1 <= int(numbers[0][1][2]) <= 31:
        return numbers[0][1]
    return None


def _compact(token: tuple[int, int, str]) -> ParsedDate | None:
    """A date written without separators: "20250312" (HL7's and DICOM's, with the time of day
    after it: "20250312101530", which stays), or "12032025" (a day first). The year first when
    it reads as one, then the day first; None when neither is a date."""
    at, _, digits = token
    readings = [((0, 4), (4, 6), (6, 8))]
    if len(digits) == 8:
        readings.append(((4, 8), (2, 4), (0, 2)))
    for (ys, ye), (ms, me), (ds, de) in readings:
        year, month, day = int(digits[ys:ye]), int(digits[ms:me]), int(digits[ds:de])
        if 1800 <= year <= 2200 and 1 <= month <= 12 and 1 <= day <= 31:
            parts = [Part(at + ds, at + de, "day", digits[ds:de]),
                     Part(at + ms, at + me, "month_num", digits[ms:me]),
                     Part(at + ys, at + ye, "year", digits[ys:ye])]
            checked = _checked(ParsedDate(day, month, year, parts))
            if checked is not None:
                return checked
    return None


def _checked(parsed: ParsedDate) -> ParsedDate | None:
    try:
        parsed.reference()
    except ValueError:
        return None
    return parsed
