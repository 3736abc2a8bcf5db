"""Chunked rule search: the chunk plan, and the same matches as one search over the whole text.

Every edge case is run with chunks far smaller than real ones (a few characters), so that each
pattern meets a cut, and compared with the engine run as one chunk and with ``regex`` itself.
"""

from __future__ import annotations

import time
from itertools import pairwise

import pytest
import regex

from crfdeid.rules import CHUNK_SIZE, Context, Rule, RuleEngine, plan_chunks
from crfdeid.rules.chunks import GUARD, MARGIN
from crfdeid.rules.model import Phrases, TextScope
from crfdeid.rules.report import explain_rows, format_explain
from crfdeid.types import Document

WHOLE = 10**9  # a chunk size no test text reaches: one chunk, today's whole-text search


def rule(rule_id: str, pattern: str, **kwargs) -> Rule:
    kwargs.setdefault("label", "ID_SUJETO_ASISTENCIA")
    return Rule(id=rule_id, description="A test rule.", pattern=pattern, **kwargs)


def outcome(rules: list[Rule], text: str, chunk_size: int) -> tuple[list, list]:
    """(kept matches, dropped pairs) as (rule id, start, end) tuples."""
    result = RuleEngine(rules, chunk_size=chunk_size).run(Document("d", text))
    assert result.timeouts == ()
    kept = [(m.rule.id, m.start, m.end) for m in result.matches]
    dropped = [((a.rule.id, a.start, a.end), (b.rule.id, b.start, b.end)) for a, b in result.dropped]
    return kept, dropped


def spans(rules: list[Rule], text: str, chunk_size: int) -> list[tuple[str, int, int]]:
    return outcome(rules, text, chunk_size)[0]


def same_at_every_chunk_size(rules: list[Rule], text: str) -> list[tuple[str, int, int]]:
    """The matches of one whole-text search, checked to be those (and the same dropped pairs) of
    every tiny chunk size too."""
    whole = outcome(rules, text, WHOLE)
    for size in range(2, 24):
        assert outcome(rules, text, size) == whole, f"chunk size {size}"
    return whole[0]


# --- the plan ---------------------------------------------------------------------------------

def test_empty_text_has_no_chunks_and_the_size_is_checked():
    assert plan_chunks("") == []
    with pytest.raises(ValueError):
        plan_chunks("abc", 1)
    with pytest.raises(ValueError):
        RuleEngine([], chunk_size=1)


@pytest.mark.parametrize("text", [
    "uno\ndos\ntres\n" * 40,
    "línea\r\ncon CRLF\r\n" * 40,
    "sin saltos de línea pero con espacios " * 40,
    "x" * 1000,
    "\n" * 500,
    "a\rb\r" * 200,
    "mezcla\n" + "palabra " * 200 + "\r\n" + "y" * 300 + "\n\n",
])
@pytest.mark.parametrize("size", [2, 7, 64, 100])
def test_chunks_tile_the_text_and_know_their_line_start(text: str, size: int):
    chunks = plan_chunks(text, size)
    assert chunks[0].start == 0 and chunks[-1].end == len(text)
    for before, after in pairwise(chunks):
        assert before.end == after.start
    for chunk in chunks:
        assert chunk.start < chunk.end <= chunk.start + size + 1  # +1: a CRLF kept together
        assert not (text[chunk.end - 1:chunk.end] == "\r" and text[chunk.end:chunk.end + 1] == "\n")
        expected = max(text.rfind("\n", 0, chunk.start), text.rfind("\r", 0, chunk.start)) + 1
        assert chunk.line_start == expected


def test_chunks_are_whole_lines_and_long_lines_are_cut_at_whitespace():
    text = "primera línea\n" + "segunda\n" + "palabra " * 20 + "\n"
    chunks = plan_chunks(text, 30)
    assert text[chunks[0].start:chunks[0].end] == "primera línea\nsegunda\n"
    for chunk in chunks[1:-1]:
        assert text[chunk.end - 1] == " "  # cut after a space, never inside "palabra"
    hard = plan_chunks("9" * 100, 30)
    assert [(c.start, c.end) for c in hard] == [(0, 30), (30, 60), (60, 90), (90, 100)]


