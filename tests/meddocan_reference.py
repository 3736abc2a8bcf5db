# ruff: noqa  -- a literal transcription of third-party code, kept as close to it as possible
"""A literal transcription of the official MEDDOCAN scorer's counting logic (test oracle).

The MEDDOCAN evaluation kit (``classes.py``: ``BratAnnotation``, ``EvaluateSubtrack1``,
``EvaluateSubtrack2``, ``EvaluateSubtrack2merged``) is transcribed here as closely as possible —
same data structures, same loops, same quirks — but reading strings instead of files, so the
tests can check that ``crfdeid.evaluate`` (written for speed and clarity) gives the same figures
on hand-made cases, on random cases and on MEDDOCAN itself. Do not "improve" this file.
"""

from __future__ import annotations

import io


class BratAnnotation:
    def __init__(self, doc_id, text, ann_content):
        self.doc_id = doc_id
        self.text = text
        self.phi = []
        self.sensitive_spans = []
        self.sensitive_spans_merged = []
        self.parse_text_and_tags(ann_content)
        self.parse_text_and_spans(ann_content)

    def get_phi(self):
        return self.phi

    def get_phi_spans(self):
        return self.sensitive_spans

    def get_phi_spans_merged(self):
        return self.sensitive_spans_merged

    def get_number_sentences(self):
        # the kit counts the lines of the .txt by iterating over the opened file
        return sum(1 for _ in io.StringIO(self.text, newline=None))

    def parse_text_and_tags(self, ann_content):
        for row in ann_content.split("\n"):
            line = row.strip()
            if line.startswith("T"):
                label = line.split("\t")[1].split()
                tag = label[0]
                start = int(label[1])
                end = int(label[2])
                self.phi.append((tag, start, end))

    def parse_text_and_spans(self, ann_content):
        spans = []
        for row in ann_content.split("\n"):
            line = row.strip()
            if line.startswith("T"):
                label = line.split("\t")[1].split()
                start = int(label[1])
                end = int(label[2])
                spans.append((start, end))
        self.add_spans(spans)

    def add_spans(self, phi_tags):
        for tag in sorted(phi_tags):
            self.sensitive_spans.append(tag)

        for y in sorted(phi_tags):
            if not self.sensitive_spans_merged:
                self.sensitive_spans_merged.append(y)
            else:
                x = self.sensitive_spans_merged.pop()
                if self.is_all_non_alphanumeric(self.text[x[1]:y[0]]):
                    self.sensitive_spans_merged.append((x[0], y[1]))
                else:
                    self.sensitive_spans_merged.append(x)
                    self.sensitive_spans_merged.append(y)

    @staticmethod
    def is_all_non_alphanumeric(string):
        for i in string:
            if i.isalnum():
                return False
        return True


class Evaluate:
    def __init__(self):
        self.tp = []
        self.fp = []
        self.fn = []
        self.num_sentences = []
        self.doc_ids = []

    @staticmethod
    def is_contained(content, container):
        for element in sorted(container):
            if content[0] >= element[0] and content[1] <= element[1]:
                return True
        return False

    def micro_recall(self):
        try:
            return sum([len(t) for t in self.tp]) / float(
                sum([len(t) for t in self.tp]) + sum([len(t) for t in self.fn]))
        except ZeroDivisionError:
            return 0.0

    def micro_precision(self):
        try:
            return sum([len(t) for t in self.tp]) / float(
                sum([len(t) for t in self.tp]) + sum([len(t) for t in self.fp]))
        except ZeroDivisionError:
            return 0.0

    @staticmethod
    def F_beta(p, r, beta=1):
        try:
            return (1 + beta ** 2) * ((p * r) / (p + r))
        except ZeroDivisionError:
            return 0.0

    def leak_score(self):
        try:
            return float(sum([len(t) for t in self.fn]) / sum(self.num_sentences))
        except ZeroDivisionError:
            return 0.0

    def figures(self):
        p, r = self.micro_precision(), self.micro_recall()
        return {"precision": p, "recall": r, "f1": self.F_beta(p, r),
                "tp": sum(len(t) for t in self.tp), "fp": sum(len(t) for t in self.fp),
                "fn": sum(len(t) for t in self.fn), "leak": self.leak_score()}


class EvaluateSubtrack1(Evaluate):
    def __init__(self, sys_sas, gs_sas):
        super().__init__()
        for doc_id in sorted(list(set(sys_sas.keys()) & set(gs_sas.keys()))):
            gold = set(gs_sas[doc_id].get_phi())
            sys = set(sys_sas[doc_id].get_phi())
            self.tp.append(gold.intersection(sys))
            self.fp.append(sys - gold)
            self.fn.append(gold - sys)
            self.num_sentences.append(gs_sas[doc_id].get_number_sentences())
            self.doc_ids.append(doc_id)


class EvaluateSubtrack2(Evaluate):
    def __init__(self, sys_sas, gs_sas):
        super().__init__()
        for doc_id in sorted(list(set(sys_sas.keys()) & set(gs_sas.keys()))):
            gold = set(gs_sas[doc_id].get_phi_spans())
            sys = set(sys_sas[doc_id].get_phi_spans())
            self.tp.append(gold.intersection(sys))
            self.fp.append(sys - gold)
            self.fn.append(gold - sys)
            self.num_sentences.append(gs_sas[doc_id].get_number_sentences())
            self.doc_ids.append(doc_id)


class EvaluateSubtrack2merged(Evaluate):
    def __init__(self, sys_sas, gs_sas):
        super().__init__()
        for doc_id in sorted(list(set(sys_sas.keys()) & set(gs_sas.keys()))):
            gold_strict = set(gs_sas[doc_id].get_phi_spans())
            sys_strict = set(sys_sas[doc_id].get_phi_spans())

            gold_merged = set(gs_sas[doc_id].get_phi_spans_merged())
            sys_merged = set(sys_sas[doc_id].get_phi_spans_merged())

            intersection = gold_strict.intersection(sys_strict).union(
                gold_merged.intersection(sys_merged))

            fp = sys_strict - gold_strict
            for tag in sys_strict:
                if self.is_contained(tag, intersection):
                    if tag in fp:
                        fp.remove(tag)

            fn = gold_strict - sys_strict
            for tag in gold_strict:
                if self.is_contained(tag, intersection):
                    if tag in fn:
                        fn.remove(tag)

            self.tp.append(intersection)
            self.fp.append(fp)
            self.fn.append(fn)
            self.num_sentences.append(gs_sas[doc_id].get_number_sentences())
            self.doc_ids.append(doc_id)


def official_figures(gold: dict[str, tuple[str, str]], system: dict[str, tuple[str, str]]) -> dict:
    """``gold``/``system``: doc id -> (text, .ann content). Returns the three subtracks' figures."""
    gs = {k: BratAnnotation(k, t, a) for k, (t, a) in gold.items()}
    ss = {k: BratAnnotation(k, t, a) for k, (t, a) in system.items()}
    return {
        "ner": EvaluateSubtrack1(ss, gs).figures(),
        "spans_strict": EvaluateSubtrack2(ss, gs).figures(),
        "spans_merged": EvaluateSubtrack2merged(ss, gs).figures(),
    }
