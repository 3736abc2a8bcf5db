"""A note with highlighted spans, as HTML: the piece the run report and a review screen share.

``render_note(text, highlights)`` returns safe markup (``markupsafe.Markup``): the text escaped by
Jinja2's autoescape, each highlight a ``<mark>`` with its label's colour class, a tooltip and an
optional id to link to. Nothing from a note reaches the HTML unescaped — names, ``<script>``,
quotes in a label or a tooltip included. ``label_css(labels)`` gives the colour rules, ``NOTE_CSS``
the rest; ``highlights_from_audit`` turns audit records (``audit.jsonl``'s ``span`` records) into
highlights of the original or of the de-identified text.

Highlights must not overlap: where two do, the one that starts first (the longer, at a tie) is
drawn and the other is left out — a view, never the record.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from markupsafe import Markup

#: A view longer than this is cut (the rest is in the released file), so a 10 MB note does not
#: make a report no browser can open.
MAX_VIEW_CHARS = 100_000

NOTE_CSS = """
pre.note-text { white-space: pre-wrap; word-wrap: break-word; font: 13px/1.5 ui-monospace, Menlo,
  Consolas, monospace; margin: 0; padding: .6em .8em; background: #fcfcfc; border: 1px solid #e3e3e3;
  border-radius: 4px; }
mark.phi { background: hsl(var(--h) 85% 85%); border-bottom: 2px solid hsl(var(--h) 60% 45%);
  border-radius: 2px; padding: 0 1px; color: inherit; }
mark.phi.low { outline: 2px dashed #c0392b; outline-offset: 1px; }
mark.phi.leftover { background: #ff6b6b; color: #fff; border-bottom-color: #8b0000; }
mark.phi.flash { animation: flash 1.2s ease-out 2; }
@keyframes flash { 50% { box-shadow: 0 0 0 4px #f1c40f; } }
.cut { color: #8a6d3b; font-style: italic; }
"""


@dataclass(frozen=True)
class Highlight:
    """A stretch of a note to mark: ``[start, end)``, its label, a tooltip, an id to link to and
    extra CSS classes (``low``, ``leftover``)."""

    start: int
    end: int
    label: str
    title: str = ""
    anchor: str | None = None
    classes: str = ""


def label_class(label: str) -> str:
    """A CSS class for a label that is safe whatever the label holds."""
    return f"l{zlib.crc32(label.encode('utf-8')):08x}"


def label_hue(label: str) -> int:
    """A stable hue per label (the same colour in every report and screen)."""
    return (zlib.crc32(label.encode("utf-8")) * 47) % 360


def label_css(labels: Iterable[str]) -> Markup:
    """The colour rule of each label (class names and hues are derived, never the label itself)."""
    rules = "".join(f".{label_class(label)}{{--h:{label_hue(label)}}}" for label in sorted(set(labels)))
    return Markup(rules)


def segments(text: str, highlights: Iterable[Highlight], limit: int | None = MAX_VIEW_CHARS
             ) -> tuple[list[tuple[str, Highlight | None]], bool]:
    """The text cut into plain and highlighted pieces, and whether it was cut at ``limit``."""
    cut = limit is not None and len(text) > limit
    end_of_text = limit if cut and limit is not None else len(text)
    pieces: list[tuple[str, Highlight | None]] = []
    at = 0
    for h in sorted(highlights, key=lambda h: (h.start, -h.end)):
        if h.start < at or h.end <= h.start or h.end > end_of_text:
            continue  # overlapping, empty, or past what is shown
        if h.start > at:
            pieces.append((text[at:h.start], None))
        pieces.append((text[h.start:h.end], h))
        at = h.end
    if at < end_of_text:
        pieces.append((text[at:end_of_text], None))
    return pieces, cut


@lru_cache(maxsize=1)
def environment() -> Any:
    """The Jinja2 environment of crfdeid's HTML (autoescape on for every template)."""
    from jinja2 import Environment, PackageLoader, StrictUndefined

    env = Environment(loader=PackageLoader("crfdeid", "templates"), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["label_class"] = label_class
    return env


def render_note(text: str, highlights: Iterable[Highlight], *, limit: int | None = MAX_VIEW_CHARS,
                css_class: str = "") -> Markup:
    """``<pre class="note-text">`` with the highlights marked; the text escaped."""
    pieces, cut = segments(text, highlights, limit)
    template = environment().get_template("note.html.j2")
    return Markup(template.render(pieces=pieces, cut=cut, shown=limit, total=len(text),
                                  css_class=css_class))


def highlights_from_audit(records: Iterable[Mapping[str, Any]], view: str, *, prefix: str = "",
                          low: float | None = None, original: str | None = None) -> list[Highlight]:
    """Highlights of the ``original`` or ``deidentified`` text from audit ``span`` records (and
    ``leftover`` records, on the de-identified text). ``prefix`` makes ids unique in a page
    (``{prefix}-{view[0]}{i}``, ``i`` the record's position); a span scored below ``low`` gets the
    class ``low``. A tooltip never holds an original string unless ``original`` (the original
    text) is given — and then only in the de-identified view's tooltip."""
    out: list[Highlight] = []
    for i, record in enumerate(records):
        if record.get("record") == "leftover" or record.get("leftover"):
            if view == "deidentified":
                out.append(Highlight(record["new_start"], record["new_end"], record["label"],
                                     f"{record['label']}: an original string left in the output",
                                     f"{prefix}-l{i}", "leftover"))
            continue
        if record.get("strategy") == "overlap":
            continue  # inside another span, replaced with it
        start, end = ((record["start"], record["end"]) if view == "original"
                      else (record["new_start"], record["new_end"]))
        if start < 0 or end <= start:
            continue
        score = record.get("score")
        parts = [record["label"], record.get("source", ""),
                 f"score {score:.3f}" if isinstance(score, (int, float)) else "no score",
                 record.get("strategy", "")]
        if view == "original":
            surrogate = record.get("surrogate")
            parts.append(f"→ {surrogate}" if surrogate is not None else "kept")
        elif original is not None:
            parts.append(f"was: {original[record['start']:record['end']]}")
        if record.get("note"):
            parts.append(record["note"])
        classes = "low" if low is not None and isinstance(score, (int, float)) and score < low else ""
        out.append(Highlight(start, end, record["label"], " · ".join(p for p in parts if p),
                             f"{prefix}-{view[0]}{i}", classes))
    return out
