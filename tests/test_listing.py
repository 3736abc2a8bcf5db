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


def test_a_notes_lines_are_found_once_for_all_its_spans() -> None:
    # per span, a search over its whole line had made a note of one long line quadratic (7,000
    # e-mail addresses in one line: 8 s); the lines are now found once, with the same answers
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from crfdeid.listing import Lines

    @settings(max_examples=200, deadline=None)
    @given(st.text(alphabet="ab \n-", max_size=60), st.data())
    def same(text: str, data: st.DataObject) -> None:
        lines = Lines(text)
        at = data.draw(st.integers(0, len(text)))
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        assert lines.bounds(at) == (start, end if end >= 0 else len(text))
        if at < len(text):
            stop = data.draw(st.integers(at + 1, len(text)))
            assert in_aligned_column(text, at, stop) == in_aligned_column(text, at, stop, lines)

    same()
    for text in (LISTING, LISTING.replace("\n", "  x  y\n")):
        lines = Lines(text)
        for at in range(len(text)):
            for stop in range(at + 1, min(len(text), at + 30)):
                assert in_aligned_column(text, at, stop) == in_aligned_column(text, at, stop, lines)
