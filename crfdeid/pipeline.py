"""Detection as one stage: the CRF tagger and the YAML rules, merged by a per-label policy.

``load_pipeline()`` is what the CLI and the Python API call: with no arguments it loads the
embedded default Spanish model; ``rules_only=True`` skips the CRF. A ``Pipeline`` is a
``Detector`` (``detect(doc) -> spans``) and also offers ``run(doc)``, which returns the spans
together with the warnings of that document (rule timeouts), so nothing is silently lost.

Detection runs on the document's normalised view (``crfdeid.textview``): the same note with
NBSPs, tabs, CRLF, decomposed accents, direction marks or emoji finds the same PHI. Spans and
timeout ranges are mapped back, so callers only ever see offsets into the original text.

Labels: the pipeline's output speaks one label scheme — the model's, or for the rules alone the
one asked for (else the rule pack's own). Rule spans are relabelled through their PHI category
(``crfdeid.schemes.LabelMap``) before they are merged; a rule whose category the scheme lacks
has its spans dropped (its matches still feed the CRF as features).

Operating points (``crfdeid.operating``): the tagger runs at one (``load_pipeline``'s
``operating_point``/``threshold``; by default its Viterbi path). ``Pipeline.candidates`` tags a
note once and keeps what its spans at any point are made of (``NoteCandidates.spans``): the
same merge and offsets as ``run``, so a search over points never tags a note twice.
"""

from __future__ import annotations

import dataclasses
import gc
import logging
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import regex

from .acronyms import with_acronyms
from .cda import CATEGORIES as CDA_CATEGORIES
from .cda import CdaDocument
from .dicom_header import CATEGORIES as DICOM_CATEGORIES
from .dicom_header import DicomHeader, with_dicom_header
from .errors import CrfdeidError
from .fhir import CATEGORIES as FHIR_CATEGORIES
from .fhir import FhirResource
from .heap import collector_paused
from .hl7 import CATEGORIES as HL7_CATEGORIES
from .hl7 import Hl7Fields, with_hl7_fields
from .initials import Initials, with_initials
from .key_values import CATEGORIES as KEY_VALUE_CATEGORIES
from .key_values import KeyValues
from .langpack import fold
from .lone_names import LoneNames, with_lone_names
from .lone_places import LonePlaces, with_lone_places
from .lone_professions import LoneProfessions, with_lone_professions
from .merge import with_read
from .mime import MimeMessage
from .rules import DEFAULT_TIMEOUT, RuleEngine, RuleTimeout
from .schemes import DEFAULT_SCHEME, LabelMap, Scheme, dropped_rules_message, load_scheme
from .short_dates import ShortDates, with_short_dates
from .span_form import SpanForm
from .spoken import CATEGORIES as SPOKEN_CATEGORIES
from .spoken import SpokenNumbers, with_spoken_numbers
from .structure import PdfFormFields, TimeZones
from .table_columns import TableColumns, with_table_columns
from .textview import TextView
from .types import Document, Span
from .whole_codes import with_whole_codes

if TYPE_CHECKING:
    from .langpack import LanguagePack
    from .merge import MergePolicy
    from .operating import Chosen, OperatingPoint
    from .packs import PackChoice
    from .rules.engine import RuleResult
    from .tagger import CrfTagger, Decoded


@dataclass(frozen=True)
class Detection:
    """The spans found in one document, and the warnings raised while finding them."""

    document_id: str
    spans: tuple[Span, ...]
    timeouts: tuple[RuleTimeout, ...] = field(default=())


@dataclass(frozen=True)
class NoteCandidates:
    """One note through the pipeline's rules and tagger once: its spans at any operating point
    follow, merged and mapped as ``Pipeline.run`` merges and maps them."""

    document_id: str
    decoded: Decoded
    rule_spans: tuple[Span, ...]  # on the view, relabelled, as merged
    policy: MergePolicy
    view: TextView | None  # None: the note is its own view
    text: str = ""  # the text detection saw (the view's): where acronyms are looked for
    #: ``Pipeline.completion``: the acronyms and lone names the merged spans imply
    completed: Completion | None = None

    def promotable(self) -> list[tuple[str, float]]:
        return self.decoded.promotable()

    def spans(self, point: OperatingPoint | None) -> list[Span]:
        """The spans ``Pipeline.run`` finds in the note when the tagger runs at ``point``."""
        spans = merge_detected(self.policy, self.decoded.spans(point), self.rule_spans)
        if self.completed is not None:
            spans = self.completed(self.text, spans)
        if self.view is None:
            return spans
        spans = self.view.spans_to_original(spans)
        return spans if self.completed is None else self.completed.on_original(self.view.original, spans)

    def crf_spans(self, point: OperatingPoint | None) -> list[Span]:
        """The tagger's spans alone at ``point`` (what the CRF contributes), sorted."""
        spans = sorted(self.decoded.spans(point), key=lambda s: (s.start, s.end, s.label))
        return spans if self.view is None else self.view.spans_to_original(spans)


