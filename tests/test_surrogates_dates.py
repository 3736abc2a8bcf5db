"""Dates: one shift per document in whole weeks, each date in its exact original format."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from crfdeid.policy import Policy
from crfdeid.surrogates import GeneratorOptions, build_registry, surrogate_data

from .surrogate_kit import new_texts, run, state

D = "FECHAS"
GEN = build_registry(surrogate_data("es"))[D]


def shifted(text: str, seed: int = 1) -> str:
    return GEN.generate(text, D, 0, state(text, seed)).text


def shape(text: str) -> str:
    return re.sub(r"\d", "9", text)


@pytest.mark.parametrize(
    "original", ["05/03/2012", "5/3/2012", "05-03-12", "05.03.2012", "2012-03-05", "03/2012"]
)
def test_numeric_dates_keep_separators_padding_and_year_digits(original):
    new = shifted(original)
    assert new != original
    if original != "5/3/2012":
        assert shape(new) == shape(original)
    else:
        assert re.fullmatch(r"\d{1,2}/\d{1,2}/\d{4}", new)


@pytest.mark.parametrize(
    "original, pattern",
    [
        ("5 de marzo de 2012", r"\d{1,2} de [a-z]+ de \d{4}"),
        ("Marzo de 2012", r"[A-Z][a-z]+ de \d{4}"),
        ("MARZO 2012", r"[A-Z]+ \d{4}"),
        ("12-XII-2009", r"\d\d-[IVX]+-\d{4}"),
        ("12-dic-2009", r"\d\d-[a-z]{3}-\d{4}"),
        ("junio 99", r"[a-z]+ \d\d"),
        ("año 2000", r"año \d{4}"),
        ("2012", r"\d{4}"),
    ],
)
def test_month_names_roman_numerals_and_partial_dates(original, pattern):
    new = shifted(original)
    assert re.fullmatch(pattern, new), new
    assert new != original


def test_one_whole_week_shift_per_document_keeps_weekdays_and_intervals():
    text = "Ingresa el lunes 05/03/2012 y sale el 19/03/2012. Control el 12 de abril de 2012."
    result = run(text, (D, "05/03/2012"), (D, "19/03/2012"), (D, "12 de abril de 2012"), seed=4)
    a, b, c = new_texts(result)
    d1, d2 = (dt.datetime.strptime(x, "%d/%m/%Y").date() for x in (a, b))
    assert d1.weekday() == 0 and "lunes" in result.text  # still a Monday
    assert (d2 - d1).days == 14
    shift = d1 - dt.date(2012, 3, 5)
    assert shift.days % 7 == 0 and 53 <= abs(shift.days) // 7 <= 260
    assert GEN.parse(c).reference() == dt.date(2012, 4, 12) + shift


def test_words_without_a_date_are_kept_and_a_month_alone_is_not():
    assert not GEN.generate("octubre", D, 0, state("octubre")).kept
    assert GEN.generate("ayer", D, 0, state("ayer")).kept


def test_unreadable_dates_have_their_digits_replaced():
    new = shifted("99999/9999")
    assert shape(new) == shape("99999/9999") and new != "99999/9999"


def test_the_shift_range_comes_from_the_policy():
    options = GeneratorOptions(date_shift_min_weeks=1, date_shift_max_weeks=1)
    gen = build_registry(surrogate_data("es"), options)[D]
    new = gen.generate("05/03/2012", D, 0, state("05/03/2012")).text
    assert new in ("12/03/2012", "27/02/2012")
    assert Policy.default().options.date_shift_min_weeks == 53


@pytest.mark.parametrize("original", ["1①/03/2012", "05/03/²012", "٠٥/٠٣/٢٠١٢", "5 de marzo de 2⁰12"])
def test_dates_in_other_digits_are_unreadable_and_get_ascii_digits(original):
    surrogate = GEN.generate(original, D, 0, state(original))
    assert surrogate.fallback == "digits" and "not readable" in surrogate.note
    assert all(c.isascii() for c in surrogate.text if c.isnumeric())
    assert re.sub(r"\w", "", surrogate.text) == re.sub(r"\w", "", original)  # separators kept
    assert surrogate.text != original


@pytest.mark.parametrize("original", ["01/01/0001", "12/1/" + "9" * 5000, "3" * 5000])
def test_dates_out_of_the_calendar_or_absurdly_long_never_fail(original):
    surrogate = GEN.generate(original, D, 0, state(original))
    assert surrogate.fallback == "digits" and surrogate.text != original


def test_a_one_digit_date_still_changes():
    for seed in range(10):
        assert shifted("el día 5", seed) != "el día 5"


#: the months in Catalan and Galician, and the Basque genitive of dates (the pack's test holds
#: them against CLDR)
CATALAN = [m.written("name", "CA") for m in GEN.data.pack.months]
GALICIAN = [m.written("name", "GL") for m in GEN.data.pack.months]
BASQUE = [m.written("name", "EU") for m in GEN.data.pack.months]


@pytest.mark.parametrize("seed", range(8))
def test_a_date_in_a_co_official_language_shifts_into_a_month_of_that_language(seed):
    # once, 15 de xaneiro de 2024 stayed "15 de xaneiro de 2020" (only the year read) and
    # "2024ko urriaren 3a" became "2121fz kgofegin 9n"
    text = ("Ingrés: 3 d'octubre de 2024. Alta: 12 de març del 2022. Data de ingreso: 15 de "
            "xaneiro de 2024. Data: 2024ko urriaren 3a, 2024ko urria.")
    dates = ("3 d'octubre de 2024", "12 de març del 2022", "15 de xaneiro de 2024",
             "2024ko urriaren 3a", "2024ko urria")
    ca1, ca2, gl, eu, eu_month = new_texts(run(text, *((D, x) for x in dates), seed=seed))
    for new in (ca1, ca2):
        day, of, month, year = re.fullmatch(r"(\d{1,2}) (de |d')(\w+) del? (\d{4})", new).groups()
        assert month in CATALAN and of == ("d'" if month[0] in "ao" else "de ")
    day, month, year = re.fullmatch(r"(\d{1,2}) de (\w+) de (\d{4})", gl).groups()
    assert month in GALICIAN
    assert (dt.date(int(year), GALICIAN.index(month) + 1, int(day)) - dt.date(2024, 1, 15)).days % 7 == 0
    year, month, day = re.fullmatch(r"(\d{4})ko (\w+) (\d{1,2})a", eu).groups()
    assert month in BASQUE
    shift = dt.date(int(year), BASQUE.index(month) + 1, int(day)) - dt.date(2024, 10, 3)
    assert shift.days % 7 == 0 and shift.days < 0
    assert re.fullmatch(r"\d{4}ko (urtarrila|otsaila|martxoa|apirila|maiatza|ekaina|uztaila|abuztua|iraila"
                        r"|urria|azaroa|abendua)", eu_month) and eu_month != "2024ko urria"


@pytest.mark.parametrize("seed", range(6))
def test_a_spanish_date_in_a_note_with_basque_or_galician_dates_stays_spanish(seed):
    # a bilingual Basque report: "20 de octubre" had become "26 de irailaren", a Basque
    # genitive in a Spanish date (fourth blind set)
    text = ("Barakaldo, 2026ko urriaren 20a / 20 de octubre de 2026. Último ingreso el 6 de octubre "
            "de 2025. Data de ingreso: 15 de xaneiro de 2024.")
    dates = ("2026ko urriaren 20a", "20 de octubre de 2026", "6 de octubre de 2025")
    eu, es1, es2 = new_texts(run(text, *((D, x) for x in dates), seed=seed))
    # a day is not padded before Basque's ending ("2021ko azaroaren 02a" once)
    assert re.fullmatch(r"\d{4}ko (\w+) [1-9]\d?a", eu).group(1) in BASQUE
    spanish = [m.name for m in GEN.data.pack.months]
    for new in (es1, es2):
        assert re.fullmatch(r"\d{1,2} de (\w+) de \d{4}", new).group(1) in spanish, new


def test_a_spanish_date_keeps_its_spanish_month_and_its_abbreviation_style():
    # the co-official forms are among the months' readings, not their abbreviations: "sept-2024"
    # once became "juliol-2021"
    for seed in range(8):
        new = shifted("sept-2024", seed)
        month = new.split("-")[0]
        assert re.fullmatch(r"[a-z]{3,4}-\d{4}", new) and month not in CATALAN + GALICIAN, new
        assert not re.fullmatch(r"0\d de .*", shifted("12 de marzo de 2012", seed))  # no padding added


def test_a_decade_stays_a_decade():
    # the tenth set written blind: "fue patrón de la trainera en la década de 1970" had become
    # "de 1965"
    text = "Fue patrón de la trainera en la década de 1970. En 2015 se jubiló."
    for seed in range(6):
        decade, year = new_texts(run(text, ("FECHAS", "1970"), ("FECHAS", "2015"), seed=seed))
        assert decade.endswith("0") and decade != "1970" and len(decade) == 4, (seed, decade)
        assert year != "2015"


#: Spanish number words back to values, for the tests' own reading of a date in words.
_WORDS = {"uno": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7, "ocho": 8,
          "nueve": 9, "diez": 10, "once": 11, "doce": 12, "trece": 13, "catorce": 14, "quince": 15,
          "dieciséis": 16, "diecisiete": 17, "dieciocho": 18, "diecinueve": 19, "veinte": 20,
          "veintiuno": 21, "veintidós": 22, "veintitrés": 23, "veinticuatro": 24, "veinticinco": 25,
          "veintiséis": 26, "veintisiete": 27, "veintiocho": 28, "veintinueve": 29, "treinta": 30,
          "cuarenta": 40, "cincuenta": 50, "sesenta": 60, "setenta": 70, "ochenta": 80, "noventa": 90,
          "novecientos": 900}
_MONTHS = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
           "octubre", "noviembre", "diciembre"]


def _read_words(words: str) -> int:
    total = current = 0
    for word in words.split():
        if word == "mil":
            total += (current or 1) * 1000
            current = 0
        elif word != "y":
            current += _WORDS[word]
    return total + current


@pytest.mark.parametrize("original, day, month, year", [
    # the eleventh set written blind: a letter's date and a dictated report's, kept whole before
    ("doce de noviembre de dos mil veinticinco", 12, 11, 2025),
    ("tres de febrero de dos mil veintiuno", 3, 2, 2021),
    ("treinta y uno de enero de dos mil veinte", 31, 1, 2020),
])
def test_a_date_in_words_is_shifted_by_whole_weeks_and_written_in_words(original, day, month, year):
    for seed in range(1, 6):
        new = GEN.generate(original, D, 0, state(original, seed))
        assert not new.kept and new.text != original
        match = re.fullmatch(r"(.+?) de (\w+) de (.+)", new.text)
        assert match is not None and not any(c.isdigit() for c in new.text), new.text
        shifted_date = dt.date(_read_words(match[3]), _MONTHS.index(match[2]) + 1, _read_words(match[1]))
        weeks, rest = divmod((dt.date(year, month, day) - shifted_date).days, 7)
        assert rest == 0 and 53 <= weeks <= 260


def test_a_date_in_words_keeps_a_day_in_digits_and_the_case_of_its_words():
    new = GEN.generate("4 de mayo de mil novecientos cincuenta y ocho", D, 0, state("x", 2)).text
    assert re.fullmatch(r"\d{1,2} de \w+ de mil novecientos [a-z ]+", new), new
    new = GEN.generate("Marzo de Dos Mil Diez", D, 0, state("x", 2)).text
    assert re.fullmatch(r"[A-Z]\w+ de Dos mil [a-z]+", new), new  # its first letter's case
    new = GEN.generate("DOCE DE NOVIEMBRE DE DOS MIL VEINTICINCO", D, 0, state("x", 2)).text
    assert new.isupper() and "MIL" in new, new
    # a year in digits is the usual reading's
    assert GEN.generate("12 de marzo de 2010", D, 0, state("x", 2)).note == "shifted"


def test_a_day_in_words_and_its_month_are_shifted_in_words():
    # the twelfth set written blind: "- diecisiete de marzo: consulta telefónica" had been kept
    for seed in range(1, 6):
        new = GEN.generate("diecisiete de marzo", D, 0, state("x", seed))
        match = re.fullmatch(r"(.+?) de (\w+)", new.text)
        assert not new.kept and match is not None and not any(c.isdigit() for c in new.text), new.text
        month, day = _MONTHS.index(match[2]) + 1, _read_words(match[1])
        # whole weeks back from 17 March 2000, in a year the shift (53-260 weeks) can reach
        assert any((dt.date(2000, 3, 17) - dt.date(year, month, day)).days % 7 == 0
                   and 53 <= (dt.date(2000, 3, 17) - dt.date(year, month, day)).days // 7 <= 260
                   for year in range(1994, 2000) if (month, day) != (2, 29) or year % 4 == 0)
    # a month alone is no day in words: it is shifted as a month (below)
    assert GEN.generate("marzo", D, 0, state("x", 2)).text != "marzo"


def test_a_month_alone_moves_with_the_notes_other_dates():
    """"en febrero" had been kept whatever the shift, beside the note's shifted dates ("16/10/2025 …
    cita en octubre" read "11/07/2024 … cita en octubre": the fifteenth set written blind). It moves
    as its 15th would, in its case, and is never the original."""
    for seed in range(1, 40):
        st = state("x", seed)
        whole = GEN.generate("16/10/2025", D, 0, st).text
        alone = GEN.generate("octubre", D, 0, st).text
        capital = GEN.generate("Octubre", D, 0, st).text
        assert alone != "octubre" and alone in _MONTHS, alone
        assert capital == alone.capitalize()
        shifted_month = int(whole.split("/")[1])
        # the month of the shifted 15 October, or the one before it when the shift kept the month
        assert _MONTHS.index(alone) + 1 in (shifted_month, shifted_month - 1, 12 if shifted_month == 1 else 0)


def test_dates_without_separators_are_shifted_in_their_own_format():
    """HL7 and DICOM write "20250312" and "20250312101530" (the thirteenth set written blind: they
    had become random digits); a day first ("12032025") reads too. One shift for the note, the
    time of day kept, and what reads as no date still has its digits replaced."""
    text = "MSH 20250312101530; nacido 19580412; firma 12032025; alta 12/03/2025; código 20251340"
    result = run(text, (D, "20250312101530"), (D, "19580412"), (D, "12032025"), (D, "12/03/2025"),
                 (D, "20251340"), seed=5)
    stamp, birth, signed, numeric, code = new_texts(result)
    assert stamp.endswith("101530") and len(stamp) == 14
    shifted = dt.datetime.strptime(numeric, "%d/%m/%Y").date()
    assert dt.datetime.strptime(stamp[:8], "%Y%m%d").date() == shifted
    assert dt.datetime.strptime(signed, "%d%m%Y").date() == shifted
    shift = shifted - dt.date(2025, 3, 12)
    assert dt.datetime.strptime(birth, "%Y%m%d").date() == dt.date(1958, 4, 12) + shift
    assert len(code) == 8 and code != "20251340" and GEN.parse("20251340") is None


def test_an_iso_basic_date_and_time_shifts_its_date_and_keeps_its_time():
    # an iCalendar's "DTSTART;TZID=Europe/Madrid:20261112T081500" (the seventeenth set written
    # blind) had its digits and letters drawn again: "33169498R989669"
    text = "DTSTART:20261112T081500; DTSTAMP:20261103T181544Z; alta 12/11/2026"
    start, stamp, numeric = new_texts(run(text, (D, "20261112T081500"), (D, "20261103T181544Z"),
                                          (D, "12/11/2026"), seed=5))
    shift = dt.datetime.strptime(numeric, "%d/%m/%Y").date() - dt.date(2026, 11, 12)
    assert start.endswith("T081500") and stamp.endswith("T181544Z")
    assert dt.datetime.strptime(start[:8], "%Y%m%d").date() == dt.date(2026, 11, 12) + shift
    assert dt.datetime.strptime(stamp[:8], "%Y%m%d").date() == dt.date(2026, 11, 3) + shift


def test_the_first_day_of_a_range_shifts_with_its_last():
    # the nineteenth set written blind: "semana 1 (2–8/11)", "del domingo 29 al lunes 30 de
    # noviembre" — the first day alone had been left, or would have had its digits drawn ("83")
    text = "Noche del domingo 29 al lunes 30 de noviembre. Semana 1 (2–8/11) y 02-05/11/2026. Día 7."
    result = run(text, (D, "29"), (D, "30 de noviembre"), (D, "2"), (D, "8/11"), (D, "02"), (D, "05/11/2026"),
                 (D, "7"), seed=5)
    first, last, start, end, start2, end2, alone = new_texts(result)
    assert int(last.split()[0]) - int(first) == 1  # the same one night, shifted
    assert int(end.split("/")[0]) - int(start) in (6, 6 - 30, 6 - 31, 6 - 28, 6 - 29)  # a week
    assert len(start2) == 2 and int(end2[:2]) - int(start2) in (3, 3 - 30, 3 - 31, 3 - 28, 3 - 29)
    assert alone.isdigit() and 1 <= int(alone) <= 28 and alone != "7"  # a day alone: another day


def test_a_range_of_days_across_a_month_end_keeps_its_length():
    # "del 29 al 2 de diciembre": four days, the first in November (the round's review: the first
    # day had been drawn at random, "del 6 al 16 de noviembre")
    text = "Ingresada del 29 al 2 de diciembre de 2025."
    for seed in range(6):
        first, last = new_texts(run(text, (D, "29"), (D, "2 de diciembre de 2025"), seed=seed))
        day, month, year = last.split(" de ")
        end = dt.date(int(year), _MONTHS.index(month) + 1, int(day))
        assert int(first) == (end - dt.timedelta(days=3)).day, (first, last)


def test_an_english_date_shifts_into_an_english_month_and_a_spanish_one_stays_spanish():
    # the fourteenth set's bilingual discharge of a patient from abroad: "23 March 1996 / 23 de
    # marzo de 1996", each written its own way; "may" and "mar" are Spanish abbreviations too
    text = ("Date of birth / Fecha de nacimiento: 23 March 1996 / 23 de marzo de 1996. "
            "Flight home on July 16, 2025. Ingresó el 23-may-2019.")
    items = [("FECHAS", "23 March 1996"), ("FECHAS", "23 de marzo de 1996"), ("FECHAS", "July 16, 2025"),
             ("FECHAS", "23-may-2019")]
    # "May" is English only in a note that writes other English months (Spanish writes "may" too)
    english = "January|February|March|April|May|June|July|August|September|October|November|December"
    for seed in range(6):
        born_en, born_es, flight, admitted = new_texts(run(text, *items, seed=seed))
        day, month, year = born_en.split()
        assert re.fullmatch(english, month) and born_es.startswith(f"{day} de ") and born_es.endswith(year)
        assert re.fullmatch(rf"(?:{english}) \d{{1,2}}, \d{{4}}", flight), flight
        assert re.fullmatch(r"\d{2}-[a-z]{3}-\d{4}", admitted), admitted  # "12-oct-2017", not "october"


def test_may_is_english_in_an_english_note_and_the_spanish_abbreviation_in_a_spanish_one():
    # "discharged on 14 May 2025" beside "3 March 2025" had become "1 Feb 2023"; "14-May-2024"
    # in a Spanish note must not become "01-February-2022"
    english = "January|February|March|April|May|June|July|August|September|October|November|December"
    text = "Admitted on 3 March 2025 and discharged on 14 May 2025."
    spanish = "Ingreso el 3 de mayo de 2024; alta el 14-may-2024 (14-May-2024 en el volante)."
    for seed in range(6):
        _, discharged = new_texts(run(text, ("FECHAS", "3 March 2025"), ("FECHAS", "14 May 2025"),
                                      seed=seed))
        assert re.fullmatch(rf"\d{{1,2}} (?:{english}) \d{{4}}", discharged), discharged
        _, lower, title = new_texts(run(spanish, ("FECHAS", "3 de mayo de 2024"), ("FECHAS", "14-may-2024"),
                                        ("FECHAS", "14-May-2024"), seed=seed))
        assert re.fullmatch(r"\d{2}-[a-z]{3}-\d{4}", lower), lower
        assert re.fullmatch(r"\d{2}-[A-Z][a-z]{2}-\d{4}", title) and title[3:6] == lower[3:6].title(), title
