"""Every generator over every entry of every pack list, and over hostile strings.

Each entry is written on a line of a small note ("Vive en {town}.", "Apellidos: {surname}."),
forty entries a note, and pseudonymised by the real ``Pseudonymiser``: every span must get a
surrogate that differs from its original (case and accents ignored) with no generator error —
a generator that raised is a bug even though the note survives it. Planned fallbacks (another
province, any street type…) are allowed; the neutral word is not, for pack entries: some level
of every chain must work for every entry the pack itself lists. Forty entries a note also
means forty originals forbidden at once, which exercises the chains' lower rungs.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crfdeid.policy import Policy
from crfdeid.pseudonymise import FALLBACKS, GENERATOR_ERROR, Pseudonymiser
from crfdeid.surrogates import SurrogateFailure, build_registry, normalise, surrogate_data
from crfdeid.types import Document, Span
from tests.surrogate_kit import state

DATA = surrogate_data("es")
PACK = DATA.pack
REGISTRY = build_registry(DATA)
PSEUDONYMISER = Pseudonymiser(seed=7)
PER_NOTE = 40


def check(
    label: str,
    template: str,
    entries: Iterable[str],
    pseudonymiser: Pseudonymiser = PSEUDONYMISER,
    per_note: int = PER_NOTE,
) -> tuple[list[tuple[str, str]], Counter]:
    """Pseudonymise every entry inside ``template`` (``{}`` marks it), ``per_note`` entries a
    note; return the problems (original, what went wrong) and the fallback levels used."""
    before, _, after = template.partition("{}")
    problems: list[tuple[str, str]] = []
    fallbacks: Counter = Counter()
    entries = sorted(set(entries))
    assert entries, f"no entries for {label}"
    for start in range(0, len(entries), per_note):
        lines, spans, pos = [], [], 0
        for entry in entries[start : start + per_note]:
            spans.append(Span(pos + len(before), pos + len(before) + len(entry), label))
            lines.append(before + entry + after)
            pos += len(lines[-1]) + 1
        doc = Document("entries", "\n".join(lines), tuple(spans))
        result = pseudonymiser.pseudonymise(doc)
        for record in result.audit:
            original = doc.text[record.start : record.end]
            new = result.text[record.new_start : record.new_end]
            fallbacks[record.fallback] += 1
            assert record.fallback in (None, *FALLBACKS), record.fallback
            if record.note.startswith(GENERATOR_ERROR):
                problems.append((original, record.note))
            elif record.fallback in ("neutral", "mask"):
                problems.append((original, f"{record.fallback}: {record.note}"))
            elif record.surrogate is None or normalise(new) == normalise(original):
                problems.append((original, f"unchanged ({record.note})"))
    return problems, fallbacks


def assert_clean(problems: list[tuple[str, str]]) -> None:
    assert not problems, f"{len(problems)} problem(s), first: {problems[:10]}"


def test_every_municipality_in_both_spellings():
    names = set()
    for row in PACK.table("municipality").rows:
        names.update(part.strip() for part in row["name"].split("/") if part.strip())
    problems, fallbacks = check("TERRITORIO", "Vive en {}.", names)
    assert_clean(problems)
    assert fallbacks[None] > 0.9 * sum(fallbacks.values())  # most towns stay in their province


def test_ceuta_and_melilla_fall_back_to_a_town_elsewhere():
    for town in ("Ceuta", "Melilla"):
        doc = Document("d", f"Natural de {town}.", (Span(11, 11 + len(town), "TERRITORIO"),))
        result = PSEUDONYMISER.pseudonymise(doc)
        record = result.audit[0]
        assert record.fallback == "anywhere" and "capital" in record.note and town not in record.note
        assert result.text[record.new_start:record.new_end] in PSEUDONYMISER.data.capital_of
        assert DATA.find_town(record.surrogate) is not None and record.surrogate != town


def test_every_province_and_community_with_its_aliases():
    names = set()
    for table in ("province", "community"):
        for row in PACK.table(table).rows:
            names.update(a.strip() for a in [row["name"], *row.get("aliases", "").split("|")] if a.strip())
    # one a note: forty would name every community at once, leaving none to draw from
    assert_clean(check("TERRITORIO", "Provincia: {}.", names, per_note=1)[0])


def test_a_postal_code_for_every_province_prefix_alone_and_beside_its_capital():
    codes = [f"{code}001" for code in DATA.code_province]
    assert_clean(check("TERRITORIO", "CP: {}.", codes)[0])
    for code, province in DATA.code_province.items():
        capital = DATA.capitals[province]
        text = f"CP {code}001 {capital}"
        spans = (Span(3, 8, "TERRITORIO"), Span(9, 9 + len(capital), "TERRITORIO"))
        result = PSEUDONYMISER.pseudonymise(Document("d", text, spans))
        assert not result.generator_errors
        new_code = result.text[result.spans[0].start : result.spans[0].end]
        assert new_code != f"{code}001" and new_code.isdigit() and len(new_code) == 5


def test_every_street_type_form():
    forms = [form for forms in PACK.street_types.values() for form in forms]
    entries = [f"{form[:1].upper()}{form[1:]} Mayor 12" for form in forms]
    entries += [f"{form} de la Paz, s/n" for form in forms]
    assert_clean(check("CALLE", "Domicilio: {}.", entries)[0])


def test_every_road_code():
    """Every national road of the pack, and regional codes of every shape, as a road with its
    kilometre point and as a code alone."""
    codes = [*DATA.national_roads, "CV-500", "M-30", "C-31", "GI-600", "AS-II", "M-608", "A7", "N-332"]
    entries = [f"Ctra. {code}, km 5" for code in codes] + [f"{code}, km. 187" for code in codes]
    entries += [f"Carretera Nacional {n}, km 12" for n in ("IV", "330", "VI")]
    assert_clean(check("CALLE", "Domicilio: {}.", entries)[0])


def test_every_foreign_place():
    """Every city and region of another country the pack lists, alone and beside its country."""
    rows = PACK.table("foreign_place").rows
    assert_clean(check("TERRITORIO", "Natural de {}.", [row["name"] for row in rows])[0])
    names = {row["country"]: row["name"] for row in rows}
    for code, name in names.items():
        country = DATA.country_name.get(code)
        if country is None:
            continue
        text = f"Natural de {name} ({country})."
        spans = (
            Span(11, 11 + len(name), "TERRITORIO"),
            Span(13 + len(name), 13 + len(name) + len(country), "PAIS"),
        )
        result = PSEUDONYMISER.pseudonymise(Document("d", text, spans))
        assert not result.generator_errors, text
        city, new_country = (result.text[s.start : s.end] for s in result.spans)
        assert normalise(city) != normalise(name) and normalise(new_country) != normalise(country), text
        assert DATA.find_town(city) is None, (text, city)


def test_every_hospital_and_health_centre():
    hospitals = [row["name"] for row in PACK.table("hospital").rows]
    centres = [row["name"] for row in PACK.table("health_centre").rows]
    assert_clean(check("HOSPITAL", "Ingresa en {}.", hospitals)[0])
    assert_clean(check("CENTRO_SALUD", "Remitido desde {}.", centres)[0])


def test_every_country():
    """Every country but the home one, which is kept (its own test)."""
    data = PSEUDONYMISER.data
    foreign = [row["name"] for row in PACK.table("country").rows if row["code"] != data.home_code]
    adjectives = [form for code, forms in data.nationality.items() if code != data.home_code
                  for form in forms]
    assert_clean(check("PAIS", "Natural de {}.", foreign)[0])
    assert_clean(check("PAIS", "De nacionalidad {}.", adjectives)[0])


def test_every_profession_in_both_forms():
    forms = {f for row in PACK.table("profession").rows for f in (row["masculine"], row["feminine"]) if f}
    assert_clean(check("PROFESION", "Trabaja de {}.", forms)[0])


def test_every_kinship_term_kept_or_swapped_and_a_relatives_name_replaced():
    policy = Policy.default()
    options = replace(policy.options, replace_kinship_terms=True)
    swapping = Pseudonymiser(replace(policy, options=options), seed=7)
    kinship = REGISTRY["FAMILIARES_SUJETO_ASISTENCIA"]
    for word in sorted(PACK.kinship):
        text = f"Acude con su {word}."
        doc = Document("d", text, (Span(13, 13 + len(word), "FAMILIARES_SUJETO_ASISTENCIA"),))
        kept = PSEUDONYMISER.pseudonymise(doc)
        assert kept.text == text and kept.audit[0].surrogate is None and not kept.generator_errors
        swapped = swapping.pseudonymise(doc)
        assert not swapped.generator_errors
        new = swapped.text[13 : len(swapped.text) - 1]
        if kinship.alternatives(word):
            assert new != word and new.casefold() in {a.casefold() for a in kinship.alternatives(word)}
        else:
            assert new == word
    named = [f"{word} Marta" for word in sorted(PACK.kinship)]
    problems, _ = check("FAMILIARES_SUJETO_ASISTENCIA", "Acude con su {}.", named)
    assert_clean(problems)


def test_every_honorific_with_a_name():
    entries = [f"{h.form} Navarro" for h in PACK.honorifics.values()]
    entries += [f"{h.form} Ana Gil" for h in PACK.honorifics.values()]
    assert_clean(check("NOMBRE_PERSONAL_SANITARIO", "Firmado: {}.", entries)[0])


def test_every_given_name():
    names = [row["name"] for row in PACK.table("given_name").rows]
    assert_clean(check("NOMBRE_SUJETO_ASISTENCIA", "Nombre: {}.", names)[0])


def test_every_surname():
    names = [row["name"] for row in PACK.table("surname").rows]
    assert_clean(check("NOMBRE_SUJETO_ASISTENCIA", "Apellidos: {}.", names)[0])


# --- hostile strings ------------------------------------------------------------------------

LABELS = sorted(REGISTRY)
#: Characters that broke or could break a generator: digits of other scripts (int('①') once
#: crashed the date generator), combining marks (NFD), odd whitespace, bidi marks, emoji.
HOSTILE = (
    "①²٣５߀໓½Ⅻ"
    "\u0301\u0308\u20dd"
    " \t\n\r\xa0\u2028\u3000"
    ".,;:/-#ºª@()[]'\"_"
    "\u200e\u200f\u202e\ufeff"
    "😀🏥"
    "aÁñÑçß0123456789"
)
hostile_text = st.text(alphabet=st.one_of(st.sampled_from(HOSTILE), st.characters()), max_size=40)


def generate_or_fallback(label: str, text: str):
    """A generator's answer: a Surrogate, or SurrogateFailure (a planned fallback to the
    neutral word); any other exception fails the test."""
    try:
        return REGISTRY[label].generate(text, label, 0, state(text))
    except SurrogateFailure:
        return None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(LABELS), hostile_text)
def test_every_generator_answers_hostile_strings_without_error(label, text):
    surrogate = generate_or_fallback(label, text)
    assert surrogate is None or isinstance(surrogate.text, str)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(LABELS), hostile_text.filter(lambda t: any(c.isalnum() for c in t)))
def test_hostile_spans_are_replaced_or_kept_on_purpose_never_an_error(label, text):
    doc = Document("d", f"x {text} y", (Span(2, 2 + len(text), label),))
    result = PSEUDONYMISER.pseudonymise(doc)
    record = result.audit[0]
    assert not record.note.startswith(GENERATOR_ERROR), record.note
    new = result.text[record.new_start : record.new_end]
    assert result.text.startswith("x ") and result.text.endswith(" y")
    if record.surrogate is not None:
        assert normalise(new) != normalise(text) or not normalise(text)


@pytest.mark.parametrize("token", ["a1①Á\u0301 -" * 14_300, "Ana López " * 10_000])
def test_every_label_survives_a_100k_token(token):
    step = len(token) + 1
    spans = tuple(Span(i * step, i * step + len(token), label) for i, label in enumerate(LABELS))
    doc = Document("d", "\n".join(itertools.repeat(token, len(LABELS))), spans)
    result = PSEUDONYMISER.pseudonymise(doc)
    assert not result.generator_errors, [r.note for r in result.generator_errors]
    for record in result.audit:
        new = result.text[record.new_start : record.new_end]
        assert record.surrogate is None or normalise(new) != normalise(token), record.label
