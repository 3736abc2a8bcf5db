"""The CRF decoder's inner loops compiled with numba: Viterbi and forward–backward, one sequence
at a time.

Why: the numpy decoder (``CompiledCrf._viterbi`` / ``_marginals``) runs one numpy step per
position over the sequences of a block, and a note's longest line sets the number of steps;
at ~10 µs of numpy overhead per step that was a third of the detection time. Here each
sequence is a plain loop over its tokens and the 44 x 44 label grid, laid out so the inner
loop runs over contiguous memory (SIMD). A sequence is decoded on its own, so its result never
depends on which other sequences share the call (the per-note determinism the batch engines
rely on).

The Viterbi path is the one crfsuite gives (same additions, same tie-breaking: the lowest
previous label reaching the maximum, the first best final label); the marginals agree with
crfsuite's to rounding (``tests/test_kernels.py`` checks both, and ``tests/test_scorer.py``
every dev note). ``numba`` is optional at import: without it (or with ``CRFDEID_NO_NUMBA=1``)
``AVAILABLE`` is False and the numpy decoder runs instead.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import Any

import numpy as np

try:  # pragma: no branch - one of the two, per environment
    if os.environ.get("CRFDEID_NO_NUMBA"):
        raise ImportError("CRFDEID_NO_NUMBA is set")
    from numba import njit
except ImportError:  # numba missing or switched off: the numpy decoder runs
    njit = None

AVAILABLE = njit is not None
log = logging.getLogger(__name__)


def _viterbi(
    emissions: np.ndarray, starts: np.ndarray, lengths: np.ndarray, trans: np.ndarray, tags: np.ndarray
) -> None:
    """Viterbi label ids of each sequence ``emissions[starts[s] : starts[s] + lengths[s]]``
    into ``tags`` (crfsuite's recursion: score[t][j] = max_i(score[t-1][i] + trans[i][j]) +
    state[t][j], the first i reaching the maximum wins)."""
    n_labels = trans.shape[0]
    longest = 0
    for s in range(len(lengths)):
        longest = max(longest, lengths[s])
    back = np.empty((max(longest, 1), n_labels), dtype=np.int64)
    score = np.empty(n_labels)
    best = np.empty(n_labels)
    arg = np.empty(n_labels, dtype=np.int64)
    for s in range(len(starts)):
        a = starts[s]
        size = lengths[s]
        for j in range(n_labels):
            score[j] = emissions[a, j]
        for t in range(1, size):
            for j in range(n_labels):
                best[j] = score[0] + trans[0, j]
                arg[j] = 0
            for i in range(1, n_labels):
                si = score[i]
                for j in range(n_labels):  # contiguous in j, branch-free: SIMD
                    v = si + trans[i, j]
                    better = v > best[j]
                    best[j] = v if better else best[j]
                    arg[j] = i if better else arg[j]
            for j in range(n_labels):
                score[j] = best[j] + emissions[a + t, j]
                back[t, j] = arg[j]
        label = 0
        for j in range(1, n_labels):
            if score[j] > score[label]:
                label = j
        for t in range(size - 1, 0, -1):
            tags[a + t] = label
            label = back[t, label]
        tags[a] = label


def _marginals(
    weights: np.ndarray,
    starts: np.ndarray,
    lengths: np.ndarray,
    exp_trans: np.ndarray,
    exp_trans_t: np.ndarray,
    out: np.ndarray,
) -> None:
    """Marginal probability of every label at every position, per sequence, into ``out``:
    forward–backward in the probability domain on ``weights`` (the exponentiated emissions,
    each row shifted by its maximum), alpha and beta normalised at every step (the scale of a
    position cancels out). Every inner loop runs over contiguous memory."""
    n_labels = exp_trans.shape[0]
    alpha = np.empty(n_labels)
    beta = np.empty(n_labels)
    tmp = np.empty(n_labels)
    for s in range(len(starts)):
        a = starts[s]
        size = lengths[s]
        total = 0.0
        for j in range(n_labels):
            alpha[j] = weights[a, j]
            total += alpha[j]
        for j in range(n_labels):
            alpha[j] /= total
            out[a, j] = alpha[j]
        for t in range(1, size):
            for j in range(n_labels):
                tmp[j] = 0.0
            for i in range(n_labels):
                ai = alpha[i]
                for j in range(n_labels):
                    tmp[j] += ai * exp_trans[i, j]
            total = 0.0
            for j in range(n_labels):
                tmp[j] *= weights[a + t, j]
                total += tmp[j]
            for j in range(n_labels):
                alpha[j] = tmp[j] / total
                out[a + t, j] = alpha[j]
        for j in range(n_labels):
            beta[j] = 1.0
        for t in range(size - 2, -1, -1):
            for i in range(n_labels):
                tmp[i] = 0.0
            for j in range(n_labels):
                wb = weights[a + t + 1, j] * beta[j]
                for i in range(n_labels):
                    tmp[i] += exp_trans_t[j, i] * wb
            total = 0.0
            for i in range(n_labels):
                total += tmp[i]
            for i in range(n_labels):
                beta[i] = tmp[i] / total
                out[a + t, i] *= beta[i]
        for t in range(size):
            total = 0.0
            for j in range(n_labels):
                total += out[a + t, j]
            for j in range(n_labels):
                out[a + t, j] /= total


def _emissions(
    firsts: np.ndarray,
    lasts: np.ndarray,
    words: np.ndarray,
    shared: np.ndarray,
    word_rows: np.ndarray,
    shared_rows: np.ndarray,
    offsets: np.ndarray,
    state: np.ndarray,
    edges: np.ndarray,
    values: np.ndarray,
    ends: np.ndarray,
    template_attrs: np.ndarray,
    template_offsets: np.ndarray,
    template_mults: np.ndarray,
    key_bounds: np.ndarray,
    keys: np.ndarray,
    key_rows: np.ndarray,
    out: np.ndarray,
) -> None:
    """Emission scores of the token ranges ``[firsts[r], lasts[r])``, rows back to back in
    ``out``: per token the summed weight rows of its word and shared features (own, and as
    each neighbour within the range sees them), BOS/EOS (``edges``: their state rows, -1 when
    the model has none), and the conjunctions: a key per template from the attribute values
    (``values[attr]``; ``ends[attr]`` the values before and after a range), looked up in the
    template's sorted keys."""
    n_labels = state.shape[1]
    n_templates = template_attrs.shape[0]
    row = 0
    for r in range(len(firsts)):
        first = firsts[r]
        last = lasts[r]
        for t in range(first, last):
            w = words[t]
            c = shared[t]
            for j in range(n_labels):
                out[row, j] = word_rows[w, 0, j] + shared_rows[c, 0, j]
            for k in range(len(offsets)):
                at = t + offsets[k]
                if first <= at < last:
                    w = words[at]
                    c = shared[at]
                    for j in range(n_labels):
                        out[row, j] += word_rows[w, k + 1, j] + shared_rows[c, k + 1, j]
            if t == first and edges[0] >= 0:
                for j in range(n_labels):
                    out[row, j] += state[edges[0], j]
            if t == last - 1 and edges[1] >= 0:
                for j in range(n_labels):
                    out[row, j] += state[edges[1], j]
            for m in range(n_templates):
                lo = key_bounds[m]
                hi = key_bounds[m + 1]
                if lo == hi:
                    continue
                key = 0
                ok = True
                for q in range(template_attrs.shape[1]):
                    attr = template_attrs[m, q]
                    if attr < 0:
                        break
                    at = t + template_offsets[m, q]
                    if at < first:
                        v = ends[attr, 0]
                    elif at >= last:
                        v = ends[attr, 1]
                    else:
                        v = values[attr, at]
                    if v < 0:
                        ok = False
                        break
                    key += v * template_mults[m, q]
                if not ok:
                    continue
                left, right = lo, hi  # binary search: the first key >= key
                while left < right:
                    middle = (left + right) >> 1
                    if keys[middle] < key:
                        left = middle + 1
                    else:
                        right = middle
                where = left
                if where < hi and keys[where] == key:
                    state_row = key_rows[where]
                    for j in range(n_labels):
                        out[row, j] += state[state_row, j]
            row += 1


