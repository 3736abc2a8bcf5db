"""What a trained model learned, in a form an auditor can read: ``crfdeid explain-model``.

crfsuite keeps one weight per (attribute, tag) pair and one per (tag, tag) transition. For each
entity label we list the attributes with the largest positive weights on any of its tags (B-, I-,
E-, S-), and the strongest positive and negative transitions overall. ``NoteReasons`` says the
same of one note: for a span the CRF found, the active features of its tokens that weigh most for
the tags they got.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .tagger import CrfTagger
from .types import Document


def explain_model(tagger: CrfTagger, top: int = 10, labels: Iterable[str] | None = None) -> dict[str, Any]:
    """Top features per label and the strongest transitions, as plain data."""
    info = tagger.info()
    wanted = set(labels) if labels else None
    if wanted is not None:
        unknown = wanted - set(tagger.labels)
        if unknown:
            from .errors import CrfdeidError

            raise CrfdeidError(
                f"the model has no label(s) {sorted(unknown)}", hint=f"its labels: {', '.join(tagger.labels)}"
            )
    per_label: dict[str, list[tuple[str, str, float]]] = {}
    for (attribute, tag), weight in info.state_features.items():
        if tag == "O" or weight <= 0:
            continue
        label = tag[2:]
        if wanted is not None and label not in wanted:
            continue
        per_label.setdefault(label, []).append((attribute, tag, weight))
    features = {
        label: [
            {"feature": a, "tag": t, "weight": round(w, 4)}
            for a, t, w in sorted(rows, key=lambda r: (-r[2], r[0]))[:top]
        ]
        for label, rows in sorted(per_label.items())
    }
    transitions = sorted(info.transitions.items(), key=lambda kv: -kv[1])
    return {
        "model": str(tagger.model_dir),
        "labels": list(tagger.labels),
        "attributes": len(info.attributes),
        "state_features": len(info.state_features),
        "top_features": features,
        "strongest_transitions": [
            {"from": a, "to": b, "weight": round(w, 4)} for (a, b), w in transitions[:top]
        ],
        "most_forbidden_transitions": [
            {"from": a, "to": b, "weight": round(w, 4)} for (a, b), w in transitions[::-1][:top]
        ],
        "training": tagger.metadata.get("training", {}),
    }


def format_explanation(explanation: dict[str, Any]) -> str:
    lines = [
        f"model: {explanation['model']}",
        f"{len(explanation['labels'])} labels, {explanation['attributes']} attributes, "
        f"{explanation['state_features']} non-zero state features",
        "",
    ]
    for label, rows in explanation["top_features"].items():
        lines.append(label)
        for row in rows:
            lines.append(f"  {row['weight']:8.3f}  {row['tag']:<36} {row['feature']}")
        lines.append("")
    for title, key in (
        ("strongest transitions", "strongest_transitions"),
        ("most forbidden transitions", "most_forbidden_transitions"),
    ):
        lines.append(title)
        for row in explanation[key]:
            lines.append(f"  {row['weight']:8.3f}  {row['from']} -> {row['to']}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


@dataclass(frozen=True)
class TokenReason:
    """Why the tagger tagged one token as it did: its tag, the tag's marginal probability, P(O),
    and the token's active features with their weights for that tag, strongest first."""

    start: int
    end: int
    text: str
    tag: str
    marginal: float
    p_o: float
    features: tuple[tuple[str, float], ...]

    def to_json(self, top: int = 8) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "text": self.text, "tag": self.tag,
                "marginal": round(self.marginal, 4), "p_o": round(self.p_o, 4),
                "features": [{"feature": f, "weight": round(w, 4)} for f, w in self.features[:top]]}


class NoteReasons:
    """One note tagged once, so that any span of it can say which features made the CRF find it
    (``crfdeid review``: the "why" of a span; ``explain_model`` says the same per label).

    The note is tagged on its normalised view, as detection tags it; a span's offsets are the
    original's. Features are weighed only for the tokens a span covers, when asked."""

    def __init__(self, tagger: CrfTagger, document: Document, rules: Any = None) -> None:
        """``rules``: the rule engine whose matches the tagger sees as features (the pipeline's)."""
        from .textview import TextView
        from .tokenize import tokenize

        self.view = TextView(document.text)
        seen = document if self.view.exact else Document(document.id, self.view.text)
        self.tagger = tagger
        self.tokens = tokenize(seen.text)
        matches = list(rules.run(seen).feature_matches) if rules is not None else None
        self.tags = tagger.tag_tokens(seen, self.tokens, matches) if self.tokens else []
        self._features: dict[int, list[str]] = {}
        for segment in tagger.extractor.sequences(seen, self.tokens, matches):
            for k, features in enumerate(segment.features):
                self._features[segment.first + k] = features
        self._starts = [t.start for t in self.tokens]

    def tokens_of(self, start: int, end: int) -> list[TokenReason]:
        """The reasons of every token inside ``[start, end)`` (original offsets)."""
        import bisect

        at = self.view.to_view(start, end) if not self.view.exact else (start, end)
        if at is None:
            return []
        v_start, v_end = at
        crf = self.tagger.compiled
        column = {label: i for i, label in enumerate(crf.labels)}
        out = []
        for i in range(max(bisect.bisect_right(self._starts, v_start) - 1, 0), len(self.tokens)):
            token = self.tokens[i]
            if token.start >= v_end:
                break
            if token.end <= v_start:
                continue
            tagged = self.tags[i]
            j = column.get(tagged.tag)
            weights: list[tuple[str, float]] = []
            if j is not None:
                for feature in self._features.get(i, ()):
                    row = crf.attributes.get(feature)
                    if row is not None and crf.state[row, j] != 0.0:
                        weights.append((feature, float(crf.state[row, j])))
            weights.sort(key=lambda fw: (-fw[1], fw[0]))
            o_start, o_end = (token.start, token.end) if self.view.exact else self.view.to_original(
                token.start, token.end)
            out.append(TokenReason(o_start, o_end, token.text, tagged.tag, tagged.probability,
                                   tagged.p_outside, tuple(weights)))
        return out

    def span(self, start: int, end: int, top: int = 8) -> dict[str, Any]:
        """The tokens of a span with their strongest features, and the strongest over the span."""
        reasons = self.tokens_of(start, end)
        best: dict[str, float] = {}
        for reason in reasons:
            for feature, weight in reason.features:
                if weight > best.get(feature, float("-inf")):
                    best[feature] = weight
        strongest = sorted(best.items(), key=lambda fw: (-fw[1], fw[0]))[:top]
        return {"tokens": [r.to_json(top) for r in reasons],
                "strongest": [{"feature": f, "weight": round(w, 4)} for f, w in strongest]}
