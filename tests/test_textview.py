"""The normalised view of a text for detection, and its offset map both ways."""

from __future__ import annotations

import itertools
import json
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from crfdeid.textview import TextView, emphasis_marks, form_of, ocr_digits, ocr_letters, same_form
from crfdeid.types import Document, Span

# -- what the view changes ------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "Nombre: Ana López. NHC 1234567.\n",
                                  "Dña. Cuéllar, 37 años, 38 °C ® ™ © nº 3"])
def test_nothing_to_change_is_the_text_itself(text: str) -> None:
    view = TextView(text)
    assert view.identity and view.text is text and view.pieces == 0
    assert TextView(text, nfc_only=True).identity


@pytest.mark.parametrize("space", ["\t", "\xa0", "\u202f", "\u2000", "\u2007", "\u200a", "\u3000", "\u205f",
                                   "\u1680", "\x1f"])
def test_unicode_spaces_and_tabs_become_a_space(space: str) -> None:
    view = TextView(f"Ana{space}López")
    assert view.text == "Ana López"
    assert view.pieces == 0  # one for one: the offsets do not move
    assert view.to_original(4, 9) == (4, 9)


@pytest.mark.parametrize("brk", ["\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"])
def test_line_boundaries_become_a_line_feed(brk: str) -> None:
    assert TextView(f"Ana{brk}López").text == "Ana\nLópez"


def test_crlf_is_one_line_feed() -> None:
    view = TextView("NHC: 1\r\nAna\r\n\r\nFin")
    assert view.text == "NHC: 1\nAna\n\nFin"
    assert view.pieces == 3
    start = view.text.index("Ana")
    assert view.to_original(start, start + 3) == (8, 11)
    assert view.to_original(start - 1, start) == (6, 8)  # the line break is the whole CRLF
    assert view.to_view(6, 8) == (start - 1, start)
    assert view.to_view(7, 8) == (start - 1, start)  # half a CRLF is the whole line feed


@pytest.mark.parametrize("fmt", ["\u200e", "\u200f", "\u061c", "\u202a", "\u202b", "\u202c", "\u202d",
                                 "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200b", "\u200c",
                                 "\u200d", "\u2060", "\u00ad", "\ufeff", "\ufe0f", "\U000e0041"])
def test_format_characters_are_removed_and_stay_outside_spans(fmt: str) -> None:
    text = f"Sr. {fmt}Ernesto{fmt} Rivera"
    view = TextView(text)
    assert view.text == "Sr. Ernesto Rivera"
    assert text[slice(*view.to_original(4, 11))] == "Ernesto"
    assert view.to_original(4, 18) == (5, len(text))  # an inner removed character stays inside
    assert view.to_view(4, 5) is None  # nothing of it is left in the view


def test_a_soft_hyphen_inside_a_name_stays_inside_its_span() -> None:
    view = TextView("Fer\u00adnández")
    assert view.text == "Fernández"
    assert view.to_original(0, 9) == (0, 10)


@pytest.mark.parametrize("emoji", ["\U0001f600", "\U0001f44d\U0001f3fd", "\u2764\ufe0f", "\u260e\ufe0f",
                                   "\U0001f468\u200d\u2695\ufe0f", "\U0001f1ea\U0001f1f8", "\u231a",
                                   "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"])
def test_an_emoji_beside_a_word_is_removed(emoji: str) -> None:
    for text in (f"Nombre: {emoji}Ernesto.", f"Nombre: Ernesto{emoji}.", f"Nombre:{emoji} Ernesto."):
        view = TextView(text)
        assert view.text == "Nombre: Ernesto.", text
        start = view.text.index("Ernesto")
        assert text[slice(*view.to_original(start, start + 7))] == "Ernesto"


def test_an_emoji_between_two_words_separates_them() -> None:
    view = TextView("Ernesto\U0001f44d\U0001f3fdRivera")
    assert view.text == "Ernesto Rivera"
    assert view.to_original(8, 14) == (9, 15)
    assert view.to_original(7, 8) == (7, 9)  # the space is the whole emoji


