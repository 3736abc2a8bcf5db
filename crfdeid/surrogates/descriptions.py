"""Descriptions filed under an identifier label: words, not a number or a name.

MEDDOCAN annotates what sets a patient apart — "lactante", "raza negra", "casada", "maestra
jubilada", "boliviano", "tatuaje en la región pectoral izquierda" — as ID_SUJETO_ASISTENCIA or
OTROS_SUJETO_ASISTENCIA. A mask ("Varón [ID_SUJETO_ASISTENCIA]") in running text gives the
release away and breaks the sentence; scrambled letters are gibberish. So a description gets
what it is: a nationality becomes another of its region (the country generator), a profession
another profession of the same gender (the profession generator), a description that identifies
no one on its own (marital status, an age group, ethnicity words, a place among siblings — the
pack's ``descriptions_kept`` words) is kept, a described mark keeps its head word alone (the
pack's ``description_heads``: "tatuaje tribal maorí que cubre el hombro derecho" -> "tatuaje"),
a person's name (a carer, a neighbour) gets a name as people do, and anything else (a weapon)
is generalised to the pack's neutral phrase. A title annotated apart
from its name ("Dr. med.", "OA Dr.", "Prim. Univ.-Prof. Dr.": every word an honorific of the pack)
identifies no one and is kept as well. The audit note says which.
"""

from __future__ import annotations

from ..lone_names import lower_case_lines
from .base import LETTERS, DocumentState, Surrogate, fold
from .data import SurrogateData
from .people import NICKNAME_NOUN, PeopleGenerator
from .places import CountryGenerator
from .professions import ProfessionGenerator

#: Articles: the neutral phrase drops its own when the text before the span has one.
ARTICLES = frozenset({"un", "una", "unos", "unas", "el", "la", "los", "las", "lo"})
#: The longest profession looked for at the start of a description, in words.
PROFESSION_WORDS = 8


def is_title(text: str, titles: frozenset[str]) -> bool:
    """Is ``text`` made of honorifics only ("Dr. med.", "OA Dr.", "Prim. Univ.-Prof. Dr.",
    "Dr.med.")? ``titles``: the pack's honorific forms, folded, spaces removed. The words are
    read left to right, each run of them as one form where the pack has it (a trailing dot
    may be missing or extra: "Dr" is "Dr.")."""
    words = fold(text).split()
    if not words or not any(c.isalpha() for c in text):
        return False
    reached = [True] + [False] * len(words)
    for i in range(len(words)):
        if not reached[i]:
            continue
        for j in range(i + 1, len(words) + 1):
            form = "".join(words[i:j])
            if form in titles or form + "." in titles or (form.endswith(".") and form[:-1] in titles):
                reached[j] = True
    return reached[-1]


