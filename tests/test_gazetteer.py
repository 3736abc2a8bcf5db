"""Gazetteer matching over tokens: case/accent-insensitive, multi-token, leftmost-longest per
list, BIO membership, ambiguity flags, and facility names only behind their type."""

from __future__ import annotations

from bisect import bisect_left
from itertools import accumulate
from pathlib import Path

import ahocorasick
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid import cache
from crfdeid.gazetteer import GazetteerMatcher
from crfdeid.tokenize import tokenize


@pytest.fixture(scope="module")
def matcher() -> GazetteerMatcher:
    return GazetteerMatcher("es")


def spans(matcher: GazetteerMatcher, text: str, lst: str) -> list[str]:
    tokens = tokenize(text)
    return [
        text[tokens[m.start].start : tokens[m.end - 1].end] for m in matcher.match(tokens) if m.list == lst
    ]


def test_names_match_whatever_the_case_and_accents(matcher) -> None:
    text = "Paciente: IGNACIO NAVARRO CUELLAR, hijo de Ignacio Navarro Cuéllar."
    assert spans(matcher, text, "given_name") == ["IGNACIO", "Ignacio"]
    assert spans(matcher, text, "surname") == [
        "IGNACIO",
        "NAVARRO",
        "CUELLAR",
        "Ignacio",
        "Navarro",
        "Cuéllar",
    ]
    assert spans(matcher, text, "kinship") == ["hijo"]


def test_multi_token_entries_match_longest(matcher) -> None:
    text = "Ingresa en el Hospital Universitario Virgen del Rocío de Sevilla."
    assert spans(matcher, text, "hospital") == ["Hospital Universitario Virgen del Rocío"]
    assert spans(matcher, text, "facility_type") == ["Hospital Universitario"]
    text = "Natural de Castilla y León, vive en Santa Cruz de Tenerife."
    assert spans(matcher, text, "community") == ["Castilla y León"]
    assert spans(matcher, text, "province") == ["León", "Santa Cruz de Tenerife"]


def test_towns_match_as_notes_write_them_not_as_the_register_does(matcher) -> None:
    # the INE register writes "Pamplona/Iruña", "Campello, el", "Villajoyosa/Vila Joiosa, la":
    # no note does, and until 2026-12-06 none of these was a municipality match
    text = ("Vive en Pamplona, en Iruña, en Elche, en El Campello, en la Vila Joiosa, en L'Eliana, "
            "en Donostia y en San Sebastián; CP 03570 Villajoyosa.")
    assert spans(matcher, text, "municipality") == [
        "Pamplona", "Iruña", "Elche", "El Campello", "la Vila Joiosa", "L'Eliana", "Donostia",
        "San Sebastián", "Villajoyosa",
    ]
    # and the Castilian names of towns the register lists by their official one (town_aliases.yaml)
    text = "Natural de Tarrasa, vive en Vitoria; ingresó en Mahón, en La Laguna y en Palma de Mallorca."
    assert spans(matcher, text, "municipality") == [
        "Tarrasa", "Vitoria", "Mahón", "La Laguna", "Palma de Mallorca",
    ]


def test_entries_only_match_whole_tokens(matcher) -> None:
    assert spans(matcher, "Sevillana y sevillanas", "municipality") == []
    assert spans(matcher, "Madrid.", "municipality") == ["Madrid"]


def test_membership_is_bio_per_list(matcher) -> None:
    tokens = tokenize("la Dra. Ana Belén Ruiz")
    members = matcher.membership(tokens)
    assert len(members) == len(tokens)
    assert "honorific:B" in members[1] and "honorific:I" in members[2]
    assert "given_name:B" in members[3] and "given_name:I" in members[4]
    assert "surname:B" in members[5]
    assert members[0] == () or all(not tag.startswith("given_name") for tag in members[0])