def _jit(function: Callable[..., None]) -> Any:
    """``function`` compiled by numba, its machine code kept in numba's on-disk cache (the
    ``__pycache__`` beside this file, else ``$NUMBA_CACHE_DIR`` or the user cache folder), so
    a process loads it instead of compiling it (~1 s). Where no such folder can be written (a
    read-only install and home), numba refuses ``cache=True`` when the function is decorated:
    then it is compiled in memory in every process — the same machine code, only slower to load."""
    try:
        return njit(cache=True, nogil=True)(function)
    except RuntimeError as exc:  # "cannot cache function ...: no locator available for file ..."
        log.debug("numba cannot cache %s (%s): compiled in every process", function.__name__, exc)
        return njit(nogil=True)(function)


if AVAILABLE:
    viterbi = _jit(_viterbi)
    marginals = _jit(_marginals)
    emissions = _jit(_emissions)
else:
    viterbi = marginals = emissions = None


def decode(
    emissions: np.ndarray,
    lengths: np.ndarray,
    transitions: np.ndarray,
    exp_transitions: np.ndarray,
    exp_transitions_t: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Viterbi label ids and marginals ``(tokens, labels)`` of consecutive sequences."""
    if not AVAILABLE:
        raise RuntimeError("numba is not available")
    emissions = np.ascontiguousarray(emissions, dtype=np.float64)
    lengths = np.ascontiguousarray(lengths, dtype=np.int64)
    starts = np.zeros(len(lengths), dtype=np.int64)
    np.cumsum(lengths[:-1], out=starts[1:])
    tags = np.empty(len(emissions), dtype=np.intp)
    out = np.empty_like(emissions)
    viterbi(emissions, starts, lengths, transitions, tags)
    weights = np.exp(emissions - emissions.max(axis=1, keepdims=True))  # numpy's SIMD exp
    marginals(weights, starts, lengths, exp_transitions, exp_transitions_t, out)
    return tags, out
