"""Reading a rule's pattern into ``regexinfo.Info``: a small recursive-descent reader.

It knows the syntax of ``regex`` version 0 that rule packs use (verbose mode and its comments,
classes and ``\\p{..}`` properties, scoped flags, look-arounds, conditionals, back-references)
and raises ``Unsupported`` for anything else (``\\G``, recursion, branch reset, global inline
flags, fuzzy matching, nested sets...): a pattern it cannot read fully gets no prefilter, so a
construct read wrongly can never make one unsafe by going unnoticed.
"""

from __future__ import annotations

import math

from .regexinfo import ANY, NONE, UNKNOWN, ZERO, CharSet, Info, alternation, repeat, sequence

#: Class escapes that stand for a set of characters (``\d``, ``\p{L}``...), as ``regex`` reads them.
_CLASS_ESCAPES = set("dDwWsS")
_ZERO_ESCAPES = set("bBAZzmM")  # \b, \B, \A, \Z, \z, \m, \M: positions, no characters
_LITERAL_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f"}
_SCOPED_FLAGS = set("imsx")


class Unsupported(Exception):
    """The pattern uses a construct the reader does not know: no prefilter for it."""


def _char_item(c: str) -> str:
    """A character as a class item that means exactly that character, whatever the flags."""
    if c.isascii() and c.isalnum():
        return c
    if c.isascii() and c.isprintable():
        return "\\" + c  # an escaped ASCII punctuation mark or space stands for itself
    return f"\\U{ord(c):08x}"


def _literal(c: str, icase: bool) -> Info:
    items = frozenset({_char_item(c)})
    chars = CharSet(insensitive=items) if icase else CharSet(sensitive=items)
    return Info(1, 1, chars, chars, frozenset({c}))


