"""``gm-middleware gear``: the starting kits that fit each character, and a bag after taking one.

Registered on the ``app`` of ``cli/app.py``. Thin, like every face: the kits and
the taking come from ``middleware.character.gear`` (ITM-GEAR), imported when the command runs, so
that ``--help`` starts without them.

    gm-middleware gear hearth-and-haul --party party.json
    gm-middleware gear hearth-and-haul --party party.json --who Bram --take warden --pick "Two tonics"
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from middleware.cli.app import app, err, out
from middleware.errors import GMError

if TYPE_CHECKING:
    from middleware.character.gear import KitOffer, Taken
    from middleware.json_input import JsonObject
    from middleware.rules.ruleset import Ruleset
    from middleware.state import Character, GameState

_FITS = {True: "fits", None: "for anyone", False: "does not fit"}


@app.command("gear")
def gear_command(
    ruleset: Annotated[str, typer.Argument(help="A bundled ruleset id or a ruleset file.")],
    party: Annotated[Path, typer.Option(exists=True, dir_okay=False,
                                        help="Party entries as in a transcript (SHEET-TRN).")],
    who: Annotated[str | None, typer.Option(help="Only this character (default: everyone; "
                                                 "the player when taking a kit).")] = None,
    take: Annotated[str | None, typer.Option(help="Take this kit (id or label) and show the "
                                                  "bag after.")] = None,
    pick: Annotated[list[str] | None, typer.Option(help="An option of a choice or an item of a "
                                                        "oneOf list, by label (repeatable).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object on stdout.")] = False,
) -> None:
    """List the starting kits that fit each character (ITM-GEAR-03), or take one (ITM-GEAR-09)."""
    from middleware.character.gear import take_kit
    from middleware.sheet.roller import find_roller
    from middleware.state import GameState

    try:
        rules = _ruleset(ruleset)
        state = GameState(ruleset=rules.id, party=_party(rules, party))
        if who is not None and find_roller(state, who).index is None:
            raise GMError(f"nobody in the party is called {who!r}")
    except (GMError, OSError, ValueError, KeyError) as exc:
        err.print(f"✗ {exc}", markup=False)
        raise typer.Exit(2) from exc
    if take is None:
        _list(rules, state, who, as_json)
        return
    done = take_kit(rules, state, who, take, tuple(pick or ()))
    _show_taken(rules, done, as_json)
    if done.status == "refused":
        raise typer.Exit(1)


def _list(rules: Ruleset, state: GameState, who: str | None, as_json: bool) -> None:
    from middleware.character.gear import kits_for
    from middleware.sheet.roller import find_roller

    members = [state.party[i] for i in range(len(state.party))
               if who is None or find_roller(state, who).index == i]
    offers = {m.name: kits_for(rules, m) for m in members}
    if as_json:
        sys.stdout.write(json.dumps({"party": {name: [_offer_json(o) for o in found]
                                               for name, found in offers.items()}}) + "\n")
        return
    for name, found in offers.items():
        out.print(name, markup=False)
        for offer in found or ():
            group = f" [{offer.kit.group}]" if offer.kit.group else ""
            out.print(f"  {offer.kit.id}: {offer.kit.label}{group} · {_FITS[offer.fits]}",
                      markup=False)
        if not found:
            out.print("  (this ruleset has no starting gear)", markup=False)


def _offer_json(offer: KitOffer) -> JsonObject:
    return {"id": offer.kit.id, "label": offer.kit.label, "group": offer.kit.group,
            "fits": offer.fits}


def _show_taken(rules: Ruleset, done: Taken, as_json: bool) -> None:
    from middleware.character.gear import bag_lines
    from middleware.character.summary import bag_counts
    from middleware.items.index import item_index

    member = _member(done.state, done.who)
    bag = member.bag if member else ()
    if as_json:
        sys.stdout.write(json.dumps({
            "status": done.status, "reason": done.reason, "who": done.who, "kit": done.kit,
            "feedback": done.feedback, "weight": done.weight, "room": done.room,
            "skipped": list(done.skipped), "bag": bag_counts(item_index(rules), bag)}) + "\n")
        return
    if done.status == "refused":
        err.print(f"✗ {done.reason}: {done.feedback}", markup=False)
        return
    out.print(done.feedback, markup=False)
    out.print(f"{done.who}'s bag:", markup=False)
    for line in bag_lines(rules, bag):
        out.print(f"  {line}", markup=False)


def _member(state: GameState, who: str | None) -> Character | None:
    from middleware.sheet.roller import find_roller

    roller = find_roller(state, who)
    return roller.character if roller.index is not None else None


def _ruleset(name: str) -> Ruleset:
    """A bundled ruleset by id, else a ruleset file."""
    from middleware.rules.load import load_ruleset
    from middleware.rules.registry import bundled_ids, load_bundled

    if name in bundled_ids():
        return load_bundled(name)
    return load_ruleset(Path(name))


def _party(rules: Ruleset, path: Path) -> tuple[Character, ...]:
    from middleware.sheet.party import read_party

    data = json.loads(path.read_text(encoding="utf-8"))
    return tuple(read_party(rules, data["party"] if isinstance(data, dict) and "party" in data else data))
