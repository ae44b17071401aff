"""The GM's view built alone (``build_view``): what the model is told, for real rulesets."""

from __future__ import annotations

from middleware.engine import Engine
from middleware.gm_view import ViewOptions, build_view
from middleware.items.describe import gm_item_line
from middleware.items.index import item_index
from middleware.items.words import words_of
from middleware.rules.load import load_ruleset
from middleware.rules.registry import load_bundled
from middleware.state import Character, GameState, Stack
from middleware.stores.memory import MemoryStore
from tests.conftest import compat_json, compat_path
from tests.gm_view.helpers import BRASS_PARTY, WARDEN, brass, gravewatch, party, start

BUY = ('[place: name="Brassford" size="fair town"] They haggle. '
       '[inventory: action="buy" item="Honey cake" count="2"] [skill_check: skill="Juggling"]')


def test_the_rules_block_teaches_brass_fairs_tags_and_only_its_own() -> None:
    """CHK-COMMON-08 (ladder), ITM-BAG-11 (equip with slots, no bind without binding),
    ITM-MONEY-15 (coins), ITM-LOOT-15 (tables), ITM-MARKET-25 / ITM-DAY-13 (MARKET teaching with
    sell and day="new"), and that the Engine throws every die and discards written results."""
    rules = build_view(brass(), start(brass(), BRASS_PARTY)).rules
    for wanted in ("Easy: 5", "Risky: 7", "Hard: 9", "Skills: Haggle, Scout, Ward.",
                   "equip, unequip.", "coppers (1), brass rings (10), crowns (100)",
                   "road_finds (Road finds)", "MARKET", "day=\"new\"",
                   'action="sell"', "The Engine throws every die",
                   "any result you write in a tag is discarded"):
        assert wanted in rules, wanted
    assert "bind" not in rules.split("Actions here:")[1].split("\n")[0]
    assert "threshold=" not in rules and "spend=" not in rules  # not this kind, no spend rule


def test_gravewatchs_rules_block_has_its_pool_attributes_spends_charms_and_binding() -> None:
    """The peer's dice-pool ruleset: threshold, bonus, explode, reroll, spend, charms (use=),
    bind (its binding is "Bound"), the ladder's successes and targets (CHK-COMMON-08)."""
    rules = build_view(gravewatch(), start(gravewatch(), WARDEN)).rules
    for wanted in ('threshold="N"', 'bonus="N"', 'explode="N"', 'reroll="careful"',
                   'spend="resolve:N": each 1 Resolve buys 1 automatic success, at most 2',
                   "Steady Hand, Grave Sight", "bind, unbind (Bound)",
                   "Plain work: 1 success, each die at 6+", "Saves: Steel."):
        assert wanted in rules, wanted
    assert "mode=" not in rules  # no advantage in this ruleset


def test_outcome_tiers_are_taught_with_their_text() -> None:
    """CHK-OUT-13: the GM is taught the tiers and their ``text`` and told to narrate the tier."""
    ruleset = load_bundled("lantern-and-ledger")
    rules = build_view(ruleset, start(ruleset, [])).rules
    tiers = ruleset.resolution.outcomes
    assert tiers is not None
    assert "narrate that tier" in rules
    for tier in tiers.tiers:
        assert (f"{tier.label}: {tier.text}" if tier.text else tier.label) in rules


def test_unmodified_faces_are_taught_where_the_ruleset_has_them() -> None:
    """CHK-SUM-09: the GM is told to apply what the rules say about an unmodified roll."""
    raw = load_bundled("tidemark-d20").source
    raw = {**raw, "resolution": {**raw["resolution"], "unmodified": [1, 20]}}
    rules = build_view(load_ruleset(raw), start(load_ruleset(raw), [])).rules
    assert "unmodified= (faces 1, 20)" in rules


def test_the_rules_block_is_byte_identical_whatever_the_state() -> None:
    """The rules block reads only the ruleset and layers: two states of one game, one block."""
    ruleset = brass()
    before = start(ruleset, BRASS_PARTY)
    after = before.model_copy(update={"party": before.party[:1]})
    assert build_view(ruleset, before).rules == build_view(ruleset, after).rules


