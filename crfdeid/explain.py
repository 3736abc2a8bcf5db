"""What a trained model learned, in a form an auditor can read: ``crfdeid explain-model``.

crfsuite keeps one weight per (attribute, tag) pair and one per (tag, tag) transition. For each
entity label we list the attributes with the largest positive weights on any of its tags (B-, I-,
E-, S-), and the strongest positive and negative transitions overall.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .tagger import CrfTagger


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