def test_text_symbols_are_not_emoji() -> None:
    text = "© ® ™ ° º ☎ ✉ 38°C 2º"
    assert TextView(text).identity
    assert TextView("☎\ufe0f 948 255 400").text == " 948 255 400"  # VS16 asks for the emoji


def test_decomposed_accents_are_composed() -> None:
    nfd = unicodedata.normalize("NFD", "Julián Fernández Núñez")
    view = TextView(nfd)
    assert view.text == "Julián Fernández Núñez"
    assert view.pieces == 4
    start = view.text.index("Fernández")
    assert nfd[slice(*view.to_original(start, start + 9))] == unicodedata.normalize("NFD", "Fernández")
    accent = start + 4  # the "á" of Fernández; one mark before it in the original ("Julián")
    assert view.to_original(accent, accent + 1) == (accent + 1, accent + 3)  # "a" + U+0301
    assert view.to_view(accent + 1, accent + 2) == (accent, accent + 1)  # half of it is all of it


def test_singletons_are_composed_with_their_marks() -> None:
    assert TextView("\u212b").text == "\u00c5"  # ANGSTROM SIGN
    assert TextView("\u212b\u0301").text == "\u01fa"
    assert TextView("\u2126 y \u037e").text == "\u03a9 y ;"


def test_a_mark_separated_from_its_base_by_a_removed_character_is_composed() -> None:
    text = "Jose\u200b\u0301 Ruiz"
    view = TextView(text)
    assert view.text == "José Ruiz"
    assert view.to_original(0, 4) == (0, 6)
    assert TextView(view.text).identity


def test_a_span_never_cuts_a_combining_sequence() -> None:
    # "x" + U+0301 has no precomposed form: the view keeps both, the span takes both.
    view = TextView("Dr. Ax\u0301y", nfc_only=True)
    assert view.identity
    assert view.to_original(4, 6) == (4, 7)
    assert view.to_original(6, 7) == (5, 7)


def test_a_span_never_cuts_a_crlf() -> None:
    view = TextView("a\r\nb", nfc_only=True)
    assert view.to_original(0, 2) == (0, 3)
    assert view.to_original(2, 4) == (1, 4)


def test_snapping_an_original_span_widens_it_to_whole_crlfs_and_sequences() -> None:
    view = TextView("a\r\nb Ax\u0301y", nfc_only=True)
    assert view.snap_span(Span(1, 2, "X")) == Span(1, 3, "X")
    assert view.snap_span(Span(2, 3, "X")) == Span(1, 3, "X")
    assert view.snap_span(Span(5, 7, "X")) == Span(5, 8, "X")  # "Ax" takes its mark
    two_parts = view.snap_span(Span(0, 8, "X", fragments=((0, 2), (2, 8))))
    assert (two_parts.start, two_parts.end, two_parts.fragments) == (0, 8, None)  # now touching
    plain = Span(0, 1, "X")
    assert view.snap_span(plain) is plain
    # found by the fuzzer: the CRLF taken in brings the mark after it; snapping is idempotent
    marked = TextView("\u0110\r\n\u06e2", nfc_only=True)
    once = marked.snap_span(Span(0, 2, "X"))
    assert (once.start, once.end) == (0, 4) and marked.snap_span(once) == once


@pytest.mark.parametrize("text, exact", [
    ("Nombre: Ana López.\nNHC: 123.\n", True),  # an ordinary note: nothing to map
    ("Nombre: Ana\r\nLópez.", False),
    ("Nombre: Ana Lo\u0301pez.", False),  # NFD: the view composes it
    ("Dr. Ax\u0301y", False),  # NFC with a mark a span could cut from its base
    ("Nota 😀", False),
])
def test_the_nfc_only_view_of_an_ordinary_note_is_exact(text: str, exact: bool) -> None:
    assert TextView(text, nfc_only=True).exact is exact


