"""The ranges a completion step asks about: by bisection, the same answers as a scan."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.taken import Taken, overlapping, own, touching

RANGES = st.lists(st.tuples(st.integers(0, 60), st.integers(0, 12)).map(lambda p: (p[0], p[0] + p[1])),
                  max_size=30)
QUERY = st.tuples(st.integers(-5, 70), st.integers(0, 15)).map(lambda p: (p[0], p[0] + p[1]))


@settings(max_examples=300, deadline=None)
@given(RANGES, RANGES, QUERY)
def test_the_answers_are_a_scan_s(first: list[tuple[int, int]], added: list[tuple[int, int]],
                                  query: tuple[int, int]) -> None:
    taken = Taken(first)
    taken.extend(added)
    every = sorted([*first, *added])  # a multiset, as the lists it replaces: a range added twice counts twice
    start, end = query
    assert list(taken) == every
    assert taken.overlapping(start, end) == [(s, e) for s, e in every if s < end and start < e]
    assert taken.touching(start, end) == [(s, e) for s, e in every if s <= end and start <= e]
    assert overlapping(every, start, end) == overlapping(taken, start, end)
    assert touching(every, start, end) == touching(taken, start, end)


def test_a_step_adds_to_its_own_copy() -> None:
    taken = Taken([(0, 4)])
    mine = own(taken)
    mine.add(10, 14)
    assert list(taken) == [(0, 4)] and list(mine) == [(0, 4), (10, 14)]
    assert list(own([(5, 6), (1, 2)])) == [(1, 2), (5, 6)]


def test_a_long_range_is_found_from_far_ahead() -> None:
    # the longest range bounds how far back one reaching a question can start
    taken = Taken([(0, 1000), (2000, 2001)])
    taken.extend((k, k + 1) for k in range(1100, 1900, 3))
    assert taken.overlapping(999, 1001) == [(0, 1000)]
    assert taken.touching(1000, 1000) == [(0, 1000)]
    assert taken.overlapping(1000, 1001) == []
