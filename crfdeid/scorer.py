"""The CRF model compiled for inference: weights as arrays, emissions as sums, decoding in numpy.

Training stays in crfsuite, and its model file stays the source of truth. At load time the file
is compiled: every attribute with weights gets a row of a ``(attributes, labels)`` matrix (read
from the binary file at full precision: ``Tagger.info()`` prints weights with six decimals),
the transitions a ``(labels, labels)`` matrix. Tagging a block of text then costs:

- **emissions** (:class:`Encoder`): a token's score for each label is the sum of the weight rows
  of its features. Every feature that depends on the word alone (the word, its shape, affixes,
  and their copies at each neighbour offset) is summed once per distinct word and cached; the
  context features once per distinct combination in the block; the conjunctions ("previous
  word | this word") are looked up as integer keys, all tokens at once. No feature string is
  built per token, none is handed to crfsuite.
- **decoding** (:meth:`CompiledCrf.decode`): Viterbi and forward–backward marginals over all
  the sequences of a block at once, one numpy step per position; at step ``t`` only the
  sequences longer than ``t`` are computed, so the work is proportional to the tokens, not to
  the longest line times the number of lines.

The result is the one crfsuite gives: the same Viterbi tags (ties broken the same way, towards
the lower label id) and the same marginals up to rounding (``tests/test_scorer.py`` checks both
against crfsuite, tag for tag and within 1e-6).
"""

from __future__ import annotations

import json
import struct
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from functools import cached_property, partial
from itertools import combinations, pairwise, repeat
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from . import cache as disk_cache
from . import kernels
from .errors import CrfdeidError

if TYPE_CHECKING:
    from .features import Columns, FeatureExtractor

#: One record of crfsuite's FEAT chunk: type (0 state, 1 transition), source, destination, weight.
_FEATURE = np.dtype([("type", "<u4"), ("src", "<u4"), ("dst", "<u4"), ("weight", "<f8")])
_HEADER = struct.Struct("<4sI4sIIIIIIIII")
_CHUNK = struct.Struct("<4sII")


class ScorerError(CrfdeidError):
    """The crfsuite model file cannot be compiled (not a CRF1d model, or inconsistent)."""


def _model_bytes(path: str | Path) -> tuple[bytes, tuple[Any, ...]]:
    data = Path(path).read_bytes()
    if len(data) < _HEADER.size:
        raise ScorerError("the crfsuite model file is too short", path)
    header = _HEADER.unpack_from(data, 0)
    if header[0] != b"lCRF" or header[2] != b"FOMC":
        raise ScorerError("not a crfsuite CRF1d model file", path)
    return data, header


def read_crfsuite_weights(path: str | Path) -> np.ndarray:
    """The feature records of a crfsuite CRF1d model file (``model.crfsuite``), full precision.

    Layout (crfsuite's crf1d_model.c): a 48-byte header ``lCRF``, size, ``FOMC``, version, counts
    and chunk offsets; at ``off_features`` a chunk ``FEAT``, its size and record count, then one
    20-byte record per feature.
    """
    data, header = _model_bytes(path)
    off_features = header[7]
    if off_features + _CHUNK.size > len(data):
        raise ScorerError("the crfsuite model file is truncated", path)
    chunk, _chunk_size, count = _CHUNK.unpack_from(data, off_features)
    start = off_features + _CHUNK.size
    if chunk != b"FEAT" or start + count * _FEATURE.itemsize > len(data):
        raise ScorerError("the crfsuite model file has no readable feature chunk", path)
    return np.frombuffer(data, dtype=_FEATURE, count=count, offset=start).copy()


#: A CQDB chunk (crfsuite's cqdb.c): ``CQDB``, size, flag, byte order, the number of ids and the
#: offset of the array that maps an id to its record (``id``, key size, key with a final NUL).
_CQDB = struct.Struct("<4sIIIII")


def _cqdb_strings(data: bytes, offset: int, count: int, path: str | Path) -> list[str]:
    """The strings of a CQDB chunk in id order (what crfsuite calls ``to_string``)."""
    if offset + _CQDB.size > len(data):
        raise ScorerError("the crfsuite model file is truncated", path)
    magic, size, _flag, _order, n_ids, bwd = _CQDB.unpack_from(data, offset)
    if magic != b"CQDB" or n_ids < count or offset + bwd + 4 * count > len(data):
        raise ScorerError("the crfsuite model file has no readable string table", path)
    records = np.frombuffer(data, dtype="<u4", count=count, offset=offset + bwd).tolist()
    out = []
    for i, record in enumerate(records):
        at = offset + record
        key_id, key_size = struct.unpack_from("<II", data, at)
        if key_id != i or key_size < 1 or at + 8 + key_size > offset + size:
            raise ScorerError("the crfsuite model file's string table is inconsistent", path)
        out.append(data[at + 8 : at + 7 + key_size].decode("utf-8"))
    return out


