"""``crfdeid train``, ``cv``, ``annotate --model`` and ``explain-model``: end to end through the CLI."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from crfdeid.cli import main

from .conftest import EXAMPLES


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def annotate(capsys, out: Path, *extra: str) -> tuple[int, str, str]:
    """``crfdeid annotate examples/notes -o OUT`` with extra options."""
    return run(capsys, "annotate", str(EXAMPLES), "-o", str(out), *extra)


def test_train_then_annotate_then_evaluate(capsys, tmp_path: Path) -> None:
    model = tmp_path / "model"
    code, _, err = run(capsys, "train", str(EXAMPLES), "-o", str(model), "--iterations", "30", "--c1", "0")
    assert code == 0, err
    assert "model written to" in err and (model / "model.crfsuite").is_file()
    out_dir = tmp_path / "pred"
    code, _, err = annotate(capsys, str(out_dir), "--model", str(model))
    assert code == 0, err
    assert "annotated 3 document(s)" in err
    ann = (out_dir / "nota-001.ann").read_text(encoding="utf-8")
    assert "NOMBRE_SUJETO_ASISTENCIA" in ann
    code, out, _ = run(capsys, "evaluate", str(EXAMPLES), str(out_dir), "--format", "json")
    assert code == 0 and json.loads(out)["ner"]["f1"] > 0.8  # it has seen these very notes


def test_annotate_jsonl_keeps_sources_and_scores(capsys, tmp_path: Path, tiny_model: Path) -> None:
    code, _, err = annotate(capsys, str(tmp_path / "o"), "--model", str(tiny_model), "--format", "jsonl")
    assert code == 0, err
    records = [
        json.loads(line)
        for line in (tmp_path / "o" / "annotations.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    spans = [s for r in records for s in r["spans"]]
    assert any(s["source"] == "crf" and 0 <= s["score"] <= 1 for s in spans)
    assert any(s["source"].startswith("rule:") for s in spans)


def test_annotate_with_a_missing_model_is_a_clear_error(capsys, tmp_path: Path) -> None:
    code, _, err = annotate(capsys, str(tmp_path / "o"), "--model", str(tmp_path / "nope"))
    assert code == 2 and "no such model folder" in err and "Traceback" not in err
    assert not (tmp_path / "o").exists()


def test_annotate_with_a_corrupt_model(capsys, tmp_path: Path, tiny_model: Path) -> None:
    model = tmp_path / "m"
    shutil.copytree(tiny_model, model)
    (model / "model.json").write_text("{", encoding="utf-8")
    code, _, err = annotate(capsys, str(tmp_path / "o"), "--model", str(model))
    assert code == 2 and "model.json:1" in err and "not valid JSON" in err


@pytest.mark.parametrize(
    "args, message",
    [
        (["--threshold", "1.5"], "--threshold must be a probability"),
        (["--rules-only", "--threshold", "0.9"], "--rules-only cannot be combined"),
        (["--rules-only", "--operating-point", "deidentify"], "--rules-only cannot be combined"),
    ],
)
def test_annotate_option_errors(capsys, tmp_path: Path, args: list, message: str) -> None:
    code, _, err = annotate(capsys, str(tmp_path / "o"), *args)
    assert code == 2 and message in err


def test_annotate_with_threshold_finds_at_least_as_much(capsys, tmp_path: Path, tiny_model: Path) -> None:
    counts = {}
    for name, extra in (("plain", []), ("loose", ["--threshold", "0.99"])):
        code, _, err = annotate(capsys, str(tmp_path / name), "--model", str(tiny_model), *extra)
        assert code == 0, err
        counts[name] = sum(
            len((tmp_path / name / f"nota-00{i}.ann").read_text(encoding="utf-8").splitlines())
            for i in (1, 2, 3)
        )
    assert counts["loose"] >= counts["plain"] > 0


def test_annotate_with_another_merge_policy(capsys, tmp_path: Path, tiny_model: Path) -> None:
    policy = tmp_path / "merge.yaml"
    policy.write_text("default: crf\n", encoding="utf-8")
    code, _, err = annotate(
        capsys, str(tmp_path / "o"), "--model", str(tiny_model), "--merge-policy", str(policy)
    )
    assert code == 0, err
    policy.write_text("default: nobody\n", encoding="utf-8")
    code, _, err = annotate(
        capsys, str(tmp_path / "o2"), "--model", str(tiny_model), "--merge-policy", str(policy)
    )
    assert code == 2 and "merge.yaml:1" in err and "unknown strategy 'nobody'" in err


def test_train_on_a_folder_without_annotations(capsys, tmp_path: Path) -> None:
    (tmp_path / "n.txt").write_text("Nombre: Ana.", encoding="utf-8")
    code, _, err = run(capsys, "train", str(tmp_path), "-o", str(tmp_path / "m"))
    assert code == 2 and "carry no annotations" in err


def test_train_with_a_bad_feature_set(capsys, tmp_path: Path) -> None:
    bad = tmp_path / "f.yaml"
    bad.write_text("name: x\nfamilies: {wrod: true}\n", encoding="utf-8")
    code, _, err = run(capsys, "train", str(EXAMPLES), "-o", str(tmp_path / "m"), "--features", str(bad))
    assert code == 2 and "f.yaml" in err and "unknown feature family 'wrod'" in err


def test_cv_prints_folds_and_writes_json(capsys, tmp_path: Path) -> None:
    report = tmp_path / "cv.json"
    code, out, err = run(
        capsys, "-q", "cv", str(EXAMPLES), "--folds", "3", "--iterations", "5", "--min-freq", "2",
        "-o", str(report),
    )
    assert code == 0, err
    assert "spans_merged" in out and "±" in out
    data = json.loads(report.read_text(encoding="utf-8"))
    assert len(data["folds"]) == 3 and "ner.f1" in data["summary"]
    assert data["config"]["min_freq"] == 2


def test_train_min_freq_reaches_the_model(capsys, tmp_path: Path) -> None:
    from crfdeid.train import DEFAULT_MIN_FREQ

    common = ["train", str(EXAMPLES), "--iterations", "5", "--c1", "0"]
    code, _, err = run(capsys, *common, "-o", str(tmp_path / "default"))
    assert code == 0, err
    code, _, err = run(capsys, *common, "-o", str(tmp_path / "pruned"), "--min-freq", "4")
    assert code == 0, err
    assert "min_freq 4" in err
    default, pruned = (json.loads((tmp_path / m / "model.json").read_text(encoding="utf-8"))["training"]
                       for m in ("default", "pruned"))
    assert (default["min_freq"], pruned["min_freq"]) == (DEFAULT_MIN_FREQ, 4)
    assert pruned["attributes"] < default["attributes"]  # crfsuite dropped the rarer features
    code, _, err = run(capsys, *common, "-o", str(tmp_path / "bad"), "--min-freq", "0")
    assert code == 2 and "--min-freq must be a positive integer, got 0" in err
    assert not (tmp_path / "bad").exists()


def test_cv_with_too_many_folds(capsys) -> None:
    code, _, err = run(capsys, "cv", str(EXAMPLES), "--folds", "9")
    assert code == 2 and "--folds must be between 2 and the number of documents (3)" in err


def test_explain_model(capsys, tiny_model: Path) -> None:
    code, out, _ = run(capsys, "explain-model", "--model", str(tiny_model), "--top", "3")
    assert code == 0
    assert "NOMBRE_SUJETO_ASISTENCIA" in out and "strongest transitions" in out
    code, out, _ = run(
        capsys, "explain-model", "--model", str(tiny_model), "--format", "json", "--label", "FECHAS"
    )
    data = json.loads(out)
    assert list(data["top_features"]) == ["FECHAS"] and len(data["top_features"]["FECHAS"]) <= 10


def test_explain_model_unknown_label(capsys, tiny_model: Path) -> None:
    code, _, err = run(capsys, "explain-model", "--model", str(tiny_model), "--label", "COLOUR")
    assert code == 2 and "no label(s) ['COLOUR']" in err


@pytest.mark.parametrize("command", ["train", "cv", "explain-model", "annotate"])
def test_help_teaches_with_examples(capsys, command: str) -> None:
    with pytest.raises(SystemExit) as info:
        main([command, "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "examples:" in out or "Feature names" in out


# --- your own corpus, your labels, your language ------------------------------------------------


def test_your_own_corpus_with_lang_none_end_to_end(capsys, tmp_path: Path) -> None:
    from .conftest import GENERIC_CORPUS

    model = tmp_path / "model"
    code, _, err = run(capsys, "train", str(GENERIC_CORPUS), "-o", str(model), "--lang", "none",
                       "--iterations", "20")
    assert code == 0, err
    assert "labels: scheme 'generic'; pack 'none', rules 'none'" in err and "warning" not in err
    meta = json.loads((model / "model.json").read_text(encoding="utf-8"))
    assert meta["language"] == "none" and meta["scheme"]["name"] == "generic"
    pred = tmp_path / "pred"
    code, _, err = run(capsys, "annotate", str(GENERIC_CORPUS), "-o", str(pred), "--model", str(model))
    assert code == 0, err
    lines = [line for f in pred.glob("*.ann") for line in f.read_text(encoding="utf-8").splitlines()]
    labels = {line.split("\t")[1].split()[0] for line in lines}
    assert labels and labels <= set(meta["scheme"]["labels"])
    out = tmp_path / "released"
    code, _, err = run(capsys, "deidentify", str(GENERIC_CORPUS), "-o", str(out), "--model", str(model),
                       "--seed", "1")
    assert code == 0, err
    assert err.count("no language pack (--lang none) for label(s) AGE, CITY") == 1
    text = (out / "letter-01.txt").read_text(encoding="utf-8")
    assert "XXXXX" not in text and "[NAME_PATIENT]" in text and "John Miller" not in text


def test_a_corpus_with_labels_no_scheme_knows(capsys, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.txt").write_text("Seen by Dr. Weber in Ulm.\n", encoding="utf-8")
    ann = "T1\tNAME_DOCTOR 12 17\tWeber\nT2\tLOCATION_CITY 21 24\tUlm\n"
    (corpus / "a.ann").write_text(ann, encoding="utf-8")
    code, _, err = run(capsys, "train", str(corpus), "-o", str(tmp_path / "m"), "--lang", "none")
    assert code == 2 and "unmapped: LOCATION_CITY, NAME_DOCTOR" in err and "Traceback" not in err
    assert "LOCATION_CITY: town" in err and "--scheme" in err and not (tmp_path / "m").exists()
    scheme = tmp_path / "letters.yaml"
    scheme.write_text("name: letters\ndescription: x\nlabels:\n  LOCATION_CITY: town\n"
                      "  NAME_DOCTOR: person_clinician\n", encoding="utf-8")
    code, _, err = run(capsys, "train", str(corpus), "-o", str(tmp_path / "m"), "--lang", "none",
                       "--scheme", str(scheme), "--iterations", "5")
    assert code == 0, err
    # the neutral rules' categories (e-mail, URL, IP) have no label in it: said once
    assert err.count("scheme 'letters' has no label for the categories of rule(s)") == 1
    assert "email (email)" in err


def test_annotate_warns_once_when_told_another_pack_than_the_models(capsys, tmp_path: Path,
                                                                    neutral_model: Path) -> None:
    code, _, err = annotate(capsys, tmp_path / "out", "--model", str(neutral_model), "--lang", "es")
    assert code == 2 and err.count("warning: the model was trained with pack 'none'") == 1
    assert "changed since this model was trained" in err


def test_cv_takes_the_merge_options_of_annotate(capsys, tmp_path: Path) -> None:
    from .conftest import GENERIC_CORPUS

    policy = tmp_path / "merge.yaml"
    policy.write_text("default: crf\ncategories:\n  email: rule\n", encoding="utf-8")
    report = tmp_path / "cv.json"
    code, out, err = run(capsys, "-q", "cv", str(GENERIC_CORPUS), "--folds", "2", "--lang", "none",
                         "--iterations", "5", "--merge-policy", str(policy), "--threshold", "0.9",
                         "-o", str(report))
    assert code == 0, err
    config = json.loads(report.read_text(encoding="utf-8"))["config"]
    assert config["threshold"] == 0.9 and config["merge_policy"]["categories"] == {"email": "rule"}
    assert config["scheme"] == "generic" and "NAME_PATIENT" in out


def test_evaluate_in_another_scheme(capsys) -> None:
    code, out, _ = run(capsys, "evaluate", str(EXAMPLES), str(EXAMPLES.parent / "system"), "--format", "json")
    assert code == 0
    own = json.loads(out)
    code, out, _ = run(capsys, "evaluate", str(EXAMPLES), str(EXAMPLES.parent / "system"), "--format", "json",
                       "--scheme", "generic")
    assert code == 0
    generic = json.loads(out)
    assert generic["ner"] == own["ner"]  # MEDDOCAN -> generic is one to one
    assert "NAME_PATIENT" in generic["per_label"] and "NOMBRE_SUJETO_ASISTENCIA" not in generic["per_label"]


def test_rules_explain_in_a_models_scheme(capsys) -> None:
    code, out, _ = run(capsys, "rules", "explain", "NHC: 2347865. E-mail: ana@x.es", "--scheme", "generic")
    assert code == 0 and "ID_PATIENT" in out and "EMAIL" in out and "CORREO" not in out
    code, out, _ = run(capsys, "rules", "explain", "NHC: 2347865. E-mail: ana@x.es", "--lang", "none")
    assert code == 0 and "EMAIL" in out and "ID_PATIENT" not in out
    # the language-neutral rules know no "NHC": the number is only a hint, and says so
    assert "ID_OTHER                         id-digits                '2347865'   [hint:" in out


def test_deidentify_annotations_of_the_generic_scheme(capsys, tmp_path: Path) -> None:
    from .conftest import GENERIC_CORPUS

    out = tmp_path / "released"
    code, _, err = run(capsys, "deidentify", str(GENERIC_CORPUS), "-o", str(out), "--from-annotations",
                       "--seed", "2", "--format", "brat")
    assert code == 0, err
    text = (out / "letter-02.txt").read_text(encoding="utf-8")
    assert "XXXXX" not in text and "[" not in text and "Mary Jones" not in text and "Riverton" not in text
    assert "\tDATE " in (out / "letter-02.ann").read_text(encoding="utf-8")


def test_annotate_in_two_workers_writes_what_one_process_writes(
    capsys, tmp_path: Path, tiny_model: Path
) -> None:
    """``-j 2``: each worker loads the model once; the files are byte for byte those of one
    process, in input order, and a note that cannot be read fails alone."""
    src = tmp_path / "in"
    shutil.copytree(EXAMPLES, src)
    for k in range(12):  # more notes than the workers' window
        shutil.copy(EXAMPLES / "nota-001.txt", src / f"copia-{k:02}.txt")
    (src / "roto.txt").write_bytes(b"\xff\xfe\x00bad \xc3")
    outputs = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"j{jobs}"
        code, _, err = run(capsys, "annotate", str(src), "-o", str(out), "--model", str(tiny_model),
                           "-j", jobs)
        assert code == 3, err  # the unreadable note
        assert "roto" in err and "annotated 15 document(s), 1 failed" in err
        outputs[jobs] = {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
                         if p.is_file()}
    assert outputs["1"] == outputs["2"]
    assert any(name.endswith(".ann") and b"NOMBRE" in data for name, data in outputs["1"].items())


def test_threshold_and_operating_point_are_one_choice(capsys, tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        annotate(capsys, str(tmp_path / "o"), "--threshold", "0.9", "--operating-point", "viterbi")
    assert exc.value.code == 2 and "not allowed with argument" in capsys.readouterr().err


def test_train_records_the_point_cv_chose_or_searches_it_itself(capsys, tmp_path: Path) -> None:
    from crfdeid.operating import DEIDENTIFY, recorded_points
    from crfdeid.tagger import read_metadata
    from crfdeid.train import DEFAULT_MIN_FREQ

    common = ["--iterations", "10", "--c1", "0", "--folds", "3"]
    report = tmp_path / "cv.json"
    # -j 2: each fold's candidates come back from a worker process (the point search's input)
    code, out, err = run(capsys, "-q", "cv", str(EXAMPLES), *common, "-j", "2", "--search-point",
                         "--min-precision", "0.5", "-o", str(report))
    assert code == 0, err
    assert "operating point search (spans_merged precision >= 0.5)" in out and "<- chosen" in out
    chosen = json.loads(report.read_text(encoding="utf-8"))["point_search"]["chosen"]
    code, _, err = run(capsys, "train", str(EXAMPLES), "-o", str(tmp_path / "given"), "--iterations", "10",
                       "--c1", "0", "--deidentify-point", str(report))
    assert code == 0, err
    assert "deidentify point:" in err
    given = recorded_points(read_metadata(tmp_path / "given"))[DEIDENTIFY]
    assert given.to_dict()["labels"] == chosen["labels"] and given.threshold == chosen["threshold"]
    assert given.chosen_by["folds"] == 3 and given.chosen_by["corpus_fingerprint"]
    assert given.chosen_by["min_freq"] == DEFAULT_MIN_FREQ and "--min-freq" not in err
    other = DEFAULT_MIN_FREQ + 1
    code, _, err = run(capsys, "train", str(EXAMPLES), "-o", str(tmp_path / "other"), "--iterations", "10",
                       "--c1", "0", "--deidentify-point", str(report), "--min-freq", str(other))
    assert code == 0, err
    assert f"trained with --min-freq {DEFAULT_MIN_FREQ}, this one trains with {other}" in err
    code, _, err = run(capsys, "train", str(EXAMPLES), "-o", str(tmp_path / "searched"), *common,
                       "--search-point", "--min-precision", "0.5")
    assert code == 0, err
    assert "operating point search" in err and "choosing the deidentify operating point" in err
    assert recorded_points(read_metadata(tmp_path / "searched"))[DEIDENTIFY] == given  # same folds
    code, _, err = run(capsys, "train", str(EXAMPLES), "-o", str(tmp_path / "p"), "--iterations", "5",
                       "--deidentify-point", "0.9")
    assert code == 0, err
    assert recorded_points(read_metadata(tmp_path / "p"))[DEIDENTIFY].to_dict() == {
        "threshold": 0.9, "labels": {}, "spans": "separate"}


def test_train_point_option_errors(capsys, tmp_path: Path) -> None:
    code, _, err = run(capsys, "train", str(EXAMPLES), "-o", str(tmp_path / "m"), "--deidentify-point", "2")
    assert code == 2 and "probability" in err
    code, _, err = run(capsys, "train", str(EXAMPLES), "-o", str(tmp_path / "m"), "--search-point",
                       "--min-precision", "0")
    assert code == 2 and "--min-precision must be a probability" in err
    with pytest.raises(SystemExit):
        run(capsys, "train", str(EXAMPLES), "-o", str(tmp_path / "m"), "--search-point",
            "--deidentify-point", "0.9")
    assert not (tmp_path / "m").exists()
