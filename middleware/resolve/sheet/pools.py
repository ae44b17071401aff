"""``damage``, ``heal``/``restore`` and ``temp`` on a pool (SHEET-LIVE-04/06).

Damage drains the temporary buffer first (where the pool allows one), then the value, floored at 0
and never refused; healing adds, capped at the maximum; ``temp`` sets the buffer. Every value is
held to the sheet's bounds and the record says so when a number was cut.
"""

from __future__ import annotations

from middleware.character.rest import set_pool
from middleware.resolve.sheet.read import Amount, Op, pool_label
from middleware.resolve.sheet.record import SheetRecord
from middleware.state import Character, PoolValue

TEMP_CAP = 1_000_000


def damage_pool(op: Op, key: str, amount: Amount) -> tuple[Character, SheetRecord]:
    """SHEET-LIVE-06 damage: the buffer first, then the value, floored at 0; a negative amount
    heals."""
    if amount.value < 0:
        character, record = heal_pool(op, key, Amount(-amount.value, amount.roll, amount.rolls))
        return character, record.model_copy(update={"amount": amount.value})
    value, top = op.view.live.pools()[key]
    temp = _temp(op, key)
    soaked = min(temp, amount.value)
    new = max(value - (amount.value - soaked), 0)
    character = _store(op, key, new, temp - soaked)
    label = pool_label(op.view, key)
    said = f"{label} takes {amount.value}" + (f" ({soaked} from its buffer)" if soaked else "")
    said += f": {label} {new}/{top}" + (" (it cannot go below 0)" if value - amount.value
                                        + soaked < 0 else "") + "."
    return character, op.done(said, pool=key, now=new, max=top,
                              temp=(temp - soaked) or None, **amount.fields())


def heal_pool(op: Op, key: str, amount: Amount) -> tuple[Character, SheetRecord]:
    """SHEET-LIVE-06 restore: value + N, capped at the maximum."""
    if amount.value < 0:
        return op.character, op.refuse("bad-amount", "A heal of less than 0 heals nothing; "
                                       "write op=damage to hurt.", pool=key)
    value, top = op.view.live.pools()[key]
    new = min(value + amount.value, top)
    character = set_pool(op.ctx.ruleset, op.character, key, new, op.state)
    label = pool_label(op.view, key)
    capped = " (capped at its maximum)" if value + amount.value > top else ""
    return character, op.done(f"{label} +{new - value}{capped}: {label} {new}/{top}.",
                              pool=key, now=new, max=top, **amount.fields())


def temp_pool(op: Op, key: str, amount: Amount) -> tuple[Character, SheetRecord]:
    """SHEET-LIVE-04: the temporary buffer set to N (0 clears it), only where ``allowTemp``."""
    declared = op.view.ix.pools.get(key)
    if declared is None or not declared.allow_temp:
        return op.character, op.refuse("no-temp", f"{pool_label(op.view, key)} takes no "
                                       "temporary points in this game.", pool=key)
    if amount.value < 0:
        return op.character, op.refuse("bad-amount", "Temporary points are 0 or more.",
                                       pool=key)
    temp = min(amount.value, TEMP_CAP)
    value, top = op.view.live.pools()[key]
    character = _store(op, key, value, temp)
    return character, op.done(f"{declared.label} has {temp} temporary points on top of "
                              f"{value}/{top}.", pool=key, now=value, max=top, temp=temp,
                              **amount.fields())


def _temp(op: Op, key: str) -> int:
    """The buffer in force: only a declared pool with ``allowTemp`` has one."""
    declared = op.view.ix.pools.get(key)
    stored = op.character.live.pools.get(key)
    if declared is None or not declared.allow_temp or stored is None:
        return 0
    return stored.temp or 0


def _store(op: Op, key: str, value: int, temp: int) -> Character:
    """The pool's value and buffer written together; sparse (SHEET-STORE-02): an entry at its
    start with no buffer is dropped (``set_pool`` decides that with the old buffer taken off)."""
    pools = dict(op.character.live.pools)
    if key in pools:
        pools[key] = PoolValue(value=pools[key].value)
    character = set_pool(op.ctx.ruleset, _with_pools(op.character, pools), key, value, op.state)
    if not temp:
        return character
    pools = dict(character.live.pools)
    entry = pools.get(key)
    pools[key] = PoolValue(value=entry.value if entry else value, temp=temp)
    return _with_pools(character, pools)


def _with_pools(character: Character, pools: dict[str, PoolValue]) -> Character:
    live = character.live.model_copy(update={"pools": pools})
    return character.model_copy(update={"live": live})
