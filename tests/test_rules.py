"""The rule engine: schema errors that say where, timeouts that never hang, a fixed overlap order,
context words, validators and the per-token features offered to the CRF."""

from __future__ import annotations

import textwrap
import time
from pathlib import Path

import pytest

from crfdeid.rules import (
    Context,
    Rule,
    RuleEngine,
    RuleError,
    load_rule_file,
    load_rules,
    resolve_overlaps,
    token_rule_features,
)
from crfdeid.tokenize import tokenize
from crfdeid.types import Detector, Document


def write_rules(folder: Path, name: str, body: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


def rule(rule_id: str = "r", pattern: str = r"\d+", label: str = "ID_SUJETO_ASISTENCIA", **kwargs) -> Rule:
    return Rule(id=rule_id, label=label, description="A test rule.", pattern=pattern, **kwargs)


def found(engine: RuleEngine, text: str) -> list[tuple[str, str]]:
    return [(m.rule.id, m.text) for m in engine.run(Document("d", text)).matches]


GOOD_FILE = """\
    description: Record numbers.
    rules:
      - id: nhc
        label: ID_SUJETO_ASISTENCIA
        description: The number after NHC.
        pattern: 'NHC:\\s*(?P<phi>\\d+)'
        priority: 5
        examples:
          match:
            - {text: "NHC: 123", phi: "123"}
          no_match: ["NASS: 123"]
    """


# --- loading and schema ---------------------------------------------------------------------

def test_load_rule_file_builds_rules_with_family_and_location(tmp_path: Path):
    path = write_rules(tmp_path, "records.yaml", GOOD_FILE)
    [nhc] = load_rule_file(path)
    assert (nhc.id, nhc.label, nhc.priority, nhc.family) == ("nhc", "ID_SUJETO_ASISTENCIA", 5, "records")
    assert nhc.path == str(path) and nhc.line == 3
    assert nhc.examples[0].phi == "123" and nhc.counter_examples[0].text == "NASS: 123"
    assert nhc.source == "rule:nhc"


@pytest.mark.parametrize(("change", "needle", "line"), [
    (("label: ID_SUJETO_ASISTENCIA", "label: ID_PACIENTE"), "unknown label 'ID_PACIENTE'", 4),
    (("priority: 5", "priorty: 5"), "unknown key 'priorty'", 7),
    (("priority: 5", "priority: high"), "priority must be an integer", 7),
    (("priority: 5", "validator: es.dnie"), "unknown validator 'es.dnie'", 7),
    (("priority: 5", "flags: [2]"), "flags", 7),
    (("priority: 5", "flags: [IGNORE]"), "unknown flag", 7),
    (("(?P<phi>\\d+)'", "(?P<phi>\\d+'"), "pattern does not compile", 6),
    (("phi: \"123\"", "phi: \"999\""), "is not part of its text", 10),
    (("phi: \"123\"", "phi: 123"), "example phi must be a string", 10),
    (("        description: The number after NHC.\n", ""), "missing required key(s) description", 3),
])
def test_schema_errors_name_file_rule_and_line(tmp_path: Path, change, needle, line):
    old, new = change
    assert old in GOOD_FILE
    path = write_rules(tmp_path, "records.yaml", GOOD_FILE.replace(old, new))
    with pytest.raises(RuleError) as info:
        load_rule_file(path)
    message = str(info.value)
    assert message.startswith(f"{path}:{line}: rule 'nhc': "), message
    assert needle in message


def test_duplicate_yaml_keys_are_errors_not_silently_merged(tmp_path: Path):
    body = GOOD_FILE.replace("priority: 5", "priority: 5\n        priority: 6")
    path = write_rules(tmp_path, "dup.yaml", body)
    with pytest.raises(RuleError, match="'priority' appears twice"):
        load_rule_file(path)


def test_yaml_syntax_error_names_the_line(tmp_path: Path):
    path = write_rules(tmp_path, "bad.yaml", "description: x\nrules:\n  - id: [unclosed\n")
    with pytest.raises(RuleError) as info:
        load_rule_file(path)
    assert str(info.value).startswith(f"{path}:") and "not valid YAML" in str(info.value)


def _with_lines(value):
    """A parsed rule file with every line number it carries, for comparing two parsers."""
    if isinstance(value, dict):
        items = [(k, _with_lines(v)) for k, v in value.items()]
        return ("map", value.line, sorted(value.key_lines.items()), items)
    if isinstance(value, list):
        return ("seq", value.item_lines, [_with_lines(v) for v in value])
    return (type(value).__name__, value)


def test_libyaml_reads_every_shipped_rule_file_as_pyyamls_own_parser_does():
    from crfdeid.resources import data_dir
    from crfdeid.rules import loader

    paths = sorted(data_dir("rules").rglob("*.yaml"))
    assert len(paths) > 10
    for path in paths:
        text = path.read_text(encoding="utf-8")
        fast = loader._parse(loader._FastLineLoader, text, path)
        assert _with_lines(fast) == _with_lines(loader._parse(loader._LineLoader, text, path)), path


def test_a_syntax_error_is_reported_by_pyyamls_own_parser():
    from crfdeid.rules import loader

    body = "description: x\nrules:\n  - id: [unclosed\n"
    with pytest.raises(RuleError) as python_error:
        loader._parse(loader._LineLoader, body, "bad.yaml")
    with pytest.raises(RuleError) as raised:
        loader.parse_yaml(body, "bad.yaml")
    with pytest.raises(RuleError) as libyaml_error:
        loader._parse(loader._FastLineLoader, body, "bad.yaml")
    assert str(raised.value) == str(python_error.value) != str(libyaml_error.value)


def test_file_without_rules_list_and_unknown_top_level_key(tmp_path: Path):
    with pytest.raises(RuleError, match="needs a 'rules:' list"):
        load_rule_file(write_rules(tmp_path, "a.yaml", "description: x\n"))
    with pytest.raises(RuleError, match="unknown key 'rule'"):
        load_rule_file(write_rules(tmp_path, "b.yaml", "description: x\nrule: []\n"))


def test_pattern_matching_the_empty_string_is_refused():
    with pytest.raises(ValueError, match="empty string"):
        rule(pattern=r"\d*")


def test_duplicate_rule_ids_in_a_pack_name_both_places(tmp_path: Path):
    write_rules(tmp_path, "a.yaml", GOOD_FILE)
    write_rules(tmp_path, "b.yaml", GOOD_FILE)
    rules = load_rules(tmp_path)
    assert [r.family for r in rules] == ["a", "b"]
    with pytest.raises(RuleError, match=r"used twice \(first at .*a\.yaml:3\)"):
        RuleEngine(rules)


def test_unknown_pack_is_a_clear_error():
    with pytest.raises(RuleError, match="no rule pack 'xx'") as info:
        load_rules("xx")
    assert "es" in (info.value.hint or "")


# --- matching -----------------------------------------------------------------------------

def test_engine_is_a_detector_and_spans_carry_the_rule_id():
    engine = RuleEngine([rule("nhc", r"NHC:\s*(?P<phi>\d+)")])
    assert isinstance(engine, Detector) and engine.name == "rules"
    [span] = engine.detect(Document("d", "Ana. NHC: 2347865."))
    assert (span.start, span.end, span.label, span.source) == (10, 17, "ID_SUJETO_ASISTENCIA", "rule:nhc")


def test_phi_group_that_does_not_take_part_gives_no_match():
    engine = RuleEngine([rule("r", r"NHC:\s*(?:(?P<phi>\d+)|ninguno)")])
    assert found(engine, "NHC: ninguno; NHC: 12") == [("r", "12")]


def test_overlaps_resolved_by_priority_then_length_then_position_then_pack_order():
    low_long = rule("low-long", r"\d+ \d+", priority=1)
    high_short = rule("high-short", r"\d+", priority=5)
    engine = RuleEngine([low_long, high_short])
    assert found(engine, "12 345") == [("high-short", "12"), ("high-short", "345")]
    long_ = rule("long", r"\d+ \d+")
    short = rule("short", r"\d+")
    assert found(RuleEngine([short, long_]), "12 345") == [("long", "12 345")]
    # same priority, same length: the earlier match wins
    first = rule("first", r"ab")
    second = rule("second", r"bc")
    assert found(RuleEngine([second, first]), "abc") == [("first", "ab")]
    # same span: the rule that comes first in the pack wins, whatever the order of discovery
    a, b = rule("a", r"\d+"), rule("b", r"\d+", label="FECHAS")
    assert found(RuleEngine([a, b]), "2014") == [("a", "2014")]
    assert found(RuleEngine([b, a]), "2014") == [("b", "2014")]


def test_resolve_overlaps_reports_what_beat_each_dropped_match():
    engine = RuleEngine([rule("big", r"\d{4}", priority=2), rule("small", r"\d{2}")])
    result = engine.run(Document("d", "1234"))
    assert [m.text for m in result.matches] == ["1234"]
    assert {(loser.rule.id, winner.rule.id) for loser, winner in result.dropped} == {("small", "big")}
    kept, dropped = resolve_overlaps([])
    assert kept == [] and dropped == []


def test_catastrophic_pattern_times_out_and_the_run_goes_on(caplog):
    slow = rule("slow", r"(a|aa)+$", label="OTROS_SUJETO_ASISTENCIA")
    fast = rule("fast", r"\d+")
    engine = RuleEngine([slow, fast], timeout=0.05)
    started = time.perf_counter()
    result = engine.run(Document("note-7", "a" * 40 + "b 123"))
    assert time.perf_counter() - started < 2
    assert [(t.rule_id, t.document_id) for t in result.timeouts] == [("slow", "note-7")]
    assert [m.text for m in result.matches] == ["123"]
    assert "rule slow timed out" in caplog.text and "note-7" in caplog.text


def test_context_require_and_forbid_within_a_token_window():
    ctx = Context(require=("teléfono", "Tel"), forbid=("fax",), window=3)
    engine = RuleEngine([rule("phone", r"\d{9}", label="NUMERO_TELEFONO", context=ctx)])
    assert found(engine, "teléfono: 912345678") == [("phone", "912345678")]
    assert found(engine, "TEL 912345678") == [("phone", "912345678")]           # case-insensitive
    assert found(engine, "teléfono de la unidad de día 912345678") == []        # outside the window
    assert found(engine, "Telma 912345678") == []                               # whole words only
    assert found(engine, "teléfono y fax 912345678") == []                      # forbidden word


def test_context_line_window_stops_at_the_line_break():
    ctx = Context(require=("NHC",), window=None)
    engine = RuleEngine([rule("n", r"\d{6}", context=ctx)])
    assert found(engine, "NHC del paciente, antes de todo lo demás: 123456") == [("n", "123456")]
    assert found(engine, "NHC\n123456") == []
    assert found(engine, "NHC\r\n123456") == []


def test_context_phrase_with_punctuation_edges_and_inner_spaces():
    ctx = Context(require=("C/", "nº de historia"), window=4)
    engine = RuleEngine([rule("r", r"\d{5}", context=ctx)])
    assert found(engine, "C/Salamanca 36211") == [("r", "36211")]
    assert found(engine, "nº  de\nhistoria 12345") == [("r", "12345")]


def test_context_needs_a_phrase_and_a_positive_window():
    with pytest.raises(ValueError):
        Context()
    with pytest.raises(ValueError):
        Context(require=("x",), window=0)


def test_validator_kills_matches_that_fail_the_checksum():
    engine = RuleEngine([rule("dni", r"\b\d{8}[A-Z]\b", validator="es.dni")])
    assert found(engine, "DNI 12345678Z y 12345678A") == [("dni", "12345678Z")]


def test_from_pack_loads_the_shipped_spanish_pack():
    engine = RuleEngine.from_pack("es")
    text = "NHC: 2347865.\nE-mail: ana.gil@hospital.es\nFecha de Ingreso: 20/05/2016."
    labels = {(s.label, text[s.start:s.end]) for s in engine.detect(Document("d", text))}
    assert labels == {("ID_SUJETO_ASISTENCIA", "2347865"), ("CORREO_ELECTRONICO", "ana.gil@hospital.es"),
                      ("FECHAS", "20/05/2016")}


def test_timeout_must_be_positive():
    with pytest.raises(ValueError):
        RuleEngine([], timeout=0)


# --- CRF features ---------------------------------------------------------------------------

def test_token_rule_features_are_bio_by_family():
    text = "Tel: 912 345 678 y NHC 12"
    phone = rule("phone", r"\d{3} \d{3} \d{3}", label="NUMERO_TELEFONO", family="phones")
    nhc = rule("nhc", r"(?<=NHC )\d+", family="records")
    tokens = tokenize(text)
    matches = RuleEngine([phone, nhc]).run(Document("d", text)).matches
    features = token_rule_features(tokens, matches)
    by_token = {t.text: f for t, f in zip(tokens, features, strict=True)}
    assert by_token["Tel"] == [] and by_token["y"] == []
    assert [features[i] for i in range(2, 5)] == [["B-phones"], ["I-phones"], ["I-phones"]]
    assert by_token["12"] == ["B-records"]
    assert len(features) == len(tokens)


def test_token_rule_features_partial_tokens_and_overlapping_families():
    text = "abc12345"
    tokens = tokenize(text)  # 'abc', '12345'
    inner = rule("inner", r"c1", family="x")
    outer = rule("outer", r"\d+", family="y")
    matches = inner.find(text) + outer.find(text)
    assert token_rule_features(tokens, matches) == [["B-x"], ["I-x", "B-y"]]
    assert token_rule_features([], matches) == []


# --- the pack's label scheme ----------------------------------------------------------------------


def test_a_pack_declares_the_scheme_its_labels_belong_to(tmp_path: Path):
    from crfdeid.rules import pack_scheme

    generic_body = GOOD_FILE.replace("ID_SUJETO_ASISTENCIA", "ID_PATIENT")
    write_rules(tmp_path / "g", "pack.yaml", "name: g\nscheme: generic\n")
    write_rules(tmp_path / "g", "records.yaml", generic_body)
    engine = RuleEngine.from_pack(tmp_path / "g")
    assert engine.scheme.name == "generic" and engine.rules[0].label == "ID_PATIENT"
    # a label of another scheme is an error naming the pack's scheme, file, line and rule
    write_rules(tmp_path / "g", "records.yaml", GOOD_FILE)
    with pytest.raises(RuleError) as info:
        load_rules(tmp_path / "g")
    assert "records.yaml:4: rule 'nhc': unknown label 'ID_SUJETO_ASISTENCIA'" in str(info.value)
    assert "scheme 'generic'" in str(info.value)
    # without a manifest, or without scheme: in it, the rules are MEDDOCAN's
    write_rules(tmp_path / "m", "records.yaml", GOOD_FILE)
    assert pack_scheme(tmp_path / "m").name == "meddocan"


def test_a_scheme_file_beside_the_manifest(tmp_path: Path):
    scheme_dir = tmp_path / "p"
    write_rules(scheme_dir, "pack.yaml", "name: p\nscheme: letters.yaml\n")
    write_rules(scheme_dir, "letters.yaml", "name: letters\nlabels:\n  NHC: id_patient\n")  # not a rule file
    write_rules(scheme_dir, "records.yaml", GOOD_FILE.replace("ID_SUJETO_ASISTENCIA", "NHC"))
    engine = RuleEngine.from_pack(scheme_dir)
    assert engine.scheme.name == "letters" and engine.run(Document("d", "NHC: 123")).spans[0].label == "NHC"
    write_rules(scheme_dir, "pack.yaml", "name: p\nscheme: nonesuch\n")
    with pytest.raises(RuleError, match=r"pack\.yaml: scheme: no label scheme 'nonesuch'"):
        load_rules(scheme_dir)


def test_a_spans_only_rule_is_a_span_but_no_feature_and_leaves_the_fingerprint() -> None:
    """``feature: false``: a rule added after a model was trained finds spans, changes none of the
    model's features (not even by beating a feature rule's match in an overlap) and leaves the
    rules' fingerprint as it was: the model needs no retraining (the eighteenth round's
    hospital-abbreviated rule, whose one MEDDOCAN match had moved the retrained weights)."""
    from crfdeid.tagger import rules_fingerprint

    number = rule("number", r"\d{4,}", family="records", priority=20)
    code = rule("code", r"H\d{4,}", label="HOSPITAL", family="hospitals", priority=30, feature=False)
    before, after = RuleEngine([number]), RuleEngine([number, code])
    text = "Ingreso en H20417 y NHC 77120."
    result = after.run(Document("d", text))
    assert [(m.rule.id, m.text) for m in result.matches] == [("code", "H20417"), ("number", "77120")]
    assert [(m.rule.id, m.text) for m in result.feature_matches] == [("number", "20417"), ("number", "77120")]
    tokens = tokenize(text)
    assert after.features(Document("d", text), tokens) == before.features(Document("d", text), tokens)
    assert rules_fingerprint(after) == rules_fingerprint(before)
    assert rules_fingerprint(RuleEngine([number, rule("code", r"H\d{4,}", family="hospitals")])) != \
        rules_fingerprint(before)
    from crfdeid.rules.model import InvalidRule

    with pytest.raises(InvalidRule):
        rule("never", r"x", feature=False, emit=False)
