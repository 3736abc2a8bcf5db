"""freeze_loaded moves what is alive to the permanent generation, out of the collector's walks."""

from __future__ import annotations

import gc

from crfdeid.heap import freeze_loaded


def test_objects_alive_at_load_are_frozen_and_new_ones_are_not() -> None:
    loaded = [[k] for k in range(1000)]  # stands for the model's tables
    try:
        freeze_loaded()
        frozen = gc.get_freeze_count()
        assert frozen >= len(loaded)
        later = [[k] for k in range(1000)]
        assert gc.get_freeze_count() == frozen  # what comes after is collected as usual
        assert later and gc.is_tracked(later[0])
    finally:
        gc.unfreeze()
