"""The fuzzer of the whole de-identifier: input families, invariants, saved regression cases.

One implementation serves three users: ``tests/property/test_fuzz_deidentify.py`` (hypothesis
draws the choices, so failures shrink), ``benchmarks/fuzz.py`` (a seeded ``random.Random``
draws them, fast enough for 100,000 cases) and ``tests/test_regression_fuzz.py`` (replays every
input that ever failed). Every random decision goes through a ``Chooser``, so a case is the
same function of its draws whichever of them drives it, and a mutation can be replayed from
the draws it recorded (how a crash found on a MEDDOCAN note is saved without its text).

Invariants checked on every case (``check``): no exception; every character outside the
replaced spans is byte-exact (from each audit record's ``start/end/new_start/new_end``); every
output span lies inside the output text; one audit record per detected span; the same seed (and
key) gives the identical output twice, from the same instance after another note and from a
fresh one.
"""

from __future__ import annotations

import json
import random
import re
import time
import traceback
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from crfdeid.deidentify import Deidentifier
from crfdeid.labels import EXTRA_GUIDELINE_LABELS, MEDDOCAN_LABELS
from crfdeid.policy import STRATEGIES, Policy
from crfdeid.pseudonymise import Pseudonymised, whole_words
from crfdeid.surrogates import normalise
from crfdeid.textview import TextView
from crfdeid.types import Detector, Document, Span

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "notes"
REGRESSION_DIR = ROOT / "tests" / "regression" / "fuzz"
DETECTORS = ("rules", "model", "annotations")
#: ``default`` is the shipped policy; the others are ``--strategy`` applied to it.
POLICIES = ("default", *STRATEGIES)
KEY = b"k" * 32
LABELS = MEDDOCAN_LABELS + EXTRA_GUIDELINE_LABELS
PACKAGE = str(ROOT / "crfdeid")


# --- choosers: where every random decision comes from --------------------------------------


class Chooser(Protocol):
    def integer(self, lo: int, hi: int) -> int:
        """An integer in ``[lo, hi]`` (both included)."""


