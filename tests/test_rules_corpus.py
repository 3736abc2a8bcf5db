"""Rules alone on MEDDOCAN: precision floors on dev, and the chunked engine against the old one.

Floors sit below the measured figures (README, benchmarks/rules.py) by a margin, so the test
catches a rule that starts over-matching, not noise. Fax has six dev spans, so phone and fax are
also pooled. Skips without the corpus.
"""

from __future__ import annotations

from bisect import bisect_left
from pathlib import Path

import pytest
import regex

from crfdeid.evaluate import evaluate
from crfdeid.io.corpus import load_annotations
from crfdeid.rules import CHUNK_SIZE, Rule, RuleEngine, RuleMatch
from crfdeid.tokenize import tokenize
from crfdeid.types import Document
from crfdeid.validators import VALIDATORS

FLOORS = {
    "CORREO_ELECTRONICO": 0.97,
    "ID_SUJETO_ASISTENCIA": 0.95,
    "ID_ASEGURAMIENTO": 0.95,
    "ID_TITULACION_PERSONAL_SANITARIO": 0.95,
    "ID_CONTACTO_ASISTENCIAL": 0.90,
    "NUMERO_TELEFONO": 0.85,
    "FECHAS": 0.95,
    "EDAD_SUJETO_ASISTENCIA": 0.95,
}


@pytest.fixture(scope="module")
def dev_scores(meddocan_dir: Path):
    gold = load_annotations(meddocan_dir / "dev")
    engine = RuleEngine.from_pack("es")
    system = {doc_id: doc.with_spans(engine.detect(doc)) for doc_id, doc in gold.items()}
    return evaluate(gold, system)


@pytest.mark.parametrize("label", sorted(FLOORS))
def test_rules_only_precision_on_dev_is_above_the_floor(dev_scores, label: str):
    counts = dev_scores.per_label[label]
    assert counts.tp > 0, f"rules found no {label} at all"
    assert counts.precision >= FLOORS[label], f"{label}: {counts.to_dict()}"


def test_phone_and_fax_pooled_precision(dev_scores):
    tel, fax = dev_scores.per_label["NUMERO_TELEFONO"], dev_scores.per_label["NUMERO_FAX"]
    tp, fp = tel.tp + fax.tp, tel.fp + fax.fp
    assert tp / (tp + fp) >= 0.80, (tel.to_dict(), fax.to_dict())


def test_rules_only_recall_on_the_identifier_labels(dev_scores):
    for label in ("CORREO_ELECTRONICO", "ID_ASEGURAMIENTO", "ID_TITULACION_PERSONAL_SANITARIO"):
        assert dev_scores.per_label[label].recall >= 0.95, label


# --- the chunked engine returns exactly the matches of the whole-text engine it replaced ------------
#
# The reference below is the engine as it was before rules ran chunk by chunk (one search per rule
# over the whole text; context phrases searched once over the whole text; overlaps resolved in one
# list), kept only for this comparison.

def _reference_phrase_regex(phrases: tuple[str, ...]):
    if not phrases:
        return None
    parts = []
    for phrase in sorted(phrases, key=len, reverse=True):
        body = r"\s+".join(regex.escape(w) for w in phrase.split())
        head = r"(?<![\p{L}\p{N}])" if phrase.strip()[0].isalnum() else ""
        tail = r"(?![\p{L}\p{N}])" if phrase.strip()[-1].isalnum() else ""
        parts.append(head + body + tail)
    return regex.compile("|".join(parts), regex.IGNORECASE)


