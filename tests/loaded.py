"""What a first turn loads: the package's modules imported and its models built since a moment, for
the tests that hold a serving process ready before its first player (``lazy.ready_to_serve``)."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any


def models() -> dict[str, bool]:
    """The package's models outside the ruleset's, each with whether its validator is built."""
    from pydantic import BaseModel

    from middleware.lazy import _subclasses

    return {f"{m.__module__}.{m.__qualname__}": m.__pydantic_complete__
            for m in _subclasses(BaseModel) if m.__module__.startswith("middleware.")
            and not m.__module__.startswith("middleware.rules")}


def _unbuilt() -> set[str]:
    return {name for name, built in models().items() if not built}


@dataclass
class Since:
    """The package's modules and unbuilt models as they stand when made; ``found`` tells what was
    imported and built after."""

    modules: set[str] = field(default_factory=lambda: set(sys.modules))
    unbuilt: set[str] = field(default_factory=_unbuilt)

    def found(self) -> dict[str, object]:
        return {"models": len(models()),
                "imported": sorted(m for m in set(sys.modules) - self.modules
                                   if m.startswith("middleware.")),
                "built": sorted(self.unbuilt - _unbuilt())}


def first_turn_in_a_fresh_interpreter(module: str, *args: str) -> dict[str, Any]:
    """What ``python -m module args`` printed last, read as JSON: a module whose script plays a
    first turn in an interpreter that loaded nothing of the package before, and prints what the
    turn found (``Since.found``) with what it played."""
    done = subprocess.run([sys.executable, "-m", module, *args], capture_output=True, text=True,
                          timeout=120)
    assert 0 == done.returncode, done.stderr
    found: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return found


def assert_loaded_nothing(found: dict[str, Any]) -> None:
    """The turn imported no module of the package and built none of its models, and the state's
    and every record kind's models were looked at."""
    assert [] == found["imported"]
    assert [] == found["built"]
    assert found["models"] > 20