def test_default_chunk_size_is_a_few_kb_and_the_margin_covers_long_matches():
    assert 1024 <= CHUNK_SIZE <= 65536
    assert 0 < GUARD < MARGIN


# --- the same matches as one search over the whole text -----------------------------------------

@pytest.mark.parametrize(("pattern", "text"), [
    (r"(?<=NHC: )\d+", "NHC: 12345 y NHC: 678"),                          # lookbehind across a cut
    (r"(?<![\p{L}\p{N}])\d{4}(?![\p{L}\p{N}])", "año 2014, 12345, x2014 y 2015"),  # both sides
    (r"\d+(?= años)", "tiene 45 años y 3 meses, 70 años"),                # lookahead across a cut
    (r"^\d+", "123 abc\n456 def"),                                        # ^ only at the start
    (r"(?m)^\d+", "123 abc\n456 def\r\n789"),                             # multiline ^
    (r"\d+$", "123 abc 456\n789"),                                        # $ only at the end
    (r"(?m)\d+$", "abc 123\ndef 456\r\nghi 789"),                         # multiline $
    (r"\b\d{3}\b", "123 4567 890 12 345"),                                # \b at a cut
    (r"\d+", "12345678901234567890 y 42"),                                # greedy run crossing cuts
    (r"aba", "ababababa"),                                                # no overlapping matches
    (r"(?s)INICIO.*?FIN", "INICIO " + "relleno " * 30 + "FIN y más"),     # a match over many chunks
    (r"(?P<phi>\d+)(?= cm)|(?P<phi>\d+)(?= mm)", "mide 12 cm y 3 mm"),     # the PHI group
    (r"(?<=\n)[A-Z][a-z]+", "uno\nDos\r\nTres\rCuatro"),                  # line breaks seen behind
    (r"\d{2}/\d{2}/\d{4}", "fechas 01/02/2003,04/05/2006\n07/08/2009"),
])
def test_chunked_matches_equal_the_whole_text_search(pattern: str, text: str):
    found = same_at_every_chunk_size([rule("r", pattern)], text)
    compiled = regex.compile(pattern)
    phi = "phi" in compiled.groupindex
    expected = [("r", *(m.span("phi") if phi else m.span())) for m in compiled.finditer(text)]
    assert found == [e for e in expected if e[1] < e[2]]


def test_a_chunk_resumes_after_the_match_the_previous_chunk_took():
    # one search finds "aba" at 0 and 4; a chunk starting at 2 must not find the one at 2
    for size in range(2, 9):
        kept, dropped = outcome([rule("r", "aba")], "ababababa", size)
        assert (kept, dropped) == ([("r", 0, 3), ("r", 4, 7)], []), size


