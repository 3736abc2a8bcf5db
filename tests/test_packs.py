"""One choice of language pack: --lang CODE, --pack DIR or --lang none, and what a model recorded."""

from __future__ import annotations

import shutil

import pytest

from crfdeid.errors import CrfdeidError
from crfdeid.packs import NO_PACK, choose_pack, model_choice, shipped_langs
from crfdeid.resources import data_dir
from crfdeid.rules import RuleEngine


def test_a_shipped_code_names_its_pack_and_the_rules_its_manifest_names():
    choice = choose_pack("es")
    assert choice.lang == "es" and choice.folder == data_dir("gazetteers") / "es" and choice.rules == "es"
    assert choice.pack is not None and choice.pack.language == "es" and not choice.custom
    assert choose_pack() == choice  # the default


def test_none_has_no_pack_and_the_language_neutral_rules():
    choice = choose_pack(NO_PACK)
    assert (choice.lang, choice.folder, choice.rules, choice.pack) == ("none", None, "none", None)
    engine = RuleEngine.from_pack(choice.rules)
    assert engine.scheme.name == "generic"
    emitted = {r.label for r in engine.rules if r.emit}
    hints = {r.label for r in engine.rules if not r.emit}
    assert emitted == {"EMAIL", "URL", "IP", "DATE", "PHONE"} and hints == {"PHONE", "ID_OTHER"}
    # nothing in the language-neutral rules needs words of a language
    assert all(r.context is None for r in engine.rules if r.id != "ip-address")
    assert "none" in shipped_langs() and "es" in shipped_langs()


def test_a_pack_folder_of_your_own(tmp_path):
    folder = tmp_path / "mine"
    shutil.copytree(data_dir("gazetteers") / "es", folder)
    choice = choose_pack(pack=folder)
    assert choice.custom and choice.folder == folder.resolve() and choice.lang == "es"
    assert choice.rules == "es"  # its manifest names rules/es, which ships
    assert choose_pack(pack=folder, rules="none").rules == "none"


@pytest.mark.parametrize(("kwargs", "needle"), [
    ({"lang": "xx"}, "no language pack 'xx'"),
    ({"lang": "es", "pack": "gazetteers/es"}, "give --lang or --pack, not both"),
    ({"pack": "."}, "not a language pack"),
])
def test_bad_choices_are_clear_errors(kwargs, needle):
    with pytest.raises(CrfdeidError, match=needle):
        choose_pack(**kwargs)


def test_a_model_from_before_packs_were_recorded_is_spanish():
    assert model_choice({}).same_as(choose_pack("es"))
    recorded = {"language": "none", "gazetteer": {"pack": "none"}, "rules": {"pack": "none"}}
    assert model_choice(recorded).same_as(choose_pack("none"))
