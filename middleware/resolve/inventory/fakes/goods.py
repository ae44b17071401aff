"""Fakes in bags and at dishonest sellers (ITM-FAKE-01..13, -25..28).

A fake stack shows as the item it passes for: ``Stack.item`` is that item's ref, so the bag, the
``--json`` summary and every name lookup show and find it as that item (ITM-FAKE-07), while
``Stack.really`` keeps the fake's own ref, read by the sheet (ITM-FAKE-10). Revealing a stack makes
it its real item from then on (``item = really``) and lets it join the real item's stacks.

- ``fake_for``: what a purchase from a seller's stock hands over: the fake, shown as what it passes
  for, when a dishonest seller was named (ITM-FAKE-05/06); J4's buy delivers these goods.
- ``notice_before_buy`` (``market/notice.py``): before a buy pays for a fake, the other party
  members may hold it with ``reason="held"`` (ITM-FAKE-25..28).
- ``reveal_stack`` / ``reveal_first`` / ``reveal_bound``: by ``reveal``, use, binding, a tell, a
  way (ITM-FAKE-09/21/30); ``reveal_by_sheet`` after an inventory change that shows a number
  the pretended item would not give (ITM-FAKE-11/12); ``honest_sale`` for a sale to an honest
  buyer (ITM-FAKE-09).
- ``gm_note``: ``(FAKE: really <name>)`` for the Game Master only, and who suspects it (ITM-FAKE-08/20).
"""

from __future__ import annotations

from dataclasses import dataclass

from middleware.character.check import view_for
from middleware.items.bag import Bag, Goods, merge_back
from middleware.items.index import RulesetItem, item_index
from middleware.resolve import Resolution
from middleware.resolve.market.stock import Ware
from middleware.rules.items_money import Seller
from middleware.rules.ruleset import Ruleset
from middleware.sheet.effects import effects_for
from middleware.sheet.evaluate import SheetView
from middleware.sheet.names import Target
from middleware.state import Character, GameState, Stack

SUSPECTS = "{who} thinks it is a fake"
"""ITM-FAKE-20 (Ambiguity 22): the bag's badge, in English, kept in one place."""


def fake_for(ware: Ware, seller: Seller | None) -> Goods:
    """ITM-FAKE-05/06: the goods a purchase of ``ware`` hands over: a dishonest seller's fake shows
    as the item it passes for; anything else is what it is."""
    if seller is not None and not seller.honest and ware.shown != ware.ref:
        return Goods(item=ware.shown, really=ware.ref)
    return Goods(item=ware.ref)


def is_fake(stack: Stack) -> bool:
    """The stack is a fake nobody has revealed yet."""
    return stack.really is not None


def reveal_stack(stack: Stack) -> Stack:
    """ITM-FAKE-09: the stack is its real item from now on; suspicion has served its turn."""
    return stack.model_copy(update={"item": stack.really, "really": None, "suspects": ()})


def reveal_at(ruleset: Ruleset, state: GameState, member: int, at: int) -> GameState:
    """``state`` with stack ``at`` of party member ``member`` revealed and merged with the real
    item's loose stacks (ITM-BAG-05)."""
    character = state.party[member]
    bag = character.bag
    stack = reveal_stack(bag[at])
    found = item_index(ruleset).by_ref(stack.item or "")
    limit = found.stack_limit if found is not None else 1
    new_bag: Bag = merge_back((*bag[:at], stack, *bag[at + 1:]), at, limit)
    return state.with_character(member, character.model_copy(update={"bag": new_bag}))


def reveal_first(ruleset: Ruleset, state: GameState, member: int,
                 shown: str) -> tuple[GameState, str | None]:
    """ITM-FAKE-09 / ITM-USE-25 / Ambiguity 23: when the first stack of ``shown`` in the member's
    bag is a fake, reveal it; (state, the line saying what it was) or (state, None)."""
    bag = state.party[member].bag
    at = next((i for i, s in enumerate(bag) if s.item == shown), None)
    if at is None or not is_fake(bag[at]):
        return state, None
    return reveal_at(ruleset, state, member, at), reveal_line(ruleset, bag[at])


def reveal_line(ruleset: Ruleset, stack: Stack) -> str:
    """``Bag of Holding was really Bag of Devouring.`` (the journal's and the screen's line)."""
    index = item_index(ruleset)
    return f"{_label(index.by_ref(stack.item or ''), stack.item)} was really " \
        f"{_label(index.by_ref(stack.really or ''), stack.really)}."


def reveal_bound(ruleset: Ruleset, state: GameState, member: int) -> tuple[GameState, list[str]]:
    """ITM-FAKE-09: binding reveals a fake (attunement reveals a curse): every bound fake of the
    member is revealed; (state, a line for each)."""
    lines: list[str] = []
    while True:
        bag = state.party[member].bag
        at = next((i for i, s in enumerate(bag) if is_fake(s) and s.bound), None)
        if at is None:
            return state, lines
        lines.append(reveal_line(ruleset, bag[at]))
        state = reveal_at(ruleset, state, member, at)


