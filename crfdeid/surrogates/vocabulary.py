"""The pack's vocabulary, and the check that no surrogate word was invented.

A reader spots a surrogate at once when it contains letters no Spaniard would write ("Qjhykdjkv",
"rauluidgfv"). Every word of a surrogate must therefore come from one of the pack's lists (names,
towns, hospitals, professions, the surrogate data…) or be structure kept from the original
("Residente de", "s/n", a provider domain). ``invented_words`` says which words break that rule;
``count_invented`` runs it over a pseudonymised corpus (the audit and the original texts) and is
what the realism benchmark calls. The generators use ``Vocabulary`` too: an address local part is
checked against the same notion of "spelled from real words".
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..langpack import LanguagePack, load_pack
from .base import LETTERS, ascii_fold, fold

#: Labels whose spans are addresses: words are glued there ("mcastro"), so a letter run counts as
#: real when it splits into pack words and a few initials.
ADDRESS_LABELS = frozenset({"CORREO_ELECTRONICO", "URL_WEB"})
#: Labels of codes: an upper-case letter run in a span that also has digits is part of a code
#: ("1234 BCD", "AB-12"), format rather than a word.
CODE_PREFIXES = ("ID_", "NUMERO_", "OTRO_NUMERO_IDENTIF", "DIREC_PROT_INTERNET")
#: How many single letters (initials) an address word may mix with real words ("jlgarcia").
MAX_INITIALS = 3
#: Shortest real word accepted inside a glued address word (shorter ones would let any letters
#: through as a chain of two-letter "words").
MIN_GLUED = 3
#: A mask ("[LABEL]") is not a surrogate word: masks in running text are counted on their own.
MASK = re.compile(r"\[[A-Z_]+\]")


def _strings(value: Any) -> Iterator[str]:
    """Every string in a YAML value (keys of mappings included: they are words of the pack too)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)


#: Lists of the surrogate data that hold no word a surrogate is made of: the capitals of clinical
#: text ("TGB", "HTA") would let "sancheztgbcl" pass for an address spelled from real words.
NOT_WORDS = ("medical_acronyms",)


@dataclass(frozen=True)
class Vocabulary:
    """Folded words of every list of a pack, plain and as spelled in addresses (ASCII)."""

    words: frozenset[str]
    ascii_words: frozenset[str]

    @classmethod
    def of(cls, pack: LanguagePack) -> Vocabulary:
        texts: list[str] = []
        for table in pack.tables.values():
            for row in table.rows:
                texts.extend(v for v in row.values() if v and not v.isdigit())
        texts.extend(_strings({k: v for k, v in pack.surrogate.items() if k not in NOT_WORDS}))
        for term in pack.kinship.values():
            texts.extend((term.word, term.lemma))
        for honorific in pack.honorifics.values():
            texts.extend((honorific.title, honorific.form))
        for name in (*pack.months, *pack.weekdays):
            texts.extend((name.name, *name.abbreviations))
        for forms in (*pack.street_types.values(), *pack.facility_types.values()):
            texts.extend(forms)
        texts.extend(pack.stopwords)
        texts.extend(pack.word_classes)
        words = {fold(w) for text in texts for w in LETTERS.findall(text)}
        return cls(frozenset(words), frozenset(ascii_fold(w) for w in words))

    def known(self, word: str) -> bool:
        return fold(word) in self.words

    def glued(self, run: str, kept: Iterable[str] = ()) -> bool:
        """Is an address's letter run made of real words and at most ``MAX_INITIALS`` initials
        ("jlgarcia", "mariagarcia", "garcia")? ``kept`` adds the original's own words."""
        run = ascii_fold(run)
        extra = {ascii_fold(k) for k in kept if len(k) >= MIN_GLUED}
        # best[i]: fewest initials needed to spell run[:i]
        best = [0] + [MAX_INITIALS + 1] * len(run)
        for i in range(1, len(run) + 1):
            best[i] = best[i - 1] + 1
            for j in range(max(0, i - 30), i - MIN_GLUED + 1):
                if best[j] < best[i] and (run[j:i] in self.ascii_words or run[j:i] in extra):
                    best[i] = best[j]
        return best[-1] <= MAX_INITIALS and (best[-1] < len(run) or len(run) <= MAX_INITIALS)


