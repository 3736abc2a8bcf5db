"""De-identification policies keyed by label and by PHI category (the rest: test_pseudonymise.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from crfdeid.policy import Policy, PolicyError, load_policy
from crfdeid.schemes import CATEGORIES, load_scheme


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "policy.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_default_policy_covers_every_category_as_it_covers_the_meddocan_labels():
    policy = Policy.default()
    assert set(policy.categories) == set(CATEGORIES)
    meddocan = load_scheme("meddocan")
    for label, category in meddocan.labels.items():  # the same choice either way
        assert policy.strategies[label] == policy.categories[category], label
    generic = load_scheme("generic")
    assert {label: policy.strategy(label, c) for label, c in generic.labels.items()
            if policy.strategy(label, c) != "pseudonymise"} == {
        "SEX": "keep", "BIOMETRIC": "mask", "LOCATION_OTHER": "mask"}


def test_a_label_s_own_entry_wins_then_its_category_then_redact(tmp_path):
    text = "strategies:\n  DATE: tag\ncategories:\n  date: mask\n  town: keep\n"
    policy = load_policy(write(tmp_path, text))
    assert policy.strategy("DATE") == "tag" and policy.strategy("FECHAS") == "mask"
    assert policy.strategy("CITY") == "keep" and policy.strategy("CALLE") == "redact"
    assert policy.strategy("WHEN", "date") == "mask"  # a label of the model's own scheme


def test_labels_of_the_models_own_scheme_are_accepted_when_the_scheme_is_given(tmp_path):
    path = write(tmp_path, "strategies:\n  LOCATION_CITY: mask\n")
    with pytest.raises(PolicyError, match="unknown label 'LOCATION_CITY'"):
        load_policy(path)
    scheme_file = tmp_path / "letters.yaml"
    scheme_file.write_text("name: letters\nlabels:\n  LOCATION_CITY: town\n", encoding="utf-8")
    assert load_policy(path, load_scheme(scheme_file)).strategy("LOCATION_CITY") == "mask"


@pytest.mark.parametrize(("text", "message", "line"), [
    ("categories:\n  city: mask\n", "unknown category 'city'", 2),
    ("categories:\n  date: shift\n", "date: unknown strategy 'shift'", 2),
    ("categories:\n  sex: pseudonymise\n", "category sex has no surrogate generator", 2),
    ("strategies:\n  BIOMETRIC: pseudonymise\n", "BIOMETRIC has no surrogate generator", 2),
    ("strategies:\n  DATE: mask\ncategories: [date]\n", "'categories' maps PHI categories", 3),
])
def test_category_errors_name_file_and_line(tmp_path, text, message, line):
    path = write(tmp_path, text)
    with pytest.raises(PolicyError) as info:
        load_policy(path)
    assert message in str(info.value) and info.value.line == line and str(path) in str(info.value)


def test_a_strategy_for_everything_covers_every_category():
    tagged = Policy.default().with_strategy("tag")
    assert tagged.strategy("DATE") == "tag" and tagged.strategy("SEX") == "keep"
    everything = Policy.default().with_strategy("pseudonymise")
    assert everything.strategy("LOCATION_OTHER") == "mask" and everything.strategy("BIOMETRIC") == "mask"


def test_tags_by_label_then_category_then_the_label_itself(tmp_path):
    policy = load_policy(write(tmp_path, "strategies:\n  DATE: tag\ntags:\n  town: PLACE\n"))
    assert policy.tag("DATE", "date") == "DATE" and policy.tag("CITY", "town") == "PLACE"
    assert Policy.default().tag("FECHAS", "date") == "FECHA"
