"""Which section of a branch block a check's record keeps (pure: the block and the record).

The section named by the check's outcome tier (its label or id) wins; else one named for a critical
(``critical success``, ``critical failure``) when the check was one; else ``success`` or
``failure``. Names match as ``names.normalize_name`` compares them (case, spacing, punctuation).
The kept section's prose loses the spaces and line breaks next to its markers, so the reply reads
as if only that section had been written. The record's numbers come from the engine's own record of
the check; nothing in a section can say what the dice did.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from middleware.names import normalize_name
from middleware.records import Record, Status
from middleware.resolve.branch.blocks import Block, Item, Section
from middleware.resolve.branch.record import BranchRecord, Problem
from middleware.resolve.checks.record import CheckRecord
from middleware.segments import Marker, Tag, Text

_PLAIN = {True: frozenset({"success", "succeed", "succeeds", "pass"}),
          False: frozenset({"failure", "fail", "fails", "failed"})}
_CRITICAL = {True: frozenset({"critical success", "critical"}),
             False: frozenset({"critical failure", "fumble"})}

_LINES: dict[Problem, str] = {
    "no-section": "no section was written for this result, so none was kept",
    "no-result": "the check before it was not rolled, so no section was kept",
    "no-check": "no [skill_check:] comes before it: left as written; write a block right after "
                "its check",
    "nested": "a block inside a section: it was chosen by its own check; write one block per check",
    "repeated": "a section label was written twice: only the first of them can be kept",
    "stray-end": "a [/branch] that closes no block: left as written",
}


@dataclass(frozen=True, slots=True)
class Chosen:
    """What stands in the reply in place of a block (in reading order), and its record."""

    kept: tuple[Item, ...]
    record: BranchRecord


def choose(block: Block, check: Record | None) -> Chosen:
    """The items ``block`` leaves in the reply once ``check`` (its check's record) is known."""
    labels = [section.label for section in block.sections]
    if block.check is None:  # nothing decides: left as written, tags and all
        return Chosen(_as_written(block), _record(block, "ignored", labels, None, (), check))
    if not isinstance(check, CheckRecord) or check.success is None:
        return Chosen((), _record(block, "refused", labels, None, ("no-result",), check))
    kept = _selected(block.sections, check)
    if kept is None:
        return Chosen((), _record(block, "refused", labels, None, ("no-section",), check))
    return Chosen(_trimmed(kept.body), _record(block, "resolved", labels, kept, (), check))


def _selected(sections: Sequence[Section], check: CheckRecord) -> Section | None:
    """The first section named by the most specific name of the result that any section has."""
    success = bool(check.success)
    tier = frozenset(normalize_name(n) for n in (check.outcome, check.tier) if n)
    critical = _CRITICAL[success] if check.critical else frozenset()
    names = [normalize_name(section.label) for section in sections]
    for wanted in (tier, critical, _PLAIN[success]):
        for section, name in zip(sections, names, strict=True):
            if name in wanted:
                return section
    return None


def _trimmed(body: tuple[Item, ...]) -> tuple[Item, ...]:
    """The section's items without the whitespace next to its markers."""
    items = list(body)
    if items and isinstance(items[0], Text):
        first = items[0]
        items[0] = Text(first.text.lstrip(), first.end - len(first.text.lstrip()), first.end)
    if items and isinstance(items[-1], Text):
        last = items[-1]
        items[-1] = Text(last.text.rstrip(), last.start, last.start + len(last.text.rstrip()))
    return tuple(i for i in items if not isinstance(i, Text) or i.text)


def _as_written(block: Block) -> tuple[Item, ...]:
    """The block as the model wrote it: its markers as prose, its items as they are."""
    items: list[Item] = []
    for section in block.sections:
        items += [_prose(section.marker), *section.body]
    return (*items, *((_prose(block.end),) if block.end else ()))


def _prose(marker: Marker) -> Text:
    return Text(marker.raw, marker.start, marker.end)


def _record(block: Block, status: Status, labels: list[str], kept: Section | None,
            found: tuple[Problem, ...], check: Record | None) -> BranchRecord:
    problems = [*block.problems, *found]
    result, outcome = _result(check)
    dropped = sum(_tags(s.body) for s in block.sections if s is not kept) if status != "ignored" \
        else 0
    return BranchRecord.trusted(
        status=status, reason=problems[0] if problems else None,
        check=check.skill if isinstance(check, CheckRecord) else None, result=result,
        outcome=outcome, kept=kept.label if kept else None, sections=labels, dropped_tags=dropped,
        problems=problems, feedback=_feedback(kept, outcome or result, dropped, problems))


def _result(check: Record | None) -> tuple[str | None, str | None]:
    if not isinstance(check, CheckRecord):
        return None, None
    return check.result, check.outcome


def _feedback(kept: Section | None, result: str | None, dropped: int,
              problems: list[Problem]) -> str:
    said = [f'kept "on {kept.label}" for {result}' if kept else None,
            f"{dropped} tag{'s' if dropped != 1 else ''} in the other sections never happened"
            if dropped else None,
            *(_LINES[p] for p in problems)]
    return "; ".join(s for s in said if s)


def _tags(items: Sequence[Item]) -> int:
    return sum(1 for _ in _all_tags(items))


def _all_tags(items: Sequence[Item]) -> Iterator[Tag]:
    for item in items:
        if isinstance(item, Tag):
            yield item
        elif isinstance(item, Block):
            for section in item.sections:
                yield from _all_tags(section.body)
