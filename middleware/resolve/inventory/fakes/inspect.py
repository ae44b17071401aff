"""``inspect`` and ``reveal``: seeing through fakes (ITM-FAKE-09, -17..24, -29..31).

``[inventory: action="inspect" item="Potion of Healing" who="Mira"]`` examines the first stack of
that item in Mira's bag (Ambiguity 23); with ``seller="Fence"`` the ware that seller, present here,
shows today (a dishonest seller's fake first, as a purchase naming it would hand it over). The
Engine rolls the best check Mira can make (``market/tells.py``): the fake's tells, or for a genuine
item the tells of the fakes passing for it, plus a dishonest seller's ``manner``.

- success on a fake: what Mira noticed, and the stack shows "Mira thinks it is a fake"; by
  ``namesItAt`` or more over the difficulty the fake is named and is its real item from then on;
- success on a genuine item: it looks genuine; on the manner: something is wrong with what the
  seller sells, never what; failure: Mira cannot tell;
- one attempt per character per item: kept on the stack, or for a ware on the market day;
- ``nothing-to-check`` when nothing could betray the item or Mira can make none of its checks: the
  attempt is not used.

``with="Identify"`` uses a way of ``revealsFakes`` instead: a fake it detects is named; a fake whose
``foolsReveal`` lists it, a fake it cannot detect, and a genuine item read "genuine" for a way that
detects every fake, else "not sure". It does not use the attempt (ITM-FAKE-29..31).

``[inventory: action="reveal" item="Bag of Holding" who="Ada"]`` makes the first fake of that name
in Ada's bag its real item (ITM-FAKE-09). Codes of ours (Ambiguity 3): ``already-tried``,
``not-offered``, ``unknown-way``, ``not-fake``; and ``no-place``, ``no-seller``, ``not-held``,
``unknown-item``, ``unknown-character`` as the other actions use them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from middleware.items.bag import per_stack, with_item
from middleware.items.index import RulesetItem, item_index
from middleware.items.lookup import find_item
from middleware.names import normalize_name
from middleware.resolve import Context, Resolution
from middleware.resolve.inventory.fakes.goods import (
    is_fake,
    reveal_at,
    reveal_by_sheet,
    reveal_first,
    reveal_line,
    with_lines,
)
from middleware.resolve.inventory.fakes.tells import About, Try, best, roll, tells_for, tries
from middleware.resolve.inventory.find import Member, holder
from middleware.resolve.inventory.goods import held_named, unknown_character
from middleware.resolve.inventory.read import ItemAsk
from middleware.resolve.inventory.record import InventoryRecord, refused
from middleware.resolve.market.day import pricing_place, size_of, size_rank, today, with_today
from middleware.resolve.market.offers import offers
from middleware.resolve.market.stock import todays_stock
from middleware.rules.items import RevealWay
from middleware.rules.items_money import Seller, Tell
from middleware.state import GameState, Place

GENUINE, NOT_SURE = "genuine", "not sure"
"""ITM-FAKE-30 (Ambiguity 22): the page's "autentyczny" and "brak pewności", in English."""


@dataclass(frozen=True, slots=True)
class Looked:
    """What is examined: the item it looks like, what it really is, and where it sits (a stack
    ``at`` in the member's bag, or a seller's ware remembered under ``key`` for ``place``'s day)."""

    member: Member
    shown: RulesetItem
    real: str
    at: int | None = None
    seller: Seller | None = None
    place: Place | None = None

    @property
    def fake(self) -> bool:
        return self.shown.ref != self.real

    @property
    def key(self) -> str:
        return f"{self.seller.id if self.seller else ''}:{self.shown.ref}"

    def tried(self, state: GameState) -> tuple[str, ...]:
        """ITM-FAKE-23: who already tried (the stack's memory, or the market day's)."""
        if self.at is not None:
            return state.party[self.member.index].bag[self.at].tried
        return today(state, self.place).tried.get(self.key, ()) if self.place else ()