def read_crfsuite_names(path: str | Path) -> tuple[list[str], list[str]]:
    """Labels and attributes of a crfsuite model file, in id order, read from the file's own
    string tables: what ``Tagger.info()`` gives, without printing and re-parsing every weight
    of the model (0.4 s for the embedded one)."""
    data, header = _model_bytes(path)
    _magic, _size, _kind, _version, _n_features, n_labels, n_attrs, _feat, off_labels, off_attrs, *_ = header
    return _cqdb_strings(data, off_labels, n_labels, path), _cqdb_strings(data, off_attrs, n_attrs, path)


def _blas_limit() -> AbstractContextManager[Any]:
    """One BLAS thread for the decoder's 44x44 products: on a busy machine, thread hand-offs
    make them several times slower than doing them on the calling thread."""
    global _CONTROLLER
    if _CONTROLLER is None:
        try:
            from threadpoolctl import ThreadpoolController
        except ImportError:  # pragma: no cover - a dependency; only a broken install lacks it
            _CONTROLLER = False
        else:
            _CONTROLLER = ThreadpoolController()
    if _CONTROLLER is False:  # pragma: no cover
        return nullcontext()
    return _CONTROLLER.limit(limits=1, user_api="blas")


_CONTROLLER: Any = None


class CompiledCrf:
    """A linear-chain CRF as arrays: state weights per attribute, transitions, and the decoder."""

    def __init__(
        self,
        labels: Sequence[str],
        attributes: Mapping[str, int],
        state: np.ndarray,
        transitions: np.ndarray,
    ) -> None:
        self.labels = tuple(labels)
        n_labels = len(self.labels)
        #: attribute name -> row of ``state``; row ``zero`` is all zeros (an unknown attribute).
        self.attributes = dict(attributes)
        self.zero = len(self.attributes)
        if state.shape != (self.zero + 1, n_labels) or transitions.shape != (n_labels, n_labels):
            raise ScorerError("inconsistent weight shapes for the compiled CRF")
        self.state = state
        self.transitions = np.ascontiguousarray(transitions)
        self._trans_t = np.ascontiguousarray(transitions.T)  # [to, from]
        self._exp_trans = np.exp(transitions)
        self._exp_trans_t = np.ascontiguousarray(self._exp_trans.T)
        #: Decode with the compiled loops (``crfdeid.kernels``) when numba is there; False runs
        #: the numpy decoder (the reference the kernels are tested against).
        self.kernels = True
        #: The crfsuite file compiled (``from_model``), else None.
        self.path: Path | None = None

    @classmethod
    def from_model(cls, model_path: str | Path, dump: Any = None) -> CompiledCrf:
        """Compile a crfsuite model file: names and ids from its string tables, weights at full
        precision from its feature records. With ``dump`` (crfsuite's ``Tagger.info()``), the
        names, ids and weights are checked against what crfsuite itself reads (to its 6
        printed decimals): the tests do; loading skips the dump, which costs 0.4 s."""
        label_list, attribute_list = read_crfsuite_names(model_path)
        labels = label_list
        attributes = {name: i for i, name in enumerate(attribute_list)}
        records = read_crfsuite_weights(model_path)
        n_attr, n_labels = len(attributes), len(labels)
        is_state = records["type"] == 0
        states, trans = records[is_state], records[~is_state]
        if (
            (len(states) and (states["src"].max() >= n_attr or states["dst"].max() >= n_labels))
            or (len(trans) and max(trans["src"].max(), trans["dst"].max()) >= n_labels)
            or len(attributes) != len(attribute_list)
        ):
            raise ScorerError("the crfsuite model file is inconsistent", model_path)
        if dump is not None:
            same_names = {name: int(i) for name, i in dump.labels.items()} == {
                name: i for i, name in enumerate(labels)
            } and {name: int(i) for name, i in dump.attributes.items()} == attributes
            counts = (len(states), len(trans)) == (len(dump.state_features), len(dump.transitions))
            if not same_names or not counts:
                raise ScorerError("the crfsuite model file does not match crfsuite's own dump", model_path)
        state = np.zeros((n_attr + 1, n_labels))
        np.add.at(state, (states["src"].astype(np.intp), states["dst"].astype(np.intp)), states["weight"])
        transitions = np.zeros((n_labels, n_labels))
        np.add.at(transitions, (trans["src"].astype(np.intp), trans["dst"].astype(np.intp)), trans["weight"])
        if dump is not None:
            for record in states:
                key = (attribute_list[int(record["src"])], labels[int(record["dst"])])
                printed = dump.state_features[key]
                if abs(printed - record["weight"]) > 1e-6:
                    raise ScorerError("the crfsuite model weights do not match its dump", model_path)
            for (src, dst), printed in dump.transitions.items():
                if abs(printed - transitions[labels.index(src), labels.index(dst)]) > 1e-6:
                    raise ScorerError("the crfsuite transitions do not match its dump", model_path)
        crf = cls(labels, attributes, state, transitions)
        crf.path = Path(model_path)
        return crf

    def decode(self, emissions: np.ndarray, lengths: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """Viterbi label ids and marginal probabilities ``(tokens, labels)`` of consecutive
        sequences: ``emissions`` holds their rows back to back, ``lengths`` their sizes."""
        with _blas_limit():
            return self._decode(np.asarray(emissions, dtype=np.float64), np.asarray(lengths, dtype=np.intp))

    def _decode(self, emissions: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        n_tokens, n_labels = emissions.shape
        if n_tokens == 0:
            return np.zeros(0, dtype=np.intp), np.ones((0, n_labels))
        if lengths.min() < 1 or lengths.sum() != n_tokens:
            raise ValueError("sequence lengths must be positive and add up to the emissions")
        if self.kernels and kernels.AVAILABLE:
            return kernels.decode(emissions, lengths, self.transitions, self._exp_trans, self._exp_trans_t)
        starts = np.zeros(len(lengths), dtype=np.intp)
        np.cumsum(lengths[:-1], out=starts[1:])
        # Longest first: at step t the sequences still running are a prefix of this order,
        # ``running[t]`` of them. The emissions are laid out time-major: step t's rows are the
        # slice ``at[t] : at[t] + running[t]``, so no step computes an index.
        order = np.argsort(-lengths, kind="stable")
        sizes = lengths[order]
        steps = int(sizes[0])
        running = np.searchsorted(-sizes, -np.arange(steps + 1), side="left")
        at = np.zeros(steps + 1, dtype=np.intp)
        np.cumsum(running[:steps], out=at[1:])
        time = np.arange(n_tokens) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        sequence = np.repeat(np.arange(len(sizes)), sizes)
        layout = np.empty(n_tokens, dtype=np.intp)  # time-major row -> original row
        layout[at[time] + sequence] = np.repeat(starts[order], sizes) + time
        scores = emissions[layout]
        running_list, at_list = running.tolist(), at.tolist()
        tags = np.empty(n_tokens, dtype=np.intp)
        tags[layout] = self._viterbi(scores, running_list, at_list)
        marginals = np.empty((n_tokens, n_labels))
        marginals[layout] = self._marginals(scores, running_list, at_list)
        return tags, marginals

    def _viterbi(self, scores: np.ndarray, running: list[int], at: list[int]) -> np.ndarray:
        """As crfsuite: score[t][j] = max_i(score[t-1][i] + trans[i][j]) + state[t][j], the
        first i reaching the max wins; each path ends at the first best final label."""
        n_labels = scores.shape[1]
        steps, batch = len(running) - 1, running[0]
        pointers: list[np.ndarray] = [np.empty(0, dtype=np.intp)] * steps
        chunk = _GRID_ROWS  # rows per (rows, labels, labels) grid: it stays in the CPU cache
        grid = np.empty((min(chunk, running[1] if steps > 1 else 0), n_labels, n_labels))
        row_base = (np.arange(len(grid))[:, None] * n_labels + np.arange(n_labels)[None, :]) * n_labels
        score = scores[: at[1]]
        final = np.empty((batch, n_labels))
        for t in range(1, steps):
            n = running[t]
            if n < running[t - 1]:  # the sequences of length t have ended
                final[n : running[t - 1]] = score[n:]
            best = np.empty((n, n_labels), dtype=np.intp)
            new = np.empty((n, n_labels))
            for lo in range(0, n, chunk):
                hi = min(n, lo + chunk)
                view = grid[: hi - lo]
                np.add(score[lo:hi, None, :], self._trans_t, out=view)  # view[k, j, i]
                best[lo:hi] = view.argmax(axis=2)
                new[lo:hi] = view.reshape(-1)[row_base[: hi - lo] + best[lo:hi]]
            pointers[t] = best
            score = new
            score += scores[at[t] : at[t] + n]
        final[: running[steps - 1]] = score[: running[steps - 1]]
        label = final.argmax(axis=1)
        tags = np.empty(len(scores), dtype=np.intp)
        current = label.copy()
        flat = np.arange(batch) * n_labels
        for t in range(steps - 1, 0, -1):
            n = running[t]
            tags[at[t] : at[t] + n] = current[:n]
            current[:n] = pointers[t].reshape(-1)[flat[:n] + current[:n]]
            current[n : running[t - 1]] = label[n : running[t - 1]]  # they end at t - 1
        tags[: at[1]] = current
        return tags

    def _marginals(self, scores: np.ndarray, running: list[int], at: list[int]) -> np.ndarray:
        """Forward-backward in the probability domain. A per-token shift of the emissions cancels
        out, and so does any rescaling of alpha or beta at a position: they are rescaled every
        ``_every`` steps, as often as over- or underflow could otherwise come near."""
        steps = len(running) - 1
        weights = np.exp(scores - scores.max(axis=1, keepdims=True))
        exp_trans, exp_trans_t = self._exp_trans, self._exp_trans_t
        every = self._every
        out = np.empty_like(weights)
        alpha = weights[: at[1]].copy()
        out[: at[1]] = alpha
        for t in range(1, steps):
            n = running[t]
            alpha = alpha[:n] @ exp_trans
            alpha *= weights[at[t] : at[t] + n]
            if t % every == 0:
                alpha /= alpha.sum(axis=1, keepdims=True)
            out[at[t] : at[t] + n] = alpha
        beta = np.ones((running[0], weights.shape[1]))
        for t in range(steps - 2, -1, -1):
            n = running[t + 1]  # the sequences that go on after t
            b = (weights[at[t + 1] : at[t + 1] + n] * beta[:n]) @ exp_trans_t
            if t % every == 0:
                b /= b.sum(axis=1, keepdims=True)
            beta[:n] = b
            out[at[t] : at[t] + n] *= b
        out /= out.sum(axis=1, keepdims=True)
        return out

    @property
    def _every(self) -> int:
        """Steps between rescalings: per step, alpha's total grows at most by labels x the
        largest exp(transition) and shrinks at most by the smallest; stay within e^+-600."""
        largest = np.log(len(self.labels)) + max(float(self.transitions.max()), 0.0)
        smallest = max(-float(self.transitions.min()), 0.0)
        return int(max(1, min(32, 600 // max(largest, smallest, 1.0))))


#: Sequences per Viterbi grid of (sequences, labels, labels) scores: 64 x 44 x 44 doubles, 1 MB,
#: stays in the CPU cache; a larger grid runs at memory speed (measured 1.8x slower at 500).
_GRID_ROWS = 64
#: The key of row 0 of every cache (no value is this object).
_NOTHING = object()
#: Widest neighbour offset of a word feature or a conjunction (features.py allows 5).
PAD = 5


def _sum_rows(state: np.ndarray, id_lists: Sequence[Sequence[int]], zero: int) -> np.ndarray:
    """``state[ids].sum(0)`` for each list of row ids (an empty list sums to zeros)."""
    out = np.empty((len(id_lists), state.shape[1]))
    chunk = 4096
    for lo in range(0, len(id_lists), chunk):
        part = id_lists[lo : lo + chunk]
        flat: list[int] = []
        bounds: list[int] = []
        for ids in part:
            bounds.append(len(flat))
            flat.extend(ids)
            flat.append(zero)  # every segment non-empty; the zero row adds nothing
        out[lo : lo + len(part)] = np.add.reduceat(state[np.asarray(flat, dtype=np.intp)], bounds, axis=0)
    return out


class _Template:
    """A conjunction template compiled to integer keys: values -> id per attribute, a key
    per combination of ids, and the sorted keys the model has weights for."""

    def __init__(self, attrs: tuple[str, ...], offsets: tuple[int, ...]) -> None:
        self.attrs = attrs
        self.offsets = offsets
        self.keys = np.empty(0, dtype=np.int64)
        self.rows = np.empty(0, dtype=np.intp)
        self.multipliers = np.ones(len(attrs), dtype=np.int64)


#: The extractor's conjunction templates: (feature name prefix, ((attribute, offset), …)).
Templates = Sequence[tuple[str, tuple[tuple[str, int], ...]]]
#: Per attribute, the id of each value; the templates compiled.
Conjunctions = tuple[dict[str, dict[str, int]], list[_Template]]


def _conjunctions(templates: Templates, crf: CompiledCrf) -> Conjunctions:
    """The conjunction templates compiled against the model's attributes: per attribute the id
    of each value, per template its sorted keys and rows. 0.25 s for the embedded model, so a
    shipped model's are kept in ``crfdeid.cache``, keyed by the templates, the attributes and
    this code (a model trained on one's own notes holds their words: never cached)."""
    from .features import BOS, EOS

    index = crf.attributes
    if crf.path is None or not disk_cache.shipped(crf.path):
        return _compile_conjunctions(templates, index)
    key = disk_cache.entry_key(
        disk_cache.source_digest(sys.modules[__name__]),
        repr(list(templates)), BOS, EOS,
        "\x00".join(index),
        np.fromiter(index.values(), dtype=np.int64, count=len(index)).tobytes(),
    )
    build = partial(_compile_conjunctions, templates, index)
    return disk_cache.fetch("conjunctions", key, build, _dump_conjunctions,
                            partial(_load_conjunctions, templates))


def _compile_conjunctions(templates: Templates, index: Mapping[str, int]) -> Conjunctions:
    from .features import BOS, EOS

    vocabs: dict[str, dict[str, int]] = {}
    compiled: list[_Template] = []
    by_prefix: dict[str, list[tuple[str, int]]] = {}
    names = [name for name, _ in templates]
    for attribute, row in index.items():
        for name in names:
            if attribute.startswith(name):
                by_prefix.setdefault(name, []).append((attribute[len(name) :], row))
    for name, conj in templates:
        template = _Template(tuple(a for a, _ in conj), tuple(o for _, o in conj))
        combos: dict[tuple[str, ...], int] = {}
        for value, row in by_prefix.get(name, ()):
            for values in _splits(value, len(conj)):
                combos[values] = row
        for attr, values in zip(template.attrs, zip(*combos, strict=False), strict=False):
            vocab = vocabs.setdefault(attr, {})
            for v in values:
                vocab.setdefault(v, len(vocab))
        compiled.append(template)
        template.combos = combos  # type: ignore[attr-defined]
    for attr in {a for t in compiled for a in t.attrs}:
        vocab = vocabs.setdefault(attr, {})
        vocab.setdefault(BOS, len(vocab))
        vocab.setdefault(EOS, len(vocab))
    for template in compiled:
        radix = [len(vocabs[a]) for a in template.attrs]
        if float(np.prod(np.asarray(radix, dtype=np.float64))) >= 2.0**62:
            raise ScorerError(f"the conjunction {template.attrs} has too many values to compile")
        mult = np.ones(len(radix), dtype=np.int64)
        for k in range(len(radix) - 2, -1, -1):
            mult[k] = mult[k + 1] * radix[k + 1]
        template.multipliers = mult
        combos = template.combos  # type: ignore[attr-defined]
        if combos:
            ids = np.array(
                [
                    [vocabs[a][v] for a, v in zip(template.attrs, values, strict=True)]
                    for values in combos
                ],
                dtype=np.int64,
            )
            keys = ids @ mult
            order = np.argsort(keys, kind="stable")
            template.keys = keys[order]
            template.rows = np.fromiter(combos.values(), dtype=np.intp, count=len(combos))[order]
        del template.combos  # type: ignore[attr-defined]
    return vocabs, compiled


def _dump_conjunctions(compiled: Conjunctions) -> bytes:
    vocabs, templates = compiled
    return json.dumps({
        "vocabs": {attr: list(vocab) for attr, vocab in vocabs.items()},  # values in id order
        "templates": [[t.keys.tolist(), t.rows.tolist(), t.multipliers.tolist()] for t in templates],
    }, ensure_ascii=False).encode()


def _load_conjunctions(templates: Templates, data: bytes) -> Conjunctions:
    loaded = json.loads(data)
    vocabs = {attr: {v: i for i, v in enumerate(values)} for attr, values in loaded["vocabs"].items()}
    compiled = []
    for (_, conj), (keys, rows, multipliers) in zip(templates, loaded["templates"], strict=True):
        template = _Template(tuple(a for a, _ in conj), tuple(o for _, o in conj))
        template.keys = np.asarray(keys, dtype=np.int64)
        template.rows = np.asarray(rows, dtype=np.intp)
        template.multipliers = np.asarray(multipliers, dtype=np.int64)
        compiled.append(template)
    return vocabs, compiled


class Encoder:
    """Emission scores of a block of tokens from its feature columns, without feature strings.

    Exactly the sum of the state weights of the strings ``FeatureExtractor.rows`` would give
    (``tests/test_scorer.py`` compares the two on real notes and on random text).
    """

    #: Distinct values (words, feature combinations) whose summed weight rows are kept.
    CACHE = 30_000

    def __init__(self, extractor: FeatureExtractor, crf: CompiledCrf) -> None:
        from .features import BOS, EOS

        self.extractor = extractor
        self.crf = crf
        self.offsets = list(extractor.offsets)
        self._index = crf.attributes
        self._zero = crf.zero
        n_labels = len(crf.labels)
        width = 1 + len(self.offsets)
        #: per word: its own features and its copies at each neighbour offset
        self._words = _Vectors(width, n_labels, self._word_vectors, self.CACHE, extra=3)
        #: per combination of shared context features: own, then at each neighbour offset
        self._shared = _Vectors(width, n_labels, self._shared_vectors, self.CACHE)
        #: per value of each context part (lemma, header/position, document keys…)
        self._context: dict[str, _Vectors] = {}
        index = crf.attributes
        self._bos = index.get("BOS") if -1 in self.offsets else None
        self._eos = index.get("EOS") if 1 in self.offsets else None
        # conjunction templates
        self._vocab, self._templates = _conjunctions(extractor.templates, crf)
        self._bos_value = {a: v[BOS] for a, v in self._vocab.items()}
        self._eos_value = {a: v[EOS] for a, v in self._vocab.items()}
        self._prefixed: dict[tuple[int, str], int] = {}

    # -- summed weight rows ---------------------------------------------------------------
    def _ids(self, features: Iterable[str]) -> list[int]:
        index, zero = self._index, self._zero
        return [index.get(f, zero) for f in features]

    def _word_vectors(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Per word: summed rows of its own features and of its copy at each offset; and its
        vocabulary ids for the conjunctions (lw, sh, sk)."""
        word = self.extractor.word
        lists: list[list[int]] = []
        values = np.full((len(texts), 3), -1, dtype=np.int64)
        vocabs = [self._vocab.get(a, {}) for a in ("lw", "sh", "sk")]
        for k, text in enumerate(texts):
            w = word(text)
            lists.append(self._ids(w.own))
            lists.extend(self._ids(w.windowed[o]) for o in self.offsets)
            values[k] = (
                vocabs[0].get(w.lower, -1),
                vocabs[1].get(w.shape, -1),
                vocabs[2].get(w.skeleton, -1),
            )
        width = 1 + len(self.offsets)
        return _sum_rows(self.crf.state, lists, self._zero).reshape(len(texts), width, -1), values

    def _shared_vectors(self, keys: Sequence[tuple[tuple[str, ...], ...]]) -> tuple[np.ndarray, None]:
        """Per combination of shared features: summed rows as the token's own, then as each
        neighbour's (``-1:pos=DET``)."""
        lists: list[list[int]] = []
        for key in keys:
            features = [f for part in key for f in part]
            lists.append(self._ids(features))
            lists.extend(self._prefixed_ids(o, features) for o in self.offsets)
        width = 1 + len(self.offsets)
        return _sum_rows(self.crf.state, lists, self._zero).reshape(len(keys), width, -1), None

    def _part_vectors(self, values: Sequence[tuple[str, ...]]) -> tuple[np.ndarray, None]:
        return _sum_rows(self.crf.state, [self._ids(v) for v in values], self._zero)[:, None, :], None

    # -- per block ---------------------------------------------------------------------------
    def prepare(self, cols: Columns) -> Prepared:
        """Per token of a block: the cache rows of its word, of its shared and of each of its
        context feature tuples, and the vocabulary ids of its conjunction attributes. The
        per-token work of the encoder, done once per block (loops in C: ``map``)."""
        n_labels = len(self.crf.labels)
        for cache in (self._words, self._shared, *self._context.values()):
            cache.make_room()
        words = self._words.ids([t.text for t in cols.tokens])
        shared_parts = [p.values for p in cols.parts if p.shared]
        shared = self._shared.ids(
            list(zip(*shared_parts, strict=True)) if shared_parts else [()] * len(cols.tokens)
        )
        context = []
        for part in cols.parts:
            if not part.shared:
                cache = self._context.get(part.name)
                if cache is None:
                    cache = self._context[part.name] = _Vectors(1, n_labels, self._part_vectors, self.CACHE)
                context.append((cache, cache.ids(part.values)))
        values: dict[str, np.ndarray] = {}
        word_values = self._words.extra[words]
        for attr in {a for t in self._templates for a in t.attrs}:
            if attr in ("lw", "sh", "sk"):
                values[attr] = word_values[:, ("lw", "sh", "sk").index(attr)]
            else:
                column = cols.attrs[attr]
                values[attr] = np.fromiter(
                    map(self._vocab[attr].get, column, repeat(-1)), dtype=np.int64, count=len(column)
                )
        return Prepared(words, shared, context, values)

    def emissions(self, prepared: Prepared, ranges: Sequence[tuple[int, int]]) -> np.ndarray:
        """Emission scores ``(positions, labels)`` of the token ranges ``[first, last)`` of a
        prepared block, each range scored as one sequence, rows back to back in range order.

        The ranges are laid side by side with a gap of ``2 * PAD`` cells between them: a
        neighbour outside its range falls in a gap, where a word or shared feature row is zero
        and a conjunction attribute is the sequence-end padding (``</S>``, then ``<S>`` for the
        next range), so that every neighbour is a plain gather, no test.
        """
        n_labels = len(self.crf.labels)
        sizes = np.asarray([last - first for first, last in ranges], dtype=np.intp)
        total = int(sizes.sum())
        if total == 0:
            return np.zeros((0, n_labels))
        if self.crf.kernels and kernels.AVAILABLE:
            return self._kernel_emissions(prepared, ranges, total)
        pad = PAD
        starts = np.zeros(len(sizes), dtype=np.intp)  # range starts in the output
        np.cumsum(sizes[:-1], out=starts[1:])
        laid = starts + 2 * pad * np.arange(1, len(sizes) + 1)  # range starts in the layout
        width = int(laid[-1] + sizes[-1] + 2 * pad)
        real = np.arange(total, dtype=np.intp) + np.repeat(laid - starts, sizes)  # output -> layout
        token = np.concatenate([np.arange(first, last, dtype=np.intp) for first, last in ranges])
        gap = np.ones(width, dtype=bool)
        gap[real] = False
        before = np.zeros(width, dtype=bool)  # the gap cells that are <S> (before a range)
        before[(laid[:, None] - np.arange(1, pad + 1)[None, :]).ravel()] = True

        def lay(column: np.ndarray, gap_value: int, before_value: int | None = None) -> np.ndarray:
            out = np.full(width, gap_value, dtype=column.dtype)
            if before_value is not None:
                out[before] = before_value
            out[real] = column[token]
            return out

        state = self.crf.state
        # a word and its shared features go together: one table of their summed rows per
        # distinct pair in these ranges (row 0: nothing, for the gaps), one gather per offset
        pairs, pair_of = np.unique(
            prepared.words[token] * len(self._shared.array) + prepared.shared[token], return_inverse=True
        )
        width_shared = len(self._shared.array)
        table = np.zeros((len(pairs) + 1, *self._words.array.shape[1:]))
        table[1:] = self._words.array[pairs // width_shared]
        table[1:] += self._shared.array[pairs % width_shared]
        laid_pairs = np.zeros(width, dtype=np.intp)
        laid_pairs[real] = pair_of.reshape(-1) + 1
        out = table[laid_pairs[real], 0]
        for cache, ids in prepared.context:
            out += cache.array[ids[token], 0]
        for k, o in enumerate(self.offsets, start=1):
            out += table[laid_pairs[real + o], k]
        if self._bos is not None:
            out[starts] += state[self._bos]
        if self._eos is not None:
            out[starts + sizes - 1] += state[self._eos]

        # conjunctions: integer keys looked up all at once
        laid_values = {
            attr: lay(column, self._eos_value[attr], self._bos_value[attr])
            for attr, column in prepared.values.items()
        }
        for template in self._templates:
            if not len(template.keys):
                continue
            key = np.zeros(total, dtype=np.int64)
            ok = np.ones(total, dtype=bool)
            columns = zip(template.attrs, template.offsets, template.multipliers, strict=True)
            for attr, offset, mult in columns:
                v = laid_values[attr][real + offset]
                ok &= v >= 0
                key += v * mult
            where = np.searchsorted(template.keys, key)
            where[where >= len(template.keys)] = 0
            hit = ok & (template.keys[where] == key)
            out[hit] += state[template.rows[where[hit]]]
        return out

    def _kernel_emissions(
        self, prepared: Prepared, ranges: Sequence[tuple[int, int]], total: int
    ) -> np.ndarray:
        """``emissions`` by the compiled loop (``kernels.emissions``); the context parts, a
        few per token, are gathered here."""
        tables = self._kernel_tables
        attrs = tables["attrs"]
        n = len(prepared.words)
        values = np.full((max(len(attrs), 1), n), -1, dtype=np.int64)
        for k, attr in enumerate(attrs):
            values[k] = prepared.values[attr]
        bounds = np.asarray(ranges, dtype=np.int64).reshape(-1, 2)
        out = np.empty((total, len(self.crf.labels)))
        kernels.emissions(
            bounds[:, 0].copy(), bounds[:, 1].copy(),
            prepared.words.astype(np.int64), prepared.shared.astype(np.int64),
            self._words.array, self._shared.array, tables["offsets"], self.crf.state, tables["edges"],
            values, tables["ends"], tables["template_attrs"], tables["template_offsets"],
            tables["template_mults"], tables["key_bounds"], tables["keys"], tables["key_rows"], out,
        )
        if prepared.context:
            token = np.concatenate([np.arange(first, last, dtype=np.intp) for first, last in ranges])
            for cache, ids in prepared.context:
                out += cache.array[ids[token], 0]
        return out

    @cached_property
    def _kernel_tables(self) -> dict[str, Any]:
        """The conjunction templates and edges as flat arrays for ``kernels.emissions``."""
        attrs = sorted({a for t in self._templates for a in t.attrs})
        width = max((len(t.attrs) for t in self._templates), default=1)
        n_templates = len(self._templates)
        template_attrs = np.full((n_templates, width), -1, dtype=np.int64)
        template_offsets = np.zeros((n_templates, width), dtype=np.int64)
        template_mults = np.zeros((n_templates, width), dtype=np.int64)
        bounds = [0]
        for m, template in enumerate(self._templates):
            for q, (attr, offset) in enumerate(zip(template.attrs, template.offsets, strict=True)):
                template_attrs[m, q] = attrs.index(attr)
                template_offsets[m, q] = offset
                template_mults[m, q] = template.multipliers[q]
            bounds.append(bounds[-1] + len(template.keys))
        keys = [t.keys for t in self._templates]
        rows = [t.rows for t in self._templates]
        return {
            "attrs": attrs,
            "offsets": np.asarray(self.offsets, dtype=np.int64),
            "edges": np.asarray([-1 if e is None else e for e in (self._bos, self._eos)], dtype=np.int64),
            "ends": np.asarray([[self._bos_value[a], self._eos_value[a]] for a in attrs], dtype=np.int64)
            .reshape(-1, 2),
            "template_attrs": template_attrs,
            "template_offsets": template_offsets,
            "template_mults": template_mults,
            "key_bounds": np.asarray(bounds, dtype=np.int64),
            "keys": np.concatenate(keys).astype(np.int64) if keys else np.zeros(0, dtype=np.int64),
            "key_rows": np.concatenate(rows).astype(np.int64) if rows else np.zeros(0, dtype=np.int64),
        }

    def _prefixed_ids(self, offset: int, key: tuple[str, ...]) -> list[int]:
        cache = self._prefixed
        ids = []
        for f in key:
            row = cache.get((offset, f))
            if row is None:
                row = cache[(offset, f)] = self._index.get(f"{offset}:{f}", self._zero)
            ids.append(row)
        return ids


@dataclass(frozen=True)
class Prepared:
    """A block's tokens as cache rows and vocabulary ids (``Encoder.prepare``)."""

    words: np.ndarray
    shared: np.ndarray
    context: list[tuple[_Vectors, np.ndarray]]
    values: dict[str, np.ndarray]


class _Vectors:
    """Summed weight rows per distinct value (a word, a tuple of features), computed on first
    sight and kept; beyond ``capacity`` values the cache starts afresh (between blocks only,
    so that the rows handed out for a block stay valid while it is scored). Row 0 is zeros:
    what a neighbour outside its sequence contributes."""

    def __init__(
        self,
        width: int,
        n_labels: int,
        compute: Callable[[list[Any]], tuple[np.ndarray, np.ndarray | None]],
        capacity: int,
        extra: int = 0,
    ) -> None:
        self.slot: dict[Any, int] = {_NOTHING: 0}
        self.array = np.zeros((256, width, n_labels))
        self.extra = np.full((256, extra), -1, dtype=np.int64)
        self._compute = compute
        self._capacity = capacity

    def make_room(self) -> None:
        if len(self.slot) > self._capacity:
            self.slot.clear()
            self.slot[_NOTHING] = 0

    def ids(self, values: Sequence[Any]) -> np.ndarray:
        """The row of each value, computing the rows of the values not seen yet."""
        slot = self.slot
        base = len(slot)
        missing = [v for v in dict.fromkeys(values) if v not in slot]
        slot.update(zip(missing, range(base, base + len(missing)), strict=True))
        out = np.fromiter(map(slot.__getitem__, values), dtype=np.intp, count=len(values))
        if missing:
            vectors, extra = self._compute(missing)
            end = base + len(missing)
            if end > len(self.array):
                size = max(end, 2 * len(self.array))
                grown = np.zeros((size, *self.array.shape[1:]))
                grown[:base] = self.array[:base]
                self.array = grown
                grown_extra = np.full((size, self.extra.shape[1]), -1, dtype=np.int64)
                grown_extra[:base] = self.extra[:base]
                self.extra = grown_extra
            self.array[base:end] = vectors
            if extra is not None:
                self.extra[base:end] = extra
        return out


def _splits(value: str, parts: int) -> Iterable[tuple[str, ...]]:
    """Every way ``value`` can be ``parts`` values joined by "|" (a value may contain "|")."""
    pieces = value.split("|")
    if len(pieces) < parts:
        return
    for cuts in combinations(range(1, len(pieces)), parts - 1):
        bounds = (0, *cuts, len(pieces))
        yield tuple("|".join(pieces[a:b]) for a, b in pairwise(bounds))