@dataclass(frozen=True)
class Completion:
    """What the merged spans imply in a note: first the spans tidied to fit their labels (no
    time of day as a date, no function word at an edge, a person under a place's label
    relabelled: ``crfdeid.span_form``), then the acronyms of organisations they define
    (``crfdeid.acronyms``; never the pack's ``clinical`` ones, "UCI"), then the given names
    standing alone (``crfdeid.lone_names``), the places named after a preposition
    (``crfdeid.lone_places``), the occupations named where a note says what one does
    (``crfdeid.lone_professions``), the identifiers a dictation reads aloud
    (``crfdeid.spoken``), a day and month without the year in a note that writes the year
    elsewhere (``crfdeid.short_dates``), a member of staff's initials a legend spells out
    (``crfdeid.initials``), the cells of a table's column whose header names an
    identifier (``crfdeid.table_columns``), and the fields of an HL7 v2 message
    (``crfdeid.hl7``), a DICOM header's values (``crfdeid.dicom_header``) and an HL7 CDA
    document's header (``crfdeid.cda``), a FHIR resource's elements (``crfdeid.fhir``) and a
    machine export's values by their keys (``crfdeid.key_values``), and no span on a raw e-mail's
    structure (``crfdeid.mime``), a time zone's name ("Europe/Madrid") or a PDF form dump's field
    names (``crfdeid.structure``):
    a structure overrules what was read into it. Last, a span that cuts a code the note has
    whole elsewhere takes the whole code (``crfdeid.whole_codes``)."""

    scheme: Scheme
    clinical: frozenset[str]
    lone_names: LoneNames | None
    form: SpanForm | None = None
    lone_places: LonePlaces | None = None
    lone_professions: LoneProfessions | None = None
    table_columns: TableColumns | None = None
    hl7: Hl7Fields | None = None
    dicom: DicomHeader | None = None
    cda: CdaDocument | None = None
    spoken: SpokenNumbers | None = None
    fhir: FhirResource | None = None
    key_values: KeyValues | None = None
    mime: MimeMessage | None = None
    short_dates: ShortDates | None = None
    initials: Initials | None = None
    zones: TimeZones | None = None
    form_fields: PdfFormFields | None = None

    def __call__(self, text: str, spans: list[Span]) -> list[Span]:
        if self.form is not None:
            spans = self.form(text, spans)
        spans = with_acronyms(text, spans, self.scheme.category, self.clinical.__contains__)
        spans = with_lone_names(text, spans, self.lone_names)
        spans = with_lone_places(text, spans, self.lone_places)
        spans = with_lone_professions(text, spans, self.lone_professions)
        spans = with_spoken_numbers(text, spans, self.spoken)
        spans = with_short_dates(text, spans, self.short_dates)
        spans = with_initials(text, spans, self.initials)
        spans = with_table_columns(text, spans, self.table_columns)
        spans = with_hl7_fields(text, spans, self.hl7)
        spans = with_dicom_header(text, spans, self.dicom)
        spans = with_read(text, spans, self.cda)
        spans = with_read(text, spans, self.fhir)
        spans = with_read(text, spans, self.key_values)
        spans = with_read(text, spans, self.zones)
        spans = with_read(text, spans, self.form_fields)
        return with_whole_codes(text, with_read(text, spans, self.mime))

    def on_original(self, original: str, spans: list[Span]) -> list[Span]:
        """What only the original text shows, after the spans found on the view are mapped back
        to it: a table parted by tabs (the view writes a tab as a space, and the fifteenth set's
        pharmacy export, its columns parted by tabs, had left every record number in clear). A
        tab anywhere else is a space, as in the view: only a header row the table step reads
        and the rows under it with as many tabs are a table (``tab_tables``)."""
        if "\t" not in original or self.table_columns is None:
            return spans
        tables = self.table_columns.tab_tables(original)
        if not tables:
            return spans
        # one character for one: the tabs outside the tables are spaces, offsets do not move
        chars, at = [], 0
        for start, end in tables:
            chars += [original[at:start].replace("\t", " "), original[start:end]]
            at = end
        masked = "".join([*chars, original[at:].replace("\t", " ")])
        phones, people = self._cell_labels
        return with_table_columns(masked, _cut_at_tabs(masked, spans, phones, people, self._common_word),
                                  self.table_columns)

    @cached_property
    def _cell_labels(self) -> tuple[frozenset[str], frozenset[str]]:
        """The scheme's phone and fax labels, and its people's: what a cell cut from a span must
        look like (``_cut_at_tabs``). Read once per step, not per note."""
        kinds = {label: self.scheme.category(label) or "" for label in self.scheme.labels}
        return (frozenset(label for label, kind in kinds.items() if kind in ("phone", "fax")),
                frozenset(label for label, kind in kinds.items() if kind.startswith("person_")))

    def _common_word(self, word: str) -> bool:
        """A word of the language that no name list holds ("SUSPENDER"; not "Pastor")."""
        lone = self.lone_names
        if lone is None:
            return False
        folded = fold(word)
        if folded in lone.names or folded in lone.surnames:
            return False
        from .lexicon import lexicon

        try:
            return lexicon().is_common(word.lower(), lone.language)
        except ValueError:  # no lexicon for the language
            return False


