"""``add``, ``remove`` and ``give``: goods into, out of and between bags (ITM-BAG, SPEC §6, §10).

Every action is all-or-nothing on its item: a refusal returns the state it was given, so every bag
stays exactly as it was. Refusal codes (the page's, then ours where the page is silent,
Ambiguity 3): ``service`` (ITM-BAG-09), ``not-ruleset-item`` (ITM-BAG-07), ``unknown-character``;
ours: ``too-heavy`` (SPEC §10: past the receiver's ``limit``; an add to the shared view that nobody
can carry), ``not-held`` (the name is real but this bag holds none), ``unknown-item`` (the name is
nothing in the ruleset or any bag), ``cursed`` (ITM-BAG-13: a bound cursed item does not let go),
``no-recipient`` / ``same-character`` (a give without a distinct ``to=``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from middleware.items.bag import Bag, Goods, held, put, take, takeable
from middleware.items.carry import distribute, encumbered, fits, piece_weight
from middleware.items.lookup import items_in
from middleware.items.name_check import names_something
from middleware.items.propose import propose
from middleware.items.stack_room import cut_line, fitting, stacks_in
from middleware.records import clean_value
from middleware.resolve import Context, Resolution
from middleware.resolve.inventory.find import (
    Member,
    Named,
    anyone_holds,
    held_goods,
    holder,
    named_goods,
)
from middleware.resolve.inventory.read import ItemAsk
from middleware.resolve.inventory.record import InventoryRecord, combined, refused
from middleware.state import Character, GameState

PLAIN_NAME_MAX = 100
"""A plain item's name is held to the length of a character's name."""

INVENTION_KEYS = frozenset({"like", "category", "rarity", "tags", "stats", "slots", "binds",
                            "worn", "carried", "summary"})
"""ITM-PROPOSE-02: attributes that make an add describe a new item."""


@dataclass(frozen=True, slots=True)
class Invented:
    """What the invention seam hands back: the goods to add and the state that stores the item."""

    named: Named
    state: GameState
    note: str | None = None


def describes_new_item(ask: ItemAsk) -> bool:
    """ITM-PROPOSE-01/02: the add carries any invention attribute."""
    return any(key in INVENTION_KEYS for key in ask.attrs)


def invent(ask: ItemAsk, state: GameState, ctx: Context) -> Invented | InventoryRecord | None:
    """ITM-PROPOSE: the item the add describes, kept in the state; None when the description
    makes no item (the name then follows the plain / ``native`` rules, Ambiguity 29)."""
    made = propose(ctx.ruleset, state, ask.attrs, ask.item)
    if made.outcome == "refused":
        return refused(ask.action, made.reason or "", made.note or "", item=made.name, who=ask.who)
    if made.item is None:
        return None
    found = made.item
    named = Named(Goods(item=found.ref), found.label, found.stack_limit, found)
    return Invented(named, made.kept_in(state), made.note)


def add(ask: ItemAsk, state: GameState, ctx: Context) -> Resolution:
    """ITM-BAG-03..09, -15/16: a ruleset item, a coin, an invented or a plain item into a bag."""
    what = _what_to_add(ask, state, ctx)
    if isinstance(what, InventoryRecord):
        return Resolution(state, what)
    count = ask.count or 1
    state = what.state
    if ask.who is None:
        return _add_shared(ask, state, ctx, what.named, count, what.note)
    member = holder(state, ask.who)
    if member is None:
        return Resolution(state, unknown_character(ask, ask.who))
    return _add_to(ask, state, ctx, member, what.named, count, what.note)


def remove(ask: ItemAsk, state: GameState, ctx: Context) -> Resolution:
    """Take pieces out of a bag (never a bound cursed one, ITM-BAG-13); fewer held, fewer moved."""
    member = holder(state, ask.who)
    if member is None:
        return Resolution(state, unknown_character(ask, ask.who))
    found = held_named(ask, state, ctx, member)
    if isinstance(found, InventoryRecord):
        return Resolution(state, found)
    bag, taken = take(member.character.bag, found.goods, _wanted(ask, member, found), is_cursed(found))
    state = state.with_character(member.index, member.character.model_copy(update={"bag": bag}))
    notes = [*ask.notes, *_short(ask, taken)]
    return Resolution(state, done(ask, member.name, found, taken, held(bag, found.goods), notes))


def give(ask: ItemAsk, state: GameState, ctx: Context) -> Resolution:
    """Move pieces from ``who`` (the player) to ``to``; refused ``too-heavy`` past their limit."""
    giver = holder(state, ask.who)
    if giver is None:
        return Resolution(state, unknown_character(ask, ask.who))
    receiver = _receiver(ask, state, giver)
    if isinstance(receiver, InventoryRecord):
        return Resolution(state, receiver)
    found = held_named(ask, state, ctx, giver)
    if isinstance(found, InventoryRecord):
        return Resolution(state, found)
    wanted = _wanted(ask, giver, found)
    room = fitting(receiver.character.bag, found.goods, wanted, found.limit, ctx.new_stacks)
    if room <= 0:
        return Resolution(state, _bag_full(ask, found.label, receiver.name,
                                           receiver.character.bag, ctx))
    bag, taken = take(giver.character.bag, found.goods, room, is_cursed(found))
    weight = piece_weight(items_in(ctx.ruleset, state), found.goods) * taken
    if not fits(ctx.ruleset, receiver.character, weight, state):
        return Resolution(state, _too_heavy(ask, found.label, giver.name, receiver.name))
    state = state.with_character(giver.index, giver.character.model_copy(update={"bag": bag}))
    got = put(receiver.character.bag, found.goods, taken, found.limit)
    state = state.with_character(receiver.index,
                                 receiver.character.model_copy(update={"bag": got}))
    notes = [*ask.notes, *(_short(ask, taken) if room >= wanted else []),
             *([cut_line(wanted - room, receiver.character.bag, ctx.new_stacks)]
               if room < wanted else []),
             *_burdened(ctx, state, receiver.index, receiver.character)]
    record = done(ask, giver.name, found, taken, held(got, found.goods), notes)
    return Resolution(state, record.model_copy(update={"to": receiver.name}))


# --- add: what, and into whose bag -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _ToAdd:
    named: Named
    state: GameState
    note: str | None = None


def _what_to_add(ask: ItemAsk, state: GameState, ctx: Context) -> _ToAdd | InventoryRecord:
    """ITM-BAG-03/09, ITM-PROPOSE-11: a ruleset item or coin first, then an invention, then a
    plain item unless ``native`` is off (ITM-BAG-07: more of something held is still allowed)."""
    index = items_in(ctx.ruleset, state)
    if not names_something(ask.item) and not describes_new_item(ask):
        return refused(ask.action, "unknown-item", f"No item is called {clean_value(ask.item)}.",
                       item=clean_value(ask.item), who=ask.who)
    known = named_goods(index, ask.item, state)
    if known is not None and known.found is not None and known.found.is_service:
        return refused(ask.action, "service", f"{known.label} is a service: it is bought, never "
                       "carried.", item=known.label, who=ask.who)
    if known is not None:
        return _ToAdd(known, state)
    if describes_new_item(ask) and index.propose:
        made = invent(ask, state, ctx)
        if isinstance(made, InventoryRecord):
            return made
        if made is not None:
            return _ToAdd(made.named, made.state, made.note)
    name = clean_value(ask.item).replace("{{", "")[:PLAIN_NAME_MAX].strip()
    if not index.native and not anyone_holds(state, index, name):
        return refused(ask.action, "not-ruleset-item", f"{name} is not an item of this ruleset.",
                       item=name, who=ask.who)
    held_named = next((n for m in state.party if (n := held_goods(index, m.bag, name, state))),
                      None)
    return _ToAdd(held_named or Named(Goods(plain=name), name), state)


def _add_to(ask: ItemAsk, state: GameState, ctx: Context, member: Member, named: Named,
            count: int, note: str | None) -> Resolution:
    """An add to a named bag: all of it, or nothing past the holder's ``limit`` (SPEC §10); what
    would need more stacks than the bag or the reply may start is cut and left behind."""
    weight = piece_weight(items_in(ctx.ruleset, state), named.goods) * count
    if not fits(ctx.ruleset, member.character, weight, state):
        return Resolution(state, _too_heavy(ask, named.label, member.name, None))
    before = member.character.bag
    moved = fitting(before, named.goods, count, named.limit, ctx.new_stacks)
    if moved <= 0:
        return Resolution(state, _bag_full(ask, named.label, member.name, before, ctx))
    bag = put(before, named.goods, moved, named.limit)
    character = member.character.model_copy(update={"bag": bag})
    state = state.with_character(member.index, character)
    notes = [*ask.notes, *([note] if note else []),
             *([cut_line(count - moved, before, ctx.new_stacks)] if moved < count else []),
             *_burdened(ctx, state, member.index, member.character)]
    return Resolution(state, done(ask, member.name, named, moved, held(bag, named.goods), notes))


def _bag_full(ask: ItemAsk, label: str, who: str, bag: Bag, ctx: Context) -> InventoryRecord:
    """``bag-full``: not one piece fits in the stacks the bag and the reply may still start."""
    why = cut_line(0, bag, ctx.new_stacks).split(": ", 1)[1]
    line = f"{who} cannot take {label}: {why}"
    return refused(ask.action, "bag-full", line, item=label, who=who)


def _add_shared(ask: ItemAsk, state: GameState, ctx: Context, named: Named, count: int,
                note: str | None) -> Resolution:
    """ITM-BAG-15/16: the carry rule splits the lot; what nobody can carry stays behind, and so
    does what would need more stacks than a bag or the reply may start (each add says so)."""
    shares = distribute(ctx.ruleset, state, named.goods, count)
    if not shares:
        return Resolution(state, _too_heavy(ask, named.label, None, None))
    parts: list[InventoryRecord] = []
    full: list[InventoryRecord] = []
    start = state
    for share in shares:
        member = Member(share.index, state.party[share.index])
        budget = replace(ctx, new_stacks=max(0, ctx.new_stacks - stacks_in(state)
                                             + stacks_in(start)))
        done = _add_to(ask, state, budget, member, named, share.count, note if not parts else None)
        state = done.state
        assert isinstance(done.record, InventoryRecord)
        (parts if done.record.status == "resolved" else full).append(done.record)
    if not parts:
        return Resolution(state, full[0])
    lines = [f"{n} left behind: nobody can carry more." for n in [count - sum(
        share.count for share in shares)] if n > 0]
    lines += [f.feedback for f in full if f.feedback]
    if lines:
        last = parts[-1]
        parts[-1] = last.model_copy(update={"note": _join([last.note, *lines]),
                                            "feedback": _join([last.feedback, *lines])})
    return Resolution(state, combined(ask.action, parts, ""))


# --- shared pieces ---------------------------------------------------------------------------


def held_named(ask: ItemAsk, state: GameState, ctx: Context,
               member: Member) -> Named | InventoryRecord:
    """What ``item=`` means in the member's bag: ``not-held`` or ``unknown-item`` otherwise;
    ``cursed`` for a remove or give when every piece held is bound and cursed (ITM-BAG-13)."""
    index = items_in(ctx.ruleset, state)
    found = held_goods(index, member.character.bag, ask.item, state)
    if found is not None:
        if held(member.character.bag, found.goods, lambda s: takeable(s, is_cursed(found))) == 0 \
                and ask.action in {"remove", "give"}:
            return refused(ask.action, "cursed", f"{found.label} is bound and cursed: it does not "
                           "let go.", item=found.label, who=member.name)
        return found
    real = named_goods(index, ask.item) is not None or anyone_holds(state, index, ask.item)
    reason = "not-held" if real else "unknown-item"
    line = f"{member.name} holds no {ask.item}." if real else f"No item is called {ask.item}."
    return refused(ask.action, reason, line, item=ask.item, who=member.name)


def _wanted(ask: ItemAsk, member: Member, found: Named) -> int:
    return held(member.character.bag, found.goods) if ask.every else (ask.count or 1)


def is_cursed(found: Named) -> bool:
    """ITM-ENTRY-11: the item is marked ``cursed`` (it does not let go once bound)."""
    binds = found.found.item.binds if found.found else None
    return bool(binds and binds.cursed)


def _receiver(ask: ItemAsk, state: GameState, giver: Member) -> Member | InventoryRecord:
    if ask.to is None:
        return refused(ask.action, "no-recipient", "give needs to= naming who receives it.",
                       item=ask.item, who=giver.name)
    receiver = holder(state, ask.to)
    if receiver is None:
        return unknown_character(ask, ask.to).model_copy(update={"who": giver.name})
    if receiver.index == giver.index:
        return refused(ask.action, "same-character", f"{giver.name} already holds it.",
                       item=ask.item, who=giver.name, to=receiver.name)
    return receiver


def unknown_character(ask: ItemAsk, who: str | None) -> InventoryRecord:
    """``unknown-character``: nobody in the party answers to the name (or the party is empty)."""
    line = f"Nobody in the party is called {who}." if who else "The party is empty."
    return refused(ask.action, "unknown-character", line, item=ask.item, who=ask.who, to=ask.to)


def _too_heavy(ask: ItemAsk, label: str, who: str | None, to: str | None) -> InventoryRecord:
    """SPEC §10 / ITM-BAG-16: nothing moves past anyone's ``limit``."""
    bearer = to or who
    line = f"{bearer} cannot carry {label}: past their limit." if bearer else \
        f"Nobody in the party can carry {label}: it stays where it is."
    return refused(ask.action, "too-heavy", line, item=label, who=who, to=to)