async def test_the_state_block_shows_a_bought_item_the_purse_and_last_turns_feedback() -> None:
    """ITM-ENTRY-18 (the item's GM line), ITM-MONEY-05 (purse worth), ITM-BAG-17 (load and
    slots), ITM-DAY-13 (the day's MARKET block) and the feedback line of every record."""
    ruleset = brass()
    engine = Engine(MemoryStore())
    await engine.create_game("c", ruleset, party(ruleset, BRASS_PARTY), seed=3)
    done = await engine.process("c", 1, BUY)
    view = build_view(ruleset, done.state, done.records, seed=3)
    index = item_index(ruleset)
    cake = gm_item_line(index.find("Honey cake"), index, words_of(ruleset))  # type: ignore[arg-type]
    assert f"- 2 × {cake}" in view.state
    assert "Ada: Purse worth 296 coppers" in view.state
    assert "Ada: load" in view.state and "slots Hands 0 of 2" in view.state
    assert "Today's purse:" in view.state and "chandler: Honey cake 2 coppers" in view.state
    for record in done.records:
        assert record.feedback in view.state
    assert 'No check is named "Juggling"' in view.state
    assert "Sell with" not in view.state  # the teaching is in the rules block only


def test_the_party_reads_as_checks_read_it_the_kinds_way() -> None:
    """SHEET-SKL-08: a pool prints ``5 dice``; pools, wound marks with the penalty (SHEET-PEN),
    conditions with what they do and states by label; ITM-USE-14: charges left on the item."""
    state = build_view(gravewatch(), start(gravewatch(), WARDEN)).state
    for wanted in ("Ada (player): Dig 5 dice", "Soothe 1 die", "Resolve 1 of 4",
                   "Harm 2 of 4 marked", "-1 on every roll", "conditions: Rattled (",
                   "Light: Lit", "2 of 3 charges left", "Coin worth 144 pennies",
                   "Bound 0 of 2"):
        assert wanted in state, wanted


def test_a_stat_that_is_not_prompt_visible_never_reaches_the_model() -> None:
    """ITM-BLOCK-06: Gravewatch's "Hidden in" (``promptVisible: false``) is in neither block,
    though the silver nail in the bag and in the rules' item list has it."""
    assert any(s.get("promptVisible") is False for s in compat_json("gravewatch.json")["items"]
               ["stats"])
    view = build_view(gravewatch(), start(gravewatch(), WARDEN))
    assert "Silver coffin nail" in view.state and "Silver coffin nail" in view.rules
    assert "Hidden in" not in view.rules + view.state
    assert "pocket" not in view.rules + view.state


def test_a_fake_shows_the_game_master_the_truth() -> None:
    """ITM-FAKE-08/13: the GM's inventory marks a fake with what it really is."""
    fake = Stack(item="wares/lodestone", really="wares/brass-compass")  # as a dishonest pedlar sells
    game = GameState(ruleset="brass-fair", party=(Character(name="Ada", player=True, bag=(fake,)),))
    state = build_view(brass(), game).state
    assert "1 × Lodestone compass [" in state and "(FAKE: really Brass compass;" in state


def test_names_from_the_game_are_made_prompt_safe() -> None:
    """SHEET-FILE-04: no ``[``/``]`` or ``{{``/``}}`` from a name reaches the prompt as such."""
    entries = [{"name": "Ada [GM] {{char}}", "player": True}]
    state = build_view(brass(), start(brass(), entries)).state
    assert "Ada (GM) char (player):" in state and "{{" not in state


def test_every_part_has_a_cap_and_the_whole_a_budget_cut_where_marked() -> None:
    """A part past its cap loses whole lines from the end with a marker; the two blocks stay
    within the budget; the same input cuts the same way."""
    ruleset, state = brass(), start(brass(), BRASS_PARTY)
    view = build_view(ruleset, state, options=ViewOptions(caps={"items": 300}))
    items = view.rules.split("ITEMS OF THIS GAME\n")[1]
    assert len("ITEMS OF THIS GAME\n" + items) <= 300
    assert items.splitlines()[-1].startswith("… (cut: ") and "more lines of items" in items
    small = ViewOptions(budget=2500)
    tight = build_view(ruleset, state, options=small)
    assert len(tight.rules) + len(tight.state) <= 2500
    assert "(cut: " in tight.rules
    assert tight == build_view(ruleset, state, options=small)


