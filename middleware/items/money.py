"""The party's money: amounts, purses, change-making and the lines the Game Master reads (ITM-MONEY).

Coins are stacks like any other (ITM-MONEY-01: one stack per coin kind, shown by the coin's
``label``); their weight per ``perWeight`` is in ``carry.piece_weight`` (ITM-MONEY-02). Here:

- ``read_amount``: ``amount="3 shillings"``: a number and one coin by id, label or ``one``, any case
  (ITM-MONEY-08); the number held to 1..1,000,000 (SPEC §8) and the GM told when it was clamped.
- ``purse`` / ``purse_line``: a bag's worth per family in its smallest coin, ``Coin worth 432
  pennies`` or ``no coins`` (ITM-MONEY-04/05/17, Ambiguity 7); ``purse_lines`` for the party.
- ``make_change`` / ``pay``: the page's change-making (ITM-MONEY-09/10): the largest coins that fit
  first, then the smallest remaining coin that covers the rest is broken, the change back in the
  family's smaller coins, largest first; ``payment_line`` is its reply (ITM-MONEY-11).
- ``money_instructions``: the ``pay``/``earn`` instructions, only for a ruleset with currencies
  (ITM-MONEY-15).

Everything is pure: a bag (a tuple of stacks) in, a new bag out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from middleware.items.bag import Bag, Goods, held, put, take
from middleware.items.carry import bag_weight, fits
from middleware.items.index import STANDARD_STACK, Coin, ItemIndex, item_index
from middleware.rules.items_money import Currency
from middleware.rules.ruleset import Ruleset
from middleware.state import Character, GameState

AMOUNT_MIN, AMOUNT_MAX = 1, 1_000_000
"""SPEC §8: the number of an amount is bounded; outside these it is clamped and the GM told."""

_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
                 "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
                 "dozen": 12, "twenty": 20, "hundred": 100}
_NUMBER = re.compile(r"^\s*([-+]?\d[\d,_]*)(?![.\d])\s*(?:[x×](?=\s)|×)?\s*(.*)$",
                     re.IGNORECASE | re.DOTALL)
"""``3 shillings``, ``2x shilling``, ``1,000 pennies`` (a decimal is not guessed at)."""
_WORD = re.compile(r"^\s*([a-z]+)\s+(.+)$", re.IGNORECASE | re.DOTALL)

Coins = tuple[tuple[Coin, int], ...]
"""Coins and how many of each, largest coin first."""


@dataclass(frozen=True, slots=True)
class Amount:
    """ITM-MONEY-08: ``count`` pieces of ``coin``; ``note`` says what reading changed."""

    coin: Coin
    count: int
    note: str | None = None

    @property
    def value(self) -> int:
        """The amount in the family's smallest coin (ITM-BLOCK-15)."""
        return self.coin.worth * self.count

    @property
    def family(self) -> Currency:
        return self.coin.family

    @property
    def text(self) -> str:
        """``3 shillings``, ``1 penny`` (ITM-MONEY-17)."""
        return f"{self.count} {self.coin.name_for(self.count)}"


@dataclass(frozen=True, slots=True)
class Refusal:
    """A money action the rules refuse: its code and the line for the GM; nothing changed."""

    reason: str
    feedback: str


@dataclass(frozen=True, slots=True)
class Payment:
    """A payment made from one bag (ITM-MONEY-09..11): what left it, what came back, the bag after."""

    family: Currency
    value: int
    paid: Coins
    back: Coins
    bag: Bag

    @property
    def line(self) -> str:
        """ITM-MONEY-11: ``Paid with crowns ×1; shillings ×2 back.``"""
        return payment_line(self.paid, self.back)


# --- reading an amount (ITM-MONEY-08, -12) ----------------------------------------------------


def read_amount(index: ItemIndex, text: str | None, coin: str | None = None) -> Amount | Refusal:
    """ITM-MONEY-08: ``"3 shillings"``, ``"1 Penny"``, ``"a crown"``, ``"12"`` with ``coin=``.

    Refusals: ``no-currencies`` (ITM-MONEY-12), ``unknown-coin`` (a coin the ruleset does not
    have), ``bad-amount`` (ours: no amount, or no number we can read).
    """
    if not _families(index):
        return Refusal("no-currencies", "This ruleset has no money: nothing can be paid or earned.")
    written = (text or "").strip()
    if not written:
        return Refusal("bad-amount", f"amount= is missing: write it as a number and a coin "
                       f"({coin_list(index)}).")
    split = _split_amount(written)
    if split is None:
        return Refusal("bad-amount", f"Amount {written} is not a number and a coin "
                       f"({coin_list(index)}).")
    number, name = split
    name = name or (coin or "").strip()
    found = index.coin(name) if name else None
    if found is None:
        what = f"{name} is not a coin here" if name else "The amount names no coin"
        return Refusal("unknown-coin", f"{what}: the coins are {coin_list(index)}.")
    count = max(AMOUNT_MIN, min(AMOUNT_MAX, number))
    note = f"Amount {number} clamped to {count}." if count != number else None
    return Amount(found, count, note)


