"""``pay`` and ``earn``: the Game Master's money actions on ``[inventory:]`` (ITM-MONEY-07..13).

- ``[inventory: action="pay" amount="3 shillings" who="Ada"]`` pays from one bag (the player's
  without ``who=``), only in the named coin's family, with change (ITM-MONEY-09..11). The rewritten
  tag names the coin and number asked, the coins of that kind held after, the amount as ``price``
  and the page's line as ``note``::

      [inventory: action="pay" item="shillings" count="3" who="Ada" result="ok" now="2"
       price="3 shillings" note="Paid with crowns ×1; shillings ×2 back."]

- ``action="earn"`` (same attributes) puts the coins into the ``who=`` bag, all of it or nothing
  past their ``limit`` (``too-heavy``, SPEC §10); without ``who=`` the carry rule shares them out
  and what nobody can carry stays behind, the GM told (ITM-MONEY-13, ITM-BAG-15/16).

The amount is ``amount=`` (or ``price=``/``cost=``), a number and a coin; a bare number takes its
coin from ``coin=``/``unit=``/``currency=``; with no amount, ``item=`` names the coin and
``count=`` the number (``[inventory: pay item="shillings" count="3"]``). Refusals change nothing:
``no-currencies``, ``unknown-coin``, ``cannot-afford``, ``too-heavy`` (the page's and SPEC §10's),
``unknown-character``, and ours ``bad-amount`` (no amount, or none we can read).
"""

from __future__ import annotations

from middleware.items.bag import Goods, held, put
from middleware.items.carry import distribute, fits, piece_weight
from middleware.items.index import STANDARD_STACK, ItemIndex, item_index
from middleware.items.money import Amount, Refusal, purse_line, read_amount
from middleware.items.money import pay as pay_from
from middleware.resolve import Context, Resolution
from middleware.resolve.inventory.find import Member, holder
from middleware.resolve.inventory.goods import unknown_character
from middleware.resolve.inventory.read import ItemAsk
from middleware.resolve.inventory.record import InventoryRecord, combined, refused
from middleware.rules.layers import removed
from middleware.state import GameState


def pay(ask: ItemAsk, state: GameState, ctx: Context) -> Resolution:
    """ITM-MONEY-07..12: pay the amount from the ``who=`` bag (the player's), with change."""
    amount = _amount(ask, state, ctx)
    if isinstance(amount, Refusal):
        return Resolution(state, _refused(ask, amount))
    member = holder(state, ask.who)
    if member is None:
        return Resolution(state, unknown_character(ask, ask.who))
    payment = pay_from(ctx.ruleset, member.character, amount.value, amount.family.id, state)
    if isinstance(payment, Refusal) and payment.reason == "cannot-afford":
        payment = Refusal(payment.reason, f"{member.name} cannot afford {amount.text}: "
                          f"{purse_line(ctx.ruleset, member.character.bag)}.")
    if isinstance(payment, Refusal):
        return Resolution(state, _refused(ask, payment, amount, member.name))
    character = member.character.model_copy(update={"bag": payment.bag})
    state = state.with_character(member.index, character)
    note = _join([*ask.notes, amount.note, payment.line])
    line = _join([f"{member.name} pays {amount.text}.", note,
                  f"Left: {purse_line(ctx.ruleset, payment.bag)}."])
    return Resolution(state, InventoryRecord(
        status="resolved", action=ask.action, item=amount.coin.unit.label, count=amount.count,
        who=member.name, now=held(payment.bag, _goods(amount)), price=amount.text, note=note,
        feedback=line, paid={c.unit.id: n for c, n in payment.paid},
        change={c.unit.id: n for c, n in payment.back}))


def earn(ask: ItemAsk, state: GameState, ctx: Context) -> Resolution:
    """ITM-MONEY-13: the coins into the ``who=`` bag, or shared out by the carry rule."""
    amount = _amount(ask, state, ctx)
    if isinstance(amount, Refusal):
        return Resolution(state, _refused(ask, amount))
    if ask.who is None:
        return _earn_shared(ask, state, ctx, amount)
    member = holder(state, ask.who)
    if member is None:
        return Resolution(state, unknown_character(ask, ask.who))
    weight = piece_weight(item_index(ctx.ruleset), _goods(amount)) * amount.count
    if not fits(ctx.ruleset, member.character, weight, state):
        line = f"{member.name} cannot carry {amount.text}: past their limit."
        return Resolution(state, _refused(ask, Refusal("too-heavy", line), amount, member.name))
    return _earn_into(ask, state, ctx, member, amount, amount.count)