def inspect(ask: ItemAsk, state: GameState, ctx: Context) -> Resolution:
    """ITM-FAKE-17..24, -30/31: examine an item or a seller's ware; refused changes nothing."""
    member = holder(state, ask.who)
    if member is None:
        return Resolution(state, unknown_character(ask, ask.who))
    looked = _ware(ask, state, ctx, member) if (ask.attrs.get("seller") or "").strip() \
        else _in_bag(ask, state, ctx, member)
    if isinstance(looked, InventoryRecord):
        return Resolution(state, looked)
    way = (ask.attrs.get("with") or "").strip()
    if way:
        return _with_way(ask, state, ctx, looked, way)
    return _with_check(ask, state, ctx, looked)


def reveal(ask: ItemAsk, state: GameState, ctx: Context) -> Resolution:
    """ITM-FAKE-09: ``reveal`` makes the first fake of that name in the bag its real item."""
    member = holder(state, ask.who)
    if member is None:
        return Resolution(state, unknown_character(ask, ask.who))
    found = find_item(ctx.ruleset, state, ask.item)
    bag = member.character.bag
    at = next((i for i, s in enumerate(bag) if found and s.item == found.ref and is_fake(s)), None)
    if found is None or at is None:
        named = held_named(replace(ask, action="reveal"), state, ctx, member)
        if isinstance(named, InventoryRecord):
            return Resolution(state, named)
        return Resolution(state, refused("reveal", "not-fake", f"{member.name}'s {named.label} is "
                                         "no fake: there is nothing to reveal.",
                                         item=named.label, who=member.name))
    line = reveal_line(ctx.ruleset, bag[at])
    real = bag[at].really
    state = reveal_at(ctx.ruleset, state, member.index, at)
    now = sum(s.count for s in state.party[member.index].bag if s.item == real)
    return Resolution(state, InventoryRecord(status="resolved", action="reveal", item=found.label,
                                             count=bag[at].count, who=member.name, now=now,
                                             note=line, feedback=line))


def unmask_for_use(ask: ItemAsk, state: GameState, ctx: Context,
                   member: Member) -> tuple[GameState, ItemAsk, str] | None:
    """ITM-FAKE-09 / ITM-USE-25: using a fake reveals it and does what it really does; the use
    goes on with the real item. None when the first stack of that name is genuine."""
    found = find_item(ctx.ruleset, state, ask.item)
    bag = member.character.bag
    stack = next((bag[i] for i in with_item(bag, found.ref)), None) if found else None
    if found is None or stack is None or stack.really is None:
        return None
    state, line = reveal_first(ctx.ruleset, state, member.index, found.ref)
    return state, replace(ask, item=stack.really), line or ""


def after_change(done: Resolution, ctx: Context) -> Resolution:
    """ITM-FAKE-11/12: after an inventory change, fakes whose sheet gives them away are revealed
    and the record says what they were. A refusal changed nothing and reveals nothing."""
    if done.record.status != "resolved" or not any(
            True in per_stack(m.bag, "fake", is_fake) for m in done.state.party):
        return done
    state, lines = reveal_by_sheet(ctx.ruleset, done.state)
    return with_lines(Resolution(state, done.record), lines)


# --- what is examined ----------------------------------------------------------------------------


def _in_bag(ask: ItemAsk, state: GameState, ctx: Context,
            member: Member) -> Looked | InventoryRecord:
    """Ambiguity 23: the first stack of the named item in the member's bag."""
    found = find_item(ctx.ruleset, state, ask.item)
    bag = member.character.bag
    at = next(iter(with_item(bag, found.ref)), None) if found is not None else None
    if found is None or at is None:
        named = held_named(ask, state, ctx, member)
        if isinstance(named, InventoryRecord):
            return named
        return _nothing(ask, member, named.label, "nothing could give it away")
    return Looked(member, found, bag[at].really or found.ref, at=at)


