"""Prefilters (``crfdeid.rules.prefilter``, ``reader``, ``triggers``): the same matches with and without them.

A prefilter may only skip a place where a pattern cannot match. Checked four ways: what the
reader derives from patterns written to probe it; every rule of every shipped pack on its own
examples and on a corpus (the German letters, MEDDOCAN dev when it is there), with and without
prefilters; random text that mixes the shipped triggers with near misses; and random *patterns*
over random text, which probe the reader beyond what the packs use today.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import regex
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from crfdeid.rules import Rule, RuleEngine, shipped_packs
from crfdeid.rules.prefilter import shape
from crfdeid.rules.reader import Unsupported, read
from crfdeid.rules.triggers import TriggerIndex, _anchors
from crfdeid.types import Document

# database=None: no .hypothesis/ folder is written into the repository.
FAST = settings(max_examples=150, database=None, deadline=None)
LETTERS = Path(__file__).parent / "fixtures" / "de" / "letters"
PACKS = ("es", "de", "none")


def rule(pattern: str, *flags: str, rule_id: str = "r") -> Rule:
    return Rule(id=rule_id, label="ID_SUJETO_ASISTENCIA", description="A test rule.", pattern=pattern,
                flags=flags)


def _key(m) -> tuple:
    return (m.rule.id, m.start, m.end, m.text)


def outcome(engine: RuleEngine, text: str) -> tuple:
    """Everything ``run`` reports but the seconds a timeout took: kept, dropped, timeouts."""
    result = engine.run(Document("d", text))
    return ([_key(m) for m in result.matches], [(_key(a), _key(b)) for a, b in result.dropped],
            [(t.rule_id, t.start, t.end) for t in result.timeouts])


def both(rules, **kwargs) -> tuple[RuleEngine, RuleEngine]:
    return RuleEngine(rules, **kwargs), RuleEngine(rules, prefilter=False, **kwargs)


# --- what the reader derives -----------------------------------------------------------------

def test_the_first_characters_of_a_match_and_digits_as_a_class():
    assert shape(r"(?<![\p{N}/.,-])(?:0?[1-9]|[12]\d|3[01])/\d\d", 0).first == r"\d"
    assert shape(r"(?<!\w)(?:Sexo|SEXO):", 0).first == "[S]"
    assert shape(r"(?i:fax)|Tel", 0).first == "(?:[T]|(?i:[f]))"
    assert shape(r"fax|(?-i:Tel)", regex.IGNORECASE).first == "(?:(?-i:[T])|[f])"
    assert shape(r"x?\d+", 0).first == r"[\dx]"
    assert shape(r"[^\s]+@", 0).first is None  # a negated class: any character
    assert shape(r"[A-Z]\d{9}", 0).first is None  # a broad set: regex gains nothing from it
    assert shape(r"\w+@", 0).first is None


def test_keywords_at_the_start_are_triggers_found_at_the_match_start():
    found = shape(r"(?<![\p{L}\p{N}])(?:n[º°]\.?\ ?)?episodio[\ \t]*:?\ *(?P<phi>\d{4,12})",
                  regex.IGNORECASE | regex.VERBOSE)
    assert not found.behind and found.trigger.reach == 0  # the optional "nº " is spelled out
    assert {"episodio", "nº episodio", "n°.episodio"} <= found.trigger.strings
    day_month = shape(r"\d{1,2} de (?:enero|febrero)", 0).trigger
    assert day_month.strings == {" de enero", " de febrero"} and day_month.reach == 2


def test_an_unbounded_reach_is_bounded_by_the_characters_before_the_trigger():
    email = shape(r"(?<!\w)[\w+-]+(?:\.[\w+-]+)*@[\w-]+\.[a-z]{2,}", 0)
    assert email.trigger.strings == {"@"} and email.trigger.reach == math.inf
    assert email.between == r"[\+\-\.\w]"
    assert shape(r".+@", 0).trigger is None  # anything may come before: no bound, no trigger


def test_a_positive_look_behind_at_the_start_is_a_trigger_behind_the_match():
    found = shape(r"(?<=(?:tel|fax)[.:]?\ *\d+\ *[/,]\ *)(?P<phi>\d+)", regex.IGNORECASE)
    assert found.behind and found.trigger.strings == {"tel", "fax"}
    assert found.between is not None and regex.fullmatch(found.between + "*", ": 91 /", regex.IGNORECASE)
    assert shape(r"(?<!tel:\ )\d{9}", 0).trigger is None  # a negative one requires nothing


def test_common_short_triggers_are_not_used():
    assert shape(r"\d+-\d+", 0).trigger is None  # "-" is in every other note
    assert shape(r"\d+ de \d+", 0).trigger.strings == {" de "}
    assert shape(r"\+\d+", 0).trigger.strings == {"+"}  # one rare character will do


@pytest.mark.parametrize("pattern", [
    r"\Gab", "(?i)ab", r"(?:ab){e<=1}", "(?|(a)|(b))c", r"(a)\10", "[[:alpha:]]x", "a{,2 }x",
    "(?r)ab", "(?V1)ab", r"\N{DIGIT ONE}x", r"a(?P>x)", r"[a&&b]c",
])
def test_unknown_syntax_gives_no_prefilter(pattern):
    with pytest.raises(Unsupported):
        read(pattern)
    assert shape(pattern, 0).first is None and shape(pattern, 0).trigger is None


def test_patterns_that_can_match_nothing_or_report_later_keep_their_full_search():
    assert shape(r"(?<=x)a*", 0).first is None  # a match may be empty, anywhere
    kept = shape(r"Tel:\ *\K\d+", 0)
    assert kept.trigger is None and kept.first == r"[T]"  # \K: reported after where it was tried


def test_every_derived_regex_compiles_under_its_rule_flags():
    for pack in shipped_packs():
        for r in RuleEngine.from_pack(pack).rules:
            assert r.scanner.groupindex == r.compiled.groupindex, r.id
            if r.shape.between is not None:
                regex.compile(r.shape.between, r.compiled.flags)


def test_the_shipped_rules_searched_without_any_prefilter_are_known():
    """A ratchet: a rule edit that loses its prefilters (and its speed) shows up here."""
    bare = {f"{pack}:{r.id}" for pack in PACKS for r in RuleEngine.from_pack(pack).rules
            if r.shape.first is None and r.shape.trigger is None}
    # any capital letter; any letter or digit; codes told by their shape alone (a capital or a digit);
    # a blood unit's donation number and a patient's dotted initials, each a capital first (the
    # sixteenth round: both fail at the next character almost everywhere)
    assert bare == {"de:de-kvnr", "none:id-alphanumeric", "es:code-mixed", "es:code-year-serial",
                    "es:code-hyphenated", "es:blood-donation-number", "es:initials-described"}


# --- the fold the trigger index runs over ------------------------------------------------------

@pytest.mark.parametrize(("key", "text"), [
    ("post", "PO\u017fT"),         # ſ is an s to regex
    ("ki", "\u212aI"),              # the Kelvin sign is a k
    ("li", "L\u0130"),              # İ is an i, and lowers to two characters
    ("σς", "\u03a3\u03a3 "),        # a final Σ lowers to ς
    ("móvil", "MÓVIL"),
])
def test_the_index_finds_what_regex_matches_ignoring_case(key, text):
    assert regex.search(regex.escape(key), text, regex.IGNORECASE)
    r = rule(regex.escape(key), "ignorecase")
    hits = TriggerIndex([r.shape]).find(text)
    assert hits is not None and hits[0] == [regex.search(regex.escape(key), text, regex.IGNORECASE).start()]


def test_text_beyond_the_basic_plane_is_searched_without_the_index():
    r = rule("fax: (?P<phi>\\d+)", "ignorecase")
    text = "\U0001F600 FAX: 123"
    assert TriggerIndex([r.shape]).find(text) is None
    on, off = both([r])
    assert outcome(on, text) == outcome(off, text) and outcome(on, text)[0]


def test_a_long_text_is_indexed_slice_by_slice_with_the_same_hits(monkeypatch):
    index = RuleEngine.from_pack("es")._triggers
    text = "Tel: 912 345 678, fax 912 000 111. NHC: 1234567; Edad: 45 años; ana@x.es\n" * 40
    whole = index.find(text)
    monkeypatch.setattr("crfdeid.rules.triggers.SLICE", 7)  # shorter than the longest key
    assert index.find(text) == whole and sum(map(len, whole)) > 200


def test_only_the_shortest_key_of_a_prefix_family_is_kept():
    assert _anchors(["telefono", "tel", "telf", "movil", "móvil"]) == ["movil", "móvil", "tel"]
    assert _anchors(["nº", "xnº", "º"], reverse=True) == ["º"]


# --- every shipped rule: its examples and a corpus, with and without prefilters ----------------

def _shipped_rules() -> list:
    return [pytest.param(r, id=f"{pack}:{r.id}") for pack in PACKS for r in RuleEngine.from_pack(pack).rules]


@pytest.mark.parametrize("shipped", _shipped_rules())
def test_each_rule_finds_the_same_on_its_examples(shipped: Rule):
    on, off = both([shipped])
    for example in shipped.examples + shipped.counter_examples:
        for text in (example.text, f"x {example.text}\n{example.text.upper()}. {example.text}"):
            expected = outcome(off, text)
            assert outcome(on, text) == expected, text
            assert [m.text for m in shipped.find(text)] == [k[3] for k in expected[0]], text


def _corpus(meddocan: Path | None) -> list[Document]:
    paths = sorted(LETTERS.glob("*.txt"))
    if meddocan is not None:
        paths += sorted((meddocan / "dev").glob("*.txt"))
    return [Document(p.stem, p.read_text(encoding="utf-8")) for p in paths]


@pytest.fixture(scope="module")
def corpus(request) -> list[Document]:
    try:
        meddocan = request.getfixturevalue("meddocan_dir")
    except pytest.skip.Exception:
        meddocan = None
    return _corpus(meddocan)


@pytest.mark.parametrize("pack", PACKS)
def test_each_pack_finds_the_same_on_a_corpus(pack: str, corpus: list[Document]):
    on, off = both(RuleEngine.from_pack(pack).rules)
    for doc in corpus:
        assert outcome(on, doc.text) == outcome(off, doc.text), doc.id
    joined = "\n".join(doc.text for doc in corpus[:40])  # one long note: many chunks
    assert outcome(on, joined) == outcome(off, joined)


def test_a_catastrophic_rule_with_a_trigger_times_out_on_the_same_chunk_only():
    slow = rule(r"NHC:\ (?:a|aa)+c", rule_id="slow")
    lines = [f"NHC: {'a' * 40}!\n" if i == 100 else "NHC: aaa c, NHC: aac.\n" for i in range(400)]
    note = "".join(lines)  # ~8 KB; line 100 makes the pattern backtrack for ever
    on, off = both([slow], timeout=0.05, chunk_size=1024)
    found = outcome(on, note)
    assert found == outcome(off, note)
    [(rule_id, start, end)] = found[2]
    assert rule_id == "slow" and start <= note.index("a" * 40) < end
    assert len(found[0]) > 300  # every other chunk's matches are kept


# --- random text that mixes the triggers of every shipped rule ---------------------------------

def _pieces() -> list[str]:
    found: set[str] = set()
    for pack in PACKS:
        for r in RuleEngine.from_pack(pack).rules:
            if r.shape.trigger is not None:
                found.update(r.shape.trigger.strings)
            found.update(e.text for e in r.examples[:2])
    pieces = sorted(found)
    pieces += [p.upper() for p in pieces[::3]] + [p.title() for p in pieces[1::3]]
    return [*pieces, "12", "2014", "28046", "912 345 678", "@", "/", "-", ".", ",", ":", " ", "\n", "(", ")",
            "+34", "E-", "\u017f", "\u0130", "\u212a", "\u03a3", "\ufeff", "\U0001F600"]


PIECES = _pieces()
TEXTS = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=6)), max_size=30).map("".join)
ENGINES = {pack: both(RuleEngine.from_pack(pack).rules) for pack in PACKS}


@FAST
@given(TEXTS, st.sampled_from(PACKS), st.sampled_from([8, 64, 10**9]))
def test_random_text_with_triggers_gives_the_same_matches(text: str, pack: str, chunk_size: int):
    on, off = ENGINES[pack]
    if chunk_size != 10**9:
        on, off = both(on.rules, chunk_size=chunk_size)
    assert outcome(on, text) == outcome(off, text)


# --- random patterns over random text ----------------------------------------------------------

ALPHABET = ["a", "b", "A", "B", "1", "2", " ", "-", "@", ".", "\u017f", "s", "S", "k", "\u212a",
            "ab", "AB", "sk", "a@b.", "1-2"]
ATOMS = st.sampled_from([
    "a", "b", "s", "k", "A", "1", r"\d", r"\w", r"\ ", "-", "@", r"\.", "[ab]", "[a-c1]", "[^a]", ".",
    r"\b", "^", "$", r"(?i:ab)", "(?i:s)", r"\p{Lu}", r"[\-@]", "ab", "sk", "a@", "@b", "1-2", "b?a",
])
KEYWORDS = st.sampled_from(["ab", "sk", "@", "a@", "ba", "(?i:sk)", "(?:ab|ba)"])


def _regexes() -> st.SearchStrategy[str]:
    """Patterns that often have a first set, a trigger in the match or in a look-behind."""
    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.lists(inner, min_size=2, max_size=4).map("".join),
            st.lists(inner, min_size=2, max_size=3).map(lambda xs: "(?:" + "|".join(xs) + ")"),
            st.tuples(inner, st.sampled_from(["?", "*", "+", "{2}", "{1,3}", "??", "+?"])).map(
                lambda t: f"(?:{t[0]}){t[1]}"),
            inner.map(lambda x: f"(?<={x})"), inner.map(lambda x: f"(?<!{x})"),
            inner.map(lambda x: f"(?={x})"), inner.map(lambda x: f"(?!{x})"),
            inner.map(lambda x: f"(?P<phi>{x})"),
        )
    body = st.recursive(ATOMS, extend, max_leaves=6)
    keyed = st.tuples(body, KEYWORDS, body).map("".join)  # a trigger inside the match
    behind = st.tuples(KEYWORDS, st.sampled_from(["", r"[\ \-1]*", r"\d+", r"\ ?"]), body).map(
        lambda t: f"(?<={t[0]}{t[1]}){t[2]}")  # a trigger in a look-behind at the start
    return st.one_of(body, keyed, behind)


@settings(max_examples=400, database=None, deadline=None)
@given(_regexes(), st.lists(st.sampled_from(ALPHABET), max_size=40).map("".join), st.booleans())
def test_random_patterns_find_the_same_with_and_without_prefilters(pattern: str, text: str, icase: bool):
    try:
        r = rule(pattern, *(("ignorecase",) if icase else ()))
    except ValueError:  # InvalidRule: a pattern that does not compile, or matches nothing
        assume(False)
        return
    on, off = both([r], chunk_size=16)
    assert outcome(on, text) == outcome(off, text), (pattern, r.shape)
