"""crfdeid.explain: what a model learned, and why it tagged the tokens of one span."""

from __future__ import annotations

from crfdeid.explain import NoteReasons, explain_model
from crfdeid.pipeline import load_pipeline
from crfdeid.tagger import CrfTagger
from crfdeid.types import Document


def test_note_reasons_weigh_the_features_of_a_span(tiny_model):
    pipeline = load_pipeline(tiny_model)
    text = "Nombre: Lucía.\nApellidos: Ferrer Galindo.\nNHC: 4471902.\n\u200bFin.\n"
    document = Document("n", text)
    reasons = NoteReasons(pipeline.tagger, document, pipeline.rules)
    start = text.index("Ferrer")
    found = reasons.span(start, start + len("Ferrer Galindo"))
    assert [t["text"] for t in found["tokens"]] == ["Ferrer", "Galindo"]
    assert all(
        t["start"] >= start and document.text[t["start"] : t["end"]] == t["text"] for t in found["tokens"]
    )
    weights = [f["weight"] for f in found["strongest"]]
    assert weights == sorted(weights, reverse=True) and len(weights) <= 8
    tagger: CrfTagger = pipeline.tagger
    token = found["tokens"][0]
    column = tagger.compiled.labels.index(token["tag"])
    for feature in token["features"]:  # each weight is the model's own for that feature and tag
        row = tagger.compiled.attributes[feature["feature"]]
        assert round(float(tagger.compiled.state[row, column]), 4) == feature["weight"]
    assert reasons.span(text.index("Fin"), text.index("Fin") + 3)["tokens"][0]["text"] == "Fin"


def test_explain_model_still_lists_labels(tiny_model):
    assert explain_model(CrfTagger.load(tiny_model), top=3)["top_features"]
