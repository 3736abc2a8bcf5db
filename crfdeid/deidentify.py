"""De-identification of one note: detect PHI, pseudonymise it, and decide whether it may leave.

``Deidentifier`` is the Python API (``Deidentifier().deidentify("texto…")``).
``Deidentifier.deidentify_note`` is *the* per-note function: its result depends only on the note,
the seed/key, the policy and the model — never on other notes or their order — so the local
batch runner (``crfdeid.batch``), ``-j N`` worker processes and a distributed engine all call it
and agree byte for byte. It also says whether the note may be released: a note in which a rule
did not complete, or in which an original string the tool itself found is still present after
replacement, is held back (``NoteResult.held``), because releasing it would release PHI the tool
knows about.
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import re
import secrets
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from .errors import InputError
from .heap import collector_paused
from .langpack import fold
from .operating import DEIDENTIFY, Chosen, choose_point
from .packs import PackChoice, choose_pack
from .policy import Policy
from .pseudonymise import Pseudonymised, Pseudonymiser
from .rules import RuleTimeout
from .schemes import Scheme, load_scheme
from .surrogates import Secret
from .surrogates.people import PERSON_LABELS
from .types import Detector, Document, Span

KEY_ENV = "CRFDEID_KEY"
#: A shorter key can be guessed; HMAC-SHA256 keys should carry at least 128 bits.
MIN_KEY_BYTES = 16
_RUN = re.compile(r"[^\W\d_]+|\d+")
#: A PHI string is looked for in a file name only when it has this many letters or digits:
#: shorter ones ("M", "45") occur in ordinary names such as "nota-045".
MIN_NAME_MATCH = 4


class AnnotationDetector:
    """A detector that trusts the spans a document already carries (``--from-annotations``)."""

    name = "annotations"

    def detect(self, document: Document) -> list[Span]:
        return [replace(s, source="annotation") for s in document.spans]


@dataclass(frozen=True)
class HoldReason:
    """Why a note is held back instead of released. ``detail`` is for people and never holds an
    original string: only rule ids, labels, offsets and counts."""

    kind: str  # "rule-timeout", "leftover" or "file-name"
    detail: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "detail": self.detail, **self.data}


@dataclass(frozen=True)
class NoteResult:
    """One note, de-identified: the result, the rule timeouts met while detecting, and the
    reasons to hold it back (empty when it may be released)."""

    result: Pseudonymised
    timeouts: tuple[RuleTimeout, ...] = ()
    held: tuple[HoldReason, ...] = ()

    @property
    def releasable(self) -> bool:
        return not self.held


class Deidentifier:
    """Detection + pseudonymisation with one policy, seed and key.

    ``Deidentifier()`` uses the embedded default model (``crfdeid.pipeline.load_pipeline()``);
    pass ``detector=`` for anything else (``load_pipeline(rules_only=True)``, a detector of your
    own), or use ``Deidentifier.from_annotations()`` to pseudonymise spans you already have.
    """

    @collector_paused(gc.collect)  # loading the model and surrogate data: see ``load_pipeline``
    def __init__(
        self,
        detector: Detector | None = None,
        policy: Policy | None = None,
        *,
        seed: int | None = None,
        key: bytes | None = None,
        language: str | None = None,
        model: str | Path | None = None,
        rules_only: bool = False,
        seed_is_random: bool = False,
        scheme: Scheme | None = None,
    ) -> None:
        """``language`` (the pack surrogates come from) and ``scheme`` (the labels' scheme) default
        to the detector's: a model's recorded pack and scheme. Without a detector, the model runs
        at its ``deidentify`` operating point (its best path if it records none)."""
        if detector is None:
            from .pipeline import load_pipeline

            detector = load_pipeline(model, rules_only=rules_only, default_point=DEIDENTIFY)
        self.detector = detector
        language = language or getattr(detector, "language", None) or "es"
        scheme = scheme or getattr(detector, "scheme", None)
        self.pseudonymiser = Pseudonymiser(policy, language=language, seed=seed, key=key, scheme=scheme)
        if seed_is_random:  # a seed drawn once for a run shared by worker processes
            self.pseudonymiser.seed_was_random = True

    @classmethod
    def from_annotations(cls, policy: Policy | None = None, **kwargs) -> Deidentifier:
        return cls(AnnotationDetector(), policy, **kwargs)

    def deidentify(self, text: str | Document, document_id: str = "text") -> Pseudonymised:
        """De-identify a text or a Document: new text, spans at new offsets, audit records."""
        document = text if isinstance(text, Document) else Document(document_id, text)
        return self.deidentify_note(document).result

    def deidentify_note(self, document: Document, name: str | None = None) -> NoteResult:
        """De-identify one note and decide whether it may be released.

        ``name`` is the note's public name (the output file name, folders included); when
        given, a name that spells a PHI string found in the note is a reason to hold it back.
        """
        spans, timeouts = self.detect_note(document)
        return self.pseudonymise_note(document.with_spans(spans), timeouts, name)

    def detect_note(self, document: Document) -> tuple[list[Span], tuple[RuleTimeout, ...]]:
        """The detector's spans of one note, and the rule timeouts met finding them."""
        run = getattr(self.detector, "run", None)
        if run is not None:
            detection = run(document)
            return list(detection.spans), tuple(detection.timeouts)
        return self.detector.detect(document), ()

    def pseudonymise_note(self, document: Document, timeouts: tuple[RuleTimeout, ...] = (),
                          name: str | None = None, *, rerolls: dict[str, int] | None = None,
                          date_rerolls: int = 0) -> NoteResult:
        """Pseudonymise the spans ``document`` carries (detected, or decided by a reviewer: ``crfdeid
        review``) and decide whether the note may be released, as ``deidentify_note`` does;
        ``rerolls``/``date_rerolls`` draw some originals again (``Pseudonymiser.note_secret``)."""
        result = self.pseudonymiser.pseudonymise(document, rerolls=rerolls, date_rerolls=date_rerolls)
        held: list[HoldReason] = []
        if timeouts:
            rules = sorted({t.rule_id for t in timeouts})
            held.append(HoldReason(
                "rule-timeout",
                f"{len(timeouts)} rule timeout(s) ({', '.join(rules)}): what those rules find "
                "may still be in the text",
                {"rules": rules, "ranges": [list(_range(t)) for t in timeouts]},
            ))
        if result.leftovers:
            labels = sorted({x.label for x in result.leftovers})
            held.append(HoldReason(
                "leftover",
                f"{len(result.leftovers)} original string(s) still in the output ({', '.join(labels)})",
                {"labels": labels, "at": [[x.new_start, x.new_end] for x in result.leftovers]},
            ))
        if name is not None:
            labels = name_phi(name, result.mapping,
                              lambda label: self.pseudonymiser.generator_label(label) in PERSON_LABELS)
            if labels:
                held.append(HoldReason(
                    "file-name",
                    f"the file name spells PHI found in the note ({', '.join(labels)}); "
                    "use --names hashed or --names numbered",
                    {"labels": labels},
                ))
        return NoteResult(result, timeouts, tuple(held))

    def describe(self) -> dict[str, Any]:
        """What the audit and a batch's manifest record about the run: never the key or seed;
        with a CRF, the operating point it ran at."""
        point = getattr(self.detector, "point", None)
        described = self.pseudonymiser.describe()
        return {**described, "operating_point": point.to_dict()} if point is not None else described


def _range(timeout: RuleTimeout) -> tuple[int, int] | tuple[()]:
    start, end = getattr(timeout, "start", None), getattr(timeout, "end", None)
    return (start, end) if start is not None and end is not None else ()


def _runs(text: str) -> list[str]:
    return [fold(r) for r in _RUN.findall(text)]


def name_phi(name: str, mapping: tuple[tuple[str, str, str], ...],
             is_person: Callable[[str], bool] | None = None) -> list[str]:
    """Labels of the PHI strings of a note that its file name spells (``Ernesto_Rivera_NHC3685``
    spells "Ernesto", "Rivera" and the record number "3685"). Names are compared by runs of
    letters or digits, case and accents ignored, so ``NHC368503`` holds the number ``368503``.
    ``is_person(label)`` says which labels are people's names (default: the MEDDOCAN ones)."""
    runs = set(_runs(name))
    found: set[str] = set()
    is_person = is_person or PERSON_LABELS.__contains__
    for label, original, _ in mapping:
        parts = _runs(original)
        if is_person(label):
            if any(len(p) >= 3 and not p.isdigit() and p in runs for p in parts):
                found.add(label)
            continue
        parts = [p for p in parts if len(p) >= 2]
        if parts and sum(map(len, parts)) >= MIN_NAME_MATCH and all(p in runs for p in parts):
            found.add(label)
    return sorted(found)


def read_key(key_file: str | Path | None, environ: dict[str, str] | None = None) -> bytes | None:
    """The key from ``--key-file`` (first) or ``$CRFDEID_KEY``; never from the command line.

    Errors never repeat what was given to ``--key-file``: a user who typed the key itself there
    must not see it echoed into a terminal log.
    """
    environ = os.environ if environ is None else environ
    if key_file is not None:
        try:
            key = Path(key_file).read_bytes().strip()
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            raise InputError(
                f"cannot read the file given with --key-file ({reason.lower()})",
                hint="--key-file takes the path of a file holding the key, never the key itself",
            ) from None
        where = "the file given with --key-file"
    elif environ.get(KEY_ENV):
        key, where = environ[KEY_ENV].strip().encode("utf-8"), f"${KEY_ENV}"
    else:
        return None
    if len(key) < MIN_KEY_BYTES:
        raise InputError(
            f"the key in {where} is {len(key)} bytes; use at least {MIN_KEY_BYTES}",
            hint="make one with: python -c 'import secrets; print(secrets.token_hex(32))'",
        )
    return key


@dataclass(frozen=True)
class DeidentifierSpec:
    """How to build a Deidentifier, as plain picklable values: a batch's worker processes
    each build their own (one model load per worker) from the same spec, so they agree."""

    model: str | None = None
    rules_only: bool = False
    from_annotations: bool = False
    rules: str | None = None
    lang: str | None = None
    pack: str | None = None
    scheme: str | None = None
    threshold: float | None = None
    #: ``--operating-point`` (None: deidentify's default, the point the model records)
    operating_point: str | None = None
    merge_policy: str | None = None
    timeout: float | None = None
    policy: str | None = None
    strategy: str | None = None
    seed: int | None = None
    key: bytes | None = field(default=None, repr=False)
    seed_is_random: bool = False

    def with_run_seed(self) -> DeidentifierSpec:
        """Without a key or seed, draw the run's random seed once, here, so that every worker
        process uses the same one (the audit still says the seed was random)."""
        if self.seed is None and self.key is None:
            return replace(self, seed=secrets.randbits(63), seed_is_random=True)
        return self

    def digest(self, purpose: str, data: bytes) -> str:
        """A keyed digest for a batch's bookkeeping (input fingerprints, hashed file names),
        from the same seed/key as the surrogates under its own purpose string: reproducible with
        the key (or seed), unguessable without it."""
        seed = self.seed if self.seed is not None else 0
        secret = Secret.from_seed(seed, self.key)
        return secret.digest(f"crfdeid-batch|{purpose}", data.decode("latin-1")).hex()

    def describe(self) -> dict[str, Any]:
        """What the audit's run record says (as ``Deidentifier.describe``), without a model."""
        pseudonymiser = Pseudonymiser(self.policy_object(), seed=self.seed, key=self.key)
        if self.seed_is_random:
            pseudonymiser.seed_was_random = True
        chosen = self.chosen_point()
        described = pseudonymiser.describe()
        return {**described, "operating_point": chosen.to_dict()} if chosen is not None else described

    def chosen_point(self, warn: Callable[[str], None] | None = None) -> Chosen | None:
        """The operating point the model runs at (None without a model), read from its metadata
        as ``load_pipeline`` reads it; ``warn`` hears of a point asked for that it lacks."""
        if self.from_annotations or self.rules_only:
            return None
        from .tagger import DEFAULT_MODEL_DIR, META_FILE, read_metadata

        where = Path(self.model or DEFAULT_MODEL_DIR) / META_FILE
        return choose_point(read_metadata(self.model), self.operating_point, self.threshold, DEIDENTIFY,
                            warn, where)

    def label_scheme(self) -> Scheme | None:
        """The scheme of the labels to replace: the model's, else ``--scheme`` (else, for the
        rules alone, the rule pack's; for annotations, each label's shipped scheme)."""
        if self.from_annotations or self.rules_only:
            return load_scheme(self.scheme) if self.scheme else None
        from .tagger import read_metadata, recorded_scheme

        metadata = read_metadata(self.model)
        return recorded_scheme(metadata) if metadata else None

    def choice(self) -> PackChoice:
        """The language pack and rules this run uses (a model's own unless told otherwise)."""
        from .pipeline import model_pack_choice
        from .tagger import read_metadata

        if self.from_annotations or self.rules_only:
            return choose_pack(self.lang, self.pack, self.rules)
        recorded, chosen = model_pack_choice(read_metadata(self.model), self.lang, self.pack, self.rules)
        return chosen or recorded or choose_pack(self.lang, self.pack, self.rules)

    def policy_object(self) -> Policy:
        policy = Policy.load(self.policy, self.label_scheme()) if self.policy else Policy.default()
        return policy.with_strategy(self.strategy) if self.strategy else policy

    def build(self) -> Deidentifier:
        """The Deidentifier; warnings about packs that differ from the model's are the caller's
        to give, once (worker processes each build one)."""
        policy = self.policy_object()
        if self.from_annotations:
            return Deidentifier.from_annotations(
                policy, seed=self.seed, key=self.key, seed_is_random=self.seed_is_random,
                language=self.choice().lang, scheme=self.label_scheme(),
            )
        from .pipeline import load_pipeline

        detector = load_pipeline(
            self.model, rules=self.rules, rules_only=self.rules_only, timeout=self.timeout,
            policy=self.merge_policy, threshold=self.threshold, lang=self.lang, pack=self.pack,
            scheme=self.scheme, warn=lambda message: None, operating_point=self.operating_point,
            default_point=DEIDENTIFY,
        )
        return Deidentifier(detector, policy, seed=self.seed, key=self.key,
                            seed_is_random=self.seed_is_random)


def _file_digest(path: str | Path | None) -> str | None:
    if path is None:
        return None
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]
    except OSError:
        return None