def _split_amount(text: str) -> tuple[int, str] | None:
    """(number, coin name) of ``"3 shillings"`` / ``"a crown"``; a bare coin name is one piece."""
    match = _NUMBER.match(text)
    if match is not None:
        return int(re.sub(r"[,_]", "", match.group(1))), match.group(2).strip()
    word = _WORD.match(text)
    if word is not None and word.group(1).lower() in _NUMBER_WORDS:
        return _NUMBER_WORDS[word.group(1).lower()], word.group(2).strip()
    if re.search(r"\d", text):
        return None  # a number somewhere else ("shillings 3", "2.5 crowns"): not guessed
    return 1, text


# --- purses (ITM-MONEY-04/05/17) ---------------------------------------------------------------


def purse(index: ItemIndex, bag: Bag) -> dict[str, int]:
    """ITM-MONEY-04: FAMILY id -> the worth of the bag's coins of that family in its smallest coin
    (families in the ruleset's order; a family the bag holds none of is absent)."""
    worth: dict[str, int] = {}
    for family in _families(index):
        value = family_worth(index, bag, family)
        if value:
            worth[family.id] = value
    return worth


def family_worth(index: ItemIndex, bag: Bag, family: Currency) -> int:
    """What the bag's coins of ``family`` are worth in its smallest coin."""
    return sum(c.worth * held(bag, Goods(coins=c.unit.id)) for c in _coins_of(index, family))


def purse_line(ruleset: Ruleset, bag: Bag) -> str:
    """ITM-MONEY-05/17, Ambiguity 7: ``Coin worth 432 pennies`` per family held (joined by
    ``; ``), ``no coins`` for an empty purse; empty text for a ruleset without currencies."""
    index = item_index(ruleset)
    families = {f.id: f for f in _families(index)}
    if not families:
        return ""
    parts = [f"{families[fid].label} worth {value} {families[fid].smallest.name_for(value)}"
             for fid, value in purse(index, bag).items()]
    return "; ".join(parts) or "no coins"


def purse_lines(ruleset: Ruleset, state: GameState) -> list[tuple[str, str]]:
    """ITM-MONEY-05: (name, purse line) per bag the GM sees: the player's always, even when it holds
    nothing; every other member's when their bag holds anything. Empty without currencies."""
    if not _families(item_index(ruleset)):
        return []
    player = state.player_index
    return [(member.name, purse_line(ruleset, member.bag))
            for i, member in enumerate(state.party) if i == player or member.bag]


# --- change-making and paying (ITM-MONEY-09..12) -----------------------------------------------


