"""``gm-middleware odds`` and ``gm-middleware roll``: a check's exact odds, symbol dice by name.

Registered on the ``app`` of ``cli/app.py``. Thin, like every face: the odds come from
``resolve/checks/chance.py`` and the symbol dice from ``resolve/checks/symbol_pool/roll.py``
(CHK-SYM-19). The rules and resolvers are imported when a command runs, so that ``--help`` starts
without them.

    gm-middleware odds gravewatch --check '[skill_check: skill="Ward" dc="2"]' --party party.json
    gm-middleware roll far-signal "2 ability 1 proficiency vs 2 difficulty" --seed 7
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from rich.text import Text

from middleware.cli.app import app, err, out
from middleware.dice import Dice
from middleware.errors import GMError

if TYPE_CHECKING:
    from middleware.json_input import JsonObject
    from middleware.resolve.checks.chance import CheckChance
    from middleware.resolve.checks.symbol_pool.roll import SymbolRoll
    from middleware.rules.ruleset import Ruleset
    from middleware.state import Character

RulesetArg = Annotated[str, typer.Argument(help="A bundled ruleset id or a ruleset file.")]
AsJson = Annotated[bool, typer.Option("--json", help="One JSON object on stdout.")]


@app.command("odds")
def odds_command(
    ruleset: RulesetArg,
    check: Annotated[str, typer.Option(help='The tag, e.g. \\[skill_check: skill="Ward" dc="2"].')],
    party: Annotated[Path | None, typer.Option(
        exists=True, dir_okay=False, help="Party entries as in a transcript (SHEET-TRN).")] = None,
    who: Annotated[str | None, typer.Option(help="Who rolls (default: the tag's who=, else "
                                                 "the player).")] = None,
    as_json: AsJson = False,
) -> None:
    """Print the exact chance of success of a check, and of each outcome tier."""
    from middleware.resolve.sheet import chance_after_sheet
    from middleware.state import GameState

    try:
        rules = _ruleset(ruleset)
        state = GameState(ruleset=str(rules.id), party=_party(rules, party))
        found = chance_after_sheet(rules, state, check, who)  # [sheet:] tags first
    except (GMError, OSError, ValueError) as exc:
        err.print(f"✗ {exc}", style="red", markup=False)
        raise typer.Exit(2) from exc
    if as_json:
        sys.stdout.write(json.dumps(_odds_json(found)) + "\n")
        return
    out.print(_odds_table(found))
    if found.note:
        out.print(found.note, markup=False)


@app.command("roll")
def roll_command(
    ruleset: RulesetArg,
    dice: Annotated[str, typer.Argument(help='Symbol dice by name: "2 ability vs 1 difficulty".')],
    seed: Annotated[int | None, typer.Option(help="Seed of the dice (default: random).")] = None,
    as_json: AsJson = False,
) -> None:
    """Roll a ruleset's symbol dice by name, outside any check (CHK-SYM-19)."""
    from middleware.resolve.checks.symbol_pool.roll import roll_symbols

    try:
        rules = _ruleset(ruleset)
    except (GMError, OSError) as exc:
        err.print(f"✗ {exc}", style="red", markup=False)
        raise typer.Exit(2) from exc
    rolled = roll_symbols(rules, dice, Dice(seed if seed is not None else random.randrange(2**63)))
    if as_json:
        sys.stdout.write(json.dumps(_roll_json(rolled)) + "\n")
    elif rolled.error:
        err.print(f"✗ {rolled.message}", markup=False)
    else:
        out.print(rolled.summary, markup=False)
    if rolled.error:
        raise typer.Exit(1)


def _ruleset(name: str) -> Ruleset:
    """A bundled ruleset by id, else a ruleset file."""
    from middleware.rules.load import load_ruleset
    from middleware.rules.registry import bundled_ids, load_bundled

    if name in bundled_ids():
        return load_bundled(name)
    return load_ruleset(Path(name))


def _party(rules: Ruleset, path: Path | None) -> tuple[Character, ...]:
    from middleware.sheet.party import read_party

    if path is None:
        return ()
    data = json.loads(path.read_text(encoding="utf-8"))
    return read_party(rules, data["party"] if isinstance(data, dict) and "party" in data else data)


def _odds_table(found: CheckChance) -> Table:
    title = f"{found.skill}" + (f" ({found.who})" if found.who else "") + f" · {found.kind}"
    table = Table(title=Text(title))  # Text: a skill or tier may hold brackets, not markup
    table.add_column("result")
    table.add_column("chance", justify="right")
    if found.odds is None:
        table.add_row("success", "unknown")
        return table
    table.add_row("success", _percent(float(found.odds.success)))
    for label, p in found.odds.tiers:
        table.add_row(Text(label), _percent(float(p)))
    return table


def _percent(p: float) -> str:
    return f"{100 * p:.2f}%"


def _odds_json(found: CheckChance) -> JsonObject:
    odds = found.odds
    return {
        "skill": found.skill, "who": found.who, "kind": found.kind, "note": found.note,
        "success": float(odds.success) if odds else None,
        "tiers": [{"label": label, "chance": float(p)} for label, p in odds.tiers] if odds
        else [],
    }


def _roll_json(rolled: SymbolRoll) -> JsonObject:
    if rolled.error:
        return {"error": rolled.error, "message": rolled.message}
    return {
        "dice": [{"die": t.die.id, "side": t.side, "face": t.face, "symbols": list(t.symbols)}
                 for t in rolled.dice],
        "symbols": rolled.symbols, "total": rolled.reading.total if rolled.reading else None,
        "success": rolled.success, "summary": rolled.summary,
    }
