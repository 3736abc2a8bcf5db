"""Memo keeps a pure function's results up to its size, then starts afresh."""

from __future__ import annotations

from crfdeid.memo import Memo


def test_a_full_memo_starts_afresh_and_keeps_the_new_value() -> None:
    memo: Memo[str, int] = Memo(3)
    assert [memo.remember(k, v) for k, v in (("a", 1), ("b", 2), ("c", 3))] == [1, 2, 3]
    assert dict(memo) == {"a": 1, "b": 2, "c": 3}
    assert memo.remember("d", 4) == 4
    assert dict(memo) == {"d": 4}  # never more than its size


def test_none_is_a_value_it_keeps() -> None:
    memo: Memo[str, str | None] = Memo(2)
    memo.remember("x", None)
    assert "x" in memo and memo["x"] is None