def make_change(held_counts: Mapping[str, int], coins: Iterable[Coin],
                value: int) -> tuple[Coins, Coins] | None:
    """ITM-MONEY-10: (coins paid, change back) for ``value`` from the held coins, or None when
    they are worth less than ``value``.

    First, from the largest coin down, as many of each as fit into what is still owed; then, if
    something is still owed, the smallest coin left that covers it is broken and the change goes
    back in the family's coins smaller than it, largest first.
    """
    family = sorted(coins, key=lambda c: -c.worth)
    left = value
    paid: dict[str, int] = {}
    for coin in family:
        count = min(held_counts.get(coin.unit.id, 0), left // coin.worth)
        if count:
            paid[coin.unit.id] = count
            left -= count * coin.worth
    if left == 0:
        return _listed(family, paid), ()
    broken = _smallest_covering(family, held_counts, paid, left)
    if broken is None:
        return None
    paid[broken.unit.id] = paid.get(broken.unit.id, 0) + 1
    back = _greedy(broken.worth - left, [c for c in family if c.worth < broken.worth])
    return _listed(family, paid), back


def _smallest_covering(family: list[Coin], held_counts: Mapping[str, int],
                       paid: Mapping[str, int], owed: int) -> Coin | None:
    # After the greedy pass every coin still held is worth more than what is owed.
    left = [c for c in family if held_counts.get(c.unit.id, 0) > paid.get(c.unit.id, 0)
            and c.worth >= owed]
    return min(left, key=lambda c: c.worth) if left else None


def _greedy(value: int, coins: list[Coin]) -> Coins:
    """``value`` in ``coins`` (largest first), as many of each as fit (the smallest is worth 1)."""
    out: list[tuple[Coin, int]] = []
    for coin in coins:
        count, value = divmod(value, coin.worth)
        if count:
            out.append((coin, count))
    return tuple(out)


def _listed(family: list[Coin], counts: Mapping[str, int]) -> Coins:
    return tuple((c, counts[c.unit.id]) for c in family if counts.get(c.unit.id))


def pay(ruleset: Ruleset, character: Character, value: int, family: str,
        state: GameState | None = None) -> Payment | Refusal:
    """ITM-MONEY-09..12: pay ``value`` (in the family's smallest coin) from ``character``'s bag,
    only with coins of ``family`` (a family id), with change; the game's ``state`` lets the bag's
    invented items weigh what they weigh (ITM-PROPOSE-13).

    Refusals: ``no-currencies``, ``unknown-coin`` (no such family), ``cannot-afford`` (the purse is
    worth less), ``too-heavy`` (SPEC §10: the change coming back does not fit under ``limit``).
    """
    index = item_index(ruleset)
    found = next((f for f in _families(index) if f.id == family), None)
    if found is None:
        reason = "unknown-coin" if _families(index) else "no-currencies"
        return Refusal(reason, f"There is no money called {family} here.")
    coins = _coins_of(index, found)
    counts = {c.unit.id: held(character.bag, Goods(coins=c.unit.id)) for c in coins}
    made = make_change(counts, coins, value)
    if made is None:
        have = family_worth(index, character.bag, found)
        small = found.smallest
        return Refusal("cannot-afford", f"{character.name} cannot afford {value} "
                       f"{small.name_for(value)}: {found.label} worth {have} "
                       f"{small.name_for(have)}.")
    paid, back = made
    return _settle(ruleset, character, found, value, paid, back, state)


def _settle(ruleset: Ruleset, character: Character, family: Currency, value: int, paid: Coins,
            back: Coins, state: GameState | None = None) -> Payment | Refusal:
    """The bag after ``paid`` leaves and ``back`` comes in; refused when the change is too heavy."""
    bag = character.bag
    for coin, count in paid:
        bag, _ = take(bag, Goods(coins=coin.unit.id), count)
    change = tuple(Goods(coins=coin.unit.id).stack(count) for coin, count in back)
    lighter = character.model_copy(update={"bag": bag})
    if not fits(ruleset, lighter, bag_weight(item_index(ruleset), change), state):
        return Refusal("too-heavy", f"{character.name} cannot carry the change "
                       f"({coins_text(back)}): past their limit.")
    for coin, count in back:
        bag = put(bag, Goods(coins=coin.unit.id), count, STANDARD_STACK)
    return Payment(family, value, paid, back, bag)


# --- the lines the Game Master reads (ITM-MONEY-11, -15) ---------------------------------------


def coins_text(coins: Coins) -> str:
    """``crowns ×1, shillings ×2``: the page's form, each coin by its ``label`` (Ambiguity 6)."""
    return ", ".join(f"{coin.unit.label} ×{count}" for coin, count in coins)


def payment_line(paid: Coins, back: Coins) -> str:
    """ITM-MONEY-11: ``Paid with crowns ×1; shillings ×2 back.`` (``Paid with shillings ×3.``
    when nothing comes back)."""
    change = f"; {coins_text(back)} back" if back else ""
    return f"Paid with {coins_text(paid)}{change}."


def coin_list(index: ItemIndex) -> str:
    """The ruleset's coins by family: ``Coin: pennies (1), shillings (12), crowns (60)``."""
    return "; ".join(
        f"{family.label}: " + ", ".join(f"{c.unit.label} ({c.worth})"
                                         for c in _coins_of(index, family))
        for family in _families(index))


def money_instructions(ruleset: Ruleset) -> str | None:
    """ITM-MONEY-15: how the GM pays and earns, listing the ruleset's coins; None (no
    instructions at all) for a ruleset without currencies."""
    index = item_index(ruleset)
    if not _families(index):
        return None
    return ('Money: pay with [inventory: action="pay" amount="3 shillings" who="Name"] and receive '
            'with [inventory: action="earn" amount="3 shillings" who="Name"] (without who= the '
            f"player pays; earnings are shared by the carry rule). Coins: {coin_list(index)}.")


def _families(index: ItemIndex) -> tuple[Currency, ...]:
    return index.block.currencies if index.block else ()


def _coins_of(index: ItemIndex, family: Currency) -> tuple[Coin, ...]:
    return tuple(c for c in index.coins if c.family.id == family.id)