# --- ITM-FAKE-11/12: the sheet gives the game away ---------------------------------------------


def reveal_by_sheet(ruleset: Ruleset, state: GameState) -> tuple[GameState, list[str]]:
    """ITM-FAKE-11: after an inventory change, each fake whose holder's sheet shows a number or a
    check bonus the pretended item would not give is revealed. Combat-only differences (a
    resistance) are not read here (ITM-FAKE-12)."""
    lines: list[str] = []
    for member, character in enumerate(state.party):
        for at, stack in enumerate(character.bag):
            if is_fake(stack) and _gives_away(ruleset, state, character, at):
                lines.append(reveal_line(ruleset, stack))
                return _again(ruleset, reveal_at(ruleset, state, member, at), lines)
    return state, lines


def _again(ruleset: Ruleset, state: GameState, lines: list[str]) -> tuple[GameState, list[str]]:
    state, more = reveal_by_sheet(ruleset, state)
    return state, lines + more


def _gives_away(ruleset: Ruleset, state: GameState, character: Character, at: int) -> bool:
    bag = character.bag
    honest = bag[at].model_copy(update={"really": None})
    pretended = character.model_copy(update={"bag": (*bag[:at], honest, *bag[at + 1:])})
    return sheet_numbers(ruleset, state, character) != sheet_numbers(ruleset, state, pretended)


def sheet_numbers(ruleset: Ruleset, state: GameState, character: Character) -> tuple[object, ...]:
    """Every number and check bonus the sheet shows: attributes, derived values, each skill's and
    save's number with the flat modifiers, dice and leans items and conditions add."""
    view = view_for(ruleset, character, state=state)
    ix = ruleset.sheet.by_id
    numbers: list[object] = [view.score(a) for a in ix.abilities]
    numbers += [view.derived(d) for d in ix.derived]
    for entry in ix.skills:
        numbers.append(_check_numbers(view, Target("skill", entry), view.skill_number(entry)))
    for entry in ix.saves:
        numbers.append(_check_numbers(view, Target("save", entry), view.save_number(entry)))
    return tuple(numbers)


def _check_numbers(view: SheetView, target: Target, number: float) -> object:
    effects = effects_for(view, target)
    return (number, sorted((m.flat, m.dice or "", m.minus) for m in effects.modifiers),
            sorted(lean for lean, _ in effects.leans))



# --- ITM-FAKE-09: selling a fake ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FakeSale:
    """A fake sold to an honest buyer: priced as its real item (``real``), and the line saying so;
    ``real`` without a cost means the buyer refuses (``not-for-sale``)."""

    real: RulesetItem
    line: str


def honest_sale(ruleset: Ruleset, stack: Stack, buyer: Seller | None) -> FakeSale | None:
    """ITM-FAKE-09: an honest buyer (or anyone, without sellers) says what a fake really is and
    pays what it is worth; a dishonest one takes it for what it seems (None: sell as shown)."""
    if not is_fake(stack) or (buyer is not None and not buyer.honest):
        return None
    real = item_index(ruleset).by_ref(stack.really or "")
    if real is None:
        return None
    who = f"The {buyer.label}" if buyer is not None else "The buyer"
    worth = "pays what it is worth" if real.item.cost is not None else "will not buy it"
    return FakeSale(real, f"{who} sees it for what it is: {reveal_line(ruleset, stack)} "
                          f"{who} {worth}.")


# --- ITM-FAKE-08/20: what the Game Master and the bag show -------------------------------------


def gm_note(ruleset: Ruleset, stack: Stack) -> str:
    """ITM-FAKE-08/20: ``(FAKE: really <name>)`` for a fake, and who suspects the stack; ""
    when there is nothing to add. For the Game Master only."""
    parts: list[str] = []
    if is_fake(stack):
        real = item_index(ruleset).by_ref(stack.really or "")
        parts.append(f"(FAKE: really {_label(real, stack.really)}; keep calling it by the name it "
                     "is shown under)")
    parts += [f"({SUSPECTS.format(who=who)})" for who in stack.suspects]
    return " ".join(parts)


def badges(stack: Stack) -> list[str]:
    """ITM-FAKE-20: what the bag shows beside the stack (never the truth)."""
    return [SUSPECTS.format(who=who) for who in stack.suspects]


def with_lines(done: Resolution, lines: list[str]) -> Resolution:
    """``done`` with ``lines`` (what was revealed) added to its record's feedback and note."""
    if not lines:
        return done
    record = done.record
    said = " ".join(lines)
    update: dict[str, object] = {"feedback": f"{record.feedback} {said}".strip()
                                 if record.feedback else said}
    if hasattr(record, "note"):
        note = getattr(record, "note", None)
        update["note"] = f"{note} {said}" if note else said
    return Resolution(done.state, record.model_copy(update=update))


def _label(found: RulesetItem | None, ref: str | None) -> str:
    return found.label if found is not None else (ref or "")
