"""``track``, ``condition``, ``state`` and ``note``: the live values that are set rather than
spent (SHEET-LIVE-07..12, SHEET-WND-12, SHEET-COND-03).

A plain track moves within its range (``mark``/``clear`` by ``amount=``, or ``value=``); a wound
track is refused (``wrong-track``: a bare number cannot say what the marks are). A condition is on
or off; a levelled one (a plain track that ``combat.levels`` reads, such as exhaustion) takes
``level=``. A state takes one of its own values; a note is cut to its field's length.
"""

from __future__ import annotations

from middleware.character.rest import set_track
from middleware.resolve.sheet.read import (
    Amount,
    Op,
    find_condition,
    find_state,
    find_text,
    find_track,
)
from middleware.resolve.sheet.record import SheetRecord
from middleware.rules.live import Track
from middleware.state import Character

Done = tuple[Character, SheetRecord]
REMOVE_WORDS = ("remove", "lift", "clear", "off", "end")


def track_op(op: Op, amount: Amount) -> Done:
    """SHEET-LIVE-07/08: ``value=`` sets; ``mark`` adds ``amount`` (default 1), ``clear``
    takes it off; held to ``min..max``. SHEET-WND-12: a wound track is refused."""
    name = op.attr("track", "name")
    track = find_track(op.view, name) if name else None
    if track is None:
        return op.character, op.refuse("unknown-track", f"No track {name!r} on this sheet.",
                                       track=name)
    if track.wound:
        return op.character, op.refuse(
            "wrong-track", f"{track.label} is a wound track: mark it with op=damage "
            f"track={track.id} kind=... amount=..., clear it with op=heal.",
            track=track.id)
    return _move(op, track, _wanted(op, track, amount), amount)


def _wanted(op: Op, track: Track, amount: Amount) -> int:
    value = op.view.live.plain_value(track)
    written = op.attr("value", "to")
    if written is not None and written.lstrip("-").isdigit():
        return int(written)
    return value - amount.value if op.word("clear") else value + amount.value


def _move(op: Op, track: Track, wanted: int, amount: Amount | None = None,
          **fields: object) -> Done:
    low, high = op.view.live.track_range(track)
    new = min(max(wanted, low), high)
    character = set_track(op.ctx.ruleset, op.character, track.id, new, op.state)
    held = f" (held to {low}..{high})" if new != wanted else ""
    extra = amount.fields() if amount is not None else {}
    return character, op.done(f"{track.label} {new}/{high}{held}.", track=track.id, now=new,
                              max=high, **extra, **fields)


def condition_op(op: Op) -> Done:
    """SHEET-LIVE-10: the condition on (a second time changes nothing), or off with ``remove``;
    a levelled track by its label takes ``level=`` (or one level up, or down on ``remove``)."""
    name = op.attr("name", "condition")
    condition = find_condition(op.view, name) if name else None
    if condition is None:
        track = _levelled(op, name)
        if track is not None:
            return _level(op, track)
        return op.character, op.refuse("not-a-condition", f"{name!r} is no condition of this "
                                       f"game{_known(op)}.", name=name)
    active = op.character.live.conditions
    if op.word(*REMOVE_WORDS) or op.attr("remove") in ("true", "yes", "1"):
        kept = tuple(c for c in active if c != condition.id)
        said = f"{condition.label} lifted." if kept != active else \
            f"{condition.label} was not on: nothing changes."
        return _conditions(op, kept), op.done(said, name=condition.id, value="off")
    if condition.id in active:
        return op.character, op.done(f"{condition.label} is already on: nothing changes.",
                                     name=condition.id, value="on")
    return _conditions(op, (*active, condition.id)), op.done(f"{condition.label} is on.",
                                                             name=condition.id, value="on")


def _known(op: Op) -> str:
    names = ", ".join(c.label for c in op.view.rules.sheet.live.conditions)
    return f" (conditions: {names})" if names else " (it has none)"


def _conditions(op: Op, conditions: tuple[str, ...]) -> Character:
    live = op.character.live.model_copy(update={"conditions": conditions})
    return op.character.model_copy(update={"live": live})


def _levelled(op: Op, name: str | None) -> Track | None:
    """A plain track that ``combat.levels`` reads (SHEET-COND-03), by id or label."""
    track = find_track(op.view, name) if name else None
    combat = getattr(op.ctx.ruleset, "combat", None)
    levels = getattr(combat, "levels", None) or ()
    if track is None or track.wound or not any(lv.track == track.id for lv in levels):
        return None
    return track


def _level(op: Op, track: Track) -> Done:
    written = op.attr("level")
    value = op.view.live.plain_value(track)
    if written is not None and written.lstrip("-").isdigit():
        wanted = int(written)
    else:
        wanted = value - 1 if op.word(*REMOVE_WORDS) else value + 1
    return _move(op, track, wanted, name=track.id)


def state_op(op: Op) -> Done:
    """SHEET-LIVE-11/12: one of the state's values (id or shown label); a hidden state is not
    on the sheet and is refused."""
    name = op.attr("name", "state")
    state = find_state(op.view, name) if name else None
    if state is None or op.view.hidden(state.hide_when):
        code = "unknown-state" if state is None else "hidden-state"
        return op.character, op.refuse(code, f"No state {name!r} on this sheet.", name=name)
    written = (op.attr("value", "to") or "").lower()
    labels = state.value_labels or {}
    value = next((v for v in state.values if written in (v.lower(), labels.get(v, v).lower())),
                 None)
    if value is None:
        offered = ", ".join(labels.get(v, v) for v in state.values)
        return op.character, op.refuse("not-a-value", f"{state.label} is one of {offered}.",
                                       name=state.id, value=op.attr("value", "to"))
    states = {k: v for k, v in op.character.live.states.items() if k != state.id}
    if value != state.start:
        states[state.id] = value
    live = op.character.live.model_copy(update={"states": states})
    character = op.character.model_copy(update={"live": live})
    return character, op.done(f"{state.label} {labels.get(value, value)}.", name=state.id,
                              value=value)


def note_op(op: Op) -> Done:
    """SHEET-LIVE-09: a live text field set to ``text=`` (cut to its length); no text clears."""
    field = find_text(op.view, op.attr("name", "field"))
    if field is None:
        return op.character, op.refuse("unknown-note", "This sheet keeps no such note"
                                       f"{_fields(op)}.", name=op.attr("name", "field"))
    text = (op.attr("text", "value", "note") or "")[:field.max_length]
    notes = {k: v for k, v in op.character.live.text.items() if k != field.id}
    if text:
        notes[field.id] = text
    live = op.character.live.model_copy(update={"text": notes})
    character = op.character.model_copy(update={"live": live})
    said = f"{field.label}: {text}." if text else f"{field.label} cleared."
    return character, op.done(said, name=field.id, text=text or None)


def _fields(op: Op) -> str:
    names = ", ".join(f.label for f in op.view.rules.sheet.live.text)
    return f" (notes: {names})" if names else " (it keeps none)"
