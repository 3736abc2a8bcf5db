"""Rule engine invariants over arbitrary text: spans inside the text, exact, disjoint, repeatable,
and the same whatever the chunk size."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.rules import Context, Rule, RuleEngine, token_rule_features
from crfdeid.rules.model import Phrases, TextScope
from crfdeid.tokenize import tokenize
from crfdeid.types import Document

# database=None: no .hypothesis/ folder is written into the repository.
FAST = settings(max_examples=150, database=None, deadline=None)

ENGINE = RuleEngine.from_pack("es")

# Material the Spanish rules react to, mixed with arbitrary unicode so near misses are common.
PIECES = [
    "NHC: ", "NASS: ", "NºCol: ", "Episodio: ", "CIPA: nhc-", "Tel.: ", "Tfno", "Fax: ", "Tel. y Fax: ",
    "móvil", "teléfono", "E-mail: ", "E-mail.", "ana.gil@x.es", "@", "www.", "http://a.es/b", "CP: ",
    "Edad: ", "Sexo: ", "Varón de ", "Mujer", " años", " meses", "a los ", "de edad", "Fecha de Ingreso: ",
    " de marzo de ", "enero", "año ", "XII", "12345678Z", "X1234567L", "192.168.1.1", "C/ ", "Madrid",
    "28046", "E-02006", "912 345 678", "28 28 46165", "28 12345678 40", "2014", "05", "/", "-", ".",
    ",", " ", "\n", "\r\n", "(", ")", "+34", "9", "00",
]
texts = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=8)), max_size=40).map("".join)


@FAST
@given(texts)
def test_spans_lie_inside_the_text_and_equal_their_text(text: str):
    result = ENGINE.run(Document("p", text))
    for match in result.matches:
        assert 0 <= match.start < match.end <= len(text)
        assert text[match.start:match.end] == match.text
        span = match.to_span()
        assert span.source == f"rule:{match.rule.id}" and span.label == match.rule.label


@FAST
@given(texts)
def test_kept_matches_are_disjoint_sorted_and_deterministic(text: str):
    first = ENGINE.run(Document("p", text))
    spans = [(m.start, m.end) for m in first.matches]
    assert spans == sorted(spans)
    assert all(a[1] <= b[0] for a, b in pairwise(spans))
    again = ENGINE.run(Document("p", text))
    assert [(m.start, m.end, m.rule.id) for m in again.matches] == \
           [(m.start, m.end, m.rule.id) for m in first.matches]
    for loser, winner in first.dropped:
        assert loser.overlaps(winner)
        rank = (loser.rule.priority, loser.end - loser.start)
        assert rank <= (winner.rule.priority, winner.end - winner.start)


@FAST
@given(texts)
def test_token_features_align_with_tokens(text: str):
    tokens = tokenize(text)
    matches = ENGINE.run(Document("p", text)).matches
    features = token_rule_features(tokens, matches)
    assert len(features) == len(tokens)
    for token, names in zip(tokens, features, strict=True):
        covering = {m.rule.family for m in matches if m.start < token.end and token.start < m.end}
        assert {name[2:] for name in names} == covering


def _outcome(engine: RuleEngine, text: str) -> tuple[list, list]:
    result = engine.run(Document("p", text))
    assert result.timeouts == ()

    def key(m):
        return (m.rule.id, m.start, m.end)
    return [key(m) for m in result.matches], [(key(a), key(b)) for a, b in result.dropped]


# long runs make matches and context windows cross many tiny chunks and the search margin
long_texts = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=8),
                                st.text(alphabet=" 0123456789\n\r/.-aA", max_size=700),
                                st.text(alphabet="0123456789 /", min_size=200, max_size=1500)),
                      max_size=12).map("".join)


def _edge_rule(rule_id: str, pattern: str, **kwargs) -> Rule:
    return Rule(id=rule_id, label="ID_SUJETO_ASISTENCIA", description="An edge case.", pattern=pattern,
                **kwargs)


# Rules whose matches cross cuts and margins, overlap their own earlier candidates, look around
# the match and need context from far back; none has a validator to hide a wrong raw match.
EDGE = RuleEngine([
    _edge_rule("run", r"\d+(?:[ /.-]\d+)*", priority=1),
    _edge_rule("overlap", r"1/1", priority=2),
    _edge_rule("look", r"(?<![\d/])\d{4}(?![\d/])", priority=3),
    _edge_rule("near", r"\d{2}", context=Context(require=("aA",), window=3)),
    _edge_rule("line", r"[aA]{2,}", context=Context(forbid=("0 1", "- 9"), window=None)),
    _edge_rule("eol", r"(?m)\d$"),
])


@settings(max_examples=80, database=None, deadline=None)
@given(long_texts, st.integers(min_value=16, max_value=300))
def test_the_chunk_size_never_changes_what_the_rules_find(text: str, size: int):
    for engine in (ENGINE, EDGE):
        chunked = RuleEngine(engine.rules, chunk_size=size)
        assert _outcome(chunked, text) == _outcome(engine, text)


WORDS = ["código", "postal", "CP", "C.P.", "nº", "de", "historia", "Tel", "Telma", "x", "12"]
SPACES = [" ", "  ", "\n", ".", "\t", " " * 40]
PHRASES = ["código postal", "código  postal", "nº de historia", "nº\tde  historia", "C.P.", "Tel"]
phrase_texts = st.lists(st.one_of(st.sampled_from(WORDS), st.sampled_from(SPACES), st.sampled_from(PHRASES)),
                        max_size=60).map("".join)


@FAST
@given(phrase_texts, st.data())
def test_a_growing_window_finds_the_phrases_a_fresh_search_finds(text: str, data):
    phrases = Phrases(("código postal", "CP", "C.P.", "nº de historia", "Tel"))
    start = data.draw(st.integers(0, len(text)))
    ends = sorted(data.draw(st.lists(st.integers(start, len(text)), max_size=12)))
    growing = TextScope(text)
    for end in ends:
        fresh = TextScope(text).has_phrase(phrases, start, end, timeout=1.0)
        assert growing.has_phrase(phrases, start, end, timeout=1.0) == fresh
        inside = [m for m in phrases.regex.finditer(text, pos=start, endpos=min(len(text), end + 1))
                  if m.end() <= end]
        assert fresh == bool(inside)
