"""Institutions (``InstitutionGenerator`` in crfdeid/surrogates/institutions.py): real words only —
acronyms from the pack's list or the initials of the surrogate institution, never random capitals."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.surrogates import build_registry, surrogate_data
from crfdeid.surrogates.vocabulary import invented_words, pack_vocabulary

from .surrogate_kit import new_texts, run, state

DATA = surrogate_data("es")
REG = build_registry(DATA)
VOCAB = pack_vocabulary("es")


def inst(text: str, seed: int = 1) -> str:
    return REG["INSTITUCION"].generate(text, "INSTITUCION", 0, state(text, seed)).text


@pytest.mark.parametrize("acronym", ["SCMV", "AEDRC", "FMCP", "IRCDOL", "MSD"])
def test_an_acronym_becomes_one_of_the_packs_list(acronym):
    # dev, before: four capitals became four random capitals ("KLMY")
    for seed in range(5):
        new = inst(acronym, seed)
        assert new in DATA.institution_acronyms and new != acronym


def test_an_acronym_keeps_its_length_where_the_list_allows_and_its_separators():
    assert len(inst("MSD")) == 3
    new = inst("SDOM-HGR")  # dev, before: two runs of random capitals
    first, second = new.split("-")
    assert first in DATA.institution_acronyms and second in DATA.institution_acronyms


def test_a_name_with_its_acronym_gets_the_initials_of_its_surrogate():
    new = inst("Instituto Riojano del Corazón (IRC)")
    name, acronym = re.fullmatch(r"(.+) \((\w+)\)", new).groups()
    words = [w for w in name.split() if w.lower() not in DATA.name_particles]
    assert acronym == "".join(w[0] for w in words).upper() and "IRC" not in new


def test_a_later_acronym_of_the_notes_institution_follows_its_surrogate():
    text = "Remitido al Instituto de Medicina Legal de Málaga. El IMLM informa del caso."
    result = run(text, ("INSTITUCION", "Instituto de Medicina Legal de Málaga"), ("INSTITUCION", "IMLM"))
    name, acronym = new_texts(result)
    words = [w for w in name.split() if w.lower() not in DATA.name_particles]
    assert acronym == "".join(w[0] for w in words).upper() and "Málaga" not in name


_HEADS = ["Universidad", "Instituto", "Fundación", "Centro", "Servicio", "Clínica", "Laboratorios", "Grupo"]


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([*_HEADS, ""]),
    st.lists(st.text("abcdefghijklmnopqrstuvwxyzñáé", min_size=2, max_size=10), min_size=1, max_size=3),
    st.one_of(st.just(""), st.from_regex(r"[A-Z]{2,6}", fullmatch=True)),
)
def test_institution_surrogates_contain_no_word_outside_the_pack(head, words, acronym):
    name = " ".join([head, *(w.capitalize() for w in words)]).strip()
    text = f"{name} ({acronym})" if acronym else name
    new = inst(text)
    if new == DATA.neutral["institution"]:
        return
    # strict: no original word excuses anything (the original is passed as empty)
    assert invented_words("", new, "INSTITUCION", VOCAB) == [], new


@settings(max_examples=40, deadline=None)
@given(st.from_regex(r"[A-Z]{2,6}(-[A-Z]{2,4})?", fullmatch=True))
def test_acronym_surrogates_contain_no_word_outside_the_pack(acronym):
    new = inst(acronym)
    assert new == DATA.neutral["institution"] or invented_words("", new, "INSTITUCION", VOCAB) == []


@pytest.mark.parametrize(
    "name, acronym",
    [
        # found on dev (seed 2): "Santa" is a name particle, but a capitalised word of the name
        ("Instituto de Investigación Sanitaria de Santa Cruz de Tenerife", "IISSCT"),
        ("instituto de medicina legal de malaga", "IMLM"),  # an original as keyed: lower case
    ],
)
def test_initials_are_those_of_the_capitalised_words(name, acronym):
    assert REG["INSTITUCION"].initials(name) == acronym
    if not name.islower():
        assert invented_words("", f"{name} ({acronym})", "INSTITUCION", VOCAB) == []
