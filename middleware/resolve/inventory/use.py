"""``[inventory: action="use" item="Poultice" who="Juno"]``: an item used outside combat (ITM-USE).

The item acts on the character who carries it (ITM-USE-01), in this order, every die through the
candidate's ``Dice``:

1. the stack: worn if the item takes slots or binds (ITM-USE-10), with the charges one use spends
   (ITM-USE-07/08, Ambiguity 28); otherwise refused and nothing changes;
2. the ``gate``, skipped when ``unless`` holds, rolled exactly like a ``[skill_check:]`` with the
   ruleset's own kind: sheet number, wound penalty, conditions and items (ITM-USE-16..19);
3. if it passed, the effect: ``heal`` into the health pool or plain health track, or one mark off a
   wound track (ITM-USE-03, SHEET-WND-11), ``temporary``, ``restore``, ``applies`` (ITM-USE-04/05);
   a harmful or enemy-facing use hits nobody, the GM is told what it does (ITM-USE-06);
4. the price, paid even for a failed gate (ITM-USE-20): one piece (``consumes``) or the charges,
   and on the last charge the ``breaksOn`` die (ITM-USE-15).

The report is one line, e.g. ``Juno uses Poultice: heals 4 (Grit 6/11). 1 left.`` (ITM-USE-21/22),
written as the record's ``feedback`` and ``note=``. Like every tag it is measured from the state the
turn started in, so a regenerated reply never uses an item twice (ITM-USE-23).

Refusal codes (ours, Ambiguity 3): ``not-worn``, ``no-charges``, ``no-difficulty`` (ITM-USE-17);
and the bag's own ``unknown-character``, ``not-held``, ``unknown-item``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from middleware.character.check import assemble_check, view_for
from middleware.character.rest import heal_wound, set_pool, set_track
from middleware.items import charges
from middleware.items.bag import held, positions, with_item
from middleware.items.describe import use_text
from middleware.items.effects import is_worn
from middleware.items.index import RulesetItem
from middleware.items.lookup import find_item
from middleware.items.words import words_of
from middleware.resolve import Context, Resolution
from middleware.resolve.checks import KINDS
from middleware.resolve.checks.kind import Roll
from middleware.resolve.checks.overrides import roll_with_overrides
from middleware.resolve.checks.record import Ask
from middleware.resolve.inventory.fakes.goods import with_lines
from middleware.resolve.inventory.fakes.inspect import unmask_for_use
from middleware.resolve.inventory.find import Member, holder
from middleware.resolve.inventory.goods import held_named, unknown_character
from middleware.resolve.inventory.read import ItemAsk
from middleware.resolve.inventory.record import InventoryRecord, refused
from middleware.rules.item_entry import Gate, Item, StatRef
from middleware.sheet.numbers import whole
from middleware.sheet.roller import Roller
from middleware.state import Character, GameState, PoolValue, Stack


@dataclass(frozen=True, slots=True)
class Using:
    """One use under way: who, which item, which stack of their bag, and the line so far."""

    member: Member
    found: RulesetItem
    at: int
    ctx: Context
    state: GameState

    @property
    def item(self) -> Item:
        return self.found.item

    @property
    def character(self) -> Character:
        return self.state.party[self.member.index]


def use(ask: ItemAsk, state: GameState, ctx: Context) -> Resolution:
    """The ``use`` action (ITM-USE-01..25): refused with nothing changed, or used in full."""
    member = holder(state, ask.who)
    if member is None:
        return Resolution(state, unknown_character(ask, ask.who))
    unmasked = unmask_for_use(ask, state, ctx, member)  # ITM-USE-25 / ITM-FAKE-09
    if unmasked is not None:
        return with_lines(use(unmasked[1], unmasked[0], ctx), [unmasked[2]])
    found = find_item(ctx.ruleset, state, ask.item)
    stacks = with_item(member.character.bag, found.ref) if found else []
    if found is None or not stacks:
        named = held_named(ask, state, ctx, member)
        if isinstance(named, InventoryRecord):
            return Resolution(state, named)
        found = named.found
        stacks = positions(member.character.bag, named.goods)
        if found is None or found.item.use is None:
            now = held(member.character.bag, named.goods)
            return Resolution(state, _narrated(member, named.label, now))
    if found.item.use is None:
        now = sum(member.character.bag[i].count for i in stacks)
        return Resolution(state, _narrated(member, found.label, now))
    return _use_stack(Using(member, found, 0, ctx, state), stacks)


def _use_stack(using: Using, stacks: list[int]) -> Resolution:
    """ITM-USE-10/17 and Ambiguity 28: pick a usable stack, else refuse; then gate, effect, price."""
    bag = using.member.character.bag
    item = using.item
    cost = charges.cost(item)
    needs_worn = bool(item.slots) or item.binds is not None
    usable = [i for i in stacks if (not needs_worn or is_worn(item, bag[i]))
              and charges.left(bag[i], item) >= cost]
    problem = _refusal(using, stacks, usable, needs_worn)
    if problem is not None:
        return Resolution(using.state, problem)
    using = replace(using, at=usable[0])
    passed, gate = _gate(using)
    if passed:
        using, said = _effect(using)
        if gate:  # the gate's line leads, its effects follow after a semicolon
            said = [f"{gate}; {', '.join(said)}" if said else gate]
    else:
        said = [f"{gate}; {_for_nothing(item)}"]
    using, tail = _pay(using)
    return Resolution(using.state, _record(using, said, tail))


def _refusal(using: Using, stacks: list[int], usable: list[int],
             needs_worn: bool) -> InventoryRecord | None:
    name, label, item = using.member.name, using.found.label, using.item
    if item.use is not None and item.use.gate is not None and _difficulty(item) is None:
        return refused("use", "no-difficulty", f"{label} cannot be used: its gate reads a "
                       "difficulty the item does not give.", item=label, who=name)
    if usable:
        return None
    bag = using.member.character.bag
    if needs_worn and not any(is_worn(item, bag[i]) for i in stacks):
        how = "equipped and bound" if item.slots and item.binds else \
            "bound" if item.binds else "equipped"
        return refused("use", "not-worn", f"{name} must have {label} {how} to use it.",
                       item=label, who=name)
    return refused("use", "no-charges", f"{label} has no charges left to use.", item=label,
                   who=name)


# --- the gate (ITM-USE-16..20) ----------------------------------------------------------------


def _difficulty(item: Item) -> int | None:
    """ITM-USE-16/17: literal, or read from the item's own number stat, held to 1..100."""
    gate = item.use.gate if item.use else None
    if gate is None:
        return None
    number = item.stats.get(gate.difficulty.stat) if isinstance(gate.difficulty, StatRef) \
        else gate.difficulty
    if isinstance(number, bool) or not isinstance(number, int | float):
        return None
    return min(max(int(number), 1), 100)


