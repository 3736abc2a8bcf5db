"""What every generator shares: fallback chains, the per-note indexes (towns, forbidden
phrases), folding and scrambling. The indexes are checked against the plain scans they replace."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.langpack import PackError
from crfdeid.langpack import _load_surrogate as load_surrogate_file
from crfdeid.langpack import fold as pack_fold
from crfdeid.resources import data_dir
from crfdeid.surrogates import Level, SurrogateFailure, fold, normalise, surrogate_data
from crfdeid.surrogates.base import PhraseIndex, TownIndex, scramble
from crfdeid.surrogates.data import NEUTRAL_CATEGORIES, SurrogateData

from .surrogate_kit import state


def constant(value: str) -> Level:
    return Level(lambda rng: value, "c")


def test_a_chain_takes_the_first_level_that_yields_a_safe_surrogate_and_says_which():
    st_ = state()
    st_.forbidden.add("madrid")
    levels = [
        Level(None, "skipped"),  # nothing to offer: not even drawn
        Level(lambda rng: "Madrid", "first"),  # always the note's own original: fails
        Level(lambda rng: rng.choice(["Soria", "Teruel"]), "second", "community", "why"),
    ]
    text, level = st_.draw_chain("Getafe", levels, "town")
    assert text in ("Soria", "Teruel") and level.fallback == "community" and level.reason == "why"
    assert st_.draw_chain("getafe", levels, "town") == (text, level)  # same original, same answer
    other, _ = st_.draw_chain("Leganés", levels, "town")
    assert other != text  # one-to-one within the namespace, whichever level drew it


def test_a_chain_with_no_safe_level_raises_surrogate_failure():
    with pytest.raises(SurrogateFailure):
        state().draw_chain("Ana", [constant("Ana"), constant("ana"), Level(None, "x")], "given")


def test_long_originals_get_few_draws():
    calls = []

    def make(rng):
        calls.append(1)
        return "x" * 2000  # always the original

    with pytest.raises(SurrogateFailure):
        state().draw("c", "x" * 2000, make)
    assert len(calls) == 5


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 300), st.integers(1, 30)), max_size=20),
    st.integers(0, 330),
    st.text(alphabet="ab \n", min_size=340, max_size=340),
)
def test_the_town_index_finds_what_a_scan_of_every_town_finds(towns, start, text):
    index, plain = TownIndex(), []
    for t_start, length in towns:
        if t_start not in index:
            plain.append((t_start, t_start + length, f"p{t_start}", f"s{t_start}"))
        index.add(t_start, t_start + length, f"p{t_start}", f"s{t_start}")
    best = None
    for t_start, t_end, province, new in plain:  # the scan the index replaced
        gap = t_start - start if t_start >= start else start - t_end
        if gap > 40 or text.count("\n", min(start, t_end), max(start, t_start)) > 1:  # one line break
            continue
        if best is None or gap < best[0]:
            best = (gap, province, new)
    found = index.near(text, start, 40)
    assert (found.province, found.surrogate) == best[1:] if best else found is None


words = st.lists(st.sampled_from(["ana", "gil", "de", "la", "madrid", "x", "rozas", "las"]), max_size=6)


@settings(max_examples=300, deadline=None)
@given(st.lists(words.map(" ".join), max_size=8), words.map(" ".join))
def test_the_phrase_index_answers_like_the_padded_string_scan(originals, candidate):
    padded = f" {candidate} "
    expected = any(len(f.strip()) > 2 and f" {f.strip()} " in padded for f in originals)
    assert PhraseIndex(originals).found_in(candidate.split()) == expected


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_fold_is_the_language_packs_fold(text):
    assert fold(text) == pack_fold(text)


@pytest.mark.parametrize("digit", ["①", "²", "٣", "５", "½", "7"])
def test_scramble_replaces_digits_of_every_script_with_ascii_digits(digit):
    new = scramble(f"A-{digit}{digit}/x", state().rng("t", "t"))
    assert re.fullmatch(r"[A-Z]-[0-9]{2}/[a-z]", new)


def test_every_neutral_class_is_in_the_pack_and_is_a_word():
    data = surrogate_data("es")
    assert set(data.neutral) == set(NEUTRAL_CATEGORIES)
    assert all(word.strip() and "[" not in word for word in data.neutral.values())


def test_a_pack_without_neutral_words_or_with_an_unknown_class_is_refused(tmp_path: Path):
    source = data_dir("gazetteers") / "es" / "surrogates.yaml"
    broken = tmp_path / "surrogates.yaml"
    text = source.read_text(encoding="utf-8")
    broken.write_text(text[: text.index("\nneutral:")] + "\n", encoding="utf-8")
    with pytest.raises(PackError, match="neutral"):
        load_surrogate_file(broken)
    pack = surrogate_data("es").pack
    with pytest.raises(PackError, match="missing: town"):
        SurrogateData._neutral(pack, {c: "x" for c in NEUTRAL_CATEGORIES if c != "town"})
    with pytest.raises(PackError, match="unknown: planet"):
        SurrogateData._neutral(pack, {**dict.fromkeys(NEUTRAL_CATEGORIES, "x"), "planet": "Marte"})


def test_normalise_folds_case_accents_and_whitespace():
    assert normalise("  Cuéllar\u00a0 DE  la\tPeña ") == "cuellar de la pena"


def test_a_level_whose_few_options_are_all_unsafe_fails_at_once_with_the_chains_answer():
    """``options`` (everything a level can return) only skips draws that could only fail: the
    chain answers as without them, with or without a safe option."""
    def chain(options_first, options_second):
        st_ = state()
        st_.forbidden.update({"madrid", "toledo"})
        calls = []

        def unsafe(rng):
            calls.append(1)
            return rng.choice(["Madrid", "Toledo"])

        levels = [Level(unsafe, "town", options=options_first),
                  Level(lambda rng: rng.choice(["Soria", "Teruel", "Madrid"]), "town:any", "anywhere",
                        "far", options=options_second)]
        return st_.draw_chain("Toledo", levels, "town"), len(calls)

    (plain, plain_level), plain_draws = chain(None, None)
    (fast, fast_level), fast_draws = chain(("Madrid", "Toledo"), ("Soria", "Teruel", "Madrid"))
    assert (fast, fast_level.fallback) == (plain, plain_level.fallback) and fast in ("Soria", "Teruel")
    assert plain_draws == 50 and fast_draws == 0


def test_rerolled_secret_redraws_the_original_and_its_words_only():
    from crfdeid.surrogates.base import RerolledSecret, Secret

    base = Secret.from_seed(3)
    rolled = RerolledSecret(base, {normalise("Juan Martínez"): 1}, dates=2)
    for key in ("juan martinez", "martinez", "juan"):  # the original and runs of its words
        assert rolled.digest("surname", key, "0") != base.digest("surname", key, "0")
    for key in ("martin", "pedro", "juan garcia"):  # anything else draws as before
        assert rolled.digest("surname", key, "0") == base.digest("surname", key, "0")
    assert rolled.digest("date-shift", "nota-1") != base.digest("date-shift", "nota-1")
    again = RerolledSecret(base, {normalise("Juan Martínez"): 1}, dates=2)
    # reproducible
    assert again.digest("surname", "martinez", "0") == rolled.digest("surname", "martinez", "0")
    twice = RerolledSecret(base, {normalise("Juan Martínez"): 2})
    assert twice.digest("surname", "martinez", "0") != rolled.digest("surname", "martinez", "0")
