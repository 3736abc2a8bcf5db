"""Long fuzzing runs of the whole de-identifier, outside the test suite.

    python benchmarks/fuzz.py --cases N [-j 2] [--seed S] [--detector rules|model|annotations|all]
                              [--corpus DIR] [--no-save] [--out benchmarks/results/fuzz.json]

Each case is drawn from a seeded generator (case ``i`` of seed ``S`` is the same whatever
``-j``): a mutated clinical note (lines of ``examples/notes`` and, when present, of the MEDDOCAN
dev notes, read at run time), random Unicode from every plane, a trivial text (empty,
whitespace, punctuation) or, rarely, a giant token or line. Each runs under a random policy
(the default or one ``--strategy``), with or without a key, with a random seed, through
``Deidentifier`` with the rules, the embedded model or the gold-like random spans of
``Deidentifier.from_annotations``; ``tests/fuzz_kit.py`` holds the families and the invariants.

Prints a summary and writes it under ``runs.<detector>`` of ``--out`` (other detectors' runs are
kept): cases run, cases/s, exceptions by type and location, invariant violations, cases where
a rule timed out, the slowest cases, peak RSS. The first input of each new failure class is
shrunk, checked to fail again when replayed from its JSON, and saved into
``tests/regression/fuzz/`` with ``expected: "crash: …"`` or ``"violation: …"`` (the replay test
expects it to fail until the bug is fixed; then switch it to ``"ok"``). A case whose text still
holds MEDDOCAN text is saved as its recipe (note name, lines, mutations), never as text.
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import hashlib
import json
import logging
import multiprocessing
import platform
import random
import re
import resource
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # tests.fuzz_kit and this worktree's crfdeid, without PYTHONPATH

from crfdeid.resources import meddocan_dir  # noqa: E402
from tests import fuzz_kit as fk  # noqa: E402

OTHER_LIMIT = 20_000  # the note run between two runs of a case, cut to keep the cost down
CHUNK = 25
_NOTES: tuple[fk.SourceNote, ...] = ()
_DETECTORS: tuple[str, ...] = ()
_SEED = 0
_SHRUNK: set[str] = set()


def clean(text: str, limit: int = 300) -> str:
    """Printable anywhere: lone surrogates escaped, long texts cut."""
    text = text if len(text) <= limit else text[:limit] + "…"
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _init(notes: tuple[fk.SourceNote, ...], detectors: tuple[str, ...], seed: int) -> None:
    global _NOTES, _DETECTORS, _SEED
    _NOTES, _DETECTORS, _SEED = notes, detectors, seed
    logging.getLogger("crfdeid").setLevel(logging.ERROR)  # rule timeouts are counted, not logged
    for name in detectors:
        fk.detector(name)  # load before timing


def make(index: int) -> fk.Case:
    """Case ``index`` of the run: a function of (seed, index) only."""
    rng = random.Random(f"crfdeid-fuzz:{_SEED}:{index}")
    return fk.make_case(fk.RandomChooser(rng), _DETECTORS[index % len(_DETECTORS)], _NOTES)


def run_chunk(indices: list[int]) -> list[dict[str, Any]]:
    out = []
    other = ""
    for index in indices:
        case = make(index)
        rec = fk.detector(case.detector)
        timeouts = rec.timeouts
        started = time.perf_counter()
        exc = fk.failure_of(case, other)
        row: dict[str, Any] = {
            "index": index,
            "detector": case.detector,
            "family": case.family,
            "policy": case.policy,
            "chars": len(case.text),
            "seconds": time.perf_counter() - started,
            "timeouts": rec.timeouts - timeouts,
        }
        if exc is not None:
            sig = fk.signature(exc)
            row.update(signature=sig, location=fk.location(exc), message=clean(str(exc)))
            if sig not in _SHRUNK:
                _SHRUNK.add(sig)
                row["saved"] = _prepare_saved(case, sig, exc, other, index)
        other = case.text[:OTHER_LIMIT]
        out.append(row)
    return out


def _prepare_saved(
    case: fk.Case, sig: str, exc: BaseException, other: str, index: int
) -> dict[str, Any] | None:
    """The regression JSON for the first failure of a class: shrunk (unless the corpus text
    would be needed to rebuild it), replayed from its JSON to be sure it fails the same way."""
    shrunk = fk.shrink(case, sig, budget=300, other=other)
    if case.recipe is None or not case.recipe["origin"].startswith("meddocan:"):
        case = shrunk
    elif not fk.holds_corpus_text(shrunk.text, _corpus()):
        case = shrunk  # nothing of the note is left: the text may be saved
    kind = "violation" if sig.startswith("violation: ") else "crash"
    what = clean(str(exc), 200) if kind == "violation" else f"{sig}: {clean(str(exc), 200)}"
    slug = re.sub(r"[^a-z0-9]+", "-", _short(sig).lower()).strip("-")[:50]
    digest = hashlib.sha1(case.text.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    data = fk.case_to_json(
        case,
        id=f"{slug}-{digest}",
        expected=f"{kind}: {sig.removeprefix('violation: ')}",
        found_by=f"benchmarks/fuzz.py --seed {_SEED} --detector {case.detector} (case {index})",
        date=dt.date.today().isoformat(),
        what=what,
    )
    data["signature"] = sig
    if other and sig.startswith("violation: output depends"):
        data["other"] = other
    replayed = fk.case_from_json(json.loads(json.dumps(data)), _corpus_root())
    again = fk.failure_of(replayed, data.get("other", "")) if replayed is not None else None
    if again is None or fk.signature(again) != sig:
        data["not_reproducible"] = True
    return data


def _short(sig: str) -> str:
    """``ValueError at crfdeid/surrogates/dates.py in parse < …`` -> ``ValueError dates parse``."""
    if sig.startswith("violation: "):
        return sig
    kind, _, where = sig.partition(" at ")
    match = re.match(r"crfdeid/(?:.*/)?(\w+)\.py in (\w+)", where)
    return f"{kind} {match.group(1)} {match.group(2)}" if match else kind


@functools.cache
def _corpus() -> str:
    root = _corpus_root()
    return fk.corpus_text(root) if root is not None else ""


def _corpus_root() -> Path | None:
    root = meddocan_dir()
    return root if root is not None and root.is_dir() else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0], allow_abbrev=False)
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--detector", choices=(*fk.DETECTORS, "all"), default="rules")
    parser.add_argument("--corpus", type=Path, default=None, help="MEDDOCAN split folder (default: dev)")
    parser.add_argument("--no-save", action="store_true", help="do not write new regression cases")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "fuzz.json")
    args = parser.parse_args(argv)

    corpus = args.corpus
    if corpus is None and _corpus_root() is not None:
        corpus = _corpus_root() / "dev"
    notes = fk.source_notes(corpus)
    detectors = fk.DETECTORS if args.detector == "all" else (args.detector,)
    chunks = [list(range(i, min(i + CHUNK, args.cases))) for i in range(0, args.cases, CHUNK)]
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    last_print = started
    if args.jobs > 1:
        ctx = multiprocessing.get_context("fork")
        pool = ctx.Pool(args.jobs, _init, (notes, detectors, args.seed))
        results = pool.imap_unordered(run_chunk, chunks)
    else:
        pool = None
        _init(notes, detectors, args.seed)
        results = map(run_chunk, chunks)
    loaded = time.perf_counter()
    try:
        for chunk_rows in results:
            rows.extend(chunk_rows)
            now = time.perf_counter()
            if now - last_print > 30:
                failures = sum("signature" in r for r in rows)
                rate = len(rows) / (now - loaded)
                eta = (args.cases - len(rows)) / rate if rate else 0
                print(f"  {len(rows)}/{args.cases} cases, {rate:.1f}/s, {failures} failing, ETA {eta:.0f} s",
                      file=sys.stderr, flush=True)
                last_print = now
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    seconds = time.perf_counter() - loaded
    summary = summarise(rows, args, corpus, notes, seconds)
    if not args.no_save:
        summary["saved"] = save_new(rows)
    print_summary(summary)
    write(summary, args.detector, args.out)
    return 0


def summarise(rows: list[dict[str, Any]], args: argparse.Namespace, corpus: Path | None,
              notes: tuple[fk.SourceNote, ...], seconds: float) -> dict[str, Any]:
    failures: dict[str, dict[str, Any]] = {}
    for row in sorted(rows, key=lambda r: r["index"]):
        if "signature" not in row:
            continue
        entry = failures.setdefault(
            row["signature"],
            {"count": 0, "location": row["location"], "message": row["message"], "first_case": row["index"],
             "detectors": Counter(), "families": Counter()},
        )
        entry["count"] += 1
        entry["detectors"][row["detector"]] += 1
        entry["families"][row["family"]] += 1
    slowest = sorted(rows, key=lambda r: -r["seconds"])[:5]
    per_detector: dict[str, int] = Counter(r["detector"] for r in rows)
    rss = max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return {
        "command": "python benchmarks/fuzz.py " + " ".join(sys.argv[1:]),
        "date": dt.datetime.now().isoformat(timespec="seconds"),
        "machine": f"{platform.node()} {platform.machine()} {platform.processor() or ''}".strip(),
        "python": platform.python_version(),
        "seed": args.seed,
        "jobs": args.jobs,
        "sources": {"notes": len(notes), "corpus": str(corpus) if corpus else None},
        "cases": len(rows),
        "by_detector": dict(per_detector),
        "by_family": dict(Counter(r["family"] for r in rows)),
        "by_policy": dict(Counter(r["policy"] for r in rows)),
        "seconds": round(seconds, 1),
        "cases_per_s": round(len(rows) / seconds, 2) if seconds else None,
        "cases_failing": sum("signature" in r for r in rows),
        "exceptions": {k: v for k, v in failures.items() if not k.startswith("violation: ")},
        "violations": {k: v for k, v in failures.items() if k.startswith("violation: ")},
        "cases_with_rule_timeouts": sum(r["timeouts"] > 0 for r in rows),
        "slowest": [
            {k: r[k] for k in ("index", "detector", "family", "chars")} | {"seconds": round(r["seconds"], 2)}
            for r in slowest
        ],
        "peak_rss_mb": round(rss / 1024, 1),
    }


def save_new(rows: list[dict[str, Any]]) -> list[str]:
    """Save the first case of each failure class not yet in tests/regression/fuzz/."""
    known = {data.get("signature") for _, data in fk.saved_cases()}
    saved = []
    for row in sorted(rows, key=lambda r: r["index"]):
        data = row.get("saved")
        if data is None or data.get("not_reproducible") or data["signature"] in known:
            continue
        known.add(data["signature"])
        saved.append(str(fk.write_case(data).relative_to(ROOT)))
    return saved


def print_summary(s: dict[str, Any]) -> None:
    print(f"{s['cases']} cases in {s['seconds']} s ({s['cases_per_s']} cases/s), {s['by_detector']}; "
          f"{s['cases_failing']} failing; rule timeouts in {s['cases_with_rule_timeouts']} cases; "
          f"peak RSS {s['peak_rss_mb']} MB")
    for title in ("exceptions", "violations"):
        print(f"{title}: {sum(v['count'] for v in s[title].values())}")
        for sig, v in sorted(s[title].items(), key=lambda kv: -kv[1]["count"]):
            print(f"  {v['count']:6d}  {sig}\n          at {v['location']}: {v['message'][:160]}")
    for path in s.get("saved", []):
        print(f"saved {path}")


def write(summary: dict[str, Any], key: str, out: Path) -> None:
    runs = {}
    if out.exists():
        runs = json.loads(out.read_text(encoding="utf-8")).get("runs", {})
    runs[key] = summary
    out.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"runs": runs}, indent=1, ensure_ascii=False, default=dict)
    out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())

