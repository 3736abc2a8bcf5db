"""The numba decoder gives the numpy decoder's answer (which ``test_scorer.py`` holds to
crfsuite's), decodes each sequence on its own whatever shares the call, and steps aside when
numba is missing or switched off."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid import kernels
from crfdeid.scorer import CompiledCrf

needs_numba = pytest.mark.skipif(not kernels.AVAILABLE, reason="numba is not installed")


def _crf(transitions: np.ndarray) -> CompiledCrf:
    labels = transitions.shape[0]
    return CompiledCrf([f"L{k}" for k in range(labels)], {}, np.zeros((1, labels)), transitions)


def _both(crf: CompiledCrf, emissions: np.ndarray, lengths: list[int]) -> tuple:
    crf.kernels = True
    fast = crf.decode(emissions, lengths)
    crf.kernels = False
    reference = crf.decode(emissions, lengths)
    crf.kernels = True
    return fast, reference


@needs_numba
@settings(max_examples=60, deadline=None, database=None)
@given(st.data())
def test_kernels_give_the_numpy_decoders_tags_and_marginals(data: st.DataObject) -> None:
    labels = data.draw(st.integers(1, 9))
    lengths = data.draw(st.lists(st.integers(1, 40), min_size=1, max_size=6))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    # rounded to one decimal: equal scores (ties) are common, and must break the same way
    transitions = np.round(rng.normal(0, 2, (labels, labels)), 1)
    emissions = np.round(rng.normal(0, 4, (sum(lengths), labels)), 1)
    (tags, marginals), (ref_tags, ref_marginals) = _both(_crf(transitions), emissions, lengths)
    assert tags.tolist() == ref_tags.tolist()
    np.testing.assert_allclose(marginals, ref_marginals, rtol=0, atol=1e-12)


@needs_numba
def test_a_sequence_decodes_the_same_alone_or_in_company() -> None:
    """Bit for bit: a note's lines give the same answer whichever other lines share the call
    (the per-note determinism that -j N and Spark rely on)."""
    rng = np.random.default_rng(3)
    labels = 44
    crf = _crf(rng.normal(0, 3, (labels, labels)))
    lengths = rng.integers(1, 300, size=20).tolist()
    emissions = rng.normal(0, 5, (sum(lengths), labels))
    tags, marginals = crf.decode(emissions, lengths)
    at = 0
    for size in lengths:
        alone_tags, alone_marginals = crf.decode(emissions[at : at + size], [size])
        assert np.array_equal(alone_tags, tags[at : at + size])
        assert np.array_equal(alone_marginals, marginals[at : at + size])
        at += size


@needs_numba
def test_a_long_sequence_of_the_real_label_count_agrees() -> None:
    rng = np.random.default_rng(11)
    labels = 44
    crf = _crf(rng.normal(-1, 4, (labels, labels)))
    emissions = rng.normal(0, 8, (5000, labels))
    (tags, marginals), (ref_tags, ref_marginals) = _both(crf, emissions, [5000])
    assert tags.tolist() == ref_tags.tolist()
    np.testing.assert_allclose(marginals, ref_marginals, rtol=0, atol=1e-9)
    assert np.allclose(marginals.sum(axis=1), 1.0)


def test_without_numba_the_numpy_decoder_runs() -> None:
    code = (
        "import numpy as np\n"
        "from crfdeid import kernels\n"
        "from crfdeid.scorer import CompiledCrf\n"
        "assert not kernels.AVAILABLE\n"
        "crf = CompiledCrf(['O', 'B-X'], {}, np.zeros((1, 2)), np.array([[1.0, -1.0], [0.0, 2.0]]))\n"
        "tags, marginals = crf.decode(np.array([[0.0, 1.0], [2.0, 0.0], [0.0, 3.0]]), [3])\n"
        "print(tags.tolist())\n"
    )
    env = {**os.environ, "CRFDEID_NO_NUMBA": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[1, 1, 1]"


@needs_numba
def test_where_numba_cannot_cache_the_kernels_compile_in_memory() -> None:
    """A read-only install and home: numba refuses ``cache=True``; the kernels still load."""
    code = (
        "import numba.core.caching as caching\n"
        "def refuse(self):\n"
        "    raise PermissionError('read-only')\n"
        "caching._CacheLocator.ensure_cache_path = refuse\n"
        "import numpy as np\n"
        "from crfdeid import kernels\n"
        "assert kernels.AVAILABLE and type(kernels.viterbi._cache).__name__ == 'NullCache'\n"
        "tags, _ = kernels.decode(np.array([[0.0, 1.0], [2.0, 0.0], [0.0, 3.0]]), np.array([3]),\n"
        "    np.array([[1.0, -1.0], [0.0, 2.0]]), np.ones((2, 2)), np.ones((2, 2)))\n"
        "print(tags.tolist())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[1, 1, 1]"