def _cut_at_tabs(text: str, spans: list[Span], phones: Collection[str] = (), people: Collection[str] = (),
                 common: Callable[[str], bool] = lambda word: False) -> list[Span]:
    """A span that runs over a tab (a space in the view) cut into its cells: a tab parts a
    table's cells ("Dra. Pastor<TAB>SUSPENDER" had been one clinician's name). A cell goes when
    it cannot be what the label says: of a phone (a label of ``phones``), fewer than six digits
    (a row of values, "119<TAB>136<TAB>141": glucose by the hour); of a person (``people``),
    only words of the language no name list holds (``common``: "SUSPENDER", "Bomba")."""
    out = []
    for span in spans:
        if span.fragments or "\t" not in text[span.start:span.end]:
            out.append(span)
            continue
        pieces, at = [], span.start
        for cut in regex.finditer(r"\s*\t\s*", text[span.start:span.end]):
            pieces.append((at, span.start + cut.start()))
            at = span.start + cut.end()
        pieces.append((at, span.end))
        for start, end in pieces:
            cell = text[start:end]
            if not any(c.isalnum() for c in cell):
                continue
            if span.label in phones and sum(c.isdigit() for c in cell) < 6:
                continue
            words = regex.findall(r"\p{L}+", cell)
            if span.label in people and words and all(common(w) for w in words):
                continue
            out.append(dataclasses.replace(span, start=start, end=end))
    return out


def merge_detected(policy: MergePolicy, crf_spans: list[Span], rule_spans: Iterable[Span]) -> list[Span]:
    """CRF and rule spans merged by the policy, sorted by offset."""
    return sorted(policy.merge(crf_spans, rule_spans), key=lambda s: (s.start, s.end, s.label))