class _Reader:
    """Recursive descent over one pattern; each ``read_*`` returns the Info of what it read."""

    def __init__(self, pattern: str, ignorecase: bool, verbose: bool) -> None:
        self.s = pattern
        self.i = 0
        self.icase = [ignorecase]
        self.verbose = [verbose]

    # cursor
    def peek(self) -> str:
        return self.s[self.i] if self.i < len(self.s) else ""

    def take(self) -> str:
        c = self.peek()
        if not c:
            raise Unsupported("unexpected end of pattern")
        self.i += 1
        return c

    def skip_space(self) -> None:
        if not self.verbose[-1]:
            return
        while self.i < len(self.s):
            c = self.s[self.i]
            if c.isspace():
                self.i += 1
            elif c == "#":
                end = self.s.find("\n", self.i)
                self.i = len(self.s) if end < 0 else end + 1
            else:
                break

    # grammar
    def read(self) -> Info:
        info = self.read_alternation()
        self.skip_space()
        if self.i != len(self.s):
            raise Unsupported(f"unbalanced ')' at {self.i}")
        return info

    def read_alternation(self) -> Info:
        branches = [self.read_sequence()]
        while self.peek() == "|":
            self.i += 1
            branches.append(self.read_sequence())
        return alternation(branches)

    def read_sequence(self) -> Info:
        items = []
        while True:
            self.skip_space()
            c = self.peek()
            if c in ("", "|", ")"):
                return sequence(items)
            atom = self.read_atom()
            items.append(self.read_quantifier(atom))

    def read_quantifier(self, atom: Info) -> Info:
        self.skip_space()
        c = self.peek()
        if c == "?":
            lo, hi = 0, 1.0
        elif c == "*":
            lo, hi = 0, math.inf
        elif c == "+":
            lo, hi = 1, math.inf
        elif c == "{":
            end = self.s.find("}", self.i)
            body = self.s[self.i + 1:end] if end > 0 else ""
            low, comma, high = body.partition(",")
            if not (low.isdigit() or (comma and not low)) or (high and not high.isdigit()):
                raise Unsupported("a '{' that is not a plain quantifier")
            lo = int(low) if low else 0
            hi = float(high) if high else (math.inf if comma else float(lo))
            self.i = end
        else:
            return atom
        self.i += 1
        if self.peek() in ("?", "+"):  # lazy or possessive: the same set of matches, or fewer
            self.i += 1
        self.skip_space()
        if self.peek() in ("?", "*", "+", "{"):
            raise Unsupported("stacked quantifiers")
        return repeat(atom, lo, hi)

    def read_atom(self) -> Info:
        c = self.take()
        if c == "(":
            return self.read_group()
        if c == "[":
            return self.read_class()
        if c == "\\":
            return self.read_escape()
        if c == ".":
            return Info(1, 1, ANY, ANY)
        if c in "^$":
            return ZERO
        if c in "*+?{":
            raise Unsupported(f"quantifier {c!r} with nothing before it")
        return _literal(c, self.icase[-1])

    def read_escape(self) -> Info:
        c = self.take()
        if c in _CLASS_ESCAPES:
            return self._class_info(frozenset({"\\" + c}))
        if c in "pP":
            return self._class_info(frozenset({self._property(c)}))
        if c in _ZERO_ESCAPES:
            return ZERO
        if c == "K":
            return Info(0, 0, NONE, NONE, frozenset({""}), keeps=True)
        if (c.isdigit() and c != "0") or c == "g":
            if c == "g":
                self._skip_name("<", ">")
            elif self.peek().isdigit():
                raise Unsupported("a back-reference past group 9, or an octal escape")
            return UNKNOWN  # a back-reference: whatever its group read
        char = self._escaped_char(c)
        return _literal(char, self.icase[-1])

    def _escaped_char(self, c: str) -> str:
        if c in _LITERAL_ESCAPES:
            return _LITERAL_ESCAPES[c]
        if c in "xuU":
            size = {"x": 2, "u": 4, "U": 8}[c]
            digits = self.s[self.i:self.i + size]
            if len(digits) != size or any(d not in "0123456789abcdefABCDEF" for d in digits):
                raise Unsupported(f"escape \\{c}{digits}")
            self.i += size
            return chr(int(digits, 16))
        if c.isalnum():
            raise Unsupported(f"escape \\{c}")
        return c  # an escaped punctuation mark or space stands for itself

    def _property(self, c: str) -> str:
        if self.peek() == "{":
            end = self.s.find("}", self.i)
            if end < 0:
                raise Unsupported("unterminated \\p{")
            name = self.s[self.i:end + 1]
            self.i = end + 1
        else:
            name = self.take()
        return "\\" + c + name

    def _class_info(self, items: frozenset[str], finite: frozenset[str] | None = None) -> Info:
        chars = CharSet(insensitive=items) if self.icase[-1] else CharSet(sensitive=items)
        return Info(1, 1, chars, chars, finite)

    def read_class(self) -> Info:
        negated = self.peek() == "^"
        if negated:
            self.i += 1
        if self.peek() == "]":
            raise Unsupported("']' first in a class")
        items: set[str] = set()
        finite: set[str] | None = set()
        while True:
            c = self.take()
            if c == "]":
                break
            if c == "[" or (c in "&|~-" and self.peek() == c):
                raise Unsupported("nested set or set operation")
            if c == "\\":
                e = self.take()
                if e in _CLASS_ESCAPES or e in "pP":
                    items.add("\\" + e if e not in "pP" else self._property(e))
                    finite = None
                    continue
                if e == "b" or e.isdigit():
                    raise Unsupported(f"\\{e} in a class")
                c = self._escaped_char(e)
            if self.peek() == "-" and self.s[self.i + 1:self.i + 2] not in ("]", ""):
                self.i += 1
                high = self.take()
                if high == "\\":
                    e = self.take()
                    if e in _CLASS_ESCAPES or e in "pP" or e == "b" or e.isdigit():
                        raise Unsupported("a range that ends in a class")
                    high = self._escaped_char(e)
                elif high == "[":
                    raise Unsupported("nested set")
                if ord(high) < ord(c):
                    raise Unsupported("a reversed range")
                span = [chr(o) for o in range(ord(c), ord(high) + 1)]
                if len(span) <= 64:  # a range in a look-ahead keeps regex from skipping ahead
                    items.update(_char_item(x) for x in span)
                else:
                    items.add(f"{_char_item(c)}-{_char_item(high)}")
                if finite is not None and len(span) <= 8:
                    finite.update(span)
                else:
                    finite = None
                continue
            items.add(_char_item(c))
            if finite is not None:
                finite.add(c)
        if negated:
            return Info(1, 1, ANY, ANY)
        if finite is not None and len(finite) > 8:
            finite = None
        return self._class_info(frozenset(items), frozenset(finite) if finite is not None else None)

    def _skip_name(self, opening: str, closing: str) -> None:
        if self.take() != opening:
            raise Unsupported("a name without its brackets")
        end = self.s.find(closing, self.i)
        if end < 0:
            raise Unsupported("an unterminated name")
        self.i = end + 1

    def read_group(self) -> Info:
        if self.peek() != "?":
            return self._group_body()
        self.i += 1
        c = self.take()
        if c == ":" or c == ">":  # non-capturing; atomic (it can only drop matches)
            return self._group_body()
        if (c == "P" and self.peek() == "<") or (c == "<" and self.peek() not in ("=", "!")):
            if c == "<":
                self.i -= 1
            self._skip_name("<", ">")
            return self._group_body()
        if c == "P" and self.peek() == "=":
            self.i += 1
            end = self.s.find(")", self.i)
            if end < 0:
                raise Unsupported("an unterminated back-reference")
            self.i = end + 1
            return UNKNOWN
        if c in "=!":
            return self._lookaround(behind=False)
        if c == "<" and self.peek() in "=!":
            positive = self.take() == "="
            return self._lookaround(behind=positive)
        if c == "#":
            end = self.s.find(")", self.i)
            if end < 0:
                raise Unsupported("an unterminated comment")
            self.i = end + 1
            return ZERO
        if c == "(":
            return self._conditional()
        self.i -= 1
        return self._scoped_flags()

    def _group_body(self) -> Info:
        info = self.read_alternation()
        if self.take() != ")":
            raise Unsupported("an unclosed group")
        return info

    def _lookaround(self, behind: bool) -> Info:
        """A look-around consumes nothing; a positive look-behind says what comes before."""
        inner = self._group_body()
        return Info(0, 0, NONE, NONE, frozenset({""}), behind=inner.trail if behind else None,
                    keeps=inner.keeps)

    def _conditional(self) -> Info:
        if self.peek() == "?":  # a look-around as the condition
            self.i += 1
            c = self.take()
            if c == "<":
                c = self.take()
            if c not in "=!":
                raise Unsupported("a conditional whose condition is not a look-around")
            self._lookaround(behind=False)  # a condition: it may fail, and the "no" branch match
        else:
            end = self.s.find(")", self.i)
            if end < 0:
                raise Unsupported("an unterminated condition")
            self.i = end + 1
        branches = [self.read_sequence()]
        while self.peek() == "|":
            self.i += 1
            branches.append(self.read_sequence())
        if len(branches) > 2 or self.take() != ")":
            raise Unsupported("a conditional with more than two branches")
        if len(branches) == 1:
            branches.append(ZERO)
        return alternation(branches)

    def _scoped_flags(self) -> Info:
        on, off, sign = "", "", "+"
        while True:
            c = self.take()
            if c == ":":
                break
            if c == "-" and sign == "+":
                sign = "-"
            elif c in _SCOPED_FLAGS:
                if sign == "+":
                    on += c
                else:
                    off += c
            else:
                raise Unsupported(f"group syntax (?{on}{c}")  # global flags, recursion, (?|...
        self.icase.append(("i" in on or self.icase[-1]) and "i" not in off)
        self.verbose.append(("x" in on or self.verbose[-1]) and "x" not in off)
        try:
            return self._group_body()
        finally:
            self.icase.pop()
            self.verbose.pop()


def read(pattern: str, ignorecase: bool = False, verbose: bool = False) -> Info:
    """The Info of a whole pattern; raises Unsupported for what the reader does not know."""
    return _Reader(pattern, ignorecase, verbose).read()