def settings_fingerprint(spec: DeidentifierSpec) -> dict[str, Any]:
    """What decides a note's output besides the note and the secret, as comparable values: a
    resumed batch must run with exactly these, or its notes would not match the ones done."""
    policy = spec.policy_object()
    policy_json = json.dumps(
        {"strategies": dict(sorted(policy.strategies.items())), "tags": dict(sorted(policy.tags.items())),
         "redact_text": policy.redact_text, "options": asdict(policy.options)},
        sort_keys=True, ensure_ascii=False,
    )
    if spec.key is not None:
        secret = "key"
    else:
        secret = "random seed" if spec.seed_is_random or spec.seed is None else "seed"
    out: dict[str, Any] = {
        "policy": hashlib.sha256(policy_json.encode("utf-8")).hexdigest()[:16],
        "secret": secret,
    }
    if spec.from_annotations:
        out["detector"] = "annotations"
        return out
    from .rules import RuleEngine
    from .tagger import DEFAULT_MODEL_DIR, META_FILE, rules_fingerprint

    out["detector"] = "rules" if spec.rules_only else "model+rules"
    choice = spec.choice()
    out["rules"] = rules_fingerprint(RuleEngine.from_pack(choice.rules))
    if choice.lang != "es" or spec.scheme is not None:  # older runs recorded neither
        out["pack"] = choice.name
        out["scheme"] = spec.scheme
    out["timeout"] = spec.timeout
    if not spec.rules_only:
        meta = Path(spec.model or DEFAULT_MODEL_DIR) / META_FILE
        try:
            out["model"] = json.loads(meta.read_text(encoding="utf-8")).get("model_sha256", "")[:16]
        except (OSError, ValueError):
            out["model"] = None  # loading the model will say what is wrong
        out["threshold"] = spec.threshold
        out["merge_policy"] = _file_digest(spec.merge_policy)
        chosen = spec.chosen_point()
        if chosen is not None and chosen.name == DEIDENTIFY:  # the others: as recorded before points
            out["operating_point"] = chosen.to_dict()
    return out