class Pipeline:
    """Rules, then the CRF (fed the rule matches as features), then the merge policy."""

    name = "pipeline"

    def __init__(
        self,
        rules: RuleEngine | None,
        tagger: CrfTagger | None = None,
        policy: MergePolicy | None = None,
        scheme: Scheme | str | None = None,
        language: str | None = None,
    ) -> None:
        """``scheme``: the labels of the output when there is no tagger (default: the rule
        pack's own); with a tagger, always the model's. ``language``: the pack surrogates come
        from (default: the model's, else Spanish)."""
        if rules is None and tagger is None:
            raise ValueError("a pipeline needs the rules, the tagger or both")
        self.rules = rules
        self.tagger = tagger
        rule_scheme: Scheme | None = getattr(rules, "scheme", None)
        if tagger is not None:
            self.scheme: Scheme = tagger.scheme
        elif scheme is not None:
            self.scheme = load_scheme(scheme)
        else:
            self.scheme = rule_scheme or load_scheme(DEFAULT_SCHEME)
        self.language = language or (tagger.choice.lang if tagger is not None else "es")
        self.rule_labels = (
            LabelMap.between(rule_scheme, self.scheme, {r.label for r in rules.rules})  # type: ignore[union-attr]
            if rule_scheme is not None else None
        )
        if tagger is not None and policy is None:
            from .merge import MergePolicy

            policy = MergePolicy.shipped()
        self.policy = policy.for_scheme(self.scheme) if policy is not None else None
        self._point: Chosen | None = None

    @property
    def point(self) -> Chosen | None:
        """The tagger's operating point and its name (None: no tagger): as ``load_pipeline``
        chose it, else ``viterbi`` or ``custom`` (a point set on the tagger by hand)."""
        from .operating import VITERBI, Chosen

        if self.tagger is None:
            return None
        if self._point is not None and self._point.point is self.tagger.point:
            return self._point
        return Chosen(VITERBI if self.tagger.point is None else "custom", self.tagger.point)

    @point.setter
    def point(self, chosen: Chosen) -> None:
        self._point = chosen

    def dropped_rules(self) -> str | None:
        """One sentence naming the rules whose category the output scheme lacks, or None."""
        if self.rules is None or self.rule_labels is None:
            return None
        return dropped_rules_message(self.rules.rules, self.rule_labels)

    def run(self, document: Document) -> Detection:
        """Detect PHI in one document: spans sorted by offset, plus the rule timeouts.

        Detection sees the document's normalised view; offsets are the original's."""
        view = TextView(document.text)
        if view.exact:
            return self._run(document)
        found = self._run(view_document(view, document))
        spans = view.spans_to_original(found.spans)
        return Detection(
            document.id,
            tuple(self.completion.on_original(document.text, spans)),
            tuple(map_range_to_original(t, view) for t in found.timeouts),
        )

    def _rules(self, document: Document) -> tuple[RuleResult | None, list[Span]]:
        """The rules' result (matches and timeouts) and their spans in the output's labels."""
        rule_result = self.rules.run(document) if self.rules is not None else None
        rule_spans = rule_result.spans if rule_result is not None else []
        if self.rule_labels is not None:
            rule_spans = self.rule_labels.spans(rule_spans)
        return rule_result, rule_spans

    def _run(self, document: Document) -> Detection:
        rule_result, rule_spans = self._rules(document)
        timeouts = tuple(rule_result.timeouts) if rule_result is not None else ()
        if self.tagger is None:
            spans = sorted(rule_spans, key=lambda s: (s.start, s.end, s.label))
        else:
            crf_spans = self.tagger.detect(document, rule_matches=rule_result)
            # beside a model, hint rules (emit: false) were features only
            emitted = self.rules.emitted(rule_spans) if self.rules else []
            spans = merge_detected(self.policy, crf_spans, emitted)  # type: ignore[arg-type]
        return Detection(document.id, tuple(self.completion(document.text, spans)), timeouts)

    @cached_property
    def completion(self) -> Completion:
        """The steps after the merge, as plain data: a fold's candidates carry it between
        processes (a bound method would carry the whole pipeline, which does not pickle)."""
        pack = self._pack if self.tagger is not None else None  # the rules alone: no clinical list
        clinical = frozenset((pack.surrogate.get("medical_acronyms") or ()) if pack is not None else ())
        lone = LoneNames.for_pack(self._pack, self.scheme.label_for("person_patient"),
                                  self.scheme.label_for("person_relative"),
                                  self.scheme.label_for("person_clinician"),
                                  self.scheme.label_for("other"))
        places = LonePlaces.for_pack(self._pack, {c: self.scheme.label_for(c)
                                                  for c in ("town", "country", "street", "hospital",
                                                            "health_centre", "organisation")})
        professions = LoneProfessions.for_pack(
            self._pack, self.scheme.label_for("profession"),
            [self.scheme.label_for(c) for c in ("person_patient", "person_relative")])
        columns = TableColumns.for_pack(self._pack, {c: self.scheme.label_for(c) for c in
                                                     (self._pack.table_columns if self._pack else ())})
        if columns is not None and lone is not None:
            columns = columns.with_names(lone.names, lone.surnames)
        hl7 = Hl7Fields.for_scheme({c: self.scheme.label_for(c) for c in HL7_CATEGORIES})
        dicom = DicomHeader.for_scheme({c: self.scheme.label_for(c) for c in DICOM_CATEGORIES})
        cda = CdaDocument.for_scheme({c: self.scheme.label_for(c) for c in CDA_CATEGORIES})
        spoken = SpokenNumbers.for_language(self._pack.language if self._pack else None,
                                            {c: self.scheme.label_for(c) for c in SPOKEN_CATEGORIES})
        fhir = FhirResource.for_scheme({c: self.scheme.label_for(c) for c in FHIR_CATEGORIES})
        key_values = KeyValues.for_scheme({c: self.scheme.label_for(c) for c in KEY_VALUE_CATEGORIES})
        return Completion(self.scheme, clinical, lone, SpanForm.for_pack(self.scheme, self._pack), places,
                          professions, columns, hl7, dicom, cda, spoken, fhir, key_values, MimeMessage(),
                          ShortDates.for_scheme({"date": self.scheme.label_for("date")}),
                          Initials(frozenset(label for label in self.scheme.labels
                                             if (self.scheme.category(label) or "").startswith("person_")),
                                   clinical), TimeZones(), PdfFormFields())

    @cached_property
    def _pack(self) -> LanguagePack | None:
        """The language pack detection runs with: the model's, else the rules' language's."""
        pack = getattr(getattr(self.tagger, "extractor", None), "pack", None)
        if pack is not None or self.tagger is not None:
            return pack
        from .langpack import load_pack

        try:
            return load_pack(self.language) if self.language != "none" else None
        except CrfdeidError:
            return None

    def candidates(self, document: Document, cap: float | None = None) -> NoteCandidates:
        """The note tagged once, for its spans at any operating point whose thresholds stay at
        or below ``cap`` (default: those a search tries; ``NoteCandidates.spans``)."""
        if self.tagger is None or self.policy is None:
            raise ValueError("operating points need the tagger")
        view = TextView(document.text)
        seen = document if view.exact else view_document(view, document)
        rule_result, rule_spans = self._rules(seen)
        emitted = self.rules.emitted(rule_spans) if self.rules else []
        return NoteCandidates(document.id, self.tagger.decode(seen, rule_result, cap), tuple(emitted),
                              self.policy, None if view.exact else view, seen.text, self.completion)

    def detect(self, document: Document) -> list[Span]:
        return list(self.run(document).spans)


