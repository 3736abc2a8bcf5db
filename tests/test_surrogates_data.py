"""The surrogate data: tables built on first use are the tables built at once, the bulk fold
is the fold of each, and the phrase index answers as the scan it replaces."""

from __future__ import annotations

import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.langpack import fold, load_pack
from crfdeid.pseudonymise import Pseudonymiser
from crfdeid.surrogates.data import LAZY, Phrases, SurrogateData, contains_words, fold_all
from crfdeid.types import Document, Span


@pytest.fixture(scope="module")
def pack():
    return load_pack("es")


def test_lazy_tables_wait_for_their_first_reader(pack):
    data = SurrogateData(pack)
    assert data.built() == set()
    Pseudonymiser(data=data, seed=1)  # building the generators reads none of them
    assert data.built() == set()
    assert data.given["maria"][1] > 0
    assert data.built() == {"_names"}
    text = "Paciente: Ana Gil. Vive en la Calle Mayor 3."
    doc = Document("n", text, (Span(10, 17, "NOMBRE_SUJETO_ASISTENCIA"), Span(30, 43, "CALLE")))
    Pseudonymiser(data=data, seed=1).pseudonymise(doc)
    assert {"_names", "_streets"} <= data.built()
    with pytest.raises(AttributeError):
        _ = data.no_such_table


def test_tables_built_on_first_use_are_those_built_at_once(pack):
    lazy, eager = SurrogateData(pack), SurrogateData(pack)
    for method in sorted(set(LAZY.values())):
        getattr(eager, method)(pack)
    for name in LAZY:
        assert getattr(lazy, name) == getattr(eager, name), name
    assert lazy.built() == set(LAZY.values())


def test_threads_reading_a_table_build_it_once(pack):
    data = SurrogateData(pack)
    calls = []
    names = data._names

    def counted(p):
        calls.append(1)
        names(p)

    data._names = counted
    threads = [threading.Thread(target=lambda: data.surname_pool) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1 and data.surname_pool


@settings(max_examples=200, deadline=None, database=None)
@given(st.lists(st.text(max_size=12), max_size=20))
def test_fold_all_is_the_fold_of_each(texts):
    assert fold_all(texts) == [fold(t) for t in texts]


@settings(max_examples=200, deadline=None, database=None)
@given(st.lists(st.lists(st.sampled_from("abcd"), max_size=3).map(tuple), max_size=6),
       st.lists(st.sampled_from("abcde"), max_size=8).map(tuple))
def test_the_phrase_index_answers_as_the_scan(phrases, words):
    assert Phrases(phrases).found_in(words) == any(contains_words(words, p) for p in phrases)


def test_a_town_is_found_by_the_other_names_the_table_gives_it() -> None:
    # municipalities.tsv's aliases: "Tarrasa" and "Vitoria" had been unknown places, drawn
    # from anywhere; now towns of their province, and the province's other towns follow
    data = SurrogateData(load_pack("es"))
    assert data.find_town("Tarrasa") == ("Terrassa", "Barcelona")
    assert data.find_town("Vitoria") == ("Vitoria-Gasteiz", "Álava")
    assert data.find_town("Torrente") == ("Torrent", "Valencia")  # not Girona's Torrent
    assert data.find_town("La Laguna") == ("San Cristóbal de La Laguna", "Santa Cruz de Tenerife")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 50), st.booleans()), min_size=1, max_size=40), st.integers(0, 2**32))
def test_a_filtered_pool_draws_as_a_list_of_weights_would(rows, seed):
    """Pools keep their running totals as 8-byte doubles (the place generator holds dozens of
    filtered copies of 8,000 towns: 11 MB of float objects over MEDDOCAN dev); a filtered pool
    holds the floats a list would (weights recovered from the totals, added up again) and draws
    exactly what ``random.choices`` draws from them."""
    import itertools
    import operator
    import random
    from array import array

    from crfdeid.surrogates.data import Pool

    pool = Pool.of([(f"t{i}", w) for i, (w, _) in enumerate(rows)])
    keep = [k for _, k in rows]
    filtered = pool.where(keep)
    kept = [(f"t{i}", w) for i, (w, k) in enumerate(rows) if k]
    if not kept:
        assert filtered is None
        return
    assert isinstance(pool.cum, array) and isinstance(filtered.cum, array)
    cum = list(itertools.accumulate((w for w, _ in rows), initial=0.0))[1:]
    weights = list(map(operator.sub, cum, [0.0, *cum[:-1]]))
    totals = list(itertools.accumulate(itertools.compress(weights, keep), initial=0.0))[1:]
    assert list(filtered.cum) == totals
    if totals[-1] > 0:
        expected = random.Random(seed).choices([t for t, _ in kept], cum_weights=totals, k=1)[0]
        assert filtered.choose(random.Random(seed)) == expected
