"""Import checks on ``resolution.overrides`` (CHK-OVR, CHK-IMPORT-36..39).

An override's ``set`` replaces top-level resolution keys for some checks (Ambiguity 24: whole keys,
no deep merge; ``null`` removes one). The resolution it produces is validated like the file's own
(CHK-IMPORT-38), and any new problem is reported under the override's ``set``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache
from typing import TYPE_CHECKING

from pydantic import TypeAdapter, ValidationError

from middleware.errors import Problem
from middleware.json_input import JsonObject
from middleware.rules.common import Override
from middleware.rules.problems import RESOLUTION as R
from middleware.rules.problems import validation_problems
from middleware.rules.resolution import AnyResolution, ResolutionBlock

if TYPE_CHECKING:
    from middleware.rules.ruleset import Ruleset

LOCKED = frozenset({"kind", "abilityModifier", "proficiency", "proficiencyTiers", "penaltyFrom",
                    "spend", "adjust", "difficultyLadder", "overrides"})
"""CHK-OVR-04 / CHK-IMPORT-37: keys an override may not touch (``overrides`` would nest)."""
SYMBOL_LOCKED = frozenset({"symbols", "dice"})

BlockCheck = Callable[[AnyResolution, "Ruleset"], Iterator[Problem]]


@cache
def _adapter() -> TypeAdapter[AnyResolution]:
    return TypeAdapter(ResolutionBlock)


def check_overrides(ruleset: Ruleset, check_block: BlockCheck) -> Iterator[Problem]:
    """CHK-IMPORT-36..39 for every override of ``ruleset.resolution``."""
    res = ruleset.resolution
    base = set(check_block(res, ruleset))
    unconditional: dict[tuple[str, str], int] = {}
    for i, override in enumerate(res.overrides):
        path = f"{R}.overrides[{i}]"
        yield from _names(override, path)
        yield from _locked(override, res.kind, path)
        yield from _produced(res, override, ruleset, check_block, base, i)
        if override.when is None:
            yield from _twice(override, unconditional, i, path)


def _names(override: Override, path: str) -> Iterator[Problem]:
    """CHK-IMPORT-36: an override names some check and carries a label."""
    if not (override.skills or override.saves or override.abilities):
        yield Problem(path, "an override must name skills, saves or abilities")
    if override.label is None:
        yield Problem(f"{path}.label", "an override needs a label")


def _locked(override: Override, kind: str, path: str) -> Iterator[Problem]:
    """CHK-IMPORT-37: ``set`` may not change the kind, the sheet math or the ladder."""
    locked = LOCKED | (SYMBOL_LOCKED if kind == "symbol-pool" else frozenset())
    for key in override.set:
        if key in locked:
            yield Problem(f"{path}.set.{key}", f"an override may not set {key!r}")


def _twice(override: Override, seen: dict[tuple[str, str], int], i: int, path: str) \
        -> Iterator[Problem]:
    """CHK-IMPORT-39: a check named by two overrides that both lack ``when``."""
    for group in ("skills", "saves", "abilities"):
        for j, name in enumerate(getattr(override, group)):
            first = seen.setdefault((group, name), i)
            if first != i:
                yield Problem(f"{path}.{group}[{j}]",
                              f"{name!r} is already overridden without when by overrides[{first}]")


def _produced(res: AnyResolution, override: Override, ruleset: Ruleset,
              check_block: BlockCheck, base: set[Problem], i: int) -> Iterator[Problem]:
    """CHK-IMPORT-38: the resolution the override produces passes the same checks."""
    merged = merged_resolution(res, override)
    prefix = ("resolution", "overrides", i, "set")
    try:
        produced = _adapter().validate_python(merged)
    except ValidationError as exc:
        yield from (_under_set(p, override, i) for p in validation_problems(exc, merged, prefix))
        return
    for problem in check_block(produced, ruleset):
        if problem not in base:
            yield _under_set(problem, override, i)


def merged_resolution(res: AnyResolution, override: Override) -> JsonObject:
    """CHK-OVR-02/03 (Ambiguity 24): the file's resolution with ``set`` applied, as JSON: each key
    replaced whole, a ``null`` removing it; ``kind`` is never replaced (CHK-IMPORT-37)."""
    merged: JsonObject = res.model_dump(by_alias=True, exclude_unset=True)
    for key, value in override.set.items():
        if key == "kind":
            continue
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = value
    return merged


def _under_set(problem: Problem, override: Override, i: int) -> Problem:
    """Move a problem of the produced resolution under this override's ``set``."""
    where = f"{R}.overrides[{i}].set"
    if problem.path.startswith(where):
        rest = problem.path[len(where):].lstrip(".")
    elif problem.path.startswith(f"{R}."):
        rest = problem.path[len(R) + 1:]
    else:
        return Problem(where, f"with this override, {problem.path}: {problem.message}")
    key = rest.split(".")[0].split("[")[0]
    if key in override.set:
        return Problem(f"{where}.{rest}", problem.message)
    return Problem(where, f"with this override, {R}.{rest}: {problem.message}")
