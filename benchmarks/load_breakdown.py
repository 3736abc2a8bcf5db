"""Where a model load goes: ``Deidentifier()`` and a first note, phase by phase, in fresh processes.

    python benchmarks/load_breakdown.py [--runs 5] [--out benchmarks/results/load_breakdown.json]

Each run is a new Python process (``--child``) that does what a user's first call does —
``Deidentifier()`` with the embedded model, then one short note — with timers wrapped around the
steps of that load: imports (numpy, numba, crfdeid), the numba kernels' first calls (read from
numba's on-disk cache, or compiled), opening and compiling the model, the language pack, the
lexicon and annotator, the gazetteer matcher, the rule pack, the encoder, the pseudonymiser and
its surrogate data, and the first note itself. A phase's time is *exclusive*: what its step
spent outside the other timed steps it called. ``gc`` is the time the cyclic garbage collector
ran (``gc.callbacks``), wherever it ran; ``other`` is the rest of the load. Wall and CPU time
(``time.process_time``) of each; the report keeps, per phase, the run with the least total CPU
(noise on a shared machine only ever adds time), and the whole command's wall time from outside
the process (interpreter start-up included).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from timing import commit  # benchmarks/ on sys.path

ROOT = Path(__file__).resolve().parent.parent
NOTE = "Paciente: Ana López, 45 años."


class Clock:
    """Exclusive wall and CPU seconds per phase: a step's time minus the timed steps inside it."""

    def __init__(self) -> None:
        self.wall: dict[str, float] = {}
        self.cpu: dict[str, float] = {}
        self._stack: list[list[Any]] = []  # [phase, wall start, cpu start, nested wall, nested cpu]

    def add(self, phase: str, wall: float, cpu: float) -> None:
        self.wall[phase] = self.wall.get(phase, 0.0) + wall
        self.cpu[phase] = self.cpu.get(phase, 0.0) + cpu

    def start(self, phase: str) -> None:
        self._stack.append([phase, time.perf_counter(), time.process_time(), 0.0, 0.0])

    def stop(self) -> None:
        phase, wall0, cpu0, nested_wall, nested_cpu = self._stack.pop()
        wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
        self.add(phase, wall - nested_wall, cpu - nested_cpu)
        self.nested(wall, cpu)

    def nested(self, wall: float, cpu: float) -> None:
        """Time spent inside the running step that belongs to another phase."""
        if self._stack:
            self._stack[-1][3] += wall
            self._stack[-1][4] += cpu

    def wrap(self, phase: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            self.start(phase)
            try:
                return fn(*args, **kwargs)
            finally:
                self.stop()

        return timed


def _patch(clock: Clock, owner: Any, name: str, phase: str) -> None:
    """Time ``owner.name`` (a class attribute or a module function), also where other crfdeid
    modules bound the same function by name (``from .x import name``)."""
    original = owner.__dict__[name]
    if isinstance(original, classmethod):
        setattr(owner, name, classmethod(clock.wrap(phase, original.__func__)))
        return
    timed = clock.wrap(phase, original)
    setattr(owner, name, timed)
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("crfdeid") and getattr(module, name, None) is original:
            setattr(module, name, timed)


def _gc_timer(clock: Clock) -> Callable[[str, dict], None]:
    started: list[float] = []

    def callback(phase: str, info: dict) -> None:
        if phase == "start":
            started[:] = [time.perf_counter(), time.process_time()]
        elif started:  # the collection's time is the gc's, not the phase's it ran in
            wall, cpu = time.perf_counter() - started[0], time.process_time() - started[1]
            clock.add("gc", wall, cpu)
            clock.nested(wall, cpu)

    return callback


def child() -> dict[str, Any]:
    """One load in this (fresh) process, timed by phase."""
    clock = Clock()
    gc.callbacks.append(_gc_timer(clock))
    wall0, cpu0 = time.perf_counter(), time.process_time()
    clock.start("import numpy")
    import numpy  # noqa: F401

    clock.stop()
    clock.start("import numba")
    with contextlib.suppress(ImportError):  # numba is optional
        import numba  # noqa: F401
    clock.stop()
    clock.start("import crfdeid")
    from crfdeid import kernels, langpack, linguistic, pseudonymise, scorer, tagger
    from crfdeid.deidentify import Deidentifier
    from crfdeid.gazetteer import GazetteerMatcher
    from crfdeid.lone_names import LoneNames
    from crfdeid.lone_places import LonePlaces
    from crfdeid.lone_professions import LoneProfessions
    from crfdeid.rules.engine import RuleEngine
    from crfdeid.span_form import SpanForm
    from crfdeid.surrogates import data
    from crfdeid.types import Document

    clock.stop()
    for owner, name, phase in (
        (tagger.CrfTagger, "load", "model: open"),
        (scorer.CompiledCrf, "from_model", "model: compile to arrays"),
        (langpack, "_load_pack_cached", "language pack"),
        (linguistic, "make_annotator", "lexicon + annotator"),
        (GazetteerMatcher, "__init__", "gazetteer matcher"),
        (RuleEngine, "from_pack", "rules"),
        (scorer.Encoder, "__init__", "encoder"),
        (pseudonymise.Pseudonymiser, "__init__", "pseudonymiser"),
        (data.SurrogateData, "__init__", "surrogate data"),
        (LoneNames, "for_pack", "completion: names"),
        (LonePlaces, "for_pack", "completion: places"),
        (LoneProfessions, "for_pack", "completion: occupations"),
        (SpanForm, "for_pack", "completion: span forms"),
    ):
        _patch(clock, owner, name, phase)
    if kernels.AVAILABLE:
        for dispatcher in (kernels.viterbi, kernels.marginals, kernels.emissions):
            first = clock.wrap("numba: kernels' first calls", dispatcher._compile_for_args)
            dispatcher._compile_for_args = first
    clock.start("Deidentifier(): the rest")  # lazy imports, the pipeline's warm-up note, glue
    deidentifier = Deidentifier()
    clock.stop()
    clock.start("first note: the rest")  # tagging it, lazy surrogate tables, pseudonymising
    deidentifier.deidentify_note(Document("warm", NOTE))
    clock.stop()
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    return {"wall": wall, "cpu": cpu, "phases_wall": clock.wall, "phases_cpu": clock.cpu,
            "kernels": kernels.AVAILABLE, "gc_objects": len(gc.get_objects())}


def run_child() -> tuple[dict[str, Any], float]:
    started = time.perf_counter()
    out = subprocess.run([sys.executable, __file__, "--child"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1]), time.perf_counter() - started


def _list(values: Iterable[float]) -> str:
    return ", ".join(f"{v:.2f}" for v in values)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh processes (the best is kept)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "load_breakdown.json")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child()))
        return 0
    run_child()  # the first load on a machine fills the caches (load-time cache, numba's)
    runs = [run_child() for _ in range(args.runs)]
    best, command = min(runs, key=lambda r: r[0]["cpu"])
    print(f"model load in a fresh process (Deidentifier() + a first note), best of {args.runs} by CPU:")
    print(f"{'phase':34}{'wall s':>9}{'cpu s':>9}")
    for phase in sorted(best["phases_cpu"], key=lambda p: -best["phases_cpu"][p]):
        print(f"{phase:34}{best['phases_wall'][phase]:9.3f}{best['phases_cpu'][phase]:9.3f}")
    print(f"{'total (in the process)':34}{best['wall']:9.3f}{best['cpu']:9.3f}")
    print(f"whole command (interpreter start-up included): {command:.3f} s wall; "
          f"all runs in the process: {_list(r[0]['wall'] for r in runs)} s wall, "
          f"{_list(r[0]['cpu'] for r in runs)} s CPU")
    result = {
        "commit": commit(),
        "command": "python benchmarks/load_breakdown.py --runs " + str(args.runs),
        "machine": {"python": platform.python_version(), "machine": platform.machine(),
                    "cpus": os.cpu_count(), "load": os.getloadavg()},
        "best": best,
        "command_wall_seconds": command,
        "runs_wall": [r[0]["wall"] for r in runs],
        "runs_cpu": [r[0]["cpu"] for r in runs],
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"-> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
