"""A kit's lines, as the pieces they put in a bag (ITM-GEAR-04..06, -10, -11).

``pieces`` reads a kit with the player's picks: one option for each choice and one item for each
``oneOf`` list, each picked by its label (the first is taken when nothing names one). Items and
coins a layer removed are skipped and named; a removed coin is paid in the family's largest
remaining coins for the same value (Ambiguity 25: greedy).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from middleware.items.index import Coin, ItemIndex, RulesetItem
from middleware.names import normalize_name
from middleware.rules.items import GearLine, Kit


@dataclass(frozen=True, slots=True)
class Piece:
    """What one line puts in a bag: a ruleset item, a coin or a plain item, ``count`` of it."""

    count: int
    item: RulesetItem | None = None
    coin: Coin | None = None
    plain: str | None = None
    equip: bool = False

    @property
    def label(self) -> str:
        """How the bag shows it (a coin by its name for this count, ITM-MONEY-17)."""
        if self.item is not None:
            return self.item.label
        if self.coin is not None:
            return self.coin.name_for(self.count)
        return self.plain or ""


@dataclass(frozen=True, slots=True)
class Reading:
    """The pieces a kit gives, what a layer removed (ITM-GEAR-10), and picks that named nothing."""

    pieces: tuple[Piece, ...]
    skipped: tuple[str, ...]
    unknown_picks: tuple[str, ...]


def pieces(kit: Kit, index: ItemIndex, picks: Sequence[str] = (),
           removed: frozenset[str] = frozenset()) -> Reading:
    """ITM-GEAR-02/04/06: the kit's fixed lines, then the picked option of each choice."""
    wanted = {normalize_name(p): p for p in picks}
    used: set[str] = set()
    lines = list(kit.lines)
    for choice in kit.choices:
        option = _pick([o.label for o in choice.options], wanted, used)
        lines += choice.options[option].lines
    out: list[Piece] = []
    skipped: list[str] = []
    for line in lines:
        got, lost = _line(line, index, wanted, used, removed)
        out += got
        skipped += lost
    unknown = tuple(p for key, p in wanted.items() if key not in used)
    return Reading(tuple(out), tuple(skipped), unknown)


def _pick(labels: Sequence[str], wanted: dict[str, str], used: set[str]) -> int:
    """The first label a pick names, else the first (the dialog's default)."""
    for position, label in enumerate(labels):
        if normalize_name(label) in wanted:
            used.add(normalize_name(label))
            return position
    return 0


def _line(line: GearLine, index: ItemIndex, wanted: dict[str, str], used: set[str],
          removed: frozenset[str]) -> tuple[list[Piece], list[str]]:
    if line.one_of is not None:
        return _one_of(line, index, wanted, used, removed)
    if line.item is not None:
        return _item(index.by_ref(line.item), line, removed, line.item)
    if line.coins is not None:
        return _coins(index, line.coins, line.count, removed)
    return [Piece(line.count, plain=line.name)], []


def _item(found: RulesetItem | None, line: GearLine, removed: frozenset[str],
          ref: str) -> tuple[list[Piece], list[str]]:
    """ITM-GEAR-10/11: a removed item is skipped and named; a service is never given."""
    if found is None or found.ref in removed:
        return [], [found.label if found else ref]
    if found.is_service:
        return [], []
    return [Piece(line.count, item=found, equip=line.equip)], []


def _one_of(line: GearLine, index: ItemIndex, wanted: dict[str, str], used: set[str],
            removed: frozenset[str]) -> tuple[list[Piece], list[str]]:
    """ITM-GEAR-04/10/11: the picked item of those still in the game that are not services."""
    found = [index.by_ref(ref) for ref in line.one_of or ()]
    offered = [f for f in found if f is not None and f.ref not in removed and not f.is_service]
    if not offered:
        return [], [" or ".join(f.label if f else "?" for f in found)]
    chosen = offered[_pick([f.label for f in offered], wanted, used)]
    return [Piece(line.count, item=chosen, equip=line.equip)], []


def _coins(index: ItemIndex, coin_id: str, count: int,
           removed: frozenset[str]) -> tuple[list[Piece], list[str]]:
    """ITM-GEAR-10 / Ambiguity 25: a removed coin is paid in the largest remaining coins."""
    coin = index.coin(coin_id)
    if coin is None:
        return [], [coin_id]
    if coin.unit.id not in removed:
        return [Piece(count, coin=coin)], []
    left = sorted((c for c in index.coins if c.family.id == coin.family.id
                   and c.unit.id not in removed), key=lambda c: -c.worth)
    paid = list(_change(count * coin.worth, left))
    return paid, [] if paid else [coin.name_for(count)]


def _change(value: int, coins: Iterable[Coin]) -> Iterable[Piece]:
    for coin in coins:
        count, value = divmod(value, coin.worth)
        if count:
            yield Piece(count, coin=coin)