def test_stop_listed_names_are_flagged_ambiguous_not_dropped(matcher) -> None:
    tokens = tokenize("Enfermedad de Parkinson. Sr. Navarro.")
    found = {(tokens[m.start].text, m.list): m.ambiguous for m in matcher.match(tokens)}
    assert found[("Parkinson", "surname")] is True
    assert found[("Parkinson", "stop")] is False
    assert found[("Navarro", "surname")] is False
    assert "surname:ambiguous" in matcher.membership(tokens)[2]


def test_closed_class_words_that_are_surnames_are_ambiguous(matcher) -> None:
    tokens = tokenize("Su hija Ana")
    found = {(tokens[m.start].text, m.list): m.ambiguous for m in matcher.match(tokens)}
    assert found[("Su", "surname")] is True
    assert found[("Ana", "given_name")] is False  # a frequent name is never stop-listed


def test_health_centres_only_behind_their_facility_type(matcher) -> None:
    assert spans(matcher, "Acude al Centro de Salud Almería Centro.", "health_centre") == [
        "Centro de Salud Almería Centro"
    ]
    assert spans(matcher, "Seguimiento en el C.S. de Cuéllar.", "health_centre") == ["C.S. de Cuéllar"]
    assert spans(matcher, "Vive en Cuéllar.", "health_centre") == []


def test_organisations_match_where_a_note_names_them(matcher) -> None:
    text = (
        "Colirio de dexametasona (Maxidex®, Alcon Cusí) y metilprednisolona (Urbason®, Merck, "
        "Madrid). Trasladado por el SAMUR; necropsia en el Instituto Vasco de Medicina Legal "
        "(IVML). Facultad de Medicina, Universidad Complutense de Madrid. Implante de Boston "
        "Scientific Corporation."
    )
    assert spans(matcher, text, "organisation") == [
        "Alcon Cusí", "Merck", "SAMUR", "Instituto Vasco de Medicina Legal", "IVML",
        "Universidad Complutense de Madrid", "Boston Scientific Corporation",
    ]


def test_ambiguous_acronyms_are_not_organisations(matcher) -> None:
    text = (
        "EPOC en tratamiento con ICS y LABA, SES bajo; avisó por SMS. A los once años, EMA y CDC "
        "positivos, escala NIH 4. Dista 3 cm del borde. Adecuación nutricia. Educación para la "
        "Salud. Dr. Esteve Ferrer Almirall."
    )
    assert spans(matcher, text, "organisation") == []


def test_kinship_months_weekdays_street_types(matcher) -> None:
    text = "Su madre y sus hermanos vienen el lunes 3 de marzo a la Avda. de la Paz."
    assert spans(matcher, text, "kinship") == ["madre", "hermanos"]
    assert spans(matcher, text, "weekday") == ["lunes"]
    assert spans(matcher, text, "month") == ["marzo"]
    assert spans(matcher, text, "street_type") == ["Avda."]


def test_lists_can_be_restricted(matcher) -> None:
    only = GazetteerMatcher(matcher.pack, lists=["kinship"])
    assert only.lists == ("kinship",)
    assert {m.list for m in only.match(tokenize("Su madre vive en Madrid"))} == {"kinship"}
    with pytest.raises(ValueError, match="unknown gazetteer"):
        GazetteerMatcher(matcher.pack, lists=["nicknames"])


def test_empty_document(matcher) -> None:
    assert matcher.match([]) == [] and matcher.membership([]) == []


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("aeioun ADMSVáéñ.,/-\n0123")), max_size=80))
def test_matches_stay_inside_the_token_list(matcher, text: str) -> None:
    tokens = tokenize(text)
    for m in matcher.match(tokens):
        assert 0 <= m.start < m.end <= len(tokens)
    assert len(matcher.membership(tokens)) == len(tokens)