def test_nfc_only_changes_nothing_but_composition() -> None:
    text = "Ana\xa0Mari\u0301a\tLo\u0301pez\r\n\u200e\U0001f600"
    view = TextView(text, nfc_only=True)
    assert view.text == unicodedata.normalize("NFC", text)
    assert view.text == "Ana\xa0María\tLópez\r\n\u200e\U0001f600"
    assert view.to_original(4, 9) == (4, 10)


def test_the_map_is_compact() -> None:
    text = "Línea con datos: 12345.\r\n" * 20_000
    view = TextView(text)
    assert view.text == text.replace("\r\n", "\n")
    assert view.pieces == 20_000  # one entry per change, not one per character
    last = view.text.rindex("12345")
    assert view.to_original(last, last + 5) == (text.rindex("12345"), text.rindex("12345") + 5)


def test_bad_ranges_and_types() -> None:
    view = TextView("a\u200bb")
    for start, end in ((1, 1), (-1, 1), (0, 3)):
        with pytest.raises(ValueError):
            view.to_original(start, end)
    with pytest.raises(ValueError):
        view.to_view(0, 4)
    with pytest.raises(ValueError):
        view.original_offset(3)
    with pytest.raises(TypeError):
        TextView(b"bytes")  # type: ignore[arg-type]


def test_original_offset_skips_removed_characters() -> None:
    view = TextView("\ufeffAna\u200e López")
    assert [view.original_offset(v) for v in (0, 3, 4, 9)] == [1, 5, 6, 11]


# -- spans and documents --------------------------------------------------------------------


def test_spans_map_back_with_their_fields() -> None:
    text = "Paciente:\u00a0Ernesto\u200f Rivera\r\nNHC:\t2347865\r\n"
    view = TextView(text)
    name = Span(10, 24, "NOMBRE_SUJETO_ASISTENCIA", "crf", 0.9)
    assert view.text[10:24] == "Ernesto Rivera"
    mapped = view.span_to_original(name)
    assert (mapped.start, mapped.end, mapped.label, mapped.source, mapped.score) == (
        10, 25, "NOMBRE_SUJETO_ASISTENCIA", "crf", 0.9)
    nhc = view.text.index("2347865")
    assert text[slice(*view.to_original(nhc, nhc + 7))] == "2347865"


def test_discontinuous_spans_map_fragment_by_fragment() -> None:
    view = TextView("C/\u200b Mayor,\r\n 5")
    span = Span(0, 12, "CALLE", fragments=((0, 8), (10, 12)))
    assert view.text[0:8] == "C/ Mayor" and view.text[10:12] == " 5"
    assert view.span_to_original(span).fragments == ((0, 9), (12, 14))


def test_spans_that_meet_in_one_sequence_do_not_overlap() -> None:
    view = TextView("ax\u0301b", nfc_only=True)  # the view cuts "x" from its mark
    spans = [Span(0, 2, "A"), Span(2, 4, "B")]
    mapped = view.spans_to_original(spans)
    assert [(s.start, s.end) for s in mapped] == [(0, 3), (3, 4)]


def test_a_document_view_carries_its_gold_spans() -> None:
    text = "\ufeffNombre: Ana\u00a0López\r\nNHC: 123\u200b"
    gold = (Span(9, 18, "NOMBRE_SUJETO_ASISTENCIA"), Span(25, 28, "ID_SUJETO_ASISTENCIA"),
            Span(28, 29, "OTROS_SUJETO_ASISTENCIA"))
    doc = Document("d", text, gold)
    view_doc = TextView(text).document(doc)
    assert view_doc.text == "Nombre: Ana López\nNHC: 123"
    assert [view_doc.span_text(s) for s in view_doc.spans] == ["Ana López", "123"]  # the ZWSP span is gone
    assert TextView("plain").document(Document("p", "plain")).text == "plain"


# -- normalisation forms of surrogates ------------------------------------------------------


