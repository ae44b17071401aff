"""``[loot: table="grave_goods" who="Ada"]``: draw a loot table into the party's bags (ITM-LOOT).

The steps (ITM-LOOT-03..14, SPEC §1b, §3, §5, §6):

1. The table is ``table=`` or the bare words (``[loot: grave_goods]``), by id or label
   (Ambiguity 27). Refused, with nothing drawn: ``no-tables`` (the ruleset declares none; we have no
   Game Mode tables of our own to fall back on, ITM-LOOT-02), ``unknown-table``,
   ``unknown-character`` (``who=`` names nobody, or the party is empty).
2. The table is drawn with the candidate's dice (``middleware.items.loot``), so a regenerated reply
   starts again from the turn-start state and gives the loot once (ITM-LOOT-13). Whatever the model
   wrote as a result (``rolls=``, ``result=`` ...) is never read.
3. The drops, summed by kind, go to ``who=``'s bag or, without it, to the shared view by the carry
   rule (ITM-LOOT-10/12); each is answered as the add it made (ITM-LOOT-14).
"""

from __future__ import annotations

from middleware.items.bag import Goods
from middleware.items.index import item_index
from middleware.items.loot import draw, find_table, loot_tables, merged
from middleware.records import clean_value
from middleware.resolve import Context, Resolution
from middleware.resolve.inventory.find import Member, holder, named_of
from middleware.resolve.inventory.record import InventoryRecord
from middleware.resolve.loot.deliver import deliver
from middleware.resolve.loot.record import Fell, LootRecord, refused_loot
from middleware.rules.items_money import LootTable
from middleware.rules.layers import removed
from middleware.segments import Tag
from middleware.state import GameState

__all__ = ["Fell", "LootRecord", "resolve_loot"]


def resolve_loot(tag: Tag, state: GameState, ctx: Context) -> Resolution:
    """The ``loot`` resolver: the state with the loot in the bags, and what fell where."""
    found = _table_and_member(tag, state, ctx)
    if isinstance(found, LootRecord):
        return Resolution(state, found)
    table, member = found
    drawn = draw(ctx.ruleset, table, ctx.dice, removed(ctx.ruleset, state.layers).all)
    fell = [_fell(ctx, drop.goods, drop.count) for drop in drawn.drops]
    kinds = merged(drawn.drops)
    parts: list[InventoryRecord] = []
    left: list[Fell] = []
    for goods, count in kinds:
        given = deliver(state, ctx, goods, count, member)
        state = given.state
        parts.extend(given.parts)
        if given.left:
            left.append(_fell(ctx, goods, given.left))
    who = member.name if member is not None else None
    summed = [_fell(ctx, goods, count) for goods, count in kinds]
    return Resolution(state, LootRecord(
        status="resolved", table=table.id, table_label=table.label, draws=drawn.rolls, who=who,
        fell=fell, parts=parts, left=left, source=tag.raw,
        feedback=_summary(table, who, drawn.rolls, summed, left)))


def _table_and_member(tag: Tag, state: GameState,
                      ctx: Context) -> tuple[LootTable, Member | None] | LootRecord:
    """The table and the receiving member (None: the shared view), or the refusal."""
    written = clean_value(tag.get("table") or " ".join(tag.words))
    if not loot_tables(ctx.ruleset):
        return refused_loot("no-tables", "This ruleset has no loot tables.",
                            table=written or None, source=tag.raw)
    table = find_table(ctx.ruleset, written)
    if table is None:
        return refused_loot("unknown-table", _tables_line(ctx, written), table=written or None,
                            source=tag.raw)
    who = (tag.get("who") or "").strip() or None
    member = holder(state, who) if who is not None else None
    if who is not None and member is None:
        return refused_loot("unknown-character", f"Nobody in the party is called "
                            f"{clean_value(who)}.", table=table.id, source=tag.raw)
    if not state.party:
        return refused_loot("unknown-character", "The party is empty: nobody can take the loot.",
                            table=table.id, source=tag.raw)
    return table, member


def _fell(ctx: Context, goods: Goods, count: int) -> Fell:
    named = named_of(item_index(ctx.ruleset), goods)
    return Fell(item=named.label, count=count, ref=goods.item, coins=goods.coins)


def _tables_line(ctx: Context, written: str) -> str:
    known = ", ".join(f"{t.id} ({t.label})" for t in loot_tables(ctx.ruleset))
    asked = f'No loot table "{written}"' if written else "Name the loot table"
    return f"{asked}; tables are {known}."


def _summary(table: LootTable, who: str | None, rolls: int, fell: list[Fell],
             left: list[Fell]) -> str:
    """ITM-LOOT-11: what dropped (summed by kind) and that it is already in the bags, and what
    stayed behind."""
    draws = f"{rolls} draw" + ("" if rolls == 1 else "s")
    if not fell:
        return f"{table.label} ({draws}): nothing dropped."
    into = f"{who}'s bag" if who else "the party's bags"
    line = f"{table.label} ({draws}): " + ", ".join(f"{f.count} {f.item}" for f in fell)
    line += f"; already in {into}."
    if left:
        line += " Left behind, nobody can carry it: " + \
            ", ".join(f"{f.count} {f.item}" for f in left) + "."
    return line