def _gate(using: Using) -> tuple[bool, str | None]:
    """ITM-USE-18/19: skipped when ``unless`` holds, else rolled like a check by the user;
    (passed, the line's gate part such as ``Ward check 1 against 2, failed``)."""
    gate = using.item.use.gate if using.item.use else None
    if gate is None:
        return True, None
    view = view_for(using.ctx.ruleset, using.character, state=using.state)
    if gate.unless is not None and view.ref(gate.unless.value) >= gate.unless.at_least:
        return True, None
    name = _gate_name(using, gate)
    passed, total, dc = _roll_gate(using, gate, name)
    shown = "no roll" if total is None else total
    return passed, f"{name} check {shown} against {dc}, {'passed' if passed else 'failed'}"


def _gate_name(using: Using, gate: Gate) -> str:
    """The check's name in the line: the skill's or attribute's label, or the sheet value's."""
    words = words_of(using.ctx.ruleset)
    if gate.check.skill:
        return words.say("skills", gate.check.skill)
    if gate.check.ability:
        return words.say("abilities", gate.check.ability)
    ref = gate.check.value
    derived = using.ctx.ruleset.sheet.by_id.derived.get(ref.derived or "") if ref else None
    return derived.label if derived is not None else "Sheet"


def _roll_gate(using: Using, gate: Gate, name: str) -> tuple[bool, int | None, int]:
    """(passed, total, dc): the kind of ``resolution.kind`` through the same path as
    ``[skill_check:]`` (overrides included, CHK-OVR). A user who cannot try (untrained
    ``refuse``, an automatic failure) fails without a roll."""
    ctx, state, member = using.ctx, using.state, using.member
    roller = Roller(member.index, member.name, using.character)
    sheet = assemble_check(ctx.ruleset, state, roller, gate.check.skill or gate.check.ability
                           or name, None)
    if gate.check.value is not None:
        view = view_for(ctx.ruleset, using.character, state=state)
        sheet = replace(sheet, number=whole(view.ref(gate.check.value)))
    dc = _difficulty(using.item) or 1
    kind = KINDS.get(str(getattr(ctx.ruleset.resolution, "kind", "")))
    if kind is None or sheet.untrained == "refuse" or sheet.fails_automatically:
        return False, None, dc
    ask = Ask(skill=name, who=member.name, dc=dc, attrs={"skill": name, "dc": str(dc)})
    record = roll_with_overrides(kind.roll, Roll(ask, sheet, ctx, state, roller)).record
    return record.success is True, record.total, record.dc if record.dc is not None else dc


