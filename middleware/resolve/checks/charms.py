"""A charm: a catalog entry the roller chose, named with ``use=``, that changes a pool roll
(CHK-CHARM-01..13, SHEET-LST-05).

``find_entry`` reads which entry a name means over the roller's marked list rows; ``buy_charm``
reads its ``mechanics.check``, works out the purchases (``perCostStep`` scales, CHK-CHARM-10) and
pays the entry's own ``cost`` plus one use of each row pool the entry's rows make, all or nothing
(CHK-CHARM-09/12). When ``use=`` is written, ``spend=`` pays the entry and never a standing spend
rule as well.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from middleware.character.check import current, spend_pool, view_for
from middleware.names import normalize_name
from middleware.resolve.checks.dice_pool.rules import Reroll
from middleware.resolve.checks.kind import Roll
from middleware.resolve.checks.spend import Bought, Offer
from middleware.rules.catalogs import CatalogEntry, CharmCheck, Mechanics, PoolCost
from middleware.rules.ruleset import Ruleset
from middleware.rules.sheet import SheetList
from middleware.state import Character, GameState

MAX_PURCHASES = 20
"""Our cap on how many times one check buys a scaling entry (SPEC §8: hostile input)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """The catalog entry a ``use=`` name means: its mark, label and ``mechanics``."""

    mark: str
    label: str
    mechanics: Mechanics | None


def find_entry(ruleset: Ruleset, character: Character | None,
               name: str) -> Entry | str:
    """SHEET-LST-05: the one entry whose marked rows answer to ``name`` (shown name or entry
    label, without case); else ``"unknown-entry"`` or ``"ambiguous-entry"``. An entry whose
    catalog cannot be read does nothing (CHK-CHARM-13): ``"unknown-entry"``."""
    wanted = normalize_name(name)
    marks = {mark for mark, shown in _marked_rows(ruleset, character)
             if wanted and wanted in (normalize_name(shown), normalize_name(_label(ruleset, mark)))}
    if len(marks) > 1:
        return "ambiguous-entry"
    entry = _catalog_entry(ruleset, next(iter(marks))) if marks else None
    if entry is None:
        return "unknown-entry"
    return Entry(next(iter(marks)), entry.label, entry.mechanics)


def buy_charm(roll: Roll, name: str) -> Bought:
    """CHK-CHARM-02..12: what the entry's ``mechanics.check`` adds, bought and paid."""
    character = current(roll.state, roll.roller)
    found = find_entry(roll.ctx.ruleset, character, name)
    if isinstance(found, str):
        return Bought(reason=found, note=f'"{name}" is no entry {roll.ask.who or "the roller"} '
                                          f"chose ({found}): nothing used or paid.")
    check = found.mechanics.check if found.mechanics is not None else None
    if check is None or character is None:
        return Bought(note=f"{found.label} does not change a check: nothing used or paid.")
    purchases = _purchases(found, Offer.parse(roll.ask.attrs.get("spend")))
    if purchases <= 0:
        return Bought(note=f"The spend buys no whole use of {found.label}: nothing paid.")
    paid = _pay(roll, found, character, purchases)
    if paid is None:
        return Bought(reason="insufficient",
                      note=f"Not enough to pay for {found.label}: nothing used or paid.")
    after, spent = paid
    return _effects(check, purchases, found.label, after, spent)