def _ware(ask: ItemAsk, state: GameState, ctx: Context,
          member: Member) -> Looked | InventoryRecord:
    """ITM-FAKE-17: the ware a seller present here shows today."""
    place = pricing_place(state, ctx)
    size = size_of(ctx.ruleset, place)
    if place is None or size is None:
        return _refuse(ask, member, "no-place", "There is no market here to inspect wares at.")
    seller = _seller_here(ctx, ask.attrs.get("seller") or "", size_rank(ctx.ruleset, size.id))
    if seller is None:
        return _refuse(ask, member, "no-seller", f"Nobody here is called {ask.attrs.get('seller')}.")
    found = item_index(ctx.ruleset).find(ask.item)
    if found is None:
        return _refuse(ask, member, "unknown-item", f"No item is called {ask.item}.")
    stock = [w for w in todays_stock(ctx.ruleset, ctx.seed, place.name, place.day).of(seller.id)
             if w.shown == found.ref]
    stock.sort(key=lambda w: (seller.honest or w.ref == w.shown))  # a dishonest seller's fake first
    regular = any(o.item.ref == found.ref for s, wares in offers(ctx.ruleset, size.id)
                  if s is not None and s.id == seller.id for o in wares)
    if not stock and not regular:
        return _refuse(ask, member, "not-offered", f"The {seller.label} shows no {found.label} "
                       "today.", item=found.label)
    real = stock[0].ref if stock else found.ref
    return Looked(member, found, real, seller=seller, place=place)


def _seller_here(ctx: Context, name: str, rank: int | None) -> Seller | None:
    """Ambiguity 27: a seller by id or label, found in a place this size (ITM-MARKET-09)."""
    market = ctx.ruleset.items.market if ctx.ruleset.items is not None else None
    key = normalize_name(name)
    for seller in market.sellers if market is not None else ():
        if key in (normalize_name(seller.id), normalize_name(seller.label)):
            needed = size_rank(ctx.ruleset, seller.place) if seller.place else 0
            return seller if needed is not None and rank is not None and needed <= rank else None
    return None


# --- with= a way of seeing through fakes (ITM-FAKE-29..31) ---------------------------------------


def _with_way(ask: ItemAsk, state: GameState, ctx: Context, looked: Looked,
              written: str) -> Resolution:
    """ITM-FAKE-30/31: named, or "genuine" / "not sure"; the attempt is not used."""
    block = ctx.ruleset.items
    ways = block.reveals_fakes if block is not None else ()
    wanted = normalize_name(written)
    way = next((w for w in ways if wanted in (normalize_name(w.id), normalize_name(w.label))), None)
    name = looked.member.name
    if way is None:
        known = ", ".join(w.label for w in ways) or "none"
        return Resolution(state, _refuse(ask, looked.member, "unknown-way", f"No way to see "
                                         f"through fakes is called {written} (known: {known}).",
                                         item=looked.shown.label))
    real = item_index(ctx.ruleset).by_ref(looked.real)
    if looked.fake and real is not None and _detects(way, real) \
            and way.id not in real.item.fools_reveal:
        line = f"{way.label} shows {name} that {looked.shown.label} is really {real.label}."
        if looked.at is not None:
            state = reveal_at(ctx.ruleset, state, looked.member.index, looked.at)
        return Resolution(state, _done(looked, line))
    verdict = GENUINE if not (way.tags or way.items) else NOT_SURE
    return Resolution(state, _done(looked, f"{way.label} on {looked.shown.label}: {verdict}."))


def _detects(way: RevealWay, real: RulesetItem) -> bool:
    """ITM-FAKE-29: every fake, or those with one of ``tags``, or those listed in ``items``."""
    if not way.tags and not way.items:
        return True
    return real.ref in way.items or any(tag in real.item.tags for tag in way.tags)


# --- the best check (ITM-FAKE-19..24) ------------------------------------------------------------


def _with_check(ask: ItemAsk, state: GameState, ctx: Context, looked: Looked) -> Resolution:
    member = looked.member
    if member.name in looked.tried(state):
        return Resolution(state, _refuse(ask, member, "already-tried", f"{member.name} already "
                                         f"tried {looked.shown.label}: one attempt each.",
                                         item=looked.shown.label))
    asked = _asked(ctx, looked)
    if not asked:
        return Resolution(state, _nothing(ask, member, looked.shown.label,
                                          "nothing could give it away"))
    pick = best(tries(ctx.ruleset, state, member.index, asked))
    record = roll(ctx, state, member.index, pick) if pick is not None else None
    if pick is None or record is None:
        return Resolution(state, _nothing(ask, member, looked.shown.label,
                                          f"{member.name} cannot check it at all"))
    state = _remember_try(state, looked)
    margin = (record.total or 0) - (record.dc if record.dc is not None else pick.tell.dc)
    rolled = f"{pick.name} {record.total} against {record.dc}"
    return _outcome(state, ctx, looked, pick, record.success is True, margin, rolled)


