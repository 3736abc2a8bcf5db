"""Professions keep grammatical gender."""

from __future__ import annotations

from crfdeid.surrogates import build_registry, fold, normalise, surrogate_data

from .surrogate_kit import state

DATA = surrogate_data("es")
GEN = build_registry(DATA)["PROFESION"]


def test_professions_keep_gender():
    feminine = {fold(f) for m, f in DATA.professions}
    masculine = {fold(m) for m, f in DATA.professions}
    for seed in range(10):
        assert fold(GEN.generate("maestra", "PROFESION", 0, state(seed=seed)).text) in feminine
        assert fold(GEN.generate("carpintero", "PROFESION", 0, state(seed=seed)).text) in masculine
    assert GEN.generate("Soldadora", "PROFESION", 0, state()).text[0].isupper()


def test_a_gender_whose_professions_are_all_taken_falls_back_to_any_profession():
    st_ = state()
    st_.forbidden.update(normalise(f) for _, f in DATA.professions)
    surrogate = GEN.generate("maestra", "PROFESION", 0, st_)
    assert surrogate.fallback == "any-gender" and fold(surrogate.text) in DATA.profession_lookup
