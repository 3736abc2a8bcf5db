"""simplemma's lexicons as cached tries: the same lemmas and known words as simplemma's default
backend, read back from the cache, rebuilt when the cached trie is damaged."""

from __future__ import annotations

from pathlib import Path

import pytest
import simplemma

from crfdeid import cache
from crfdeid.lexicon import CachedTrieFactory, Lexicon
from crfdeid.tokenize import tokenize

ROOT = Path(__file__).resolve().parent.parent
#: Forms that take the lemmatizer's other paths: case, accents, clitics, prefixes, hyphens,
#: apostrophes, digits, names and words no lexicon has.
TRICKY = [
    "Casas", "CASAS", "casas", "ingresó", "Ingresó", "INGRESÓ", "dámelo", "díganselo", "antiinflamatorios",
    "postoperatorio", "hispano-americano", "anti-VIH", "d'Ors", "l'Hospitalet", "O'Donnell", "45", "3ª",
    "Zurbarandiaga", "Cuéllar", "cuellar", "SatO2", "TAC", "él", "Él", "niño", "Niños", "pingüino",
    "Ñandú", "x", "Dra.", "e-mail", "covid-19", "ß", "İstanbul", "Ǆemal", "ﬁebre", "año\u0301",
]


@pytest.fixture(scope="module")
def words() -> list[str]:
    texts = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples" / "notes").glob("*.txt"))]
    tokens = {t.text for text in texts for t in tokenize(text)}
    return sorted(tokens | set(TRICKY))


@pytest.fixture
def cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(cache.ENV_CACHE_DIR, str(tmp_path))
    return tmp_path


@pytest.mark.parametrize("lang", ["es", "de"])
def test_lemmas_and_known_words_are_simplemmas_own(lang: str, words: list[str], cache_folder: Path) -> None:
    lemmas = [simplemma.lemmatize(w, lang=lang) for w in words]
    known = [simplemma.is_known(w, lang=lang) for w in words]
    known_lower = [simplemma.is_known(w.lower(), lang=lang) for w in words]
    for lexicon in (Lexicon(), Lexicon()):  # built, then read back from the cache
        assert [lexicon.lemmatize(w, lang) for w in words] == lemmas
        assert [lexicon.is_known(w, lang) for w in words] == known
        assert [lexicon.is_known(w.lower(), lang) for w in words] == known_lower
    assert len(list(cache_folder.glob(f"simplemma-{lang}-*.bin"))) == 1


def test_the_trie_is_read_from_the_cache_not_rebuilt(
    cache_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert Lexicon().lemmatize("casas", "es") == "casa"

    def no_build(self: CachedTrieFactory, lang: str) -> None:
        raise AssertionError("rebuilt although the cache holds the trie")

    monkeypatch.setattr(CachedTrieFactory, "_build_trie", no_build)
    assert Lexicon().lemmatize("casas", "es") == "casa"


def test_a_damaged_trie_is_rebuilt(cache_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert Lexicon().lemmatize("perros", "es") == "perro"
    (path,) = cache_folder.glob("simplemma-es-*.bin")
    intact = path.read_bytes()
    path.write_bytes(intact[: len(intact) // 2])
    built = []
    original = CachedTrieFactory._build_trie

    def counted(self: CachedTrieFactory, lang: str):
        built.append(lang)
        return original(self, lang)

    monkeypatch.setattr(CachedTrieFactory, "_build_trie", counted)
    assert Lexicon().lemmatize("perros", "es") == "perro"
    assert built == ["es"] and path.read_bytes() == intact


def test_without_a_writable_cache_simplemmas_own_dict_is_used(
    words: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(cache.ENV_CACHE_DIR, str(blocker / "cache"))

    def no_build(self: CachedTrieFactory, lang: str) -> None:
        raise AssertionError("a trie built that no other process will read")

    monkeypatch.setattr(CachedTrieFactory, "_build_trie", no_build)
    lexicon = Lexicon()
    assert [lexicon.lemmatize(w, "es") for w in words] == [simplemma.lemmatize(w, lang="es") for w in words]
    assert [lexicon.is_known(w, "es") for w in words] == [simplemma.is_known(w, lang="es") for w in words]


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="Unsupported language"):
        CachedTrieFactory().get_dictionary("xx")
