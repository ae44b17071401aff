"""Starting gear (ITM-GEAR-01..11): the kits offered to a character, and taking one into a bag.

Gear is never granted by itself (ITM-GEAR-01): a player takes a kit between turns (the ``gear``
event, ``Engine.take_gear``, the ``gm-middleware gear`` command). Taking is all or nothing: a kit
too heavy for the carrier, a kit with nothing left, an unknown kit, character or pick, and a group
already taken (unless ``again``) are refused and every bag stays exactly as it was.

Refusal codes (ours; the page names none): ``unknown-character``, ``unknown-kit``,
``unknown-choice``, ``group-taken``, ``nothing-left`` (ITM-GEAR-11), ``too-heavy`` (ITM-GEAR-09,
the code SPEC §10 gives a bag that cannot take what it would receive).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from middleware.character.check import view_for
from middleware.character.summary import stack_label
from middleware.errors import GameError
from middleware.items.gear_bag import carry_room, carry_unit, group_key, put_pieces, weight_of
from middleware.items.gear_lines import Piece, Reading, pieces
from middleware.items.index import item_index
from middleware.names import normalize_name
from middleware.rules.items import Kit
from middleware.rules.layers import removed
from middleware.rules.ruleset import Ruleset
from middleware.sheet.roller import find_roller
from middleware.state import Character, GameState, Stack


@dataclass(frozen=True, slots=True)
class KitOffer:
    """A kit as the list offers it: ``fits`` is None for a kit for anyone (no ``fits``)."""

    kit: Kit
    fits: bool | None


@dataclass(frozen=True, slots=True)
class Taken:
    """What taking a kit did, or why it was refused (then ``state`` is the state as it was)."""

    status: Literal["taken", "refused"]
    reason: str | None
    who: str | None
    kit: str
    state: GameState
    pieces: tuple[Piece, ...] = ()
    skipped: tuple[str, ...] = ()
    weight: float = 0.0
    room: float | None = None
    feedback: str = ""


def kits_for(ruleset: Ruleset, character: Character | None) -> tuple[KitOffer, ...]:
    """ITM-GEAR-03/08: every kit, those whose ``fits`` the sheet meets first, then kits for
    anyone, then the rest; ``fits`` reads the sheet without live state or items."""
    block = ruleset.items
    if block is None:
        return ()
    static = view_for(ruleset, character).static
    offers = [KitOffer(k, None if k.fits is None else static.ref(k.fits.value) >= k.fits.at_least)
              for k in block.starting_gear]
    rank = {True: 0, None: 1, False: 2}
    return tuple(sorted(offers, key=lambda o: rank[o.fits]))


def find_kit(ruleset: Ruleset, name: str) -> Kit | None:
    """A kit by id or label, without case or punctuation."""
    wanted = normalize_name(name)
    kits = ruleset.items.starting_gear if ruleset.items else ()
    return next((k for k in kits if wanted in (normalize_name(k.id), normalize_name(k.label))), None)


def take_kit(ruleset: Ruleset, state: GameState, who: str | None, kit_name: str,
             picks: Sequence[str] = (), *, again: bool = False,
             removed: frozenset[str] = frozenset()) -> Taken:
    """ITM-GEAR-02/05/07/09..11: put ``kit_name`` into ``who``'s bag (the player by default).

    ``picks`` names one option per choice and one item per ``oneOf`` (the first when none is
    named); ``again`` is the dialog's yes to taking a group twice; ``removed`` holds the item refs
    and coin ids a layer took out of the game.
    """
    kit = find_kit(ruleset, kit_name)
    roller = find_roller(state, who)
    if kit is None:
        return _refused(state, who, kit_name, "unknown-kit", f"There is no kit {kit_name!r}.")
    if roller.index is None or roller.character is None:
        return _refused(state, who, kit.label, "unknown-character",
                        f"Nobody in the party is called {who!r}." if who else
                        "The party is empty.")
    return _take(ruleset, state, roller.index, kit, picks, again, removed)


def _take(ruleset: Ruleset, state: GameState, index: int, kit: Kit, picks: Sequence[str],
          again: bool, removed: frozenset[str]) -> Taken:
    member = state.party[index]
    reading = pieces(kit, item_index(ruleset), picks, removed)
    weight = weight_of(ruleset, reading.pieces)
    room = carry_room(ruleset, member, state)
    unit = carry_unit(ruleset)
    refusal = _refusal(member, kit, reading, again, (weight, room, unit))
    if refusal is not None:
        return _refused(state, member.name, kit.label, refusal[0], refusal[1], weight, room)
    bag, equipped = put_pieces(ruleset, member.bag, reading.pieces, state)
    kits = member.kits if group_key(kit) in member.kits else (*member.kits, group_key(kit))
    after = state.with_character(index, member.model_copy(update={"bag": bag, "kits": kits}))
    parts = [f"{p.count} {p.label}" + (" (equipped)" if n in equipped else
                                       " (not equipped: no free slot)" if p.equip else "")
             for n, p in enumerate(reading.pieces)]
    line = _taken_line(unit, member.name, kit, parts, reading.skipped, weight, room)
    return Taken("taken", None, member.name, kit.label, after, reading.pieces, reading.skipped,
                 weight, room, line)


def _refusal(member: Character, kit: Kit, reading: Reading, again: bool,
             load: tuple[float, float | None, str]) -> tuple[str, str] | None:
    """The first reason to refuse, in the order the dialog meets them; ``load`` is the kit's
    weight, the carrier's room and the weight unit."""
    weight, room, unit = load
    if unknown := reading.unknown_picks:
        return "unknown-choice", f"{kit.label} offers no {', '.join(unknown)}."
    if group_key(kit) in member.kits and not again:
        return "group-taken", f"{member.name} has already taken a {kit.group or kit.label} kit."
    if not reading.pieces:
        return "nothing-left", f"Nothing of {kit.label} is left in this game."
    if room is not None and weight > 0 and weight > room + 1e-9:  # sums of 1/perWeight
        return "too-heavy", f"{kit.label} weighs {_num(weight)}{unit}; {member.name} can " \
                            f"still lift {_num(max(room, 0.0))}{unit}."
    return None