R = TypeVar("R")
logger = logging.getLogger(__name__)


def view_document(view: TextView, document: Document) -> Document:
    """The document detection sees: the view's text, no spans, the same id and metadata."""
    if view.identity and not document.spans:
        return document
    return Document(document.id, view.text, (), document.metadata)


def detect_on_view(document: Document, detect: Callable[[Document], Iterable[Span]]) -> list[Span]:
    """Any detector run on the document's view, its spans at the original's offsets (sorted)."""
    view = TextView(document.text)
    if view.exact:
        return sorted(detect(document), key=lambda s: (s.start, s.end, s.label))
    return view.spans_to_original(detect(view_document(view, document)))


def map_range_to_original(item: R, view: TextView) -> R:
    """A record found on the view (a rule timeout, say) with its ``start``/``end`` range, if it
    carries one, moved to the original's offsets; records without a range pass unchanged."""
    start, end = getattr(item, "start", None), getattr(item, "end", None)
    if not dataclasses.is_dataclass(item) or not isinstance(start, int) or not isinstance(end, int):
        return item
    if 0 <= start < end <= len(view.text):
        start, end = view.to_original(start, end)
    else:
        start = end = view.original_offset(min(max(start, 0), len(view.text)))
    return dataclasses.replace(item, start=start, end=end)


def model_pack_choice(
    metadata: dict, lang: str | None = None, pack: str | Path | None = None, rules: str | Path | None = None
) -> tuple[PackChoice | None, PackChoice | None]:
    """(what a model recorded, what the options choose instead — None when they choose nothing
    else). ``rules`` alone keeps the model's pack and changes its rules."""
    from .packs import choose_pack, model_choice

    recorded = model_choice(metadata) if metadata else None
    if recorded is None or (lang is None and pack is None and rules is None):
        return recorded, None
    if lang is None and pack is None:
        lang, pack = (None, recorded.folder) if recorded.custom else (recorded.lang, None)
    choice = choose_pack(lang, pack, None if rules is None else str(rules))
    return recorded, None if choice.same_as(recorded) else choice


