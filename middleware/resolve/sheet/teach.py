"""The lines that teach the Game Master ``[sheet:]`` for one ruleset (for the GM's view).

Pure: a ruleset in, text out, naming only what this ruleset's sheet has: its pools, tracks (wound
tracks with their kinds, how they fill), conditions, states and rests, each by label with the id
to write. It depends only on the ruleset, so a rules block built from it stays byte-identical.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from middleware.resolve.sheet.read import health_target
from middleware.rules.live import LiveBlock, Track

if TYPE_CHECKING:
    from middleware.rules.ruleset import Ruleset


def sheet_instructions(ruleset: Ruleset) -> str:
    """How to change the sheet in this game, one line per kind of thing it keeps."""
    live: LiveBlock = ruleset.sheet.live
    lines = ["Change a character's sheet with [sheet: op=... who=...] (who= defaults to the "
             "player). The engine applies it and writes back what the sheet holds now; tags "
             "apply in reading order, so a check after a damage tag reads the new penalty."]
    lines += _pool_lines(live)
    lines += _track_lines(ruleset, live)
    if live.conditions:
        names = ", ".join(c.label for c in live.conditions)
        lines.append(f'Conditions ({names}): [sheet: op="condition" name="{live.conditions[0].label}"]'
                     ' puts one on; add remove to lift it.')
    for state in live.states:
        labels = state.value_labels or {}
        values = ", ".join(labels.get(v, v) for v in state.values)
        lines.append(f'{state.label} is one of {values}: [sheet: op="state" name="{state.id}" '
                     f'value="{state.values[-1]}"].')
    if live.text:
        names = ", ".join(t.label for t in live.text)
        lines.append(f'Notes ({names}): [sheet: op="note" name="{live.text[0].id}" text="..."].')
    lines += _rest_lines(ruleset)
    if getattr(ruleset, "catalogs", None):
        lines.append('Chosen abilities with a cost: [sheet: op="use" name="..."] pays it '
                     '(op="cast" too).')
    if ruleset.resolution.spend:
        lines.append("Spend points on the check itself with spend=, never with [sheet:].")
    return "\n".join(lines)


def _pool_lines(live: LiveBlock) -> list[str]:
    if not live.pools:
        return []
    names = ", ".join(f"{p.label} (pool=\"{p.id}\")" for p in live.pools)
    first = live.pools[0].id
    lines = [f"Pools: {names}. [sheet: op=\"damage\" pool=\"{first}\" amount=\"2\"] takes points "
             f"(amount may be a roll, amount=\"1d6\"); op=\"heal\" gives them back, up to the "
             "maximum."]
    temp = [p.label for p in live.pools if p.allow_temp]
    if temp:
        lines.append(f"Temporary points ({', '.join(temp)}): op=\"temp\" amount=\"N\".")
    return lines


def _track_lines(ruleset: Ruleset, live: LiveBlock) -> list[str]:
    lines = []
    for track in live.tracks:
        lines.append(_wound_line(track) if track.wound else
                     f'{track.label} is a track ({_range(track)}): [sheet: op="track" '
                     f'track="{track.id}" mark amount="1"], or clear, or value="N".')
    target = health_target(ruleset)
    if target is not None:
        lines.append(f"Damage and heal with no pool= or track= land on {target[0]} {target[1]}.")
    return lines


def _wound_line(track: Track) -> str:
    kinds = sorted(track.kinds or (), key=lambda k: k.severity)
    names = ", ".join(f"{k.id} ({k.label})" for k in kinds)
    fills = ("by box: box=\"N\" names the box" if track.indexed else
             "lightest first; a full track worsens its lightest mark")
    levels = ", ".join(f"{lv.label} {lv.penalty}" for lv in track.levels or ())
    line = (f'{track.label} is a wound track of kinds {names}, filled {fills}: [sheet: '
            f'op="damage" track="{track.id}" kind="{kinds[0].id}" amount="1"]; a negative amount '
            "or op=\"heal\" clears the lightest marks.")
    return line + (f" Levels: {levels}." if levels else "")


def _range(track: Track) -> str:
    top = track.max if isinstance(track.max, int) else "its maximum"
    return f"{track.min} to {top}"


def _rest_lines(ruleset: Ruleset) -> list[str]:
    rests = list(getattr(ruleset, "rests", ()) or ())
    if not rests:
        return []
    names = ", ".join(f"{r.label} (rest=\"{r.id}\")" for r in rests)
    return [f"Rests: {names}. [sheet: op=\"rest\" rest=\"{rests[0].id}\"] restores what the rest "
            "says and recharges items."]
