"""``rest`` and ``use``/``cast``: the ops that run code the game already has.

A rest is the transcript's ``rest`` line, the same function (``sheet.rest.take_rest``,
SHEET-REST-01..09): its restore steps, its clears, then the charges of every item the character
carries whose ``recharge`` names it (ITM-USE-13). Its dice (a recharge written as dice) are the
candidate's, so a regenerated reply starts again from the turn's state and recharges once.

A use pays a catalog entry the character chose (a marked list row) the way a charm on a check
pays (``checks.charms.pay_entry``, CHK-CHARM-09/12): every cost, then one use of each row pool the
entry's rows make, all or nothing. A row pool named directly (``"Second breath"``) pays one use.
"""

from __future__ import annotations

from middleware.character.check import spend_pool
from middleware.character.rest import find_rest, take_rest
from middleware.items.lookup import find_item
from middleware.resolve.checks.charms import find_entry, pay_entry
from middleware.resolve.sheet.read import Op, find_pool, pool_label
from middleware.resolve.sheet.record import SheetRecord
from middleware.state import Character

Done = tuple[Character, SheetRecord]


def rest_op(op: Op) -> Done:
    """SHEET-REST-01..09, ITM-USE-13: one of the ruleset's rests, by id or label."""
    name = op.attr("rest", "name")
    ruleset = op.ctx.ruleset
    rest = find_rest(ruleset, name) if name else None
    if rest is None:
        known = ", ".join(r.label for r in ruleset.rests) or "none"
        return op.character, op.refuse("no-such-rest", f"This game has no rest {name!r} "
                                       f"(rests: {known}).", rest=name)
    state = op.state
    rested = take_rest(ruleset, op.character, rest, op.ctx.dice,
                       lambda item: find_item(ruleset, state, item))
    return rested.character, op.done(rested.line, rest=rest.id)


def use_op(op: Op) -> Done:
    """CHK-CHARM-09/12 paid outside a check: the entry's costs and counters, all or nothing."""
    name = op.attr("name", "entry", "use", "item")
    if name is None:
        return op.character, op.refuse("unknown-entry", "Name the entry: op=use name=...")
    found = find_entry(op.ctx.ruleset, op.character, name)
    if isinstance(found, str):
        return _row_pool(op, name, found)
    paid = pay_entry(op.ctx.ruleset, op.state, op.character, found)
    if paid is None:
        return op.character, op.refuse("cannot-afford", f"Not enough to pay for "
                                       f"{found.label}: nothing used or paid.", name=found.label)
    character, spent = paid
    said = f"{found.label} used" + (f", paid {spent.replace(',', ', ')}" if spent else
                                    ", nothing to pay")
    return character, op.done(said + ".", name=found.label, paid=spent)


def _row_pool(op: Op, name: str, reason: str) -> Done:
    """A list row's own pool named directly (a trick's uses): one use paid."""
    key = find_pool(op.view, name)
    if key not in op.view.live.row_pools():
        return op.character, op.refuse(reason, f"{name!r} is no entry or list row "
                                       f"{op.character.name} chose: nothing used.", name=name)
    after = spend_pool(op.ctx.ruleset, op.character, key, 1, op.state)
    label = pool_label(op.view, key)
    if after is None:
        return op.character, op.refuse("cannot-afford", f"{label} has no use left.", name=label)
    value, top = op.moved(after).view.live.pools()[key]
    return after, op.done(f"{label} used: {value}/{top} left.", name=label, paid=f"{key}:1",
                          pool=key, now=value, max=top)