def test_same_form() -> None:
    nfd = unicodedata.normalize("NFD", "Julián")
    assert same_form("Fernández", nfd) == unicodedata.normalize("NFD", "Fernández")
    assert same_form(unicodedata.normalize("NFD", "Fernández"), "Julián") == "Fernández"
    assert same_form("Fernández", "Ernesto") == "Fernández"  # neutral original: the default
    assert same_form("Fernández", "Ernesto", default="NFD") == unicodedata.normalize("NFD", "Fernández")
    assert same_form("Fernández", "Julia\u0301n Núñez") == "Fernández"  # a mix: composed


def test_form_of() -> None:
    assert form_of("Ernesto") is None
    assert form_of("Julián") == "NFC"
    assert form_of(unicodedata.normalize("NFD", "Julián")) == "NFD"


# -- properties -----------------------------------------------------------------------------

#: What the view changes (and a few things it must keep), to mix into generated texts.
SPECIALS = ["\xa0", "\t", "\u3000", "\r\n", "\r", "\u2028", "\x85", "\u200b", "\u200e", "\u200f",
            "\ufeff", "\u00ad", "\u2066", "\u0301", "\u0327", "e\u0301", "n\u0303", "\u212b", "\U0001f600",
            "\u2764\ufe0f", "\U0001f44d\U0001f3fb", "\U0001f468\u200d\u2695\ufe0f", "\ufe0f", "\u20e3",
            "\U0001f1ea", "°", "®", "\u1100\u1161\u11a8", "\u0915\u094d\u0937"]
NOT_A_MARK = [s for s in SPECIALS if not unicodedata.category(s[0]).startswith("M")]
PIECES = st.lists(st.one_of(st.sampled_from(SPECIALS), st.text("aeinoAEÁñ 1.:\n", min_size=1, max_size=4),
                            st.text(max_size=3)), max_size=30).map("".join)
TEXTS = st.one_of(PIECES, st.text())


def _reference(text: str) -> str:
    """The view written the slow, obvious way, for texts without emoji."""
    out = []
    composed = unicodedata.normalize("NFC", text).replace("\r\n", "\n")
    for ch in composed:
        if unicodedata.category(ch) == "Cf" or 0xFE00 <= ord(ch) <= 0xFE0F or 0xE0100 <= ord(ch) <= 0xE01EF:
            continue
        if ch.isspace() and ch not in " \n":
            ch = "\n" if len(f"a{ch}b".splitlines()) == 2 else " "
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out))


def _has_emoji(text: str) -> bool:
    import regex

    return regex.search(r"[\p{Extended_Pictographic}\p{Emoji_Presentation}]", text) is not None


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(TEXTS)
@example("e\u200b\u0301")
@example("\r\u200b\n")
def test_the_view_is_normalised_and_stable(text: str) -> None:
    view = TextView(text)
    assert unicodedata.is_normalized("NFC", view.text)
    assert all(ch in " \n" or not ch.isspace() for ch in view.text)
    assert not any(unicodedata.category(ch) == "Cf" for ch in view.text)
    assert TextView(view.text).identity  # a view of the view is the view
    reference = _reference(text)
    # the one-for-one readings of a scan's digits and letters and of Markdown's bold field names
    # are tested on their own (below): the property is the normalisation where they read nothing
    readings = emphasis_marks(ocr_letters(ocr_digits(reference))) == reference
    if not _has_emoji(text) and readings:
        assert view.text == reference
    nfc = TextView(text, nfc_only=True)
    assert nfc.text == unicodedata.normalize("NFC", text)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(TEXTS, st.lists(st.integers(0, 10_000), max_size=8))
