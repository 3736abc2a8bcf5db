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

    def _own_sex(self, text: str) -> str | None:
        """The sex the span's own kinship word gives its name ("hija marta"): before the words
        around it ("su esposo Juan; hija marta" had made "marta" a man's name)."""
        for word in _WORD.findall(text):
            term = self.data.pack.kinship_term(word)
            if term is not None and term.sex in ("m", "f") and not term.ambiguous:
                return term.sex
        return None

    def _common_in_capitals(self, word: str) -> bool:
        """A word written in capitals that the language's lexicon knows and no given name is
        ("FAMILIA"; not "MARTA")."""
        if not (len(word) > 1 and word.isupper()) or fold(word) in self.data.given:
            return False
        from ..lexicon import lexicon

        try:
            return lexicon().is_known(word.lower(), self.data.pack.language)
        except ValueError:  # no lexicon for the language: capitals may be a name
            return False

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        """Names inside the span through the people generator (and its fallback chains);
        kinship words kept, or swapped for one of the same sex, generation and number."""
        pieces, last, changed = [], 0, False
        # a relative's name: a capitalised word, or a lower-case one the given-name table knows
        # ("su hija marta", written fast in a nursing note); a lower-case surname-table word is
        # clinical prose ("hermano mayor", "madre viuda") and stays; so does a word in capitals
        # the lexicon knows, in a span with no other name ("Y LA FAMILIA" in a heading had
        # become "Y LA CALDERÓN": capitals are no sign of a name in a heading). Only words in
        # capitals: a capitalised word may be a surname the lexicon also knows ("Lüdtke" in German)
        tokens = self.people.read(state, start, text)
        candidates = [(s, w) for s, _, w, _ in tokens
                      if (w[0].isupper() or fold(w) in self.data.given)
                      and self.data.pack.kinship_term(w) is None]
        names = {s for s, _ in candidates}
        if names and all(self._common_in_capitals(w) for _, w in candidates):
            names = set()
        sex = self._own_sex(text) or self.people.context_sex(state.text, start, text)
        classified = {s: (t, k) for s, _, t, k in tokens}
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