def _for_nothing(item: Item) -> str:
    return "it is used up for nothing" if item.use and item.use.consumes else \
        "its charges are spent for nothing"


# --- the effect (ITM-USE-03..06) --------------------------------------------------------------


def _effect(using: Using) -> tuple[Using, list[str]]:
    """ITM-USE-06: a harmful or enemy-facing use hits nobody; else heal, temporary, restore,
    applies, in that order, each throwing its own dice."""
    use = using.item.use
    assert use is not None
    if use.kind in ("attack", "debuff") or use.targets == "enemy":
        what = use_text(using.item, words_of(using.ctx.ruleset), gm=True)
        return using, [f"it hits nobody outside a fight ({what})"]
    said: list[str] = []
    for step in (_heal, _temporary, _restore, _applies):
        using, part = step(using)
        said += part
    return using, said


def _health(using: Using) -> tuple[str, str] | None:
    """SHEET-WND-11: ``combat.health`` names the health ``pool`` or ``track``; None without."""
    health = getattr(using.ctx.ruleset.combat, "health", None)
    if isinstance(health, dict):
        for key in ("pool", "track"):
            if isinstance(health.get(key), str):
                return key, health[key]
    return None


def _heal(using: Using) -> tuple[Using, list[str]]:
    """ITM-USE-03: the amount into a health pool or plain track, or one mark off a wound track."""
    use = using.item.use
    if use is None or use.kind != "heal":
        return using, []
    health = _health(using)
    if health is None:
        return using, ["heals nothing (the ruleset names no health)"]
    track = using.ctx.ruleset.sheet.by_id.tracks.get(health[1])
    if health[0] == "track" and track is not None and track.wound:
        return _heal_mark(using, health[1])
    ruleset, character = using.ctx.ruleset, using.character
    before, top = _reading(using, health)
    amount = charges.roll_amount(use.amount, using.ctx.dice)
    after = min(before + amount, top)
    write = set_pool if health[0] == "pool" else set_track
    using = _with(using, write(ruleset, character, health[1], after, using.state))
    healed = f"heals {amount}" if after - before == amount else \
        f"heals {max(after - before, 0)} of {amount}"
    return using, [f"{healed} ({_label(using, health)} {after}/{top})"]


def _heal_mark(using: Using, track_id: str) -> tuple[Using, list[str]]:
    """SHEET-WND-10/11: one mark (overflow first) off the wound track."""
    before = view_for(using.ctx.ruleset, using.character, state=using.state).live.wound(track_id)
    using = _with(using, heal_wound(using.ctx.ruleset, using.character, track_id, 1))
    after = view_for(using.ctx.ruleset, using.character, state=using.state).live.wound(track_id)
    assert before is not None and after is not None
    cleared = (before.filled + before.overflow) - (after.filled + after.overflow)
    label = _label(using, ("track", track_id))
    verb = "heals a mark" if cleared else "heals no mark, none to clear"
    return using, [f"{verb} ({label} {after.filled}/{after.length})"]


def _reading(using: Using, health: tuple[str, str]) -> tuple[int, int]:
    """(value, max) of the health pool or plain track; (0, 0) when the character has none."""
    view = view_for(using.ctx.ruleset, using.character, state=using.state)
    if health[0] == "pool":
        return view.live.pools().get(health[1], (0, 0))
    track = view.ix.tracks.get(health[1])
    if track is None:
        return 0, 0
    return view.live.plain_value(track), view.live.track_range(track)[1]


def _temporary(using: Using) -> tuple[Using, list[str]]:
    """ITM-USE-04: temporary points into the health pool's buffer, where it allows them; the
    larger of the old and new buffer stays (temporary points do not add up: our reading)."""
    use = using.item.use
    if use is None or use.temporary is None:
        return using, []
    health = _health(using)
    pool = using.ctx.ruleset.sheet.by_id.pools.get(health[1]) if health and \
        health[0] == "pool" else None
    pools = view_for(using.ctx.ruleset, using.character, state=using.state).live.pools()
    if pool is None or not pool.allow_temp or pool.id not in pools:
        return using, ["no temporary points (the health pool takes none)"]
    amount = charges.roll_amount(use.temporary, using.ctx.dice)
    stored = dict(using.character.live.pools)
    old = stored.get(pool.id)
    temp = max(amount, old.temp or 0) if old else amount
    stored[pool.id] = PoolValue(value=pools[pool.id][0], temp=temp)
    live = using.character.live.model_copy(update={"pools": stored})
    using = _with(using, using.character.model_copy(update={"live": live}))
    return using, [f"gains {amount} temporary {pool.label} ({temp} in all)"]