def ask_amount(ask: ItemAsk, index: ItemIndex) -> Amount | Refusal:
    """ITM-MONEY-08: the tag's amount (``amount=``, ``price=``, ``cost=``), else ``count=`` pieces
    of the coin ``item=`` names; a bare number takes its coin from ``coin=``/``unit=``."""
    attrs = ask.attrs
    text = next((attrs[k] for k in ("amount", "price", "cost") if attrs.get(k, "").strip()), None)
    coin = next((attrs[k] for k in ("coin", "unit", "currency") if attrs.get(k, "").strip()),
                None)
    if text is None and ask.item:
        text = f"{ask.count or 1} {ask.item}"
    return read_amount(index, text, coin)


def _amount(ask: ItemAsk, state: GameState, ctx: Context) -> Amount | Refusal:
    """The tag's amount; a coin a layer of this game removed is no coin here (``unknown-coin``)."""
    amount = ask_amount(ask, item_index(ctx.ruleset))
    if isinstance(amount, Refusal) or amount.coin.unit.id not in removed(ctx.ruleset, state.layers).coins:
        return amount
    return Refusal("unknown-coin", f"{amount.coin.unit.label} are not used in this game: a layer "
                   "took them out.")


def _earn_shared(ask: ItemAsk, state: GameState, ctx: Context, amount: Amount) -> Resolution:
    """ITM-MONEY-02/13, ITM-BAG-15/16: the carry rule splits the coins; the rest stays behind."""
    shares = distribute(ctx.ruleset, state, _goods(amount), amount.count)
    if not shares:
        line = f"Nobody in the party can carry {amount.text}: it stays where it is."
        return Resolution(state, _refused(ask, Refusal("too-heavy", line), amount))
    parts: list[InventoryRecord] = []
    for share in shares:
        member = Member(share.index, state.party[share.index])
        done = _earn_into(ask, state, ctx, member, amount, share.count)
        state = done.state
        assert isinstance(done.record, InventoryRecord)
        parts.append(done.record)
    left = amount.count - sum(share.count for share in shares)
    if left:
        behind = f"{left} {amount.coin.name_for(left)} left behind: nobody can carry more."
        last = parts[-1]
        parts[-1] = last.model_copy(update={"note": _join([last.note, behind]),
                                            "feedback": _join([last.feedback, behind])})
    return Resolution(state, combined(ask.action, parts, ""))


def _earn_into(ask: ItemAsk, state: GameState, ctx: Context, member: Member, amount: Amount,
               count: int) -> Resolution:
    """``count`` coins into one bag (the caller checked the weight)."""
    bag = put(member.character.bag, _goods(amount), count, STANDARD_STACK)
    state = state.with_character(member.index, member.character.model_copy(update={"bag": bag}))
    name = amount.coin.name_for(count)
    note = _join([*ask.notes, amount.note])
    line = _join([f"{member.name} gets {count} {name}.", note,
                  f"Now: {purse_line(ctx.ruleset, bag)}."])
    return Resolution(state, InventoryRecord(
        status="resolved", action=ask.action, item=amount.coin.unit.label, count=count,
        who=member.name, now=held(bag, _goods(amount)), note=note, feedback=line))


def _refused(ask: ItemAsk, refusal: Refusal, amount: Amount | None = None,
             who: str | None = None) -> InventoryRecord:
    """A refused money action: nothing changed; the coin and amount named when they were read."""
    record = refused(ask.action, refusal.reason, refusal.feedback,
                     item=amount.coin.unit.label if amount else (ask.item or None),
                     who=who or ask.who)
    return record.model_copy(update={"price": amount.text if amount else None})


def _goods(amount: Amount) -> Goods:
    return Goods(coins=amount.coin.unit.id)


def _join(parts: list[str | None]) -> str | None:
    return " ".join(p for p in parts if p) or None