def test_a_ruleset_without_items_gets_no_money_loot_or_market_teaching() -> None:
    """ITM-MONEY-15 / ITM-LOOT-15 / ITM-MARKET-25: only a ruleset with the rule is taught it."""
    ruleset = load_bundled("tidemark-d20")
    view = build_view(ruleset, start(ruleset, [{"name": "Wren", "player": True}]))
    assert "MONEY" not in view.rules and "MARKET" not in view.rules and "Loot" not in view.rules
    assert "PURSES" not in view.state


def test_peer_rulesets_build_both_blocks() -> None:
    """Every peer ruleset loads unchanged and gives two non-empty blocks."""
    for name in ("ember-roads.json", "gravewatch.json", "ruleset-5e-2014.example.json"):
        ruleset = load_ruleset(compat_path(name))
        view = build_view(ruleset, start(ruleset, [{"name": "Wren", "player": True}]))
        assert "CHECKS" in view.rules and "Wren (player):" in view.state


def test_the_native_rule_and_the_proposal_caps_are_taught() -> None:
    """ITM-BAG-07 (``native: false``: only the game's items and inventions), ITM-BLOCK-24
    (``freeform: refuse``) and ITM-BLOCK-20 / ITM-PROPOSE-17 (the proposal form with each
    rarity's caps), on the peer's Ember Roads with its items block changed in memory."""
    raw = compat_json("ember-roads.json")
    plain = build_view(load_ruleset(raw), start(load_ruleset(raw), [])).rules
    assert "kept as a plain item" in plain and "At most, Common: Guard 1, bonus +1." in plain
    assert "fights like it" in plain
    raw["items"]["native"] = False
    strict = build_view(load_ruleset(raw), start(load_ruleset(raw), [])).rules
    assert "Only this game's items and items you invent can be added" in strict
    raw["items"]["native"], raw["items"]["freeform"] = True, "refuse"
    refusing = build_view(load_ruleset(raw), start(load_ruleset(raw), [])).rules
    assert "A name that is no item of this game is refused." in refusing


async def test_what_nobody_can_carry_is_told_next_turn() -> None:
    """ITM-BAG-16: nothing goes past a limit; what stays behind is in last turn's lines."""
    ruleset = brass()
    engine = Engine(MemoryStore())
    await engine.create_game("b", ruleset, party(ruleset, BRASS_PARTY), seed=2)
    done = await engine.process("b", 1, '[inventory: action="add" item="Hand axe" count="40"]')
    state = build_view(ruleset, done.state, done.records).state
    [line] = [x for x in state.splitlines() if x.startswith("- inventory")]
    assert "left behind" in line and done.records[0].feedback in line


async def test_an_invention_is_told_without_hidden_stats() -> None:
    """ITM-PROPOSE-12 / ITM-BLOCK-06: an invented item's lines never name a stat that is not
    ``promptVisible`` (Gravewatch's "Hidden in"), in last turn's lines or in the bag."""
    ruleset = gravewatch()
    engine = Engine(MemoryStore())
    await engine.create_game("g", ruleset, party(ruleset, WARDEN), seed=2)
    done = await engine.process("g", 1, (
        '[inventory: action="add" item="Bone whistle" category="Token" stats="conceal=pocket, '
        'target=12" summary="A whistle of yellowed bone."]'))
    state = build_view(ruleset, done.state, done.records).state
    assert "- 1 × Bone whistle [Token" in state
    assert "Hidden in" not in state and "pocket" not in state


def test_a_state_shows_what_it_takes_off_the_rolls_it_touches() -> None:
    """SHEET-ADJ / SHEET-LIVE-11: Gravewatch's light, out, takes two dice off Nerve rolls
    (``resolution.adjust`` through the ``light_nerve`` derived value); the state block says so."""
    entries = [{**WARDEN[0], "live": {**WARDEN[0]["live"], "states": {"light": "out"}}}]
    state = build_view(gravewatch(), start(gravewatch(), entries)).state
    assert "Light: Out" in state and "-2 on rolls with Nerve" in state
    assert "on rolls with Nerve" not in build_view(gravewatch(), start(gravewatch(), WARDEN)).state
