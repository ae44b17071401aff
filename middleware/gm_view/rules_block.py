"""The Rules block: how to write each tag for this ruleset, byte-identical from turn to turn.

It reads only the ruleset and the layers the game was created with (they never change during a
game), so providers' prompt caches hit on every turn. Parts, in order: what the Engine does with
dice and results, the ruleset author's own guidance (``gm.checkGuidance`` / ``gm.sheetGuidance``),
the check parts (``rules_checks``), branch blocks in a game that reads them (``rules_branches``),
the place tag and the item parts (``rules_items``). In tool mode (``ViewOptions.tools``) the block
teaches the functions instead, and no tag (``rules_tools``).
"""

from __future__ import annotations

from collections.abc import Iterator

from middleware.cache import IdentityCache
from middleware.gm_view.parts import Part, ViewOptions, capped, joined, safe
from middleware.gm_view.rules_branches import branch_part
from middleware.gm_view.rules_checks import check_parts
from middleware.gm_view.rules_items import item_parts
from middleware.gm_view.rules_tools import ENGINE as TOOLS_ENGINE
from middleware.gm_view.rules_tools import tool_parts
from middleware.json_input import JsonObject
from middleware.resolve.dice import dice_instructions
from middleware.resolve.sheet.teach import sheet_instructions
from middleware.rules.layers import ladder_of
from middleware.rules.ruleset import Ruleset

TITLE = "GAME RULES (gm-middleware)"

ENGINE = ("The Engine throws every die and applies every tag. Write each tag where it happens in "
          "the story and never write rolls, totals, results or what a bag holds yourself: any "
          "result you write in a tag is discarded and thrown again. The resolved tags in earlier "
          "replies show what really happened.")


_BLOCKS: IdentityCache[str] = IdentityCache(64)


def rules_block(ruleset: Ruleset, layers: tuple[str, ...], options: ViewOptions,
                 branches: bool = False) -> str:
    """The Rules block of a game of ``ruleset`` with ``layers`` on (and branch blocks, when the
    game reads them), within the budget; worked out once per ruleset object, layers, branches
    and options (it is the same text every turn)."""
    key = (layers, branches, options.part_cap, options.budget,
           tuple(sorted(options.caps.items())), options.tools)
    return _BLOCKS.get((ruleset,), key, lambda: _build(ruleset, layers, options, branches))


def _build(ruleset: Ruleset, layers: tuple[str, ...], options: ViewOptions,
           branches: bool) -> str:
    ladder = ladder_of(ruleset, layers)
    if options.tools:
        parts = [Part("engine", "", (TOOLS_ENGINE,)),
                 Part("guidance", "", tuple(_guidance(ruleset.gm))),
                 *tool_parts(ruleset, layers, tuple(ladder))]
        return joined(capped(parts, options), options.budget, TITLE)
    parts = [Part("engine", "", (ENGINE,)),
             Part("guidance", "", tuple(_guidance(ruleset.gm))),
             *check_parts(ruleset, tuple(ladder)),
             *([branch_part(ruleset)] if branches else []),
             Part("sheet", "SHEET", tuple(_lines(sheet_instructions(ruleset)))),
             Part("dice", "PLAIN ROLLS", tuple(_lines(dice_instructions(ruleset)))),
             Part("place", "", () if ruleset.items and ruleset.items.market else
                  ('Name the scene\'s place with [place: name="<place>"].',)),
             *item_parts(ruleset, layers)]
    return joined(capped(parts, options), options.budget, TITLE)


def _guidance(gm: JsonObject | None) -> Iterator[str]:
    if not isinstance(gm, dict):
        return
    for key in ("checkGuidance", "sheetGuidance"):
        text = gm.get(key)
        if isinstance(text, str) and text.strip():
            yield safe(text)


def _lines(text: str | None) -> Iterator[str]:
    """A teaching text's non-empty lines: our own text with its tags in brackets, as written."""
    for line in (text or "").splitlines():
        if line.strip():
            yield line.strip()