def _restore(using: Using) -> tuple[Using, list[str]]:
    """ITM-USE-05: ``restore`` refills its pool by its amount, never above the maximum
    ("Ada gets back 1 Resolve, and is on 3 of 4")."""
    use = using.item.use
    if use is None or use.restore is None:
        return using, []
    ruleset, key = using.ctx.ruleset, use.restore.pool
    label = words_of(ruleset).say("pools", key)
    pools = view_for(ruleset, using.character, state=using.state).live.pools()
    if key not in pools:
        return using, [f"gets back no {label} (has no such pool)"]
    amount = charges.roll_amount(use.restore.amount, using.ctx.dice)
    before, top = pools[key]
    after = min(before + amount, top)
    using = _with(using, set_pool(ruleset, using.character, key, after, using.state))
    got = f"{amount}" if after - before == amount else f"{after - before} of {amount}"
    return using, [f"gets back {got} {label} ({label} {after}/{top})"]


def _applies(using: Using) -> tuple[Using, list[str]]:
    """ITM-USE-04: every declared condition in ``applies`` is put on the user and stays."""
    use = using.item.use
    applies = use.applies if use is not None and isinstance(use.applies, list) else []
    declared = using.ctx.ruleset.sheet.by_id.conditions
    named = [a.get("condition") for a in applies if isinstance(a, dict)]
    wanted = [c for c in named if isinstance(c, str) and c in declared]
    if not wanted:
        return using, []
    live = using.character.live
    conditions = tuple(dict.fromkeys((*live.conditions, *wanted)))
    character = using.character.model_copy(
        update={"live": live.model_copy(update={"conditions": conditions})})
    names = ", ".join(declared[c].label for c in dict.fromkeys(wanted))
    return _with(using, character), [f"is now {names}"]


# --- the price and the report (ITM-USE-07..09, -15, -20, -21) ---------------------------------


def _pay(using: Using) -> tuple[Using, str | None]:
    """ITM-USE-07: one piece, or the use's charges; the last charge rolls ``breaksOn``."""
    item, bag, at = using.item, using.character.bag, using.at
    stack = bag[at]
    if item.use is not None and item.use.consumes:
        rest = (*bag[:at], *bag[at + 1:])
        kept = (*bag[:at], stack.model_copy(update={"count": stack.count - 1}), *bag[at + 1:])
        using = _with_bag(using, rest if stack.count <= 1 else kept)
        now = _held(using)
        return using, f"{now} left." if now else "None left."
    cost = charges.cost(item)
    if cost == 0:
        return using, None
    left = charges.left(stack, item) - cost
    spent = charges.with_left(stack, item, left)
    if left == 0 and charges.breaks(item, using.ctx.dice)[0]:
        return _with_bag(using, (*bag[:at], *bag[at + 1:])), "Its last charge spent, it breaks."
    using = _with_bag(using, (*bag[:at], spent, *bag[at + 1:]))
    return using, f"{charges.charges_note(spent, item)}."


def _record(using: Using, said: list[str], tail: str | None) -> InventoryRecord:
    """ITM-USE-21/22: the one-line report, as ``feedback`` and ``note=``."""
    name, label = using.member.name, using.found.label
    line = f"{name} uses {label}: {', '.join(said)}." if said else f"{name} uses {label}."
    line = f"{line} {tail}" if tail else line
    consumed = bool(using.item.use and using.item.use.consumes)
    return InventoryRecord(status="resolved", action="use", item=label,
                           count=1 if consumed else None, who=name, now=_held(using),
                           note=line, feedback=line)


def _narrated(member: Member, label: str, now: int) -> InventoryRecord:
    """ITM-USE-24: an item with no ``use`` (or a plain one) changes nothing; the GM narrates it."""
    line = f"{member.name} uses {label}: it has no rules for using it, so describe what happens."
    return InventoryRecord(status="resolved", action="use", item=label, who=member.name,
                           now=now, note=line, feedback=line)


def _held(using: Using) -> int:
    """How many pieces of the item the user's bag holds now."""
    bag = using.character.bag
    return sum(bag[i].count for i in with_item(bag, using.found.ref))


def _label(using: Using, health: tuple[str, str]) -> str:
    kind = "pools" if health[0] == "pool" else "tracks"
    ix = using.ctx.ruleset.sheet.by_id
    found = (ix.pools if kind == "pools" else ix.tracks).get(health[1])
    return found.label if found is not None else health[1]


def _with(using: Using, character: Character) -> Using:
    return replace(using, state=using.state.with_character(using.member.index, character))


def _with_bag(using: Using, bag: tuple[Stack, ...]) -> Using:
    return _with(using, using.character.model_copy(update={"bag": bag}))