def _purchases(entry: Entry, offer: Offer | None) -> int:
    """CHK-CHARM-10/12, CHK-SPEND-14: whole prices paid when it scales, else once."""
    if entry.mechanics is None or entry.mechanics.per_cost_step is None or offer is None:
        return 1
    price = next((c.amount for c in _costs(entry)
                  if normalize_name(c.pool) == normalize_name(offer.pool)), None)
    if not price:
        return 1
    return min(offer.points // price, MAX_PURCHASES)


def _pay(roll: Roll, entry: Entry, character: Character,
         purchases: int) -> tuple[Character, str | None] | None:
    """CHK-CHARM-09/12: what ``pay_entry`` pays for the roller."""
    return pay_entry(roll.ctx.ruleset, roll.state, character, entry, purchases)


def pay_entry(ruleset: Ruleset, state: GameState, character: Character, entry: Entry,
              purchases: int = 1) -> tuple[Character, str | None] | None:
    """CHK-CHARM-09/12: every cost pool times the purchases, then one use of each of the entry's
    row pools; all or nothing (None: not enough). Returns the character after paying and what
    was paid (``"resolve:1,tricks:second breath:1"``; None when the entry costs nothing). A
    ``[sheet: op="use"]`` pays the same way."""
    paid: list[str] = []
    due = [(c.pool, c.amount * purchases) for c in _costs(entry)]
    due += [(key, 1) for key in _counters(ruleset, character, entry.mark)]
    for named, amount in due:
        key = _payer(ruleset, character, named, amount, state)
        after = spend_pool(ruleset, character, key, amount, state)
        if after is None:
            return None
        character = after
        paid.append(f"{key}:{amount}")
    return character, ",".join(paid) or None


def _payer(ruleset: Ruleset, character: Character, key: str, amount: int,
           state: GameState) -> str:
    """SHEET-LIVE-06: a cost naming a pool group pays from the first pool of the group, in
    declaration order, that can afford it; any other name is the pool itself."""
    pools = view_for(ruleset, character, state=state).live.pools()
    if key in pools:
        return key
    group = [p.id for p in ruleset.sheet.live.pools if p.group == key and p.id in pools]
    return next((pool for pool in group if pools[pool][0] >= amount), key)


def _effects(check: CharmCheck, purchases: int, label: str, character: Character,
             spent: str | None) -> Bought:
    """CHK-CHARM-02..06, Ambiguity 19: dice and successes scale; the re-roll is bought once."""
    reroll = check.reroll
    return Bought(
        dice=_whole(check.dice) * purchases,
        successes=_whole(check.successes) * purchases,
        reroll=Reroll(reroll.up_to, reroll.mode) if reroll is not None else None,
        threshold=check.threshold, explode=check.explode,
        double=check.double, paid=spent, use=label, character=character,
    )


def _costs(entry: Entry) -> tuple[PoolCost, ...]:
    return entry.mechanics.cost if entry.mechanics is not None else ()


def _counters(ruleset: Ruleset, character: Character, mark: str) -> list[str]:
    """The row pools the entry's own rows make (a use counter such as "tricks:second breath")."""
    made = view_for(ruleset, character).live.row_pools()
    keys: list[str] = []
    for sheet_list in ruleset.sheet.lists:
        if sheet_list.pools is None or character.sheet is None:
            continue
        for row in character.sheet.build.lists.get(sheet_list.id, ()):
            name = row.get(sheet_list.pools.name_column)
            key = f"{sheet_list.id}:{name.strip().lower()}" if isinstance(name, str) else ""
            if row.get("_catalog") == mark and key in made and key not in keys:
                keys.append(key)
    return keys


def _marked_rows(ruleset: Ruleset, character: Character | None) -> Iterator[tuple[str, str]]:
    """Every ``(mark, shown name)`` of the roller's rows that carry a ``_catalog`` mark."""
    if character is None or character.sheet is None:
        return
    for sheet_list in ruleset.sheet.lists:
        column = _name_column(ruleset, sheet_list)
        for row in character.sheet.build.lists.get(sheet_list.id, ()):
            mark = row.get("_catalog")
            if isinstance(mark, str):
                shown = row.get(column or "")
                yield mark, shown if isinstance(shown, str) else ""


def _name_column(ruleset: Ruleset, sheet_list: SheetList) -> str | None:
    """SHEET-LST-05: ``gm.sheetSummary`` ``nameColumn``, else ``pools.nameColumn``, else the
    list's first text column. The ``gm`` block is kept whole as the file's JSON."""
    gm = ruleset.gm
    summary = gm.get("sheetSummary") if gm is not None else None
    lists = summary.get("lists") if isinstance(summary, dict) else None
    for shown in lists if isinstance(lists, list) else ():
        if isinstance(shown, dict) and shown.get("list") == sheet_list.id \
                and isinstance(shown.get("nameColumn"), str):
            return str(shown["nameColumn"])
    if sheet_list.pools is not None:
        return str(sheet_list.pools.name_column)
    return next((c.id for c in sheet_list.columns if c.type == "text"), None)


def _catalog_entry(ruleset: Ruleset, mark: str) -> CatalogEntry | None:
    catalog_id, _, entry_id = mark.partition("/")
    catalog = next((c for c in ruleset.catalogs if c.id == catalog_id), None)
    return catalog.entry(entry_id) if catalog is not None else None


def _label(ruleset: Ruleset, mark: str) -> str:
    entry = _catalog_entry(ruleset, mark)
    return entry.label if entry else ""


def _whole(value: int | None) -> int:
    """A scaling bonus counts only when it adds (CHK-CHARM-03/04): 0 for none or a negative."""
    return value if value is not None and value > 0 else 0
