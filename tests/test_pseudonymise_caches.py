"""What the pseudonymiser remembers between notes (folds, hashes, fallback chains, a name's
reading, tables built on first use) changes no output: a note's output is the same whichever
notes ran before it, in whatever order, with every cache cold or warm, with a seed or a key."""

from __future__ import annotations

from pathlib import Path

import pytest

from crfdeid import langpack, occurrences
from crfdeid.io.corpus import load_corpus
from crfdeid.langpack import load_pack
from crfdeid.pseudonymise import Pseudonymiser
from crfdeid.surrogates import base, identifiers, people
from crfdeid.surrogates.data import SurrogateData

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "notes"


def clear_module_caches() -> None:
    """Every cache kept by a module rather than by a pseudonymiser."""
    for cache in (langpack._FOLDED, base._NORMALISED, base._ASCII_FOLDED, occurrences._NAME_WORDS_OF,
                  people._DELETIONS, identifiers._KINDS):
        cache.clear()


def outputs(pseudonymiser: Pseudonymiser, docs) -> dict[str, tuple]:
    out = {}
    for doc in docs:
        result = pseudonymiser.pseudonymise(doc)
        out[doc.id] = (result.text, [r.to_json() for r in result.audit],
                       [x.to_json() for x in result.leftovers])
    return out


def notes(meddocan_dir: Path | None = None) -> list:
    docs = list(load_corpus([EXAMPLES]).values())
    if meddocan_dir is not None:
        dev = sorted(load_corpus([meddocan_dir / "dev"]).items())[:40]
        docs += [doc for _, doc in dev]
    return docs


@pytest.mark.parametrize("secret", [{"seed": 7}, {"key": b"a key of the hospital"}])
def test_a_note_gives_the_same_output_in_any_order_cold_or_warm(secret):
    docs = notes()
    clear_module_caches()
    cold = outputs(Pseudonymiser(data=SurrogateData(load_pack("es")), **secret), docs)
    warm = outputs(Pseudonymiser(**secret), list(reversed(docs)))
    again = Pseudonymiser(**secret)
    outputs(again, docs)  # its own caches warm
    assert cold == warm == outputs(again, list(reversed(docs)))
    for doc in docs:  # each note alone, in a fresh pseudonymiser on fresh tables
        clear_module_caches()
        alone = outputs(Pseudonymiser(data=SurrogateData(load_pack("es")), **secret), [doc])
        assert alone[doc.id] == cold[doc.id]


def test_meddocan_notes_give_the_same_output_in_any_order(meddocan_dir):
    docs = notes(meddocan_dir)
    clear_module_caches()
    forward = outputs(Pseudonymiser(data=SurrogateData(load_pack("es")), seed=3), docs)
    backward = Pseudonymiser(seed=3)
    outputs(backward, docs[::2])  # other notes first
    assert outputs(backward, list(reversed(docs))) == forward
