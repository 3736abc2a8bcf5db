"""Long runs of spaces and tabs: the patterns scanned over a whole note, and every rule, stay
linear in a run's length (``benchmarks/hostile.py`` times the whole de-identifier on such shapes).

A pattern that starts with ``[ \\t]+`` or a look-behind over spaces, tried from each space of a
run, reads the rest of the run each time: 8,000 spaces had taken 8 s, 32,000 two minutes. The
checks below give each scan a regex time-out a thousand times what a linear scan takes: a
quadratic one cannot finish within it on these runs.
"""

from __future__ import annotations

import pytest

from crfdeid.langpack import load_pack
from crfdeid.lone_names import _NAME_AHEAD, titled_matches
from crfdeid.lone_professions import LoneProfessions
from crfdeid.rules.engine import RuleEngine
from crfdeid.span_form import _FOREIGN_FORM
from crfdeid.table_columns import _KEY_ABOVE, _KEY_VALUE

RUN = 200_000
TIMEOUT = 10.0  # seconds; a linear scan of these texts takes milliseconds

#: Runs of spaces or tabs, alone or between the fields a step looks for.
SHAPES = {
    "spaces": " " * RUN,
    "tabs": "\t" * RUN,
    "spaces and tabs": " \t" * (RUN // 2),
    "name, run, town": "Juan García" + " " * RUN + "Sevilla\n",
    "key, tabs, value": "DNI\t" + "\t" * RUN + "12345678Z\n",
    "date, run, time": "12/03/2020" + " " * RUN + "14:00 ",
    "lot, run, code": "lote" + " " * RUN + "A37CC482B\n",
    "phone key, run, number": "Tel" + " " * RUN + "600123123\n",
}


@pytest.mark.parametrize("shape", SHAPES)
def test_the_patterns_scanned_over_a_note_stay_linear_on_a_long_run(shape: str) -> None:
    text = SHAPES[shape]
    for pattern in (_NAME_AHEAD, _KEY_VALUE, _KEY_ABOVE, _FOREIGN_FORM):
        for _ in pattern.finditer(text, timeout=TIMEOUT):
            pass
    professions = LoneProfessions.for_pack(load_pack("es"), "PROFESION")
    assert professions is not None
    for _ in professions._patterns["after_scan"].finditer(text, timeout=TIMEOUT):
        pass
    # from a run's first space only, the same matches: a title, then spaces, then a name
    assert [m.group() for m in titled_matches("Firma: Dr.   García,  Sr.\tPérez")] == ["Dr.", "Sr."]


def test_every_rule_stays_linear_on_a_long_run() -> None:
    # date-compact and device-lot tried their look-behind from each space of a run
    engine = RuleEngine.from_pack("es")
    for text in SHAPES.values():
        for rule in engine.rules:
            rule.find(text, timeout=TIMEOUT)  # raises a TimeoutError past it


def test_no_rule_backtracks_over_a_run_its_match_is_cut_in() -> None:
    # the engine reads a note in chunks of whole lines and widens a chunk whose match may run past
    # it: a match cut short inside a run of spaces fails there, and a rule whose spaces were two
    # stars around an optional mark ("Tel" + spaces + number: phone-labelled) tried every split of
    # the run before failing (2 s for four lines of 16,000 spaces)
    engine = RuleEngine.from_pack("es")
    for key, value in (("Tel", "600123123"), ("DNI\t", "12345678Z"), ("lote", "A37CC482B"),
                       ("NHC", "2347865"), ("CP", "28001"), ("Fax", "912345678"), ("Nº", "12345678")):
        text = f"{key}{' ' * RUN}{value}\n"
        for rule in engine.rules:
            rule.compiled.search(text, 0, len(key) + RUN // 2, timeout=TIMEOUT)
