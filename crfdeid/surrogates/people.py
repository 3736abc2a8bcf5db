"""People's names: token-level surrogates that keep one person one person.

Every name token maps to a surrogate of its kind (given name -> given name of the same sex,
surname -> surname), drawn from the pack's frequent names weighted by frequency. Before any
name is replaced, ``prepare`` reads every name span of the document: it groups spelling
variants (same folded form, or one edit apart as in "Cuéllar"/"Cuelar") with rapidfuzz, decides
each group's kind by vote and each given name's sex from the name lists and the context
(honorifics, kinship words, the patient's sex), then draws one surrogate per group. So
"Ignacio Navarro Cuéllar", "Dr. Navarro" and "Navarro Cuellar" stay one person, and relatives
sharing a surname keep sharing it.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from rapidfuzz.distance import Levenshtein

from .base import LETTERS, DocumentState, Level, Surrogate, SurrogateFailure, fold, match_case
from .data import SurrogateData

PERSON_LABELS = ("NOMBRE_SUJETO_ASISTENCIA", "NOMBRE_PERSONAL_SANITARIO")
PATIENT_LABEL = "NOMBRE_SUJETO_ASISTENCIA"
SEX_LABEL = "SEXO_SUJETO_ASISTENCIA"
_WORD = LETTERS
_SURNAMES_FIELD = re.compile(r"apellidos?\s*[:.]?\s*$", re.IGNORECASE)
_GIVEN_FIELD = re.compile(r"(?<!y )(?<!\w)nombre\s*[:.]?\s*$", re.IGNORECASE)
_SEX_FIELD = re.compile(r"\bsexo\s*[:.]?\s*([^\W\d_]+)", re.IGNORECASE)
_PATIENT_SEX = re.compile(r"\b(el|la) paciente\b|\b(varón|mujer|hombre)\b", re.IGNORECASE)
#: Variants are merged only when both tokens are at least this long (shorter names are too
#: close to each other: "Ana"/"Ada") and not both frequent in the lists ("Marín"/"Martín").
FUZZY_MIN_LENGTH = 4
FREQUENT = 1000
#: A name list decides a given name's sex on its own when one sex bears it this often.
DECISIVE_SHARE = 0.9
#: How far back (characters, same line) the context of a name is read: honorifics, "Nombre:",
#: "Apellidos:". Bounded so that a note written as one long line stays linear.
CONTEXT = 256
#: Spelling variants are looked up through their one-deletion neighbourhood up to this length
#: (real names are far shorter; a 100,000-letter token only joins its exact spelling).
VARIANT_MAX_LENGTH = 64
INITIALS = "ABCDEFGHIJLMNOPRSTVZ"


@dataclass
class Occurrence:
    token: str
    kind: str
    sex: str | None


@dataclass
class Group:
    canonical: str
    members: set[str] = field(default_factory=set)
    kinds: Counter = field(default_factory=Counter)
    sexes: Counter = field(default_factory=Counter)


def words(text: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group()) for m in _WORD.finditer(text)]


def line_before(text: str, start: int, width: int = CONTEXT) -> tuple[int, str]:
    """(offset, text) of the line up to ``start``, at most ``width`` characters of it."""
    low = max(0, start - width)
    newline = text.rfind("\n", low, start)
    begin = newline + 1 if newline >= 0 else low
    return begin, text[begin:start]


def deletions(token: str) -> set[str]:
    """The token and every string one deletion away: two strings within one edit share one."""
    return {token, *(token[:i] + token[i + 1 :] for i in range(len(token)))}


class PeopleGenerator:
    """NOMBRE_SUJETO_ASISTENCIA and NOMBRE_PERSONAL_SANITARIO (and names inside FAMILIARES)."""

    name = "people"
    phase = 0

    def __init__(self, data: SurrogateData) -> None:
        self.data = data

    # --- reading the document -----------------------------------------------------------------

    def patient_sex(self, text: str, spans: list[tuple[int, int, str]]) -> str | None:
        """The patient's sex from SEXO spans, "Sexo: M", "la paciente", "varón"/"mujer"."""
        votes: Counter = Counter()
        for start, end, label in spans:
            if label == SEX_LABEL:
                sex = self.data.sex_words.get(fold(text[start:end].strip(" .")))
                if sex:
                    votes[sex] += 3
        for match in _SEX_FIELD.finditer(text):
            sex = self.data.sex_words.get(fold(match.group(1)))
            if sex:
                votes[sex] += 3
        for match in _PATIENT_SEX.finditer(text):
            sex = self.data.sex_words.get(fold(match.group(0).lower()))
            if sex:
                votes[sex] += 1
        return votes.most_common(1)[0][0] if votes else None

    def context_sex(self, text: str, start: int, span_text: str) -> str | None:
        """Sex from an honorific in or just before the span, or a kinship word just before it."""
        for _, _, word in words(span_text)[:2]:
            title = self.data.pack.honorific(word)
            if title is not None and title.sex != "any":
                return title.sex
        line_start, _ = line_before(text, start)
        before = words(text[max(line_start, start - 30) : start])[-3:]
        for _, _, word in reversed(before):
            title = self.data.pack.honorific(word)
            if title is not None and title.sex != "any":
                return title.sex
            term = self.data.pack.kinship_term(word)
            if term is not None and term.sex != "any" and not term.ambiguous:
                return term.sex
            sex = self.data.sex_words.get(fold(word))
            if sex and len(word) > 1:
                return sex
        return None

    def classify(self, text: str, start: int, span_text: str) -> list[tuple[int, int, str, str]]:
        """The name tokens of a span: (start, end, token, kind) with kind given / surname /
        initial; particles, honorifics and kinship words are left out (they are kept)."""
        _, before = line_before(text, start)
        field_kind = (
            "surname"
            if _SURNAMES_FIELD.search(before)
            else ("given" if _GIVEN_FIELD.search(before) else None)
        )
        tokens = []
        for s, e, word in words(span_text):
            folded = fold(word)
            title = self.data.pack.honorific(word) or (
                self.data.pack.honorific(word + ".") if span_text[e : e + 1] == "." else None
            )
            is_title = title is not None
            if folded in self.data.name_particles and len(words(span_text)) != 1:
                continue
            if is_title and folded not in self.data.given and folded not in self.data.surname:
                continue
            if self.data.pack.kinship_term(word) is not None and word[0].islower():
                continue
            if word[0].islower() and folded not in self.data.given and folded not in self.data.surname:
                continue  # not a name ("su", "materna")
            tokens.append((s, e, word))
        if not tokens:
            # a name made of particles only ("Del Santo"): its last capitalised word is the name
            pack = self.data.pack
            capitalised = [
                (s, e, w)
                for s, e, w in words(span_text)
                if w[0].isupper() and pack.honorific(w) is None and pack.kinship_term(w) is None
            ]
            tokens = capitalised[-1:]
        out = []
        seen_surname = False
        after_title = bool(re.search(r"\b(dra?|sra?|d|dña|don|doña)\.?\s*$", before, re.IGNORECASE))
        for index, (s, e, word) in enumerate(tokens):
            if len(word) == 1:
                out.append((s, e, word, "initial"))
                continue
            if field_kind is not None:
                out.append((s, e, word, field_kind))
                continue
            g = sum(self.data.name_sex(word))
            n = self.data.surname.get(fold(word), 0)
            alone = len(tokens) == 1
            if seen_surname:
                kind = "surname"
            elif alone:
                kind = "given" if (g > n and not after_title) or (g > 0 and n == 0) else "surname"
            elif index == 0:
                kind = "given" if g > 0 or n == 0 else "surname"
            elif index == len(tokens) - 1 and not seen_surname:
                kind = "surname" if n > 0 or g == 0 else "given"
            else:
                kind = "given" if g > n else "surname"
            seen_surname = seen_surname or kind == "surname"
            out.append((s, e, word, kind))
        return out

    # --- the whole document first -------------------------------------------------------------

    def prepare(self, state: DocumentState, spans: list[tuple[int, int, str]]) -> None:
        """Group the document's name tokens and draw one surrogate per group."""
        text = state.text
        patient = self.patient_sex(text, spans)
        occurrences: list[Occurrence] = []
        for start, end, label in spans:
            if label not in PERSON_LABELS and label != "FAMILIARES_SUJETO_ASISTENCIA":
                continue
            span_text = text[start:end]
            if label == "FAMILIARES_SUJETO_ASISTENCIA" and not any(
                w[0].isupper() and self.data.pack.kinship_term(w) is None for _, _, w in words(span_text)
            ):
                continue
            sex = self.context_sex(text, start, span_text)
            if sex is None and label == PATIENT_LABEL:
                sex = patient
            for _, _, token, kind in self.classify(text, start, span_text):
                occurrences.append(Occurrence(token, kind, sex))
        state.patient_sex = patient
        self._assign(state, occurrences)

    def _group(self, occurrences: list[Occurrence]) -> list[Group]:
        """Spelling variants into groups. Each token joins the first group (in creation order)
        whose canonical spelling is one edit away, found through a one-deletion index rather
        than by comparing with every group (quadratic in a long note)."""
        counts = Counter(fold(o.token) for o in occurrences if o.kind != "initial")
        groups: list[Group] = []
        index: dict[str, Group] = {}
        neighbours: dict[str, list[int]] = {}
        for token, _ in sorted(counts.items(), key=lambda kv: (-kv[1], -len(kv[0]), kv[0])):
            home = None
            if FUZZY_MIN_LENGTH <= len(token) <= VARIANT_MAX_LENGTH:
                variants = deletions(token)
                candidates = sorted({i for v in variants for i in neighbours.get(v, ())})
                for i in candidates:
                    other = groups[i].canonical
                    if Levenshtein.distance(token, other, score_cutoff=1) > 1:
                        continue
                    if self._frequent(token) and self._frequent(other):
                        continue  # two real, common names ("Marín"/"Martín"), not a typo
                    if self._opposite_sex(token, other):
                        continue  # "Julio"/"Julia"
                    home = groups[i]
                    break
            if home is None:
                home = Group(token)
                groups.append(home)
                if FUZZY_MIN_LENGTH <= len(token) <= VARIANT_MAX_LENGTH:
                    for variant in deletions(token):
                        neighbours.setdefault(variant, []).append(len(groups) - 1)
            home.members.add(token)
            index[token] = home
        for occ in occurrences:
            if occ.kind == "initial":
                continue
            group = index[fold(occ.token)]
            group.kinds[occ.kind] += 1
            if occ.kind == "given" and occ.sex:
                group.sexes[occ.sex] += 1
        return groups

    def _frequent(self, folded: str) -> bool:
        given = sum(self.data.given.get(folded, (0, 0)))
        return self.data.surname.get(folded, 0) >= FREQUENT or given >= FREQUENT

    def _opposite_sex(self, a: str, b: str) -> bool:
        sa, sb = self._table_sex(a, DECISIVE_SHARE), self._table_sex(b, DECISIVE_SHARE)
        return sa is not None and sb is not None and sa != sb

    def _table_sex(self, folded: str, share: float) -> str | None:
        m, f = self.data.given.get(folded, (0, 0))
        if m + f == 0:
            return None
        if m >= share * (m + f):
            return "m"
        if f >= share * (m + f):
            return "f"
        return None

    def group_sex(self, group: Group) -> str:
        decided = self._table_sex(group.canonical, DECISIVE_SHARE)
        if decided:
            return decided
        if group.sexes:
            top = group.sexes.most_common()
            if len(top) == 1 or top[0][1] > top[1][1]:
                return top[0][0]
        return self._table_sex(group.canonical, 0.5 + 1e-9) or "any"

    def _assign(self, state: DocumentState, occurrences: list[Occurrence]) -> None:
        for group in self._group(occurrences):
            kind = "given" if group.kinds["given"] > group.kinds["surname"] else "surname"
            sex = self.group_sex(group) if kind == "given" else None
            for member in group.members:
                state.name_groups[member] = group.canonical
            state.name_sex[group.canonical] = sex
            try:
                surrogate, level = self.draw_token(state, group.canonical, kind, sex)
            except SurrogateFailure:
                continue  # every rung failed: each span with this name gets the neutral word
            for member in group.members:
                state.name_map[member] = surrogate
                if level.fallback:
                    state.name_fallbacks[member] = level

    def draw_token(self, state: DocumentState, folded: str, kind: str, sex: str | None) -> tuple[str, Level]:
        """Fallback chains: a frequent given name of the sex -> of either sex; a frequent
        surname -> any surname of the pack. Returns the surrogate and the level used."""
        if kind == "given":
            pool = self.data.given_pool[sex or "any"] or self.data.given_pool["f"]
            levels = [
                Level(pool.choose, f"given-{sex or 'any'}"),
                Level(
                    self.data.given_either.choose,
                    "given-either",
                    "any-sex",
                    "no safe given name of the person's sex: a given name of either sex",
                ),
            ]
            return state.draw_chain(folded, levels, "given")
        every = self.data.surname_all
        levels = [
            Level(self.data.surname_pool.choose, "surname"),
            Level(
                lambda rng: rng.choice(every),
                "surname:any",
                "anywhere",
                "no safe surname among the frequent ones: any surname of the pack",
            ),
        ]
        return state.draw_chain(folded, levels, "surname")

    # --- replacing one span -------------------------------------------------------------------

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        pieces = []
        last = 0
        classified = (
            self.classify(state.text, start, text)
            if state.text[start : start + len(text)] == text
            else self.classify(text, 0, text)
        )
        sex = self.context_sex(state.text, start, text) if classified else None
        for s, e, token, kind in classified:
            pieces.append(text[last:s])
            pieces.append(self.replace_token(state, token, kind, sex))
            last = e
        pieces.append(text[last:])
        result = "".join(pieces)
        if not classified:
            return Surrogate(text, kept=True, note="no name token")
        return self.with_fallback(result, [t for _, _, t, _ in classified], state)

    @staticmethod
    def with_fallback(text: str, tokens: list[str], state: DocumentState) -> Surrogate:
        """A span's surrogate, recording the first fallback one of its name tokens needed."""
        for token in tokens:
            level = state.name_fallbacks.get(fold(token))
            if level is not None:
                return Surrogate(text, note=level.reason, fallback=level.fallback)
        return Surrogate(text)

    def replace_token(self, state: DocumentState, token: str, kind: str, sex: str | None) -> str:
        folded = fold(token)
        if kind == "initial":
            levels = [
                Level(lambda rng: rng.choice(INITIALS), "initial", check_close=False),
                Level(
                    lambda rng: rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
                    "initial:any",
                    "anywhere",
                    "no safe common initial: any letter",
                    check_close=False,
                ),
            ]
            new, level = state.draw_chain(folded, levels, "initial")
            if level.fallback:
                state.name_fallbacks[folded] = level
            return match_case(token, new) if token.isupper() else new.lower()
        surrogate = state.name_map.get(folded)
        if surrogate is None:  # a name prepare() did not see (e.g. a span of another label)
            if sex is None and kind == "given":
                sex = self._table_sex(folded, 0.5 + 1e-9)
            surrogate, level = self.draw_token(state, folded, kind, sex)
            state.name_map[folded] = surrogate
            if level.fallback:
                state.name_fallbacks[folded] = level
        return match_case(token, surrogate)

    def neutral_category(self, text: str, label: str) -> str:
        return "person"

    def entity(self, text: str, start: int, state: DocumentState) -> frozenset[str]:
        """The name groups a span mentions: spans whose groups nest are one person (for tags)."""
        groups = state.name_groups
        return frozenset(
            groups.get(fold(t), fold(t))
            for _, _, t, k in self.classify(state.text, start, text)
            if k != "initial"
        )