def test_view_ranges_map_back_in_order_and_cover_the_text(text: str, cuts: list[int]) -> None:
    for view in (TextView(text), TextView(text, nfc_only=True)):
        n = len(view.text)
        if not n:
            continue
        bounds = sorted({0, n, *(c % (n + 1) for c in cuts)})
        mapped = [view.to_original(a, b) for a, b in itertools.pairwise(bounds)]
        previous = (0, 0)
        for (a, b), (s, e) in zip(itertools.pairwise(bounds), mapped, strict=True):
            assert 0 <= s < e <= len(text)
            assert s >= previous[0] and e >= previous[1]  # in order (widening may share a sequence)
            back = view.to_view(s, e)
            assert back is not None and back[0] <= a and back[1] >= b  # the range is inside its image
            previous = (s, e)
        # Every stretch of the original left out of the ranges is one the view removed.
        gaps = [(0, mapped[0][0])] + [(p[1], q[0]) for p, q in itertools.pairwise(mapped)]
        gaps.append((mapped[-1][1], len(text)))
        for s, e in gaps:
            if s < e:
                assert TextView(text[s:e]).text in ("", " "), (s, e, text[s:e])


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.text("abcdefghñÁé0123456789", min_size=1, max_size=6),
                          st.sampled_from([*NOT_A_MARK, " ", ", "])), min_size=1, max_size=12))
def test_plain_stretches_keep_their_text_and_come_back_exactly(pairs: list[tuple[str, str]]) -> None:
    text, plain = "", []
    for word, special in pairs:
        plain.append((len(text), len(text) + len(word)))
        text += word + special
    view = TextView(text)
    for s, e in plain:
        r = view.to_view(s, e)
        assert r is not None and view.text[r[0]:r[1]] == text[s:e]
        assert view.to_original(*r) == (s, e)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(TEXTS, st.lists(st.tuples(st.integers(0, 500), st.integers(1, 20)), max_size=6))
def test_mapped_spans_are_sorted_inside_the_text_and_disjoint(text: str, raw: list[tuple[int, int]]) -> None:
    view = TextView(text)
    n = len(view.text)
    if not n:
        return
    spans, taken = [], set()
    for start, size in raw:
        start %= n
        end = min(n, start + size)
        if taken.isdisjoint(range(start, end)):
            taken.update(range(start, end))
            spans.append(Span(start, end, "X"))
    mapped = view.spans_to_original(spans)
    assert len(mapped) <= len(spans)
    for a, b in itertools.pairwise(mapped):
        assert a.end <= b.start
    assert all(0 <= s.start < s.end <= len(text) for s in mapped)


def test_a_long_note_is_substituted_in_chunks_like_a_short_one() -> None:
    line = "Dña.\xa0Ana\tLópez\x0bNHC 12345\u2028"
    text = line * 60_000  # 1.7 million characters: several chunks, boundaries anywhere
    view = TextView(text)
    assert len(text) > 1 << 20
    assert view.text == ("Dña. Ana López\nNHC 12345\n" * 60_000)
    assert view.pieces == 0


def test_the_shipped_unicode_lists_are_this_pythons() -> None:
    """The precomputed lists (read at every model load) are what unicodedata says; refresh
    them with ``python -m crfdeid.textview`` when the Unicode version moves."""
    from crfdeid import textview

    shipped = json.loads(textview._LISTS_FILE.read_text(encoding="utf-8"))
    if shipped["unidata_version"] != unicodedata.unidata_version:
        pytest.skip(f"lists made for Unicode {shipped['unidata_version']}, this Python has "
                    f"{unicodedata.unidata_version} (it computes its own)")
    assert textview.unicode_lists() == textview.compute_unicode_lists()


def test_lists_of_another_unicode_version_are_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from crfdeid import textview

    stale = tmp_path / "lists.json"
    stale.write_text(json.dumps({"unidata_version": "1.0.0", "lists": {"spaces": [[65, 65]]}}))
    monkeypatch.setattr(textview, "_LISTS_FILE", stale)
    monkeypatch.setattr(textview, "compute_unicode_lists", lambda: {"computed": [1]})
    assert textview.unicode_lists() == {"computed": [1]}


