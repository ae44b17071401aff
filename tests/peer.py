"""Where the files kept beside the checkout live: the peer's example rulesets and the spec digests.

The peer's (Marinara Engine's) example rulesets are not shipped with this repository. Tests that
exist to prove those files load and behave read them from ``GM_COMPAT_DIR`` (default
``../shared/compat`` beside the checkout); the requirement digests the coverage tests read come
from ``GM_SPEC_DIR`` (default ``../shared/spec``). When a folder is absent those tests are
skipped, and the test run's summary says so once. With ``GM_REQUIRE_COMPAT=1`` (set by ``.ci/run``)
an absent folder stops the run with an error instead, so CI never skips them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
COMPAT = Path(os.environ.get("GM_COMPAT_DIR") or SHARED / "compat").resolve()
SPEC = Path(os.environ.get("GM_SPEC_DIR") or SHARED / "spec").resolve()
REQUIRED = os.environ.get("GM_REQUIRE_COMPAT", "") not in ("", "0")

COMPAT_ABSENT = f"the peer's example rulesets are not at {COMPAT} (set GM_COMPAT_DIR)"
SPEC_ABSENT = f"the requirement digests are not at {SPEC} (set GM_SPEC_DIR)"


def missing() -> list[str]:
    """The reason of each folder that is absent (empty when both are there)."""
    return [reason for folder, reason in ((COMPAT, COMPAT_ABSENT), (SPEC, SPEC_ABSENT))
            if not folder.is_dir()]


def _present(folder: Path, reason: str) -> Path:
    """``folder``, or the calling test (or the whole module, at import) skipped for ``reason``."""
    if not folder.is_dir():
        pytest.skip(reason, allow_module_level=True)
    return folder


def compat_present() -> bool:
    """Whether the peer's example rulesets are there to test against."""
    return COMPAT.is_dir()


def compat_path(name: str) -> Path:
    """The path of a compat ruleset file such as ``gravewatch.json`` (skips when absent)."""
    return _present(COMPAT, COMPAT_ABSENT) / name


def compat_json(name: str) -> Any:
    """The parsed JSON of a compat ruleset file (a fresh copy each call, safe to change)."""
    return json.loads(compat_path(name).read_text(encoding="utf-8"))


def spec_path(name: str) -> Path:
    """The path of a requirement digest such as ``checks.md`` (skips when absent)."""
    return _present(SPEC, SPEC_ABSENT) / name
