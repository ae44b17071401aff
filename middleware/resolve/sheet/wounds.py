"""``damage`` and ``heal`` on a wound track (SHEET-WND-06..10).

Marking follows SHEET-WND-09, one mark at a time: on a sequential track a mark is placed by
severity among the marks already there (never appended); on a full track with ``onFull``
``upgrade`` (the default) the lightest mark moves one step up the ladder of kinds instead, and at
the top of the ladder the harm becomes overflow. ``onFull: "refuse"`` refuses the whole op
(``no-box``) unless every mark fits, and an indexed track always does; there a mark goes on the
named box (``box=``, default 1) or the next free box above it and never moves. Healing is the
rest's own (``sheet.rest.heal_wound``, SHEET-WND-10): overflow first, then the lightest marks.
"""

from __future__ import annotations

from middleware.character.rest import heal_wound
from middleware.resolve.sheet.read import Amount, Op
from middleware.resolve.sheet.record import SheetRecord
from middleware.rules.live import Kind, Track
from middleware.sheet.live import WoundView
from middleware.state import Character, Wounds

MAX_MARKS = 64
"""Marks one op places at most (a track never has more than 64 boxes or levels)."""


def damage_wound(op: Op, track: Track, amount: Amount) -> tuple[Character, SheetRecord]:
    """SHEET-WND-09: ``amount`` marks of ``kind=`` (default: the lightest kind); a negative
    amount heals that many (SHEET-WND-10)."""
    if amount.value < 0:
        character, record = heal_track(op, track, Amount(-amount.value, amount.roll, amount.rolls))
        return character, record.model_copy(update={"amount": amount.value})
    kind = _kind(track, op.attr("kind"))
    if kind is None:
        known = ", ".join(k.id for k in track.kinds or ())
        return op.character, op.refuse("unknown-kind", f"{track.label} takes marks of "
                                       f"{known}, not {op.attr('kind')!r}.", track=track.id)
    wound = op.view.live.wound(track.id)
    assert wound is not None
    count = min(amount.value, MAX_MARKS)
    placed = _indexed(op, track, wound, kind, count) if track.indexed \
        else _sequential(track, wound, kind, count)
    if isinstance(placed, str):
        return op.character, op.refuse("no-box", placed, track=track.id, kind=kind.id,
                                       **amount.fields())
    marks, overflow = placed
    character = store_marks(op.character, track.id, marks, overflow)
    return character, _record(op.moved(character), track, f"{track.label} takes {count} "
                              f"{kind.label} mark{'s' if count != 1 else ''}",
                              kind=kind.id, box=_box(op, wound) if track.indexed else None,
                              **amount.fields())


def heal_track(op: Op, track: Track, amount: Amount) -> tuple[Character, SheetRecord]:
    """SHEET-WND-10: clear overflow first, then ``amount`` of the lightest marks (of ``kind=``
    only, when the track declares that kind)."""
    if amount.value < 0:
        return op.character, op.refuse("bad-amount", "A heal of less than 0 heals nothing; "
                                       "write op=damage to hurt.", track=track.id)
    kind = op.attr("kind")
    narrowed = _kind(track, kind) if kind else None
    character = heal_wound(op.ctx.ruleset, op.character, track.id, min(amount.value, 1000),
                           narrowed.id if narrowed else None)
    return character, _record(op.moved(character), track, f"{track.label} heals "
                              f"{amount.value}", kind=narrowed.id if narrowed else None,
                              **amount.fields())


def _record(op: Op, track: Track, said: str, **fields: object) -> SheetRecord:
    """The track as it stands now: marks of its length, the lowest marked level and penalty."""
    wound = op.view.live.wound(track.id)
    assert wound is not None
    level = _lowest_level(wound)
    shown = f"{said}: {track.label} {wound.filled}/{wound.length}"
    shown += f" ({level})" if level else ""
    shown += f", penalty {wound.penalty} on every roll" if wound.penalty < 0 else ""
    shown += f", {wound.overflow} more harm than the track holds" if wound.overflow else ""
    return op.done(shown + ".", track=track.id, now=wound.filled, max=wound.length,
                   overflow=wound.overflow or None, level=level,
                   penalty=wound.penalty if wound.penalty < 0 else None, **fields)