@lru_cache(maxsize=4)
def pack_vocabulary(language: str = "es") -> Vocabulary:
    """The vocabulary of a pack, built once per process."""
    return Vocabulary.of(load_pack(language))


def _initials_of(words: list[str]) -> set[str]:
    """Acronyms a name's words spell: the initials of its capitalised words, with and without
    the lower-case ones ("Instituto de Medicina Legal" -> IML, IDML)."""
    caps = [w for w in words if w[:1].isupper()]
    return {"".join(w[0] for w in caps).upper(), "".join(w[0] for w in words).upper()}


def invented_words(original: str, surrogate: str, label: str, vocabulary: Vocabulary) -> list[str]:
    """The words of ``surrogate`` that are in none of the pack's lists and are not structure
    kept from ``original``. Codes (letters mixed with digits in an identifier), single letters
    (initials) and an acronym made of the initials of the surrogate's own words are not words."""
    kept = {fold(w) for w in LETTERS.findall(original)}
    words = LETTERS.findall(MASK.sub(" ", surrogate))
    if label in ADDRESS_LABELS:
        return [w for w in words if fold(w) not in kept and not vocabulary.glued(w, kept)]
    code = label.startswith(CODE_PREFIXES) and any(c.isdigit() for c in surrogate)
    # with and without one-letter words: "A Coruña" counts its "A" in IISAC, "y" rarely counts
    acronyms = _initials_of([w for w in words if len(w) > 1 and not w.isupper()]) | _initials_of(
        [w for w in words if len(w) == 1 or not w.isupper()])
    out = []
    for word in words:
        if len(word) == 1 or fold(word) in kept or vocabulary.known(word):
            continue
        if word.isupper() and (code or word in acronyms):
            continue
        out.append(word)
    return out


def _audit_spans(audit: Path) -> Iterator[dict[str, Any]]:
    with audit.open(encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            if record.get("record") == "span" and record.get("strategy") == "pseudonymise":
                yield record


def count_invented(
    audit: Path | str, corpus: Path | str, language: str = "es", labels: Iterable[str] | None = None
) -> dict[str, Any]:
    """Invented surrogate words over a pseudonymised corpus: ``audit`` is the run's audit.jsonl
    (span offsets in the original, surrogate text), ``corpus`` the folder of original ``.txt``
    files. Returns totals, counts per label and up to ten examples per label (surrogate words
    only: the originals stay out of the report). Masks ("[LABEL]") are counted apart, not as words."""
    vocabulary = pack_vocabulary(language)
    wanted = set(labels) if labels is not None else None
    texts: dict[str, str] = {}
    words = Counter[str]()
    invented = Counter[str]()
    masks = Counter[str]()
    examples: dict[str, list[str]] = defaultdict(list)
    for record in _audit_spans(Path(audit)):
        label = record["label"]
        if wanted is not None and label not in wanted:
            continue
        doc = record["document"]
        if doc not in texts:
            texts[doc] = (Path(corpus) / f"{doc}.txt").read_text(encoding="utf-8")
        original = texts[doc][record["start"] : record["end"]]
        surrogate = record.get("surrogate") or ""
        masks[label] += len(MASK.findall(surrogate))
        words[label] += len(LETTERS.findall(MASK.sub(" ", surrogate)))
        bad = invented_words(original, surrogate, label, vocabulary)
        invented[label] += len(bad)
        if bad and len(examples[label]) < 10:
            examples[label].append(surrogate)
    total_words, total_invented = sum(words.values()), sum(invented.values())
    return {
        "surrogate_words": total_words,
        "invented_words": total_invented,
        "share_real": round(1 - total_invented / total_words, 5) if total_words else 1.0,
        "by_label": {
            label: {"words": words[label], "invented": invented[label], "masks": masks[label]}
            for label in sorted(words)
        },
        "examples": dict(sorted(examples.items())),
    }