class _ReferenceScope:
    def __init__(self, text: str) -> None:
        self.text = text
        self.hits: dict = {}

    def window_start(self, position: int, tokens: int | None) -> int:
        text = self.text
        if tokens is None:
            return max(text.rfind("\n", 0, position), text.rfind("\r", 0, position)) + 1
        span = 16 * tokens
        while True:
            start = max(0, position - span)
            limit = max(0, start - 64)
            while start > limit and not text[start - 1].isspace():
                start -= 1
            found = tokenize(text[start:position])
            if len(found) >= tokens or start == 0:
                return start + found[max(0, len(found) - tokens)].start if found else position
            span *= 4

    def has_phrase(self, pattern, start: int, end: int) -> bool:
        if pattern not in self.hits:
            found = [m.span() for m in pattern.finditer(self.text)]
            self.hits[pattern] = ([a for a, _ in found], [b for _, b in found])
        starts, ends = self.hits[pattern]
        i = bisect_left(starts, start)
        while i < len(starts) and starts[i] < end:
            if ends[i] <= end:
                return True
            i += 1
        return False


def _reference_find(rule: Rule, text: str, scope: _ReferenceScope) -> list[RuleMatch]:
    found = []
    has_phi = "phi" in rule.compiled.groupindex
    check = VALIDATORS[rule.validator] if rule.validator else None
    ctx = rule.context
    require = _reference_phrase_regex(ctx.require) if ctx else None
    forbid = _reference_phrase_regex(ctx.forbid) if ctx else None
    for m in rule.compiled.finditer(text):
        start, end = m.span("phi") if has_phi else m.span()
        if start < 0 or end <= start:
            continue
        if ctx is not None:
            window = scope.window_start(m.start(), ctx.window)
            if require is not None and not scope.has_phrase(require, window, m.start()):
                continue
            if forbid is not None and scope.has_phrase(forbid, window, m.start()):
                continue
        if check is not None and not check(text[start:end]):
            continue
        found.append(RuleMatch(rule, start, end, text[start:end]))
    return found


def _reference_run(engine: RuleEngine, text: str) -> tuple[set, set]:
    scope = _ReferenceScope(text)
    candidates = [m for rule in engine.rules for m in _reference_find(rule, text, scope)]
    order = {rule.id: i for i, rule in enumerate(engine.rules)}
    ranked = sorted(candidates, key=lambda m: (-m.rule.priority, m.start - m.end, m.start,
                                               order.get(m.rule.id, 0), m.end))
    kept: list[RuleMatch] = []
    starts: list[int] = []
    dropped = []
    for match in ranked:
        i = bisect_left(starts, match.start)
        blocker = next((k for k in kept[max(0, i - 1):i + 1] if k.overlaps(match)), None)
        if blocker is None:
            kept.insert(i, match)
            starts.insert(i, match.start)
        else:
            dropped.append((match, blocker))
    return _keys(kept, dropped)


def _keys(kept, dropped) -> tuple[set, set]:
    def key(m: RuleMatch) -> tuple[str, int, int]:
        return (m.rule.id, m.start, m.end)
    return {key(m) for m in kept}, {(key(a), key(b)) for a, b in dropped}


def _chunked_run(engine: RuleEngine, text: str) -> tuple[set, set]:
    result = engine.run(Document("d", text))
    assert result.timeouts == ()
    return _keys(result.matches, result.dropped)


@pytest.fixture(scope="module")
def corpus_texts(meddocan_dir: Path) -> dict[str, list[str]]:
    return {split: [p.read_text(encoding="utf-8") for p in sorted((meddocan_dir / split).glob("*.txt"))]
            for split in ("train", "dev")}


def test_chunked_engine_matches_the_whole_text_engine_on_every_note(corpus_texts):
    engine = RuleEngine.from_pack("es")
    differing = [i for split in ("train", "dev") for i, text in enumerate(corpus_texts[split])
                 if _chunked_run(engine, text) != _reference_run(engine, text)]
    assert differing == []


@pytest.mark.parametrize("chunk_size", [CHUNK_SIZE, 512])
def test_chunked_engine_matches_the_whole_text_engine_on_the_dev_set_as_one_document(corpus_texts,
                                                                                     chunk_size):
    engine = RuleEngine(RuleEngine.from_pack("es").rules, chunk_size=chunk_size)
    text = "\n".join(corpus_texts["dev"])
    kept, dropped = _chunked_run(engine, text)
    assert len(kept) > 2500
    assert (kept, dropped) == _reference_run(engine, text)