def override_message(recorded: PackChoice, choice: PackChoice) -> str:
    return (f"the model was trained with pack {recorded.name!r} and rules {recorded.rules!r}; using pack "
            f"{choice.name!r} and rules {choice.rules!r} as asked (packs that differ from the model's "
            "are a stale-model error)")


@collector_paused(gc.collect)  # a load builds ~200,000 small objects in no cycle: no collection walks them
def load_pipeline(
    model: str | Path | None = None,
    *,
    rules: str | Path | None = None,
    rules_only: bool = False,
    timeout: float | None = None,
    policy: str | Path | None = None,
    threshold: float | None = None,
    lang: str | None = None,
    pack: str | Path | None = None,
    scheme: str | Path | None = None,
    warn: Callable[[str], None] | None = None,
    operating_point: str | None = None,
    default_point: str = "viterbi",
) -> Pipeline:
    """Build the detection pipeline the CLI and the API use.

    ``model`` is a model folder (``crfdeid train -o``); None means the embedded default. The
    language pack and rules are the ones the model recorded; ``lang`` (a pack code or ``none``),
    ``pack`` (a pack folder) and ``rules`` (a rule pack) choose others — ``warn`` is told once,
    and packs whose fingerprints differ from the model's are a stale-model error. Without a
    model (``rules_only``) they choose the rules (default: Spanish), and ``scheme`` the labels
    of the output (default: the rule pack's). ``policy`` is a merge-policy YAML (None: the one
    recorded with the model, else the shipped default). The operating point of the tagger
    (``crfdeid.operating.choose_point``): ``threshold`` P (a token is PHI when P(O) falls below
    it), else ``operating_point`` by name (``viterbi``, or ``deidentify``: the one the model
    records), else ``default_point`` — ``annotate`` runs the Viterbi path, ``deidentify`` its own
    point; a model that records none runs its Viterbi path. ``Pipeline.point`` says which.
    """
    from .packs import choose_pack

    if timeout is not None and not timeout > 0:
        raise CrfdeidError(f"--timeout must be a positive number of seconds, got {timeout}")
    timeout = timeout or DEFAULT_TIMEOUT
    if rules_only:
        if threshold is not None or operating_point is not None:
            raise CrfdeidError("--rules-only has no CRF, hence no operating point (--threshold, "
                               "--operating-point)")
        choice = choose_pack(lang, pack, None if rules is None else str(rules))
        engine = RuleEngine.from_pack(choice.rules, timeout=timeout)
        return Pipeline(engine, scheme=scheme, language=choice.lang)
    from .merge import MergePolicy
    from .operating import choose_point
    from .tagger import CrfTagger, read_metadata

    say = warn or logger.warning
    recorded, choice = model_pack_choice(read_metadata(model), lang, pack, rules)
    if recorded is not None and choice is not None:
        say(override_message(recorded, choice))
    if model is not None:
        tagger = CrfTagger.load(model, choice=choice)
    else:
        tagger = CrfTagger.load_default(choice=choice)
    if scheme is not None and not load_scheme(scheme).same_mapping(tagger.scheme):
        say(f"the model's labels are those of scheme {tagger.scheme.name!r}; --scheme {scheme} is ignored")
    chosen = choose_point(tagger.metadata, operating_point, threshold, default_point, say,
                          tagger.model_dir / "model.json")
    tagger.point = chosen.point
    merge = MergePolicy.load(policy, scheme=tagger.scheme) if policy is not None else tagger.merge_policy()
    features = tagger.extractor.rules  # the pack the features were built from, compiled once
    if features is not None:
        engine = RuleEngine(features.rules, timeout=timeout, scheme=features.scheme)
    else:
        engine = RuleEngine.from_pack(tagger.choice.rules, timeout=timeout)
    pipeline = Pipeline(engine, tagger, merge)
    pipeline.point = chosen
    # Build the feature extractor now (packs, lexicon, pack fingerprint checks): a stale or
    # broken model fails here, before any output is written, and timings exclude loading.
    pipeline.run(Document("warm-up", "Nombre: Ana.\n"))
    return pipeline
