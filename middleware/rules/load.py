"""Load a ruleset file, refusing it whole with every problem and its JSON path (SPEC §8).

Two passes: the pydantic models check shapes, types and ranges (SHEET-IMPORT-01, the structural
CHK-IMPORT rules); then ``long_integers`` finds whole numbers no range bounds that a game cannot
carry, and each function in ``CHECKERS`` compares keys with one another (CHK-IMPORT,
SHEET-IMPORT). Pydantic's errors are turned into ``Problem``s here and nowhere else.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path

from pydantic import JsonValue, ValidationError

from middleware.errors import Problem, RulesetError, UnreadableRuleset
from middleware.json_input import JsonInputError, JsonObject, read_json
from middleware.rules.audit.catalog_ids import check_catalog_ids
from middleware.rules.audit.hide_when import check_hide_when, check_layer_values
from middleware.rules.audit.item_stat import check_item_stats
from middleware.rules.audit.items import check_items
from middleware.rules.audit.resolution import check_resolution
from middleware.rules.audit.ruleset import check_audit
from middleware.rules.audit.sheet import check_sheet
from middleware.rules.base import json_path
from middleware.rules.problems import validation_problems
from middleware.rules.ruleset import Ruleset
from middleware.text import clean, clean_json

MAX_BYTES = 256 * 1024
"""SHEET-FILE-06: the whole ruleset file is at most 256 KB."""

Source = str | Path | bytes | Mapping[str, object]
Checker = Callable[[Ruleset], Iterable[Problem]]

CHECKERS: list[Checker] = [check_resolution, check_audit, check_sheet, check_items,
                           check_item_stats, check_hide_when, check_layer_values,
                           check_catalog_ids]
"""Semantic checks run in order on a ruleset whose shape is valid; each yields every problem."""


def load_ruleset(source: Source) -> Ruleset:
    """A checked ``Ruleset`` from a path, JSON text, bytes or parsed object, or ``RulesetError``."""
    name, raw = _read(source)
    try:
        text = json.dumps(raw)
        ruleset = Ruleset.model_validate_json(text, strict=True)
    except ValidationError as exc:
        raise RulesetError(validation_problems(exc, raw), source=name) from exc
    problems = _dedupe([*long_integers(raw), *(p for check in CHECKERS for p in check(ruleset))])
    if problems:
        raise RulesetError(problems, source=name)
    # An own copy of the file, so a stored game can load the very same rules again.
    ruleset._source = json.loads(text)
    return ruleset


def validate_ruleset(source: Source) -> list[Problem]:
    """Every problem that would refuse ``source`` (empty when it loads)."""
    try:
        load_ruleset(source)
    except RulesetError as exc:
        return list(exc.problems)
    return []


def ruleset_json_schema() -> JsonObject:
    """The JSON Schema of the ruleset file, generated from the models (``gm-middleware schema``)."""
    return Ruleset.model_json_schema(by_alias=True)


# --- reading --------------------------------------------------------------------------------


def _read(source: Source) -> tuple[str, JsonObject]:
    if isinstance(source, Mapping):  # read back from its text, within the same bounds as a file
        try:
            text = json.dumps(source, allow_nan=False)
        except (TypeError, ValueError, RecursionError) as exc:
            raise UnreadableRuleset([Problem("$", f"not JSON: {exc}")], "ruleset") from exc
        return "ruleset", _parse(clean(text).encode(), "ruleset")
    if isinstance(source, bytes):
        return "ruleset", _parse(source, "ruleset")
    if isinstance(source, str) and source.lstrip().startswith("{"):
        return "ruleset", _parse(clean(source).encode(), "ruleset")
    path = Path(source)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UnreadableRuleset([Problem("$", f"cannot read the file: {exc.strerror}")],
                                str(path)) from exc
    return str(path), _parse(data, str(path))


def _parse(data: bytes, name: str) -> JsonObject:
    _check_size(len(data), name)
    try:  # bounded JSON (middleware.json_input): no NaN, no deep nesting, no endless numbers
        raw = clean_json(read_json(data, "the file"))
    except JsonInputError as exc:
        decoding = exc.__cause__
        if isinstance(decoding, UnicodeDecodeError):
            message = "the file is not UTF-8 text"
        elif isinstance(decoding, json.JSONDecodeError):
            where = f"line {decoding.lineno} column {decoding.colno}"
            message = f"not valid JSON: {decoding.msg} at {where}"
        else:
            message = str(exc)
        raise UnreadableRuleset([Problem("$", message)], name) from exc
    if not isinstance(raw, dict):
        raise RulesetError([Problem("$", "a ruleset must be a JSON object")], name)
    return raw


def _check_size(size: int, name: str) -> None:
    if size > MAX_BYTES:
        message = f"the file is {size} bytes; a ruleset may be at most {MAX_BYTES} (256 KB)"
        raise RulesetError([Problem("$", message)], name)


WHOLE_NUMBERS = range(-(2**63), 2**63)
"""SHEET-IMPORT-01: the whole numbers a game can carry (64 bits: the ruleset is stored and digested
as JSON with every number in it, and records go out through the proxy the same way)."""


def long_integers(raw: JsonValue) -> Iterator[Problem]:
    """Each whole number past 64 bits in the file, at its path: where a key has a range the
    models refuse it already, but a ``const`` or the free ``gm`` block has none."""
    stack: list[tuple[tuple[int | str, ...], JsonValue]] = [((), raw)]
    while stack:
        where, node = stack.pop()
        if isinstance(node, dict):
            stack += [((*where, k), v) for k, v in reversed(node.items())]
        elif isinstance(node, list):
            stack += [((*where, i), v) for i, v in reversed(list(enumerate(node)))]
        elif isinstance(node, int) and not isinstance(node, bool) and node not in WHOLE_NUMBERS:
            digits = str(node)
            got = digits if len(digits) <= 24 else f"a number of {len(digits.lstrip('-'))} digits"
            yield Problem(json_path(where), f"a whole number must be within 64 bits "
                                            f"(-2**63 to 2**63-1), got {got}")


def _dedupe(problems: Iterable[Problem]) -> list[Problem]:
    """Problems in order, each once (two checkers may find the same fault)."""
    return list(dict.fromkeys(problems))