def _refused(state: GameState, who: str | None, kit: str, reason: str, feedback: str,
             weight: float = 0.0, room: float | None = None) -> Taken:
    return Taken("refused", reason, who, kit, state, weight=weight, room=room, feedback=feedback)


def _taken_line(unit: str, who: str, kit: Kit, parts: Sequence[str], skipped: Sequence[str],
                weight: float, room: float | None) -> str:
    """ITM-GEAR-09/10: what went in, what a layer removed, the weight against the room."""
    line = f"{who} takes {kit.label}: {', '.join(parts)}."
    if skipped:
        line += f" Not in this game: {', '.join(skipped)}."
    if room is not None:
        line += f" It weighs {_num(weight)}{unit}; {who} could still lift {_num(room)}{unit}."
    return line


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def gear_event(ruleset: Ruleset, state: GameState, event: Mapping[str, Any]) -> GameState:
    """The ``gear`` event (``{"type": "gear", "who", "kit", "picks"?, "again"?}``): the state
    after taking the kit; ``GameError`` with the refusal when it cannot be taken."""
    done = take_kit(ruleset, state, event.get("who"), str(event.get("kit", "")),
                    tuple(event.get("picks") or ()), again=bool(event.get("again", False)),
                    removed=removed(ruleset, state.layers).all)
    if done.status == "refused":
        raise GameError(f"gear refused ({done.reason}): {done.feedback}")
    return done.state


def bag_lines(ruleset: Ruleset, bag: Sequence[Stack]) -> list[str]:
    """The bag as the gear dialog shows it: one line per stack."""
    return [f"{s.count} {stack_label(ruleset, s)}" + (" (equipped)" if s.equipped else "")
            + (" (bound)" if s.bound else "") for s in bag]