class RandomChooser:
    """Draws from a seeded ``random.Random`` and records them, so a mutation can be replayed."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.draws: list[int] = []

    def integer(self, lo: int, hi: int) -> int:
        value = self.rng.randint(lo, hi)
        self.draws.append(value)
        return value


class ReplayChooser:
    """Gives back recorded draws, clamped to the range asked for (a replay of changed code
    stays in range instead of crashing the fuzzer)."""

    def __init__(self, draws: Sequence[int]) -> None:
        self.draws = list(draws)
        self.at = 0

    def integer(self, lo: int, hi: int) -> int:
        value = self.draws[self.at] if self.at < len(self.draws) else lo
        self.at += 1
        return min(max(value, lo), hi)


def pick(c: Chooser, items: Sequence[Any]) -> Any:
    return items[c.integer(0, len(items) - 1)]


def chance(c: Chooser, per_mille: int) -> bool:
    return c.integer(0, 999) < per_mille


# --- material ------------------------------------------------------------------------------


def _digit_script(zero: int) -> str:
    return "".join(chr(zero + i) for i in range(10))


#: Ten digits 0-9 per script: each is ``str.isdigit()`` but not ASCII.
DIGIT_SCRIPTS = (
    _digit_script(0xFF10),  # fullwidth ０-９
    _digit_script(0x0660),  # Arabic-Indic ٠-٩
    _digit_script(0x06F0),  # Extended Arabic-Indic
    _digit_script(0x0966),  # Devanagari
    _digit_script(0x09E6),  # Bengali
    _digit_script(0x0E50),  # Thai
    _digit_script(0x1D7CE),  # mathematical bold 𝟎-𝟗 (astral)
    _digit_script(0x1D7F6),  # mathematical monospace
    "⁰¹²³⁴⁵⁶⁷⁸⁹",  # superscripts: isdigit() but not isdecimal()
    "₀₁₂₃₄₅₆₇₈₉",  # subscripts
    "⓪①②③④⑤⑥⑦⑧⑨",  # circled
    "🄀⒈⒉⒊⒋⒌⒍⒎⒏⒐",  # digit full stop (and digit zero full stop)
)
NBSP = "\u00a0"
SPACES = (NBSP, "\u202f", "\u2007", "\u3000", "\t", "  ", "\u2009", "\u200a")
BIDI = ("\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067",
        "\u2068", "\u2069", "\u061c")
INVISIBLE = ("\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u034f")
EMOJI = ("😀", "👩‍⚕️", "🇪🇸", "💊", "❤️", "👍🏽", "🧑‍🤝‍🧑", "\u2764", "\U0001f3e5")
COMBINING = ("\u0301", "\u0300", "\u0303", "\u0308", "\u0327", "\u0331", "\u20dd", "\u0489")
LINE_BREAKS = ("\r\n", "\r", "\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\n\n\n")
CONTROLS = ("\x00", "\x01", "\x1b", "\x7f", "\x9f", "\ufffd", "\ufffe", "\uffff")
SPECIALS = SPACES + BIDI + INVISIBLE + EMOJI + COMBINING + LINE_BREAKS + CONTROLS
PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~¡¿«»…—–‐‑“”‘’·•°ºª§¶†‡※‰′″"
#: Single-municipality places: the town generator finds no other town in their province.
LONE_TOWNS = ("Ceuta", "Melilla")
TOWN_TEMPLATES = (
    "Localidad/ Provincia: {}.", "natural de {}", "Domicilio: Calle Real 3, 51001 {} ({}).",
    "residente en {}, {}", "Hospital Universitario de {}", "CP: 52001 {}", "{}",
)
BAD_DATES = (
    "31/02/2020", "99/99/9999", "00/00/0000", "29/02/2019", "31/04/2021", "32/13/2020", "1/1/1",
    "12/03/20201", "0/0/0", "31 de febrero de 2020", "2020-02-30", "①/02/2020", "3²/01/2019",
    "12/0٣/2019", "１２/０３/２０１９", "10/10/-1963", "10/10/1963/2", "9999-99-99", "29-II-2100",
    "12/03/0000", "0000-00-00", "1/1/99999999999999999999", "31.12.9999", "01/01/0001",
)
DATE_LIKE = re.compile(r"\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}")
WORD = re.compile(r"\w+")
CAPITALISED = re.compile(r"\b[A-ZÁÉÍÓÚÑ][a-záéíóúñ]{2,}\b")


def random_char(c: Chooser) -> str:
    """One character from anywhere: ASCII, Latin, the BMP, the astral planes, a share of lone
    surrogates and controls, and the special characters clinical text meets."""
    kind = c.integer(0, 99)
    if kind < 20:
        return chr(c.integer(0x20, 0x7E))
    if kind < 35:
        return chr(c.integer(0xA0, 0x24F))
    if kind < 55:
        code = c.integer(0, 0xFFFF)
        return chr(code if not 0xD800 <= code <= 0xDFFF else code - 0x800)
    if kind < 70:
        return chr(c.integer(0x10000, 0x10FFFF))
    if kind < 73:
        return chr(c.integer(0xD800, 0xDFFF))  # a lone surrogate
    if kind < 78:
        return chr(c.integer(0, 0x1F))
    return pick(c, SPECIALS)


def random_unicode(c: Chooser, max_size: int = 200) -> str:
    return "".join(random_char(c) for _ in range(c.integer(0, max_size)))


@dataclass(frozen=True)
class SourceNote:
    """A clinical note the mutations start from. ``origin`` is ``examples:NAME`` or
    ``meddocan:dev/NAME``: only the name is ever saved for a corpus note, never its text."""

    origin: str
    lines: tuple[str, ...]


@cache
def source_notes(corpus: Path | None = None, max_corpus_notes: int | None = None) -> tuple[SourceNote, ...]:
    """The invented example notes, then (when given) the MEDDOCAN notes of ``corpus``,
    read at run time in a fixed order."""
    notes = [
        SourceNote(f"examples:{p.name}", tuple(p.read_text(encoding="utf-8").split("\n")))
        for p in sorted(EXAMPLES.glob("*.txt"))
    ]
    if corpus is not None and corpus.is_dir():
        paths = sorted(corpus.glob("*.txt"))[:max_corpus_notes]
        notes.extend(
            SourceNote(f"meddocan:{corpus.name}/{p.name}", tuple(p.read_text(encoding="utf-8").split("\n")))
            for p in paths
        )
    return tuple(notes)


def resolve_origin(origin: str, corpus_root: Path | None) -> SourceNote | None:
    """The note an ``origin`` names, or None when it is a corpus note and the corpus is absent."""
    kind, _, name = origin.partition(":")
    if kind == "examples":
        path = EXAMPLES / name
    elif kind == "meddocan" and corpus_root is not None:
        path = corpus_root / name
    else:
        return None
    if not path.is_file():
        return None
    return SourceNote(origin, tuple(path.read_text(encoding="utf-8").split("\n")))


# --- mutations: each is a pure function of the text and its draws --------------------------


def _position(t: str, c: Chooser) -> int:
    """A position, half the time at a word edge (where a mark next to a word matters)."""
    edges = [m.start() for m in WORD.finditer(t[:5000])] + [m.end() for m in WORD.finditer(t[:5000])]
    if edges and chance(c, 500):
        return pick(c, edges)
    return c.integer(0, len(t))


def m_insert(t: str, c: Chooser) -> str:
    pos = _position(t, c)
    return t[:pos] + random_char(c) + t[pos:]


def m_delete(t: str, c: Chooser) -> str:
    if not t:
        return t
    i = c.integer(0, len(t) - 1)
    return t[:i] + t[i + c.integer(1, 5) :]


def m_duplicate(t: str, c: Chooser) -> str:
    if not t:
        return t
    i = c.integer(0, len(t) - 1)
    j = min(len(t), i + c.integer(1, 12))
    return t[:j] + t[i:j] + t[j:]


def m_unicode_digits(t: str, c: Chooser) -> str:
    """ASCII digits written in another script: all of them, one run, or a single digit."""
    script = pick(c, DIGIT_SCRIPTS)
    runs = list(re.finditer(r"[0-9]+", t))
    if not runs:
        return t
    mode = c.integer(0, 2)
    if mode == 0:
        return re.sub(r"[0-9]", lambda m: script[int(m.group())], t)
    run = pick(c, runs)
    if mode == 1:
        new = "".join(script[int(d)] for d in run.group())
    else:
        k = c.integer(0, len(run.group()) - 1)
        digits = run.group()
        new = digits[:k] + script[int(digits[k])] + digits[k + 1 :]
    return t[: run.start()] + new + t[run.end() :]


def m_special(t: str, c: Chooser) -> str:
    """NBSP, tab, CR, an emoji, a bidi mark, a combining mark, ZWSP… next to a word."""
    pos = _position(t, c)
    return t[:pos] + pick(c, SPECIALS) + t[pos:]


def m_spaces(t: str, c: Chooser) -> str:
    """Spaces become NBSP, tabs, ideographic spaces: one of them or all."""
    spaces = [m.start() for m in re.finditer(" ", t)]
    if not spaces:
        return t
    new = pick(c, SPACES)
    if chance(c, 300):
        return t.replace(" ", new)
    i = pick(c, spaces)
    return t[:i] + new + t[i + 1 :]


def m_line_breaks(t: str, c: Chooser) -> str:
    return t.replace("\n", pick(c, LINE_BREAKS))


def m_case(t: str, c: Chooser) -> str:
    how = c.integer(0, 4)
    if how == 0:
        return t.upper()
    if how == 1:
        return t.lower()
    if how == 2:
        return t.swapcase()
    if how == 3:
        return t.title()
    if not t:
        return t
    i = c.integer(0, len(t) - 1)
    j = min(len(t), i + c.integer(1, 40))
    return t[:i] + t[i:j].upper() + t[j:]


def m_glue(t: str, c: Chooser) -> str:
    """Words glued: the spaces of a stretch removed (``JuanPérez12/03/2020``)."""
    if not t:
        return t
    i = c.integer(0, len(t) - 1)
    j = min(len(t), i + c.integer(5, 80))
    return t[:i] + re.sub(r"\s+", "", t[i:j]) + t[j:]


def m_repeat(t: str, c: Chooser) -> str:
    """A line (or the whole text) repeated, as copy-paste accidents do."""
    lines = t.split("\n")
    k = c.integer(2, 30)
    if chance(c, 300):
        return "\n".join([t] * k)[:60_000]
    i = c.integer(0, len(lines) - 1)
    return "\n".join(lines[:i] + [lines[i]] * k + lines[i + 1 :])


def m_cut(t: str, c: Chooser) -> str:
    """The text cut in the middle of a word, keeping the head or the tail."""
    words = [m for m in WORD.finditer(t) if m.end() - m.start() >= 2]
    if not words:
        return t
    w = pick(c, words)
    at = c.integer(w.start() + 1, w.end() - 1)
    return t[:at] if chance(c, 500) else t[at:]


def m_lone_town(t: str, c: Chooser) -> str:
    """Ceuta or Melilla as the town: in place of a capitalised word, or in a template."""
    town = pick(c, LONE_TOWNS)
    if chance(c, 500):
        if chance(c, 300):
            town = town.upper()
        words = list(CAPITALISED.finditer(t))
        if words:
            w = pick(c, words)
            return t[: w.start()] + town + t[w.end() :]
    pos = c.integer(0, len(t))
    return t[:pos] + " " + pick(c, TOWN_TEMPLATES).format(town, town) + " " + t[pos:]


def m_bad_date(t: str, c: Chooser) -> str:
    """An impossible or exotic date in place of a date, or inserted."""
    bad = pick(c, BAD_DATES)
    dates = list(DATE_LIKE.finditer(t))
    if dates and chance(c, 600):
        d = pick(c, dates)
        return t[: d.start()] + bad + t[d.end() :]
    pos = c.integer(0, len(t))
    return t[:pos] + " Fecha de Ingreso: " + bad + ". " + t[pos:]


def m_normal_form(t: str, c: Chooser) -> str:
    return unicodedata.normalize(pick(c, ("NFD", "NFKD", "NFC", "NFKC")), t)


def m_unicode_run(t: str, c: Chooser) -> str:
    pos = c.integer(0, len(t))
    return t[:pos] + random_unicode(c, 20) + t[pos:]


MUTATIONS: dict[str, Callable[[str, Chooser], str]] = {
    "insert": m_insert,
    "delete": m_delete,
    "duplicate": m_duplicate,
    "unicode_digits": m_unicode_digits,
    "special": m_special,
    "spaces": m_spaces,
    "line_breaks": m_line_breaks,
    "case": m_case,
    "glue": m_glue,
    "repeat": m_repeat,
    "cut": m_cut,
    "lone_town": m_lone_town,
    "bad_date": m_bad_date,
    "normal_form": m_normal_form,
    "unicode_run": m_unicode_run,
}
MUTATION_NAMES = tuple(MUTATIONS)


def apply_recipe(note: SourceNote, recipe: dict[str, Any]) -> str:
    """The text a recipe describes: lines ``first..last`` of the note, then each mutation
    replayed from its recorded draws."""
    text = "\n".join(note.lines[recipe["first"] : recipe["last"]])
    for name, draws in recipe["mutations"]:
        text = MUTATIONS[name](text, ReplayChooser(draws))
    return text


# --- giant and trivial inputs ---------------------------------------------------------------

GIANTS = (
    "100k digits", "100k letters", "100k accented letters", "100k circled digits",
    "200k-char line", "200k-char line of dates", "100k-char word with marks",
)


def giant(kind: str, scale: float = 1.0) -> str:
    """A giant input of one of the ``GIANTS`` kinds; ``scale`` shrinks or grows it."""
    n = max(1, int(100_000 * scale))
    if kind == "100k digits":
        return "7" * n
    if kind == "100k letters":
        return "a" * n
    if kind == "100k accented letters":
        return "Ñé" * (n // 2)
    if kind == "100k circled digits":
        return "①" * n
    if kind == "200k-char line":
        line = "Paciente Juan Pérez, NHC 1234567, ingresa el 12/03/2020 en Zaragoza. "
        return (line * (2 * n // len(line) + 1))[: 2 * n]
    if kind == "200k-char line of dates":
        return ("12/03/2020 " * (2 * n // 11 + 1))[: 2 * n]
    if kind == "100k-char word with marks":
        return "e\u0301" * (n // 2)
    raise ValueError(kind)


def trivial(c: Chooser) -> str:
    kind = c.integer(0, 3)
    n = c.integer(0, 60)
    if kind == 0:
        return ""
    if kind == 1:
        return "".join(pick(c, (" ", "\n", "\t", "\r\n", NBSP, "\u3000", "\u2028", "\x0b")) for _ in range(n))
    if kind == 2:
        return "".join(pick(c, PUNCTUATION) for _ in range(n))
    return "".join(pick(c, "0123456789 /.-:") for _ in range(n))


# --- cases -----------------------------------------------------------------------------------


@dataclass
class Case:
    """One input for the de-identifier and how to run it."""

    text: str
    detector: str
    policy: str = "default"
    keyed: bool = False
    seed: int = 1
    spans: tuple[Span, ...] = ()
    family: str = "unicode"
    recipe: dict[str, Any] | None = None  # for mutated source notes: how to rebuild the text

    def document(self) -> Document:
        return Document("fuzz", self.text, self.spans if self.detector == "annotations" else ())


#: How often each family comes up, per thousand.
FAMILY_WEIGHTS = (("clinical", 720), ("unicode", 200), ("trivial", 77), ("giant", 3))


def make_case(
    c: Chooser,
    detector: str,
    notes: Sequence[SourceNote],
    *,
    family: str | None = None,
    giant_kinds: Sequence[str] = GIANTS,
) -> Case:
    """A case drawn from ``c``: the family, the text, the policy, the key, the seed, and for
    ``annotations`` the spans. A mutated note records a recipe (which lines, which mutations
    with which draws), so it can be rebuilt without saving its text."""
    if family is None:
        roll, family = c.integer(0, 999), FAMILY_WEIGHTS[-1][0]
        for name, weight in FAMILY_WEIGHTS:
            if roll < weight:
                family = name
                break
            roll -= weight
    recipe = None
    if family == "clinical":
        note = pick(c, notes)
        first = c.integer(0, len(note.lines) - 1)
        last = min(len(note.lines), first + c.integer(1, 12) if chance(c, 800) else len(note.lines))
        recipe = {"origin": note.origin, "first": first, "last": last, "mutations": []}
        text = "\n".join(note.lines[first:last])
        for _ in range(c.integer(0, 6)):
            name = pick(c, MUTATION_NAMES)
            recorder = _Recorder(c)
            text = MUTATIONS[name](text, recorder)
            recipe["mutations"].append([name, recorder.draws])
    elif family == "unicode":
        text = random_unicode(c)
    elif family == "trivial":
        text = trivial(c)
    else:
        family = "giant"
        text = giant(pick(c, giant_kinds))
    case = Case(
        text,
        detector,
        policy=pick(c, POLICIES),
        keyed=chance(c, 250),
        seed=c.integer(0, 2**31),
        family=family,
        recipe=recipe,
    )
    if detector == "annotations":
        case.spans = tuple(random_spans(text, c))
    return case


class _Recorder:
    """Passes draws through from another chooser and keeps a copy (one mutation's draws)."""

    def __init__(self, inner: Chooser) -> None:
        self.inner = inner
        self.draws: list[int] = []

    def integer(self, lo: int, hi: int) -> int:
        value = self.inner.integer(lo, hi)
        self.draws.append(value)
        return value


def shape_label(piece: str, c: Chooser) -> str:
    """A label that fits the look of the text, so generators get inputs they parse."""
    if "@" in piece:
        return pick(c, ("CORREO_ELECTRONICO", "URL_WEB"))
    if any(ch.isdigit() for ch in piece):
        return pick(c, ("FECHAS", "FECHAS", "NUMERO_TELEFONO", "NUMERO_FAX", "ID_SUJETO_ASISTENCIA",
                        "ID_ASEGURAMIENTO", "EDAD_SUJETO_ASISTENCIA", "CALLE", "DIREC_PROT_INTERNET",
                        "ID_TITULACION_PERSONAL_SANITARIO"))
    return pick(c, ("TERRITORIO", "TERRITORIO", "NOMBRE_SUJETO_ASISTENCIA", "NOMBRE_PERSONAL_SANITARIO",
                    "CALLE", "HOSPITAL", "CENTRO_SALUD", "INSTITUCION", "PAIS", "PROFESION",
                    "FAMILIARES_SUJETO_ASISTENCIA", "SEXO_SUJETO_ASISTENCIA"))


#: What an annotator would mark, found by shape: dates in any digits, the lone towns, the
#: values of the note header. Gives the generators the inputs they parse, mutated.
GOLD_LIKE = (
    (re.compile(r"\w{1,4}[/.\-]\w{1,4}[/.\-]\w{1,8}"), "FECHAS"),
    (re.compile(r"\b(?:Ceuta|Melilla|CEUTA|MELILLA)\b"), "TERRITORIO"),
    (re.compile(r"(?<=Provincia: )[^\n.]+"), "TERRITORIO"),
    (re.compile(r"(?<=Domicilio: )[^\n.]+"), "CALLE"),
    (re.compile(r"(?<=NHC: )[^\n.]+"), "ID_SUJETO_ASISTENCIA"),
    (re.compile(r"(?<=NASS: )[^\n.]+"), "ID_ASEGURAMIENTO"),
    (re.compile(r"(?<=CP: )[^\n.]+"), "TERRITORIO"),
    (re.compile(r"(?<=Edad: )[^\n]+?(?= Sexo|$)", re.M), "EDAD_SUJETO_ASISTENCIA"),
    (re.compile(r"(?<=Nombre: )[^\n.]+"), "NOMBRE_SUJETO_ASISTENCIA"),
    (re.compile(r"(?<=Apellidos: )[^\n.]+"), "NOMBRE_SUJETO_ASISTENCIA"),
    (re.compile(r"(?<=Médico: )[^\n]+?(?= NºCol|$)", re.M), "NOMBRE_PERSONAL_SANITARIO"),
    (re.compile(r"(?<=NºCol: )[^\n.]+"), "ID_TITULACION_PERSONAL_SANITARIO"),
    (re.compile(r"\S+@\S+"), "CORREO_ELECTRONICO"),
    (re.compile(r"\b(?:Hospital|Centro de Salud) [^\n,.]+"), "HOSPITAL"),
)


def random_spans(text: str, c: Chooser) -> list[Span]:
    """Spans an annotator might have drawn (by shape, each kept or not), plus 0-5 random ones
    (on whole words or anywhere, any label, sometimes discontinuous); they may overlap."""
    if not text:
        return []
    head = text[:20_000]
    spans = []
    for pattern, label in GOLD_LIKE:
        for match in list(pattern.finditer(head))[:20]:
            if match.end() > match.start() and chance(c, 700):
                spans.append(Span(match.start(), match.end(), label))
    words = list(re.finditer(r"\S+", head))
    for _ in range(c.integer(0, 5)):
        if words and chance(c, 650):
            i = c.integer(0, len(words) - 1)
            j = min(len(words) - 1, i + c.integer(0, 3))
            start, end = words[i].start(), words[j].end()
        else:
            start = c.integer(0, len(text) - 1)
            end = min(len(text), start + c.integer(1, 30))
        label = shape_label(text[start:end], c) if chance(c, 500) else pick(c, LABELS)
        fragments = None
        if end - start >= 3 and chance(c, 30):
            a = c.integer(start + 1, end - 2)
            b = c.integer(a + 1, end - 1)
            fragments = ((start, a), (b, end))
        spans.append(Span(start, end, label, fragments=fragments))
    return spans


# --- running a case and checking the invariants ---------------------------------------------


class FuzzFailure(AssertionError):
    """An invariant did not hold. ``kind`` names the invariant (a violation class)."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind


class Recording:
    """A detector that remembers what it found in the last document and counts rule timeouts
    (``Deidentifier.deidentify`` drops them), so an output that differs between two runs can
    be told apart from a rule that timed out on one of them."""

    def __init__(self, inner: Detector) -> None:
        self.inner = inner
        self.name = inner.name
        self.timeouts = 0
        self.last: list[Span] = []

    def detect(self, document: Document) -> list[Span]:
        run = getattr(self.inner, "run", None)
        if run is None:
            self.last = list(self.inner.detect(document))
        else:
            detection = run(document)
            self.timeouts += len(detection.timeouts)
            self.last = list(detection.spans)
        return self.last


@cache
def policy(name: str) -> Policy:
    return Policy.default() if name == "default" else Policy.default().with_strategy(name)


@cache
def detector(name: str) -> Recording:
    """One detector per kind, loaded once per process (the model takes seconds)."""
    if name == "annotations":
        from crfdeid.deidentify import AnnotationDetector

        return Recording(AnnotationDetector())
    from crfdeid.pipeline import load_pipeline

    return Recording(load_pipeline(rules_only=name == "rules"))


def deidentifier(case: Case) -> Deidentifier:
    """A fresh Deidentifier for the case (cheap: the detector is shared)."""
    return Deidentifier(
        detector(case.detector), policy(case.policy), seed=case.seed, key=KEY if case.keyed else None
    )


def fingerprint(result: Pseudonymised, with_hashes: bool) -> tuple:
    """Everything a run produces. Without a key the original hashes are salted per instance,
    so two instances are compared without them."""
    audit = [r.to_json() for r in result.audit]
    leftovers = [x.to_json() for x in result.leftovers]
    if not with_hashes:
        for row in audit + leftovers:
            row.pop("original_hash")
    spans = [(s.start, s.end, s.label, s.source, s.score, s.fragments) for s in result.spans]
    return result.text, spans, json.dumps(audit, sort_keys=True), json.dumps(leftovers, sort_keys=True)


def check_result(document: Document, detected: Sequence[Span], result: Pseudonymised) -> None:
    """The offsets contract: text outside the replaced spans byte-exact, each surrogate where
    its audit record says, spans inside the output, one audit record per detected span."""
    text, out = document.text, result.text
    if not isinstance(out, str):
        raise FuzzFailure("output not text", type(out).__name__)
    previous = None
    for span in result.spans:
        if not 0 <= span.start < span.end <= len(out):
            raise FuzzFailure("span outside output", f"[{span.start}, {span.end}) in {len(out)} chars")
        if previous is not None and span.start < previous.end:
            raise FuzzFailure("output spans overlap", f"{previous} and {span}")
        previous = span
    # the pseudonymiser never cuts a word, a CRLF or a letter from its combining marks: a
    # detected span starting or ending inside one is replaced (and audited) whole
    detected = whole_words(text, detected)
    view = TextView(text, nfc_only=True)
    if not view.exact:
        detected = [
            view.span_to_original(m) for m in (view.span_to_view(s) for s in detected) if m is not None
        ]
    detected_keys = sorted((s.start, s.end, s.label) for s in detected)
    # second mentions the pseudonymiser found itself (crfdeid.propagate) are audited too: they
    # lie outside every detected span, each on a range of its own — or they are a detected name
    # widened to the initials beside it and the whole words it cuts (a discontinuous span is not
    # widened by whole_words), which then covers that span whole, audited as an ``overlap``. A
    # propagated record that is itself an ``overlap`` replaced nothing (a span before it won)
    propagated = sorted((r.start, r.end) for r in result.audit
                        if r.source == "propagated" and r.strategy != "overlap")
    covered = {(r.start, r.end) for r in result.audit if r.strategy == "overlap"}
    for i, (start, end) in enumerate(propagated):
        if not 0 <= start < end <= len(text) or (i + 1 < len(propagated) and propagated[i + 1][0] < end):
            raise FuzzFailure("propagated span out of place", f"[{start}, {end})")
        for s in detected:
            if s.start < end and start < s.end and not (
                start <= s.start and s.end <= end and (s.start, s.end) in covered
            ):
                raise FuzzFailure("propagated span overlaps a detected one", f"[{start}, {end})")
    audited = sorted((r.start, r.end, r.label) for r in result.audit if r.source != "propagated")
    # a span reaching past the one it overlaps is replaced with it: the group's leader is audited
    # over the group's whole range (crfdeid.pseudonymise.resolve_overlaps), ending where one of
    # the spans it took in (detected or propagated) ends
    ends = Counter(r.end for r in result.audit)  # the leader's own end, and its member's
    same = Counter(detected_keys) & Counter(audited)
    widened = sorted((Counter(detected_keys) - same).elements())
    leaders = sorted((Counter(audited) - same).elements())
    if len(widened) != len(leaders) or any(
        (ds, dl) != (a_s, al) or ae <= de or ends[ae] < 2
        for (ds, de, dl), (a_s, ae, al) in zip(widened, leaders, strict=True)
    ):
        raise FuzzFailure("audit does not match the detected spans", f"{detected_keys} vs {audited}")
    # a record over a gap (a discontinuous span, or a group widened over spans with text kept
    # between their parts) joins its parts with spaces in the audit: its placement is not compared
    pieces = [p for s in detected for p in s.parts] + [(r.start, r.end) for r in result.audit
                                                        if r.source == "propagated"]

    def gapped(r: Any) -> bool:
        cover = {i for a, b in pieces if a < r.end and r.start < b
                 for i in range(max(a, r.start), min(b, r.end))}
        return len(cover) < r.end - r.start

    discontinuous = {(r.start, r.end, r.label) for r in result.audit if gapped(r)}
    records = sorted((r for r in result.audit if r.strategy != "overlap"), key=lambda r: r.start)
    old, new, after = 0, 0, "text outside spans changed"
    for r in records:
        if not (old <= r.start <= r.end <= len(text) and new <= r.new_start <= r.new_end <= len(out)):
            raise FuzzFailure(
                "audit offsets out of order",
                f"[{r.start}, {r.end}) -> [{r.new_start}, {r.new_end}) after ({old}, {new})",
            )
        if out[new : r.new_start] != text[old : r.start]:
            raise FuzzFailure(
                after,
                f"{text[old : r.start][-60:]!r} became {out[new : r.new_start][-60:]!r} "
                f"before {r.label} at {r.start}",
            )
        if (r.start, r.end, r.label) not in discontinuous:
            placed = out[r.new_start : r.new_end]
            wanted = text[r.start : r.end] if r.surrogate is None else r.surrogate
            if placed != wanted:
                raise FuzzFailure("replacement not where the audit says", f"{wanted!r} vs {placed!r}")
        if r.strategy == "pseudonymise" and r.surrogate and (
            normalise(r.surrogate) == normalise(text[r.start : r.end]) != ""
        ):
            raise FuzzFailure("surrogate equals the original", f"{r.label} {r.surrogate!r}")
        old, new = r.end, r.new_end
        after = (
            "discontinuous span: audit new_end leaves out the text between its parts"
            if (r.start, r.end, r.label) in discontinuous
            else "text outside spans changed"
        )
    if out[new:] != text[old:]:
        raise FuzzFailure(after, f"tail {text[old:][:60]!r} became {out[new:][:60]!r}")


def check(case: Case, other: str = "", repeat: bool = True) -> Pseudonymised:
    """Run a case and check every invariant; raise on a crash or a ``FuzzFailure``.

    ``other`` is a second note run in between two runs of the case on the same instance: the
    output of a note must not depend on what the instance saw before. ``repeat=False`` runs
    the case once (offsets only), for giant inputs in the test suite.
    """
    document = case.document()
    rec = detector(case.detector)
    instance = deidentifier(case)
    timeouts = rec.timeouts
    result = instance.deidentify(document)
    check_result(document, rec.last, result)
    if not repeat:
        return result
    instance.deidentify(Document("other", other))
    again = instance.deidentify(document)
    fresh = deidentifier(case).deidentify(document)
    if rec.timeouts != timeouts:
        return result  # a rule timed out: the runs may differ legitimately (counted apart)
    if fingerprint(again, True) != fingerprint(result, True):
        raise FuzzFailure("output depends on the previous note", _first_difference(result, again))
    if fingerprint(fresh, case.keyed) != fingerprint(result, case.keyed):
        raise FuzzFailure("same seed, different output", _first_difference(result, fresh))
    return result


def _first_difference(a: Pseudonymised, b: Pseudonymised) -> str:
    if a.text != b.text:
        pairs = zip(a.text, b.text, strict=False)
        i = next((k for k, (x, y) in enumerate(pairs) if x != y), min(len(a.text), len(b.text)))
        return f"text differs at {i}: {a.text[i : i + 40]!r} vs {b.text[i : i + 40]!r}"
    return "spans or audit differ"


# --- classifying and saving failures ---------------------------------------------------------


def signature(exc: BaseException) -> str:
    """What class a failure belongs to: the invariant, or the exception type and the two
    innermost crfdeid functions it came from (a helper such as ``draw`` alone would lump every
    generator together). Files and functions, not lines: lines move with every edit."""
    if isinstance(exc, FuzzFailure):
        return f"violation: {exc.kind}"
    frames = _crfdeid_frames(exc)[-2:]
    where = " < ".join(f"{f.filename} in {f.name}" for f in reversed(frames)) or "outside crfdeid"
    return f"{type(exc).__name__} at {where}"


def location(exc: BaseException) -> str:
    """The innermost crfdeid frame with its line, for the report."""
    frames = _crfdeid_frames(exc)
    return f"{frames[-1].filename}:{frames[-1].lineno} in {frames[-1].name}" if frames else "outside crfdeid"


def _crfdeid_frames(exc: BaseException) -> list[traceback.FrameSummary]:
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename.startswith(PACKAGE)]
    for f in frames:
        f.filename = str(Path(f.filename).relative_to(ROOT))
    return frames


def failure_of(case: Case, other: str = "", repeat: bool = True) -> BaseException | None:
    try:
        check(case, other, repeat)
    except Exception as exc:  # every exception is a finding
        return exc
    return None


def shrink(
    case: Case,
    sig: str,
    budget: int = 400,
    other: str = "",
    classify: Callable[[Case], str | None] | None = None,
    seconds: float = 120.0,
) -> Case:
    """A smaller case failing the same way, in at most ``budget`` runs: spans dropped one by
    one, discontinuous spans made whole, then chunks of text removed (halving the chunk size).
    Spans move with the text; a chunk inside a span shortens it, one across its edge is kept.
    ``classify`` gives a case's failure signature or None (default: run ``check``); ``seconds``
    bounds the time (a giant input runs for seconds each time)."""
    deadline = time.monotonic() + seconds

    def by_checking(candidate: Case) -> str | None:
        exc = failure_of(candidate, other)
        return None if exc is None else signature(exc)

    classify = classify or by_checking

    def same(candidate: Case) -> bool:
        nonlocal budget
        budget = budget - 1 if time.monotonic() < deadline else 0
        return classify(candidate) == sig

    best = _with(case, recipe=None)
    i = 0
    while i < len(best.spans) and budget > 0:
        trial = _with(best, spans=best.spans[:i] + best.spans[i + 1 :])
        if same(trial):
            best = trial
        else:
            i += 1
    for i, span in enumerate(best.spans):
        if span.fragments and budget > 0:
            whole = Span(span.start, span.end, span.label)
            trial = _with(best, spans=(*best.spans[:i], whole, *best.spans[i + 1 :]))
            if same(trial):
                best = trial
    size = max(1, len(best.text) // 2)
    while size >= 1 and budget > 0:
        start = 0
        while start < len(best.text) and budget > 0:
            trial = _without(best, start, start + size)
            if trial is not None and same(trial):
                best = trial
            else:
                start += size
        size //= 2
    return best


def _with(case: Case, **changes: Any) -> Case:
    fields = {**case.__dict__, **changes}
    return Case(**fields)


def _without(case: Case, start: int, end: int) -> Case | None:
    """The case with ``text[start:end]`` removed, or None when the chunk straddles a span's
    edge or would empty one of its parts."""
    end = min(end, len(case.text))
    if start >= end:
        return None
    n = end - start

    def move(a: int, b: int) -> tuple[int, int] | None:
        if b <= start:
            return a, b
        if a >= end:
            return a - n, b - n
        if a <= start and end <= b and b - a > n:
            return a, b - n  # the chunk lies inside: the part gets shorter
        return None

    moved = []
    for span in case.spans:
        parts = [move(a, b) for a, b in span.parts]
        if any(p is None for p in parts):
            return None
        frags = tuple(parts) if span.fragments else None
        moved.append(Span(parts[0][0], parts[-1][1], span.label, span.source, span.score, frags))
    return _with(case, text=case.text[:start] + case.text[end:], spans=tuple(moved), recipe=None)


def corpus_text(corpus_root: Path) -> str:
    """Every MEDDOCAN note (train and dev) in one string, to check saved cases against."""
    paths = [p for split in ("train", "dev") for p in sorted((corpus_root / split).glob("*.txt"))]
    return "\n".join(p.read_text(encoding="utf-8") for p in paths)


def holds_corpus_text(text: str, corpus: str, window: int = 20) -> bool:
    """True when ``text`` contains a ``window``-character stretch of the corpus (any longer
    copied stretch contains one that starts at a multiple of ``window // 2``)."""
    step = window // 2
    starts = range(0, max(1, len(text) - window + 1), step)
    if len(starts) > 400:  # a giant text: a sample is enough to catch a pasted note
        starts = starts[:: len(starts) // 400 + 1]
    return any(text[i : i + window] in corpus for i in starts if len(text[i : i + window]) == window)


def case_to_json(
    case: Case, *, id: str, expected: str, found_by: str, date: str, what: str
) -> dict[str, Any]:
    """A saved regression case. A case still holding corpus text is saved as its recipe
    (note name, lines, mutations) and never as text."""
    out: dict[str, Any] = {"id": id}
    if case.recipe is not None and case.recipe["origin"].startswith("meddocan:"):
        out["recipe"] = case.recipe
    else:
        out["text"] = case.text
    if case.detector == "annotations":
        out["spans"] = [
            {"start": s.start, "end": s.end, "label": s.label}
            | ({"fragments": [list(f) for f in s.fragments]} if s.fragments else {})
            for s in case.spans
        ]
    out.update(
        detector=case.detector,
        policy=case.policy,
        keyed=case.keyed,
        seed=case.seed,
        expected=expected,
        found_by=found_by,
        date=date,
        what=what,
    )
    return out


def case_from_json(data: dict[str, Any], corpus_root: Path | None = None) -> Case | None:
    """The case a saved JSON describes; None when it needs a corpus that is absent."""
    if "text" in data:
        text = data["text"]
    else:
        note = resolve_origin(data["recipe"]["origin"], corpus_root)
        if note is None:
            return None
        text = apply_recipe(note, data["recipe"])
    spans = tuple(
        Span(s["start"], s["end"], s["label"], fragments=tuple(map(tuple, s.get("fragments") or ())) or None)
        for s in data.get("spans", ())
    )
    return Case(text, data["detector"], data.get("policy", "default"), data.get("keyed", False),
                data.get("seed", 1), spans, "saved", data.get("recipe"))


def saved_cases(folder: Path = REGRESSION_DIR) -> list[tuple[Path, dict[str, Any]]]:
    return [(p, json.loads(p.read_text(encoding="utf-8"))) for p in sorted(folder.glob("*.json"))]


def known_failures(folder: Path = REGRESSION_DIR) -> dict[str, str]:
    """{signature: expected} of the saved cases that still fail (``expected`` is not ``ok``):
    the property tests let these through, so a known bug is tracked once, by its strict xfail
    in ``tests/test_regression_fuzz.py``, and switching it to ``ok`` makes the fuzzer look for
    it again (a ratchet)."""
    return {
        data["signature"]: data["expected"]
        for _, data in saved_cases(folder)
        if data.get("expected") != "ok" and data.get("signature")
    }


def write_case(data: dict[str, Any], folder: Path = REGRESSION_DIR) -> Path:
    """One JSON file per case; ASCII-escaped so lone surrogates and bidi marks survive any editor."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{data['id']}.json"
    path.write_text(json.dumps(data, ensure_ascii=True, indent=1) + "\n", encoding="utf-8")
    return path


def excerpt(text: str, limit: int = 120) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "…")

