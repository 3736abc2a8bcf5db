"""Rule engine invariants over arbitrary text: spans inside the text, exact, disjoint, repeatable."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.rules import RuleEngine, token_rule_features
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
