"""freeze_loaded moves what is alive to the permanent generation, out of the collector's walks."""

from __future__ import annotations

import gc

from crfdeid import heap
from crfdeid.heap import freeze_loaded


def test_objects_alive_at_load_are_frozen_and_new_ones_are_not() -> None:
    loaded = [[k] for k in range(1000)]  # stands for the model's tables
    try:
        freeze_loaded()
        frozen = gc.get_freeze_count()
        assert frozen >= len(loaded)
        later = [[k] for k in range(1000)]
        # what comes after is collected as usual: nothing is added to the frozen generation (it may
        # lose objects that another thread of the test process frees meanwhile: CI saw 2 go)
        assert gc.get_freeze_count() <= frozen
        assert later and gc.is_tracked(later[0])
    finally:
        gc.unfreeze()
        heap._FREEZING[0] = False


def test_a_note_scope_frees_its_cycles_and_freezes_what_it_keeps() -> None:
    import weakref

    class Node:
        pass

    cache: list[object] = []
    try:
        freeze_loaded()
        before = gc.get_freeze_count()
        with heap.note_scope():
            assert not gc.isenabled()  # the note runs without collections
            cycle = Node()
            cycle.me = cycle  # garbage once the note is done, freed only by the collector
            gone = weakref.ref(cycle)
            del cycle
            cache.append([Node() for _ in range(100)])  # what a note adds to a cache
        assert gc.isenabled()
        assert gone() is None  # the note's cycle was collected...
        assert gc.get_freeze_count() >= before + 100  # ...and what it kept is frozen
    finally:
        gc.unfreeze()
        heap._FREEZING[0] = False


def test_without_freeze_loaded_a_note_scope_leaves_the_collector_alone() -> None:
    heap._FREEZING[0] = False
    with heap.note_scope():
        assert gc.isenabled()
    assert gc.get_freeze_count() == 0


def test_freezing_right_after_a_load_does_not_walk_the_heap_a_second_time(monkeypatch) -> None:
    walks: list[int] = []
    collect = gc.collect
    try:
        with heap.collector_paused(gc.collect):  # a model load ends with one full collection
            loaded = [[k] for k in range(5000)]
        monkeypatch.setattr(gc, "collect", lambda *a: walks.append(1) or collect(*a))
        freeze_loaded()
        assert walks == [] and gc.get_freeze_count() >= len(loaded)
    finally:
        gc.unfreeze()
        heap._FREEZING[0] = False


def test_freezing_after_other_work_collects_first(monkeypatch) -> None:
    import weakref

    class Node:
        pass

    gc.collect()
    garbage = [[k] for k in range(5 * gc.get_threshold()[0])]  # young collections run meanwhile
    cycle = Node()  # made after them: only the freeze's own collection can free it
    cycle.me = cycle
    gone = weakref.ref(cycle)
    del cycle
    assert gone() is not None
    try:
        freeze_loaded()
        assert gone() is None  # the cycle was collected, not frozen for ever
    finally:
        del garbage
        gc.unfreeze()
        heap._FREEZING[0] = False
