"""The invented-word check: pack words and kept structure pass, random letters do not."""

from __future__ import annotations

import json

import pytest

from crfdeid.surrogates.vocabulary import count_invented, invented_words, pack_vocabulary

VOCAB = pack_vocabulary("es")


@pytest.mark.parametrize(
    "original, surrogate, label, invented",
    [
        # dev, before: an employee id's words scrambled letter by letter
        (
            "Residente de 3° año", "Qjhykdjkv lx 9° uey", "ID_EMPLEO_PERSONAL_SANITARIO",
            ["Qjhykdjkv", "lx", "uey"],
        ),
        ("Residente de 3° año", "Residente de 9° año", "ID_EMPLEO_PERSONAL_SANITARIO", []),
        ("SCMV", "KLMY", "INSTITUCION", ["KLMY"]),
        ("SCMV", "INTCF", "INSTITUCION", []),  # an acronym of the pack's list
        ("Instituto del Dolor (IDD)", "Instituto de Medicina Legal de Huelva (IMLH)", "INSTITUCION", []),
        # "esquerdo" is a word of the pack's street names
        ("Hospital Virgen de la Sierra", "Cuxnrv esquerdo", "HOSPITAL", ["Cuxnrv"]),
        ("NHC 1234 BCD", "NHC 5821 XQZ", "ID_SUJETO_ASISTENCIA", []),  # a code's capitals
        # a word kept from the original is the leak check's business, not this one's
        ("rauluidgfv@hotmail.com", "rauluidgfv@hotmail.com", "CORREO_ELECTRONICO", []),
        ("raul@hotmail.com", "rauluidgfv@hotmail.com", "CORREO_ELECTRONICO", ["rauluidgfv"]),
        ("raul@hotmail.com", "jlgarcia@hotmail.com", "CORREO_ELECTRONICO", []),
        ("raul@salud.es", "maria.lopez75@sanidad.norte.es", "CORREO_ELECTRONICO", []),
        ("casada", "[ID_SUJETO_ASISTENCIA]", "ID_SUJETO_ASISTENCIA", []),  # a mask is not a word
    ],
)
def test_invented_words(original, surrogate, label, invented):
    assert invented_words(original, surrogate, label, VOCAB) == invented


def test_glued_address_words_allow_a_few_initials_only():
    assert VOCAB.glued("mjgarcia") and VOCAB.glued("mariagarcialopez") and VOCAB.glued("jl")
    assert not VOCAB.glued("sancheztgbcl") and not VOCAB.glued("rauluidgfv")
    assert not VOCAB.glued("xqzvwk")


def test_count_invented_reads_an_audit_and_the_original_texts(tmp_path):
    (tmp_path / "n1.txt").write_text("Residente de 3° año, SCMV, casada.", encoding="utf-8")
    spans = [
        (0, 19, "ID_EMPLEO_PERSONAL_SANITARIO", "Qjhykdjkv lx 9° uey"),
        (21, 25, "INSTITUCION", "ONT"),
        (27, 33, "ID_SUJETO_ASISTENCIA", "[ID_SUJETO_ASISTENCIA]"),
    ]
    lines = [{"record": "run"}] + [
        {"record": "span", "document": "n1", "start": s, "end": e, "label": label, "surrogate": new,
         "strategy": "pseudonymise"}
        for s, e, label, new in spans
    ]
    audit = tmp_path / "audit.jsonl"
    audit.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    report = count_invented(audit, tmp_path)
    assert report["surrogate_words"] == 4 and report["invented_words"] == 3
    assert report["by_label"]["ID_SUJETO_ASISTENCIA"] == {"words": 0, "invented": 0, "masks": 1}
    assert report["examples"] == {"ID_EMPLEO_PERSONAL_SANITARIO": ["Qjhykdjkv lx 9° uey"]}
    only = count_invented(audit, tmp_path, labels=["INSTITUCION"])
    assert only["invented_words"] == 0 and list(only["by_label"]) == ["INSTITUCION"]


def test_an_acronym_may_count_the_one_letter_words_of_its_name():
    # hypothesis found "Instituto de Investigación Sanitaria de A Coruña (IISAC)" called invented
    vocabulary = pack_vocabulary("es")
    new = "Instituto de Investigación Sanitaria de A Coruña (IISAC)"
    assert invented_words("Instituto Gecaxa (DBA)", new, "INSTITUCION", vocabulary) == []
    assert invented_words("Instituto Gecaxa (DBA)", new.replace("IISAC", "IISZC"), "INSTITUCION",
                          vocabulary) == ["IISZC"]