def test_a_match_longer_than_the_margin_is_found_whole_once():
    text = "NHC: " + "7" * (5 * MARGIN) + " fin. NHC: 12"
    digits = rule("nhc", r"NHC: (?P<phi>\d+)")
    for size in (16, 100, MARGIN // 2, CHUNK_SIZE):
        assert spans([digits], text, size) == [("nhc", 5, 5 + 5 * MARGIN), ("nhc", len(text) - 2, len(text))]


def test_a_lookahead_that_sees_the_end_of_the_margin_is_searched_again():
    # "\d{4}(?!\d)" would match the first four digits of a long run if the search saw the run
    # end at the edge of its margin; the whole text says the run has no such match
    text = "x " + "5" * (MARGIN + 3 * GUARD) + " 2014"
    found = same_at_every_chunk_size([rule("y", r"(?<!\d)\d{4}(?!\d)")], text)
    assert found == [("y", len(text) - 4, len(text))]


def test_context_windows_reach_across_chunks():
    near = rule("tel", r"\d{9}", label="NUMERO_TELEFONO",
                context=Context(require=("teléfono",), window=4))
    line = rule("year", r"\b(?:19|20)\d{2}\b", label="FECHAS",
                context=Context(forbid=("CP", "código postal"), window=None))
    text = ("llamar al teléfono   912345678 o al 612345678 de noche 712345678\n"
            "operado en 2014 y en 2015. Domicilio con código\npostal 2016\r\n"
            "CP 2017 pero " + "nada " * 30 + "2018\n2019")
    found = same_at_every_chunk_size([near, line], text)
    assert [(rule_id, text[a:b]) for rule_id, a, b in found] == [
        ("tel", "912345678"), ("tel", "612345678"), ("year", "2014"), ("year", "2015"), ("year", "2016"),
        ("year", "2019")]


def test_context_phrases_split_over_a_line_break_and_long_whitespace():
    ctx = Context(require=("nº de historia",), window=None)
    nhc = rule("n", r"\d{6}", context=ctx)
    text = "nº  de " + " " * 300 + "historia 123456 y 654321\nnº de\nhistoria 111111"
    assert [text[a:b] for _, a, b in same_at_every_chunk_size([nhc], text)] == ["123456", "654321"]


def test_a_phrase_that_an_earlier_candidate_cut_is_found_by_a_later_one():
    # "12" is a candidate inside the phrase: its window holds only "historia "; the window of
    # "345678" holds the whole phrase, which began before the previous check ended
    ctx = Context(require=("historia 12 bis",), window=None)
    text = "historia 12 bis 345678\nhistoria 12\nbis 555555\nhistoria 12  bis 999999"
    found = same_at_every_chunk_size([rule("n", r"\d+", context=ctx)], text)
    assert [text[a:b] for _, a, b in found] == ["345678", "999999"]


def test_resume_point_goes_back_over_every_word_a_phrase_could_have_begun_with():
    phrases = Phrases(("nº de historia", "Tel"))
    assert (phrases.words, phrases.word_length) == (3, 8)
    text = "ver nº  de\thistoria clínica"
    assert phrases.resume_point(text, text.index("toria"), 0) == text.index("nº")
    assert phrases.resume_point(text, text.index("toria"), text.index("de")) == text.index("de")
    glued = "x" * 50 + "historia"
    assert phrases.resume_point(glued, len(glued), 0) == len(glued) - 8  # no word is longer


def test_line_start_within_chunks_equals_searching_back_for_the_line_break():
    text = "uno\r\ndos " + "x" * 50 + "\rtres\n" + "y " * 40
    for size in (3, 8, 30):
        scope = TextScope(text, plan_chunks(text, size))
        for position in range(len(text) + 1):
            expected = max(text.rfind("\n", 0, position), text.rfind("\r", 0, position)) + 1
            assert scope.line_start(position) == expected, (size, position)


def test_a_token_window_reaches_back_a_bounded_stretch():
    ctx = Context(require=("teléfono",), window=3)
    tel = rule("tel", r"\d{9}", label="NUMERO_TELEFONO", context=ctx)
    far = "teléfono " + "a" * (2 * TextScope.MAX_REACH) + " 912345678"
    assert spans([tel], far, CHUNK_SIZE) == []  # the phrase is 8 KB back, beyond the window's reach
    near = "teléfono " + "a" * 1000 + " 912345678"
    assert [near[a:b] for _, a, b in spans([tel], near, CHUNK_SIZE)] == ["912345678"]


# --- time budget --------------------------------------------------------------------------------

def test_the_budget_is_cpu_time_so_waiting_never_times_out():
    # each candidate's context check asks how much budget is left, after the previous
    # candidate's validator waited 20 ms: wall-clock time passes, the CPU does nothing
    slow_check = rule("wait", r"\d+", context=Context(forbid=("no",), window=2))
    calls = []

    def waits(value: object) -> bool:
        calls.append(value)
        time.sleep(0.02)
        return True

    object.__setattr__(slow_check, "_check", waits)
    result = RuleEngine([slow_check], timeout=0.05).run(Document("d", "1 2 3 4 5 6 7 8 9 10"))
    assert len(calls) == 10 and result.timeouts == ()
    assert [m.text for m in result.matches] == [str(i) for i in range(1, 11)]


class _FlakyPattern:
    """Stands in for a compiled regex whose second call (or second match of a search) reports a
    timeout, as ``regex`` does when other threads of the process used up the process CPU clock."""

    def __init__(self, pattern: str) -> None:
        self.compiled = regex.compile(pattern)
        self.groupindex = self.compiled.groupindex
        self.calls = 0
        self.raised = False

    def _maybe_raise(self) -> None:
        self.calls += 1
        if self.calls == 2 and not self.raised:
            self.raised = True
            raise TimeoutError("regex time-out")

    def finditer(self, text: str, pos: int, endpos: int, timeout: float):
        for m in self.compiled.finditer(text, pos=pos, endpos=endpos, timeout=timeout):
            self._maybe_raise()
            yield m

    def match(self, text: str, pos: int, endpos: int, timeout: float):
        self._maybe_raise()
        return self.compiled.match(text, pos, endpos, timeout=timeout)

    def search(self, text: str, pos: int, endpos: int, timeout: float):
        self._maybe_raise()
        return self.compiled.search(text, pos, endpos, timeout=timeout)


def test_a_regex_timeout_charged_to_other_threads_is_retried_from_the_last_match():
    digits = rule("d", r"\d+")
    assert digits.shape.first is not None and digits.shape.trigger is None  # searched with its scanner
    object.__setattr__(digits, "_scanner", _FlakyPattern(r"\d+"))
    result = RuleEngine([digits], timeout=5).run(Document("d", "1 22 333 4444"))
    assert digits._scanner.raised and result.timeouts == ()
    assert [m.text for m in result.matches] == ["1", "22", "333", "4444"]


def test_a_timeout_charged_to_other_threads_is_retried_where_triggers_lead_the_search():
    nhc = rule("n", r"NHC: (?P<phi>\d+)")
    assert nhc.shape.trigger is not None  # tried at each "NHC" with compiled.match
    object.__setattr__(nhc, "compiled", _FlakyPattern(r"NHC: (?P<phi>\d+)"))
    result = RuleEngine([nhc], timeout=5).run(Document("d", "NHC: 1, NHC: 22, NHC: 333"))
    assert nhc.compiled.raised and result.timeouts == ()
    assert [m.text for m in result.matches] == ["1", "22", "333"]


def _burn(seconds: float) -> None:
    """Spend CPU time in this thread, as a garbage collection of a large heap does."""
    until = time.thread_time() + seconds
    while time.thread_time() < until:
        pass


def test_a_pause_of_this_thread_on_one_chunk_is_retried_not_recorded_as_a_timeout():
    # the first check of the first run burns more than the budget (a gc pause billed to the rule)
    paused = rule("p", r"\d+", context=Context(forbid=("no",), window=2))
    calls = []

    def pauses_once(value: object) -> bool:
        calls.append(value)
        if len(calls) == 1:
            _burn(0.08)
        return True

    object.__setattr__(paused, "_check", pauses_once)
    result = RuleEngine([paused], timeout=0.05).run(Document("d", "1 2 3"))
    assert result.timeouts == ()
    assert [m.text for m in result.matches] == ["1", "2", "3"]


def test_a_rule_that_is_slow_every_time_is_recorded_after_its_second_try():
    slow = rule("s", r"\d+", context=Context(forbid=("no",), window=2))
    object.__setattr__(slow, "_check", lambda value: _burn(0.08) or True)
    result = RuleEngine([slow], timeout=0.05).run(Document("d", "1 2 3"))
    [timeout] = result.timeouts
    assert timeout.rule_id == "s" and timeout.seconds >= 0.05


# --- hostile inputs -----------------------------------------------------------------------------

SLOW_PACK = """\
description: A user's pack with one catastrophically backtracking rule.
rules:
  - id: slow
    label: OTROS_SUJETO_ASISTENCIA
    description: Nested alternatives that can split a run of a's in exponentially many ways.
    pattern: '(?:a|aa)+c'
  - id: nhc
    label: ID_SUJETO_ASISTENCIA
    description: The number after NHC.
    pattern: 'NHC: (?P<phi>\\d+)'
"""


def test_a_catastrophic_rule_times_out_only_on_the_chunks_where_it_blows_up(tmp_path, caplog):
    (tmp_path / "slow.yaml").write_text(SLOW_PACK, encoding="utf-8")
    engine = RuleEngine.from_pack(tmp_path, timeout=0.05)
    note = "".join(f"Visita {i}: NHC: {1000 + i}, aac.\n" for i in range(2000))  # ~64 KB
    cut = note.index("Visita 1000")
    text = note[:cut] + "a" * 60 + "\n" + note[cut:]  # 2**42 ways to split: it never ends
    result = engine.run(Document("n7", text))
    [timeout] = result.timeouts
    assert (timeout.rule_id, timeout.document_id) == ("slow", "n7")
    assert timeout.start <= cut < cut + 60 <= timeout.end and timeout.end - timeout.start <= CHUNK_SIZE + 1
    assert timeout.seconds >= 0.05
    by_rule = {"slow": [], "nhc": []}
    for m in result.matches:
        by_rule[m.rule.id].append(m.start)
    assert len(by_rule["nhc"]) == 2000  # the other rule, even in the chunk that timed out
    slow_missed = [s for s in range(len(text)) if text.startswith("aac", s)
                   and not timeout.start <= s < timeout.end and s not in by_rule["slow"]]
    assert slow_missed == [] and len(by_rule["slow"]) >= 2000 - CHUNK_SIZE // 25
    assert "rule slow timed out on 1 chunk(s) of document n7" in caplog.text
    shown = format_explain(explain_rows(result), result.timeouts)
    assert f"timeout: rule slow gave up on characters {timeout.start}-{timeout.end} after" in shown


def _shipped() -> RuleEngine:
    return RuleEngine.from_pack("es")


MB = 1 << 20


def test_a_megabyte_token_of_digits_and_the_phi_after_it():
    text = "Tel: " + "7" * MB + " NHC: 2347865. Fecha de ingreso: 20/05/2016"
    result = _shipped().run(Document("d", text))
    assert result.timeouts == ()
    assert [m.text for m in result.matches] == ["2347865", "20/05/2016"]


def test_a_megabyte_line_without_spaces():
    unit = "NHC:2347865;Tel:912345678;fecha:20/05/2016;"
    text = unit * (MB // len(unit))
    result = _shipped().run(Document("d", text))
    assert result.timeouts == ()
    found = [m.text for m in result.matches]
    assert found == ["2347865", "912345678", "20/05/2016"] * (MB // len(unit))


def test_a_note_of_only_newlines():
    for text in ("\n" * MB, "\r\n" * (MB // 2)):
        result = _shipped().run(Document("d", text))
        assert result.matches == () and result.timeouts == ()


NOTE = ("Datos del paciente.\nNombre: Ana.\nNHC: 2347865.\nEdad: 45 años Sexo: M.\n"
        "Domicilio: C/ Mayor 3, desde 2013. CP: 28001 Madrid.\nTeléfono 912345678, móvil 612 345 678.\n"
        "Ingresó el 5 de marzo de 2014; en 2012 diagnosticada. E-mail: ana.gil@hospital.es\n"
        "Remitido por: Dra. Gil NºCol: 28 28 46165.\n")


def test_crlf_text_gives_the_same_matches_as_lf_text():
    lf = NOTE * 400
    crlf = lf.replace("\n", "\r\n")
    engine = _shipped()
    lf_found = [(m.rule.id, m.text) for m in engine.run(Document("d", lf)).matches]
    result = engine.run(Document("d", crlf))
    assert result.timeouts == () and len(lf_found) == 400 * 10  # not 2013: after Domicilio
    assert [(m.rule.id, m.text) for m in result.matches] == lf_found