def done(ask: ItemAsk, who: str, named: Named, moved: int, now: int,
         notes: list[str]) -> InventoryRecord:
    """A resolved part: ``count`` what moved, ``now`` what the bag holds after (SPEC §6)."""
    note = _join(notes)
    verb = _VERBS.get(ask.action, ask.action)
    line = _join([f"{who} {verb} {moved} {named.label}; now holds {now}.", note])
    return InventoryRecord(status="resolved", action=ask.action, item=named.label, count=moved,
                           who=who, now=now, note=note, feedback=line)


_VERBS = {"add": "gets", "remove": "loses", "give": "gives", "equip": "equips",
          "unequip": "takes off", "bind": "binds", "unbind": "unbinds"}


def _short(ask: ItemAsk, taken: int) -> list[str]:
    wanted = ask.count or 1
    return [f"Only {taken} held: {taken} moved."] if not ask.every and taken < wanted else []


def _burdened(ctx: Context, state: GameState, index: int, before: Character) -> list[str]:
    """ITM-BAG-14: the GM is told when a bag just became encumbering."""
    after = state.party[index]
    if encumbered(ctx.ruleset, after, state) and not encumbered(ctx.ruleset, before, state):
        return [f"{after.name} is now encumbered."]
    return []


def _join(parts: Iterable[str | None]) -> str | None:
    return " ".join(p for p in parts if p) or None