def _asked(ctx: Context, looked: Looked) -> list[tuple[Tell, About]]:
    """ITM-FAKE-19/22/16: the item's tells (a genuine item: its fakes'), then a dishonest
    seller's manner."""
    index = item_index(ctx.ruleset)
    asked: list[tuple[Tell, About]] = [(t, "item") for t in
                                       tells_for(index, looked.shown.ref, looked.real)]
    seller = looked.seller
    if seller is not None and not seller.honest and seller.manner is not None:
        asked.append((seller.manner, "seller"))
    return asked


def _outcome(state: GameState, ctx: Context, looked: Looked, pick: Try, success: bool,
             margin: int, rolled: str) -> Resolution:
    """ITM-FAKE-20..23: what the roll tells the character, and what the bag remembers."""
    name, label = looked.member.name, looked.shown.label
    head = f"{name} inspects {label} ({rolled})"
    if not success:
        return Resolution(state, _done(looked, f"{head}: {name} cannot tell."))
    if pick.about == "seller":
        seller = looked.seller.label if looked.seller else "seller"
        return Resolution(state, _done(looked, f"{head}: {pick.tell.says}; something is wrong "
                                                f"with what the {seller} sells."))
    if not looked.fake:
        return Resolution(state, _done(looked, f"{head}: it looks genuine."))
    names_at = ctx.ruleset.items.names_it_at if ctx.ruleset.items is not None else None
    real = item_index(ctx.ruleset).by_ref(looked.real)
    if names_at is not None and margin >= names_at and real is not None:
        if looked.at is not None:
            state = reveal_at(ctx.ruleset, state, looked.member.index, looked.at)
        return Resolution(state, _done(looked, f"{head}: {pick.tell.says}. It is really "
                                                f"{real.label}."))
    state = _suspect(state, looked)
    return Resolution(state, _done(looked, f"{head}: {pick.tell.says}. {name} thinks it is a "
                                            "fake."))


def _remember_try(state: GameState, looked: Looked) -> GameState:
    """ITM-FAKE-23: the stack remembers who tried; a ware is remembered for the market day."""
    name = looked.member.name
    if looked.at is not None:
        return _update_stack(state, looked, tried=(*looked.tried(state), name))
    if looked.place is None:
        return state
    day = today(state, looked.place)
    tried = {**day.tried, looked.key: (*day.tried.get(looked.key, ()), name)}
    return with_today(state, day.model_copy(update={"tried": tried}))


def _suspect(state: GameState, looked: Looked) -> GameState:
    """ITM-FAKE-20: the bag shows that the character thinks the stack is a fake."""
    if looked.at is None:
        return state
    stack = state.party[looked.member.index].bag[looked.at]
    return _update_stack(state, looked, suspects=(*stack.suspects, looked.member.name))


def _update_stack(state: GameState, looked: Looked, **update: object) -> GameState:
    assert looked.at is not None
    character = state.party[looked.member.index]
    bag = character.bag
    stack = bag[looked.at].model_copy(update=update)
    new = character.model_copy(update={"bag": (*bag[:looked.at], stack, *bag[looked.at + 1:])})
    return state.with_character(looked.member.index, new)


# --- records -------------------------------------------------------------------------------------


def _done(looked: Looked, line: str) -> InventoryRecord:
    return InventoryRecord(status="resolved", action="inspect", item=looked.shown.label,
                           who=looked.member.name,
                           seller=looked.seller.id if looked.seller else None,
                           note=line, feedback=line)


def _nothing(ask: ItemAsk, member: Member, label: str, why: str) -> InventoryRecord:
    """ITM-FAKE-24: refused, and the attempt is not used."""
    return _refuse(ask, member, "nothing-to-check", f"{label}: {why}; there is nothing to "
                   "check.", item=label)


def _refuse(ask: ItemAsk, member: Member, reason: str, line: str, *,
            item: str | None = None) -> InventoryRecord:
    record = refused(ask.action, reason, line, item=item or ask.item or None, who=member.name)
    seller = (ask.attrs.get("seller") or "").strip()
    return record.model_copy(update={"seller": seller or None}) if seller else record
