"""Ages: kept, generalised from 90, optionally perturbed but never for children."""

from __future__ import annotations

import pytest

from crfdeid.surrogates import GeneratorOptions, build_registry, surrogate_data

from .surrogate_kit import state

A = "EDAD_SUJETO_ASISTENCIA"


def gen(**options):
    return build_registry(surrogate_data("es"), GeneratorOptions(**options))[A]


def test_ages_are_kept_and_very_old_ages_generalised():
    g = gen()
    assert g.generate("66 años", A, 0, state()).kept
    assert g.generate("93 años", A, 0, state()).text == "90 o más años"
    assert g.generate("18 meses", A, 0, state()).kept


def test_perturbation_stays_within_k_years_and_spares_children():
    g = gen(age_perturb_years=2)
    for seed in range(20):
        new = g.generate("66 años", A, 0, state(seed=seed)).text
        assert new != "66 años" and abs(int(new.split()[0]) - 66) <= 2
        assert g.generate("9 años", A, 0, state(seed=seed)).kept


@pytest.mark.parametrize("text", ["⑨③ años", "٩٣ años", "9³ años", "1" + "0" * 5000 + " años"])
def test_old_or_absurd_ages_in_any_digits_are_generalised(text):
    assert gen().generate(text, A, 0, state()).text == "90 o más años"


def test_young_ages_in_other_digits_are_kept():
    assert gen().generate("٣ años", A, 0, state()).kept


@pytest.mark.parametrize(
    "text, expected",
    [
        ("noventa y tres años", "90 o más años"),
        ("Noventa años", "90 o más años"),
        ("ciento dos años", "90 o más años"),
        ("siete años", None),
        ("un año y cinco meses", None),
        ("tres meses y medio", None),
    ],
)
def test_ages_in_words(text, expected):
    surrogate = gen().generate(text, A, 0, state())
    assert surrogate.text == expected if expected else surrogate.kept
