"""A day and month without the year, taken where the note writes that month's year elsewhere."""

from __future__ import annotations

from crfdeid.short_dates import ShortDates, with_short_dates
from crfdeid.types import Span

STEP = ShortDates.for_scheme({"date": "FECHAS"})

DIALYSIS = """HOJA SEMANAL DE HEMODIÁLISIS — semana del 03/11/2025
| Fecha      | Monitor       | Peso pre/post | TA pre  |
| 03/11/2025 | 5008S-77A1120 | 71,2 / 69,0   | 13/10   |
| 05/11/2025 | 5008S-77A1120 | 71,9 / 69,4   | 142/81  |
Incidencias:
- 05/11, 10:20: hipotensión sintomática (80/45); se detiene la UF.
- 07/11: cambio de monitor por alarma de conductividad.
Fuerza 4/5 en MII. Balance muscular 05/05. EVA 08/10.
"""

IVF = """Ciclo FIV-ICSI. Inicio de estimulación 04/10/2025 con FSH 225 UI.
Controles ecográficos: 09/10 (folículos 8-11 mm), 12/10 (antagonista desde hoy) y 14/10.
Punción el 16/10/2025.
"""


def _found(text: str, spans: list[Span] | None = None) -> list[str]:
    found = with_short_dates(text, spans or [], STEP)
    return [text[s.start : s.end] for s in found if s.source == "short-date"]


def test_a_nursing_sheet_dates_its_entries_by_day_and_month() -> None:
    assert _found(DIALYSIS) == ["05/11", "07/11"]


def test_a_cycle_chart_lists_its_scans_by_day_and_month() -> None:
    assert _found(IVF) == ["09/10", "12/10", "14/10"]


def test_measures_written_with_a_slash_stay() -> None:
    # "TA 13/10" (cmHg), "Balance muscular 05/05", "EVA 08/10": measures, though the month is the note's
    found = _found(DIALYSIS)
    assert "13/10" not in found and "05/05" not in found and "08/10" not in found


def test_no_whole_date_of_the_month_no_short_date() -> None:
    text = "Revisión 03/11/2025. Controles el 09/10 y el 12/10 según protocolo."
    assert _found(text) == []  # October: the note wrote no October date with its year


def test_a_single_digit_part_is_a_score_or_a_strength() -> None:
    text = "Alta el 05/10/2025. Fuerza 4/5 y 9/10 en la escala; reflejos 2/4."
    assert _found(text) == []


def test_a_found_span_is_kept_and_not_doubled() -> None:
    text = "Ingreso 03/11/2025. Control el 05/11 sin incidencias."
    at = text.index("el 05/11")
    spans = [Span(at, at + 8, "FECHAS", source="rule")]
    out = with_short_dates(text, spans, STEP)
    assert out == spans


def test_a_scheme_without_dates_has_no_step() -> None:
    assert ShortDates.for_scheme({"date": None}) is None


def test_measures_with_their_eye_side_or_de_stay() -> None:
    # the review of the eighteenth round: each of these had been shifted as a date
    text = ("Control el 10/10/2024. Tensión arterial de 13/10. AV OD 10/10, OI 09/10. Agudeza visual OD "
            "08/10. Pfeiffer 02/10 errores. Dolor 08/10. Revisión el 21/10.")
    assert _found(text) == ["21/10"]
