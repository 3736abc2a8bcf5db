"""Relatives (FAMILIARES_SUJETO_ASISTENCIA): kinship words are clinical information.

By default a kinship word ("su madre", "el hermano") is kept and only a relative's name inside
the span is replaced (by the people generator, so relatives keep sharing surnames). When a
policy asks to replace kinship words, the replacement keeps sex, generation and number:
"hija" may become "sobrina" or "nuera", never "nieta" or "madre".
"""

from __future__ import annotations

import random

from .base import LETTERS, DocumentState, Surrogate, fold, match_case
from .data import SurrogateData
from .people import PeopleGenerator

_WORD = LETTERS


class KinshipGenerator:
    name = "kinship"
    phase = 2

    def __init__(self, data: SurrogateData, people: PeopleGenerator, replace_terms: bool = False) -> None:
        self.data = data
        self.people = people
        self.replace_terms = replace_terms

    def alternatives(self, word: str) -> list[str]:
        """Kinship words with the same sex, generation and number, other relation."""
        term = self.data.pack.kinship_term(word)
        if term is None or term.generation is None:
            return []
        return sorted(
            {
                t.word
                for t in self.data.pack.kinship.values()
                if t.sex == term.sex
                and t.generation == term.generation
                and t.plural == term.plural
                and t.lemma != term.lemma
                and not t.ambiguous
                and t.group != term.group
                and fold(t.word) == fold(t.word).strip()
            }
        )

    def neutral_category(self, text: str, label: str) -> str:
        return "relative"

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        """Names inside the span through the people generator (and its fallback chains);
        kinship words kept, or swapped for one of the same sex, generation and number."""
        pieces, last, changed = [], 0, False
        # a relative's name: a capitalised word, or a lower-case one the given-name table knows
        # ("su hija marta", written fast in a nursing note); a lower-case surname-table word is
        # clinical prose ("hermano mayor", "madre viuda") and stays
        given = self.data.given
        names = (
            {s for s, _, w, _ in self.people.read(state, start, text) if w[0].isupper() or fold(w) in given}
            if any(
                (w[0].isupper() or fold(w) in given) and self.data.pack.kinship_term(w) is None
                for w in _WORD.findall(text)
            )
            else set()
        )
        sex = self.people.context_sex(state.text, start, text)
        classified = {s: (t, k) for s, _, t, k in self.people.read(state, start, text)}
        for match in _WORD.finditer(text):
            word = match.group()
            new = word
            if self.data.pack.kinship_term(word) is not None:
                options = self.alternatives(word) if self.replace_terms else []
                if options:
                    rng: random.Random = state.rng("kinship", word)
                    new = match_case(word, rng.choice(options))
            elif match.start() in names:
                token, kind = classified[match.start()]
                new = self.people.replace_token(state, token, kind, sex)
            if new != word:
                pieces.append(text[last : match.start()] + new)
                last = match.end()
                changed = True
        if not changed:
            return Surrogate(text, kept=True, note="kinship word kept")
        pieces.append(text[last:])
        return Surrogate("".join(pieces))
