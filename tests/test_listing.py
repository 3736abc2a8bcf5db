"""A listing laid out in columns: its ruler, and where its cells are."""

from __future__ import annotations

from crfdeid.listing import in_aligned_column, is_ruler

LISTING = """NHC      APELLIDOS, NOMBRE        S ED
-------- ------------------------ - ---
01447102 BARREIRO CASTIÑEIRA, MAN V  64
00822931 OTERO FIGUEIRAS, CARMEN  M  91
"""


def test_a_ruler_is_read_without_a_pattern() -> None:
    assert is_ruler("-------- ------------------------ - ---")
    assert not is_ruler("-- " * 100000 + "x")  # had been 97 s for 1 MB
    assert not is_ruler("---------------")  # one run: a separator, no columns


def test_a_cell_of_a_ruled_listing_may_be_cut_and_a_sentences_word_is_no_cell() -> None:
    at = LISTING.index("OTERO FIGUEIRAS, CARMEN")
    assert in_aligned_column(LISTING, at, at + len("OTERO FIGUEIRAS, CARMEN")) is True
    prose = "Ingresó el 3 de mayo de 2021 por disnea.  Refiere tos.  Sin fiebre.\nSigue igual.\n"
    at = prose.index("3 de mayo de 2021")
    assert in_aligned_column(prose, at, at + len("3 de mayo de 2021")) is None  # one space after it
