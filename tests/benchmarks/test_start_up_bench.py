"""Start-up: ``import middleware`` and ``gm-middleware --help`` as whole processes, against
``python -c pass`` on the same interpreter, in turn in one run (pass, import, help, first use,
pass, import, ...), so each ratio is taken round by round while the machine's speed drifts.

"First use" is ``from middleware import Engine, load_bundled``: what a program that plays pays
once, the engine and the ruleset models with it. CPU time is each child's own (``os.wait4``);
wall time is a monotonic clock around it. No time is asserted: the figures are printed. The
package's bytecode is compiled first, as an installed package has it: otherwise (with
``PYTHONDONTWRITEBYTECODE`` set) every run would also time the compiler.

    .venv/bin/python -m pytest tests/benchmarks/test_start_up_bench.py --benchmark-only -s
"""

from __future__ import annotations

import compileall
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import middleware

ROUNDS = int(os.environ.get("GM_BENCH_ROUNDS", "9"))

_SCRIPT = Path(sys.executable).with_name("gm-middleware")
COMMANDS: dict[str, list[str]] = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "import middleware": [sys.executable, "-c", "import middleware"],
    "gm-middleware --help": [str(_SCRIPT), "--help"] if _SCRIPT.exists() else
    [sys.executable, "-c", "from middleware.cli import main; main()", "--help"],
    "from middleware import Engine, load_bundled": [
        sys.executable, "-c", "from middleware import Engine, load_bundled"],
}


def _run(command: list[str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one whole process, its output thrown away."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    assert 0 == child.returncode, command
    return usage.ru_utime + usage.ru_stime, wall


@pytest.mark.benchmark(group="start-up")
def test_start_up_against_python_doing_nothing(benchmark: Any) -> None:
    compileall.compile_dir(Path(middleware.__file__).parent, quiet=1)
    taken: dict[str, list[tuple[float, float]]] = {name: [] for name in COMMANDS}

    def one_round() -> None:
        for name, command in COMMANDS.items():
            taken[name].append(_run(command))

    benchmark.pedantic(one_round, rounds=ROUNDS, iterations=1, warmup_rounds=1)
    kept = {name: runs[-ROUNDS:] for name, runs in taken.items()}  # the warm-up round left out
    base = kept["python -c pass"]
    print(f"\nstart-up, {ROUNDS} rounds (medians; ratio: the median of the per-round ratios)")
    print(f"{'command':<46}{'CPU ms':>9}{'wall ms':>9}{'× pass CPU':>12}{'× pass wall':>13}")
    for name, runs in kept.items():
        cpu = statistics.median(r[0] for r in runs) * 1000
        wall = statistics.median(r[1] for r in runs) * 1000
        by_cpu = statistics.median(r[0] / b[0] for r, b in zip(runs, base, strict=True))
        by_wall = statistics.median(r[1] / b[1] for r, b in zip(runs, base, strict=True))
        print(f"{name:<46}{cpu:>9.1f}{wall:>9.1f}{by_cpu:>11.1f}×{by_wall:>12.1f}×")
