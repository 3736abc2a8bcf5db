"""JSON read with the offsets of its strings in the note, as far as it goes.

Why: a structure step (``crfdeid.fhir``, ``crfdeid.key_values``) labels a JSON value where it
stands in the note, and a pasted export may be cut off: ``json.loads`` gives neither the
offsets nor the part before the cut. Escapes are left as written (a span covers the value's
characters in the note).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import regex

#: The JSON's tokens: a string (its content in group ``s``), punctuation, a literal.
_TOKEN = regex.compile(
    r'\s*+(?:"(?P<s>(?:[^"\\\n]|\\.)*+)"|(?P<p>[{}\[\]:,])|(?P<l>-?\d[\d.eE+-]*+|true|false|null))')
#: Deeper than this, the JSON is no record: reading stops.
_MAX_DEPTH = 100


@dataclass
class JsonString:
    """A JSON string: its content's offsets in the text."""

    start: int
    end: int
    text: str


@dataclass
class JsonObject:
    items: list[tuple[JsonString, object]] = field(default_factory=list)

    def get(self, key: str) -> object:
        for k, v in self.items:
            if k.text == key:
                return v
        return None

    def string(self, key: str) -> str:
        value = self.get(key)
        return value.text if isinstance(value, JsonString) else ""


@dataclass
class JsonArray:
    items: list[object] = field(default_factory=list)


class JsonParser:
    """JSON with the offsets of its strings, read as far as it goes (a cut-off export is
    closed where it stops)."""

    def __init__(self, text: str, start: int) -> None:
        self.text, self.at = text, start
        self.keys: list[JsonString] = []
        self.punctuation: list[tuple[int, int]] = []

    def _next(self) -> regex.Match | None:
        found = _TOKEN.match(self.text, self.at)
        if found is not None:
            self.at = found.end()
        return found

    def value(self, depth: int = 0) -> object:
        token = self._next()
        if token is None or depth > _MAX_DEPTH:
            raise ValueError
        if token["s"] is not None:
            return JsonString(token.start("s"), token.end("s"), token["s"])
        if token["l"] is not None:
            return None
        self.punctuation.append((token.start("p"), token.end("p")))
        if token["p"] == "{":
            obj = JsonObject()
            while True:
                key = self._next()
                if key is None:
                    return obj
                if key["p"] is not None:
                    self.punctuation.append((key.start("p"), key.end("p")))
                    if key["p"] == "}":
                        return obj
                    if key["p"] == ",":
                        continue
                    raise ValueError
                if key["s"] is None:
                    raise ValueError
                name = JsonString(key.start("s"), key.end("s"), key["s"])
                self.keys.append(JsonString(key.start(), key.end(), key["s"]))
                colon = self._next()
                if colon is None or colon["p"] != ":":
                    return obj
                self.punctuation.append((colon.start("p"), colon.end("p")))
                try:
                    obj.items.append((name, self.value(depth + 1)))
                except ValueError:
                    return obj
        if token["p"] == "[":
            arr = JsonArray()
            while True:
                mark = self.at
                token = self._next()
                if token is None:
                    return arr
                if token["p"] in ("]", ","):
                    self.punctuation.append((token.start("p"), token.end("p")))
                    if token["p"] == "]":
                        return arr
                    continue
                self.at = mark
                try:
                    arr.items.append(self.value(depth + 1))
                except ValueError:
                    return arr
        raise ValueError


def items(value: object) -> Iterator[object]:
    """A value that may be one element or an array of them, element by element."""
    if isinstance(value, JsonArray):
        yield from value.items
    elif value is not None:
        yield value


def strings(value: object) -> Iterator[JsonString]:
    for item in items(value):
        if isinstance(item, JsonString):
            yield item


def texts(value: object) -> str:
    """Every string under ``value`` (a type's text and its codings), joined."""
    if isinstance(value, JsonString):
        return value.text
    if isinstance(value, JsonObject):
        return " ".join(texts(v) for _, v in value.items)
    if isinstance(value, JsonArray):
        return " ".join(texts(v) for v in value.items)
    return ""