class DescriptionGenerator:
    """OTROS_SUJETO_ASISTENCIA, and identifier labels whose span holds no digit."""

    name = "descriptions"
    phase = 2

    def __init__(self, data: SurrogateData, countries: CountryGenerator,
                 professions: ProfessionGenerator, people: PeopleGenerator | None = None) -> None:
        self.data = data
        self.people = people
        self.countries = countries
        self.professions = professions
        self.kept_words = data.descriptions_kept
        self.closed = {fold(w) for w in data.pack.word_classes}
        #: the pack's honorific forms, folded and without spaces ("dr.med.", "univ.-prof.")
        self.titles = frozenset(form.replace(" ", "") for form in data.pack.honorifics)

    def neutral_category(self, text: str, label: str) -> str:
        return "description"

    def kind(self, text: str) -> str:
        """``name``, ``nationality``, ``profession``, ``title``, ``kept``, ``with nationality`` or
        ``generalised``."""
        stripped = text.strip()
        key = fold(stripped)
        data = self.data
        if is_title(stripped, self.titles):
            return "title"
        if self.people is not None and self.people.is_name(stripped):
            return "name"
        if key in data.nationality_forms or key in data.home_words or self.countries.home(stripped):
            return "nationality"
        if self.profession_prefix(stripped) is not None:
            return "profession"
        words = [fold(w) for w in LETTERS.findall(stripped)]
        if words and all(self._plain(w) for w in words):
            return "kept"
        if len(words) == 1 and stripped.islower() and self._word_of_the_language(stripped):
            return "kept"  # "Historia familiar", "carta" had become "Historia un dato personal"
        if (len(words) == 1 and stripped[:1].isupper() and stripped[1:].islower()
                and key not in data.given and key not in data.surname
                and self._word_of_the_language(stripped.lower())):
            return "kept"  # "Gestante de 29 años" opening a case report, no name of the tables
        if words and all(self._plain(w) or w in data.nationality_forms for w in words):
            return "with nationality"  # "origen boliviano": the adjective changes, the rest stays
        return "generalised"

    def _word_of_the_language(self, word: str) -> bool:
        """One word of the pack's language in lower case ("familiar", "carta", "lactante"): a
        common word identifies no one on its own, and its generalisation mangled the sentence."""
        from ..lexicon import lexicon

        try:
            return lexicon().is_known(word, self.data.pack.language)
        except ValueError:  # no lexicon for the language
            return False

    def _plain(self, folded: str) -> bool:
        """A word that identifies no one: a kept description word, a closed-class word, the
        home country's adjective when the home country is kept."""
        return (folded in self.kept_words or folded in self.closed
                or (self.countries.keep_home_country and folded in self.data.home_words))

    def profession_prefix(self, text: str) -> int | None:
        """Where a profession at the start of ``text`` ends, if the rest is kept words
        ("maestra jubilada": "maestra", then "jubilada")."""
        words = list(LETTERS.finditer(text))
        if any(not self._plain(fold(w.group())) for w in words[PROFESSION_WORDS:]):
            return None  # a profession is a few words: a long span is not one plus kept words
        for i in range(min(len(words), PROFESSION_WORDS), 0, -1):
            end = words[i - 1].end()
            rest = [fold(w.group()) for w in words[i:]]
            if fold(text[:end]) in self.data.profession_lookup and all(
                    w in self.kept_words or w in self.closed for w in rest):
                return end
        return None

    def generate(self, text: str, label: str, start: int, state: DocumentState) -> Surrogate:
        kind = self.kind(text)
        if (kind in ("kept", "generalised") and self.people is not None and text.strip().islower()
                and fold(text.strip()) not in self.data.descriptions_kept
                and self.people.is_name(text.strip().title())
                and any(a <= start < b for a, b in lower_case_lines(state.text))):
            # a line typed in lower case names its neighbour so ("la vecina remedios (988…)": the
            # seventeenth set written blind kept "remedios", a word of the language); a kept
            # description stays ("raza blanca" had become "raza natividad": the round's review)
            kind = "name"
        if kind == "generalised" and self.people is not None and (
                nickname := NICKNAME_NOUN.search(text)) is not None and self.people.is_name(
                text[: nickname.start()].strip() or "-"):
            kind = "name"  # "Lola la de la lonja": a given name and what the village calls her by
        if kind == "name":  # a carer's, a neighbour's: one surrogate with the note's other mentions
            assert self.people is not None
            surrogate = self.people.generate(text, "NOMBRE_PERSONAL_SANITARIO", start, state)
            return Surrogate(surrogate.text, note=f"a name: {surrogate.note}".rstrip(": "),
                             fallback=surrogate.fallback, kept=surrogate.kept)
        if kind == "nationality":
            return self.countries.generate(text, "PAIS", start, state)
        if kind == "profession":
            lead = len(text) - len(text.lstrip())
            end = lead + (self.profession_prefix(text.strip()) or 0)
            surrogate = self.professions.generate(text[:end], "PROFESION", start, state)
            return Surrogate(surrogate.text + text[end:], note=f"a profession: {surrogate.note}".rstrip(": "),
                             fallback=surrogate.fallback)
        if kind == "title":
            return Surrogate(text, kept=True, note="a title (the pack's honorifics) identifies no one: kept")
        if kind == "kept":
            return Surrogate(text, kept=True, note="a description that identifies no one on its own: kept")
        if kind == "with nationality":
            pieces, cursor = [], 0
            for word in LETTERS.finditer(text):
                if fold(word.group()) in self.data.nationality_forms and not self._plain(fold(word.group())):
                    new = self.countries.generate(word.group(), "PAIS", start + word.start(), state).text
                    pieces += [text[cursor:word.start()], new]
                    cursor = word.end()
            return Surrogate("".join(pieces) + text[cursor:], note="a description: its nationality replaced")
        stripped = text.strip()
        first = LETTERS.match(stripped)
        if first is not None and fold(first.group()) in self.data.description_heads:
            # "tatuaje tribal maorí que cubre el hombro derecho" -> "tatuaje": what the mark is
            # says nothing of whom, and the note's "una lesión en el borde de un tatuaje" keeps
            # its sense (it had become "el borde de un dato personal")
            return Surrogate(text.replace(stripped, first.group()), note="a description: its head word kept")
        phrase = self.data.neutral["description"]
        before = LETTERS.findall(state.text[max(0, start - 12):start])
        head, _, rest = phrase.partition(" ")
        if rest and before and fold(before[-1]) in ARTICLES and fold(head) in ARTICLES:
            phrase = rest  # "la presencia de un [tatuaje…]": "un dato personal", not "un un dato…"
        return Surrogate(text.replace(stripped, phrase), note="a free-form description: generalised")