@pytest.mark.parametrize(("written", "read"), [
    ("Teléfono: 982 l28 455  /  6l6 402 771", "Teléfono: 982 128 455  /  616 402 771"),
    ("F. nacimiento: O7/O1/1967, NHC O458812", "F. nacimiento: 07/01/1967, NHC 0458812"),
    ("Fecha de alta:  2l-03-2025", "Fecha de alta:  21-03-2025"),
])
def test_letters_scanning_read_for_digits_are_digits_in_the_view(written: str, read: str) -> None:
    """An OCR'd report (the thirteenth set written blind) left two phones and a birth date in
    clear: the view reads them as digits, one character for one, and spans map back as they are."""
    view = TextView(written)
    assert view.text == read and not view.exact and view.pieces == 0
    assert view.to_original(3, 9) == (3, 9)


@pytest.mark.parametrize("text", [
    "5 l de suero fisiológico", "grado II 2023", "IO 2345", "Calle Sol 12, 3º", "Ol 2", "CO2 40 mmHg",
    "saturación de O2 100%, consciente",
    "HbA1c 7,2 %", "el 12/03/2025 a las 10:05",
])
def test_words_and_short_numbers_are_left_alone(text: str) -> None:
    view = TextView(text)
    assert view.text == text and view.exact


@pytest.mark.parametrize("text, view", [
    # a ward's Markdown export: bold field names (the nineteenth set written blind)
    ("**SIP:** 10874412 · **NHC:** MOR-00318", "  SIP:   10874412 ·   NHC:   MOR-00318"),
    ("- **Sexe**: dona · **Edat:** 82 anys", "-   Sexe  : dona ·   Edat:   82 anys"),
    # other emphasis stays: its marks part what they wrap from what follows
    ("con **Marian** y Jorge", "con **Marian** y Jorge"),
    ("*Unai Etxezarreta* – 25/Nov/26", "*Unai Etxezarreta* – 25/Nov/26"),
    # an asterisk that is no emphasis: a footnote's, a blood unit's check character, a product
    ("Hb 9,2* (hemolizada)", "Hb 9,2* (hemolizada)"),
    ("bolsa W1234 25 654321 00 *", "bolsa W1234 25 654321 00 *"),
    ("2 * 3 = 6", "2 * 3 = 6"),
])
def test_emphasis_marks_are_spaces_in_the_view(text: str, view: str) -> None:
    seen = TextView(text)
    assert seen.text == view and len(seen.text) == len(text)
    start = text.index("1") if "SIP" in text else 0
    assert seen.to_original(start, start + 3) == (start, start + 3)  # one for one: offsets stay


@pytest.mark.parametrize("text, view", [
    # an OCR'd phone screenshot (the nineteenth set written blind): zeros read for an O
    ("ENFERMERÍA - R0SA MARÍA PLAZA\nCENTR0 DE SALUD CAZ0RLA",
     "ENFERMERÍA - ROSA MARÍA PLAZA\nCENTRO DE SALUD CAZORLA"),
    ("MEDICINA FAMILIA - GONZALO 0CAÑAS", "MEDICINA FAMILIA - GONZALO OCAÑAS"),
    # a zero opening or ending a short word, two zeros: a code, a score, a staging (the review)
    ("0CAÑA, ECOG0, SAT0, T0N0M0", "0CAÑA, ECOG0, SAT0, T0N0M0"),
    # a staging, a saturation, a code, numbers: no word of capitals alone
    ("estadio T2N0M0, N0 M0; SAT02 98%; lote AB0-12; 10/10/2020",
     "estadio T2N0M0, N0 M0; SAT02 98%; lote AB0-12; 10/10/2020"),
    # a number glued to its unit (MEDDOCAN: "urocultivos <10.000UFC/ml")
    ("urocultivos <10.000UFC/ml, 100UFC, 50000UI", "urocultivos <10.000UFC/ml, 100UFC, 50000UI"),
])
def test_zeros_read_for_an_o_in_words_in_capitals(text: str, view: str) -> None:
    assert TextView(text).text == view