class AutomatonMatcher(GazetteerMatcher):
    """The reference: the same entries in one Aho-Corasick automaton over the whole folded
    text (what the matcher did before its table; pyahocorasick stays a dependency)."""

    def __init__(self, pack) -> None:
        super().__init__(pack)
        self._automaton = ahocorasick.Automaton()
        for key, names in self._phrases.items():
            self._automaton.add_word(f" {key} ", (len(key) + 2, key.count(" ") + 1, names))
        self._automaton.make_automaton()

    def _candidates(self, folded):
        joined = " " + " ".join(folded) + " "
        starts = list(accumulate(map(len, folded), lambda a, b: a + b + 1, initial=0))
        candidates: dict[str, list[tuple[int, int]]] = {}
        for end_char, (length, n_tokens, names) in self._automaton.iter(joined):
            first = bisect_left(starts, end_char - length + 1)
            for name in names:
                candidates.setdefault(name, []).append((first, first + n_tokens))
        return candidates


@pytest.fixture(scope="module")
def automaton(matcher) -> AutomatonMatcher:
    return AutomatonMatcher(matcher.pack)


EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "notes"
#: Words of multi-token entries, prepositions and a lone combining accent (a token that folds
#: to nothing), so that random texts chain prefixes of entries into and out of matches.
WORDS = ["Santa", "Cruz", "de", "Tenerife", "Hospital", "Universitario", "Virgen", "del", "Rocío",
         "García", "C.S.", "Centro", "Salud", "Castilla", "y", "León", "Ana", "María", "\u0301", "la",
         "Dra.", ",", "San"]


def test_matches_are_those_of_an_automaton_on_the_example_notes(matcher, automaton) -> None:
    for path in sorted(EXAMPLES.glob("*.txt")):
        tokens = tokenize(path.read_text(encoding="utf-8"))
        assert matcher.match(tokens) == automaton.match(tokens)
        assert matcher.match(tokens)  # the notes hold names and places: a real comparison


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=40))
def test_matches_are_those_of_an_automaton_on_any_text(matcher, automaton, words: list[str]) -> None:
    tokens = tokenize(" ".join(words))
    assert matcher.match(tokens) == automaton.match(tokens)


def test_the_same_matcher_built_or_read_from_the_cache(matcher, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(cache.ENV_CACHE_DIR, str(tmp_path))
    built = GazetteerMatcher(matcher.pack)
    assert len(list(tmp_path.glob("gazetteer-keys-*.bin"))) == 1
    monkeypatch.setattr(GazetteerMatcher, "_fold_entries", lambda self, entries: pytest.fail("not cached"))
    read = GazetteerMatcher(matcher.pack)
    expected = (matcher.fingerprint, matcher.size, matcher.max_tokens)
    for one in (built, read):
        assert (one.fingerprint, one.size, one.max_tokens) == expected
        assert one._phrases == matcher._phrases and one._prefixes == matcher._prefixes
    tokens = tokenize(" ".join(path.read_text(encoding="utf-8") for path in sorted(EXAMPLES.glob("*.txt"))))
    assert built.match(tokens) == read.match(tokens) == matcher.match(tokens)


def test_a_restricted_matcher_has_its_own_cache_entry(matcher, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(cache.ENV_CACHE_DIR, str(tmp_path))
    kinship = GazetteerMatcher(matcher.pack, lists=["kinship"])
    assert GazetteerMatcher(matcher.pack, lists=["kinship"]).fingerprint == kinship.fingerprint
    assert GazetteerMatcher(matcher.pack).fingerprint == matcher.fingerprint != kinship.fingerprint
    assert len(list(tmp_path.glob("gazetteer-keys-*.bin"))) == 2


def test_a_pack_of_ones_own_is_never_cached(tmp_path, monkeypatch) -> None:
    """It may list names of real people (a hospital's staff)."""
    import shutil

    from crfdeid.langpack import load_pack, pack_dir

    own = tmp_path / "pack"
    shutil.copytree(pack_dir("de"), own)
    monkeypatch.setenv(cache.ENV_CACHE_DIR, str(tmp_path / "cache"))
    mine = GazetteerMatcher(load_pack(own))
    assert not (tmp_path / "cache").exists() or list((tmp_path / "cache").iterdir()) == []
    shipped = GazetteerMatcher(load_pack("de"))
    assert len(list((tmp_path / "cache").glob("gazetteer-keys-*.bin"))) == 1
    assert (mine.fingerprint, mine._phrases) == (shipped.fingerprint, shipped._phrases)
