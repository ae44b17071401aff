"""The state block's party part: each character's numbers as a check reads them.

One line per character (SHEET-SKL-08: the number the kind's way, ``+3`` on a sum, ``3 dice`` on a
pool), then what the live state holds: pools as ``value of max``, plain tracks, wound tracks with
their marks and the penalty they put on every roll (SHEET-PEN), conditions on with what they do
(SHEET-COND), and states by their value's label. Read through ``view_for`` with the game's invented
items, so worn and carried items count as they do on a check.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from middleware.character.check import view_for
from middleware.gm_view.parts import safe
from middleware.rules.combat import ConditionEffect, Modifier
from middleware.rules.live import Track
from middleware.rules.ruleset import Ruleset
from middleware.sheet.evaluate import SheetView
from middleware.sheet.live import WoundView
from middleware.state import GameState

_DICE_KINDS = frozenset({"dice-pool", "dice-highest", "symbol-pool"})


def party_lines(ruleset: Ruleset, state: GameState) -> list[str]:
    """Every party member's sheet line and live line, in party order."""
    lines: list[str] = []
    player = state.player_index
    for index, member in enumerate(state.party):
        view = view_for(ruleset, member, state=state)
        who = safe(member.name) + (" (player)" if index == player else "")
        lines.append(f"{who}: {_numbers(ruleset, view)}")
        live = list(_live(ruleset, view))
        if live:
            lines.append(f"  {'; '.join(live)}")
    return lines or ["No one is in the party yet."]


def _numbers(ruleset: Ruleset, view: SheetView) -> str:
    sheet = ruleset.sheet
    parts = [", ".join(f"{s.label} {_shown(ruleset, view.skill_number(s.id))}"
                       for s in sheet.skills),
             ", ".join(f"{s.label} {_shown(ruleset, view.save_number(s.id))}"
                       for s in sheet.saves),
             ", ".join(f"{a.label} {_number(view.score(a.id))}"
                       + ("" if view.modifier(a.id) == view.score(a.id)
                          else f" ({_signed(view.modifier(a.id))})")
                       for a in sheet.abilities)]
    return "; ".join(p for p in parts if p) or "no sheet numbers"


def _shown(ruleset: Ruleset, number: float) -> str:
    """SHEET-SKL-08: ``+3`` on a sum, ``3 dice`` / ``1 die`` where the number is dice."""
    whole = math.floor(number)
    if ruleset.resolution.kind in _DICE_KINDS:
        return f"{whole} {'die' if whole == 1 else 'dice'}"
    if ruleset.resolution.kind == "roll-against":
        return str(whole)
    return _signed(whole)


def _live(ruleset: Ruleset, view: SheetView) -> Iterator[str]:
    words = {p.id: p.label for p in ruleset.sheet.live.pools}
    for key, (value, most) in view.live.pools().items():
        yield f"{safe(words.get(key, key))} {value} of {most}"
    for track in ruleset.sheet.live.tracks:
        wound = view.live.wound(track.id)
        if wound is not None:
            yield _wound_line(track, wound)
        elif not view.hidden(track.hide_when):
            low, high = view.live.track_range(track)
            yield f"{track.label} {view.live.plain_value(track)} ({low} to {high})"
    yield from _conditions(ruleset, view)
    yield from _adjusts(ruleset, view)
    for live_state in ruleset.sheet.live.states:
        held = view.live.state_value(live_state.id)
        if held is not None:
            yield f"{live_state.label}: {(live_state.value_labels or {}).get(held, held)}"


def _wound_line(track: Track, wound: WoundView) -> str:
    """``Harm 2 of 4 marked (Scuffed: knock, Winded: tear), -1 on every roll``."""
    kinds = {k.id: k.label for k in track.kinds or ()}
    shown = [f"{wound.levels[i].label}: {kinds.get(m, m)}" if i < len(wound.levels) else m
             for i, m in enumerate(wound.marks) if m]
    text = f"{track.label} {wound.filled} of {wound.length} marked"
    text += f" ({', '.join(shown)})" if shown else ""
    text += f", {wound.overflow} over" if wound.overflow else ""
    return text + (f", {wound.penalty} on every roll" if wound.penalty else "")


def _adjusts(ruleset: Ruleset, view: SheetView) -> Iterator[str]:
    """SHEET-ADJ: what ``resolution.adjust`` adds to rolls with some abilities right now."""
    labels = {a.id: a.label for a in ruleset.sheet.abilities}
    for entry in ruleset.resolution.adjust:
        value = int(view.ref(entry.value))
        if value:
            on = ", ".join(labels.get(a, a) for a in entry.abilities or ()) or "every roll"
            yield f"{value:+d} on rolls with {on}"


def _conditions(ruleset: Ruleset, view: SheetView) -> Iterator[str]:
    active = view.live.active_conditions()
    if not active:
        return
    effects = {c.condition: c for c in (ruleset.combat.conditions if ruleset.combat else ())}
    labels = {c.id: c.label for c in ruleset.sheet.live.conditions}
    shown = [labels.get(c, c) + _does(effects.get(c)) for c in active]
    yield "conditions: " + ", ".join(shown)


def _does(effect: ConditionEffect | None) -> str:
    if effect is None:
        return ""
    parts = [_modifier(m) for m in effect.modifiers]
    parts += [e.replace("-", " ") for e in effect.effects]
    parts += ["fails saves (" + ", ".join(effect.fails_saves) + ")"] if effect.fails_saves else []
    return f" ({', '.join(parts)})" if parts else ""


def _modifier(mod: Modifier) -> str:
    amount = _signed(mod.flat) if mod.flat else (("-" if mod.minus else "+") + (mod.dice or ""))
    if mod.mode is not None:
        return f"{mod.mode} on {mod.to}"
    return f"{amount} on {mod.to}"


def _signed(number: float) -> str:
    whole = math.floor(number) if float(number).is_integer() else number
    return f"{whole:+g}" if not isinstance(whole, int) else f"{whole:+d}"


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