def _lowest_level(wound: WoundView) -> str | None:
    lowest = max((i for i, m in enumerate(wound.marks) if m), default=None)
    return wound.levels[lowest].label if lowest is not None and lowest < len(wound.levels) \
        else None


def _kind(track: Track, name: str | None) -> Kind | None:
    """The kind ``name`` means (id or label, any case); no name: the lightest kind."""
    kinds = sorted(track.kinds or (), key=lambda k: k.severity)
    if name is None:
        return kinds[0] if kinds else None
    wanted = name.strip().lower()
    return next((k for k in kinds if wanted in (k.id.lower(), k.label.lower())), None)


def _sequential(track: Track, wound: WoundView, kind: Kind,
                count: int) -> tuple[list[str], int] | str:
    severity = {k.id: k.severity for k in track.kinds or ()}
    ladder = [k.id for k in sorted(track.kinds or (), key=lambda k: k.severity)]
    marks, overflow = list(wound.marks), wound.overflow
    if track.on_full == "refuse" and len(marks) + count > wound.length:
        return (f"{track.label} has {wound.length - len(marks)} free of {wound.length}: "
                f"{count} marks do not fit, and none is placed.")
    for _ in range(count):
        if len(marks) < wound.length:
            marks = _placed(marks, kind.id, severity)
        else:
            marks, overflow = _upgraded(marks, overflow, ladder, severity)
    return marks, overflow


def _placed(marks: list[str], kind: str, severity: dict[str, int]) -> list[str]:
    """A mark among the others by severity, most severe first (after its equals)."""
    at = sum(1 for m in marks if severity[m] >= severity[kind])
    return [*marks[:at], kind, *marks[at:]]


def _upgraded(marks: list[str], overflow: int, ladder: list[str],
              severity: dict[str, int]) -> tuple[list[str], int]:
    """A full track: the lightest mark (the last of its equals) one step up the ladder; at the
    top of the ladder the harm is overflow."""
    if not marks:
        return marks, overflow + 1
    lightest = min(severity[m] for m in marks)
    at = max(i for i, m in enumerate(marks) if severity[m] == lightest)
    step = ladder.index(marks[at]) + 1
    if step >= len(ladder):
        return marks, overflow + 1
    rest = [*marks[:at], *marks[at + 1:]]
    return _placed(rest, ladder[step], severity), overflow


def _indexed(op: Op, track: Track, wound: WoundView, kind: Kind,
             count: int) -> tuple[list[str], int] | str:
    """SHEET-WND-09: each mark on the named box or the next free one above; all or none."""
    box = _box(op, wound)
    cells = list(wound.marks) + [""] * (wound.length - len(wound.marks))
    for _ in range(count):
        free = next((i for i in range(box - 1, wound.length) if not cells[i]), None)
        if free is None:
            return (f"{track.label} has no free box at {box} or above: the "
                    f"{'mark does' if count == 1 else f'{count} marks do'} not land.")
        cells[free] = kind.id
    while cells and not cells[-1]:
        cells.pop()
    return cells, wound.overflow


def _box(op: Op, wound: WoundView) -> int:
    """``box=`` (default 1), held to the track's boxes."""
    written = op.attr("box")
    box = int(written) if written is not None and written.lstrip("-").isdigit() else 1
    return min(max(box, 1), max(wound.length, 1))


def store_marks(character: Character, track_id: str, marks: list[str],
                overflow: int) -> Character:
    """The track's marks written sparse (SHEET-STORE-02): a clear track is dropped."""
    wounds = {k: v for k, v in character.live.wounds.items() if k != track_id}
    if any(marks) or overflow:
        wounds[track_id] = Wounds(marks=tuple(marks), overflow=overflow)
    live = character.live.model_copy(update={"wounds": wounds})
    return character.model_copy(update={"live": live})
