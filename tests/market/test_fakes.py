"""Fakes, dishonest sellers and seeing through them (ITM-FAKE-01..32) on a 5e ruleset with the
items page's fake examples (``fake_helpers``). Scripted d20 faces make every check exact: Mira's
Arcana is +4, so a face of 15 is 19."""

from __future__ import annotations

from typing import Any

import pytest

from middleware.character.summary import state_summary
from middleware.errors import RulesetError
from middleware.items.bag import Goods
from middleware.items.effects import held_items
from middleware.items.index import item_index
from middleware.resolve.inventory.fakes.goods import badges, fake_for, gm_note, honest_sale
from middleware.resolve.inventory.fakes.notice import notice_before_buy
from middleware.resolve.inventory.fakes.tells import About, best, tries
from middleware.resolve.market.block import market_block
from middleware.resolve.market.offers import offers
from middleware.resolve.market.stock import Ware, todays_stock
from middleware.rules.items_money import Seller, Tell
from middleware.rules.load import load_ruleset
from middleware.state import MarketDay, Stack
from tests.market.fake_helpers import (
    CLUMSY,
    DEVOURING,
    EMBERS,
    FAKE_HEALING,
    HEALING,
    HOLDING,
    KIT,
    POISON,
    PROTECTION,
    TOWN,
    WARDING,
    ada,
    context,
    fakes_data,
    fakes_ruleset,
    mira,
    party,
    record,
    reply,
)
from tests.rulesets import by_id

RULES = fakes_ruleset()
MARKET = RULES.items.market if RULES.items else None
assert MARKET is not None
FENCE = next(s for s in MARKET.sellers if s.id == "fence")
APOTHECARY = next(s for s in MARKET.sellers if s.id == "apothecary")
FENCE_WARE = Ware("fence", POISON, 2, HEALING)
INSPECT = '[inventory: action="inspect" item="Potion of Healing" who="Mira"{extra}]'


def inspect(extra: str = "") -> str:
    return INSPECT.format(extra=extra)


# --- risky wares, dishonest sellers, what a purchase hands over (ITM-FAKE-01, -04..06) ------------


def test_an_honest_seller_warns_about_a_risky_ware_and_a_dishonest_one_says_nothing() -> None:
    """ITM-FAKE-01: the ``MARKET`` block shows ``(warn the buyer first: ...)`` next to an honest
    seller's risky ware; the Fence lists the same wand without a word."""
    lines = market_block(RULES, party(RULES, mira(), place=TOWN), 7).splitlines()
    apothecary = next(line for line in lines if line.startswith("- Apothecary"))
    fence = next(line for line in lines if line.startswith("- Fence"))
    assert "Wand of Wonder 200 gold pieces (warn the buyer first: every wave is a gamble; " \
        "some effects turn on the one who waves it)" in apothecary
    assert "Wand of Wonder 200 gold pieces" in fence and "warn the buyer" not in fence


def test_a_fake_is_never_a_regular_ware_and_only_a_dishonest_stock_offers_it() -> None:
    """ITM-FAKE-04/05: no seller lists a fake among its wares; the Fence's odd lot offers the
    Potion of Poison as a Potion of Healing, and the block tells the Game Master the truth."""
    wares = {o.item.ref for _, listed in offers(RULES, "town") for o in listed}
    assert {POISON, DEVOURING, CLUMSY, EMBERS} & wares == set()
    assert (FENCE_WARE,) == todays_stock(RULES, 7, "Millbrook", 1).of("fence")
    block = market_block(RULES, party(RULES, mira(), place=TOWN), 7)
    assert "Potion of Healing ×2 at 50 gold pieces (FAKE: really Potion of Poison)" in block


def test_a_purchase_naming_the_dishonest_seller_hands_over_the_fake() -> None:
    """ITM-FAKE-05/06: the Fence's ware is the fake, shown as what it passes for; the same ware
    from an honest seller (or none named) is what it is."""
    assert Goods(item=HEALING, really=POISON) == fake_for(FENCE_WARE, FENCE)
    assert Goods(item=POISON) == fake_for(FENCE_WARE, APOTHECARY)
    assert Goods(item=POISON) == fake_for(FENCE_WARE, None)


PURSE = Stack(coins="gp", count=100)
BUY = '[inventory: action="buy" item="Potion of Healing" who="Mira"{extra}]'


def test_a_buy_from_the_fence_is_held_when_a_companion_notices_then_goes_through() -> None:
    """ITM-FAKE-25..27 through the buy: Ada notices, nothing is paid and the reply says
    ``reason="held"``; asked again the same day, Mira pays and gets the fake, which her bag shows
    as a Potion of Healing (ITM-FAKE-06/07)."""
    state = party(RULES, mira(PURSE), ada(wis=16, insight="proficient"), place=TOWN)
    held = reply(RULES, state, BUY.format(extra=' seller="Fence"'))
    assert ("held", state.party) == (record(held).reason, held.state.party)
    assert 'result="refused" reason="held"' in held.text
    bought = reply(RULES, held.state, BUY.format(extra=' seller="Fence"'))
    assert "resolved" == record(bought).status
    assert Stack(item=HEALING, really=POISON) in bought.state.party[0].bag
    summary = state_summary(RULES, bought.state)["party"]["Mira"]
    assert ({"gold pieces": 50, "Potion of Healing": 1}, {"coin": 5000}) == (
        summary["bag"], summary["coins"])


def test_a_buy_that_names_no_seller_never_yields_the_fake() -> None:
    """ITM-FAKE-06: without ``seller=`` the potion comes from an honest seller, genuine."""
    state = party(RULES, mira(PURSE), ada(), place=TOWN)
    done = reply(RULES, state, BUY.format(extra=""))
    assert Stack(item=HEALING) in done.state.party[0].bag


# --- a fake in a bag (ITM-FAKE-07, -08, -10, -20) -------------------------------------------------


def test_a_fake_in_a_bag_looks_like_what_it_passes_for() -> None:
    """ITM-FAKE-07: the bag (the ``--json`` summary) shows a Potion of Healing, never the poison,
    and never merges it with a real Potion of Healing."""
    state = party(RULES, mira(FAKE_HEALING, Stack(item=HEALING)))
    done = reply(RULES, state, '[inventory: add item="Potion of Healing" who="Mira"]')
    assert {"Potion of Healing": 3} == state_summary(RULES, done.state)["party"]["Mira"]["bag"]
    assert [(HEALING, POISON, 1), (HEALING, None, 2)] == [
        (s.item, s.really, s.count) for s in done.state.party[0].bag]


def test_a_fake_given_away_stays_a_fake() -> None:
    """ITM-FAKE-07: a fake answers to the name it passes under, and moves as what it is."""
    state = party(RULES, mira(FAKE_HEALING), ada())
    done = reply(RULES, state, '[inventory: give item="Potion of Healing" who="Mira" to="Ada"]')
    assert ("resolved", (), (FAKE_HEALING,)) == (
        record(done).status, done.state.party[0].bag, done.state.party[1].bag)


def test_the_game_master_sees_the_truth_and_the_bag_only_the_suspicion() -> None:
    """ITM-FAKE-08/20: ``(FAKE: really <name>)`` for the Game Master only, with who suspects it;
    the bag's badge says who thinks it is a fake, never what it is."""
    stack = FAKE_HEALING.model_copy(update={"suspects": ("Mira",)})
    note = gm_note(RULES, stack)
    assert note.startswith("(FAKE: really Potion of Poison;")
    assert "(Mira thinks it is a fake)" in note
    assert ["Mira thinks it is a fake"] == badges(stack)
    assert "" == gm_note(RULES, Stack(item=HEALING))


def test_a_worn_fake_does_on_the_sheet_what_it_really_does() -> None:
    """ITM-FAKE-10: the Ring of Clumsiness passing for a Ring of Protection gives -1 on checks,
    under the name it is shown by."""
    worn = Stack(item=PROTECTION, really=CLUMSY, equipped=True)
    held = held_items(RULES, mira(worn))
    assert [("Ring of Protection", -1)] == [
        (h.name, h.item.worn.modifiers[0].flat) for h in held.items if h.item.worn]


# --- revealing a fake (ITM-FAKE-09, -11, -12) -----------------------------------------------------


def test_reveal_makes_the_fake_its_real_item_from_then_on() -> None:
    """ITM-FAKE-09: ``reveal`` turns the Bag of Holding into the Bag of Devouring it is; it joins
    the real item's stack."""
    state = party(RULES, mira(Stack(item=DEVOURING), Stack(item=HOLDING, really=DEVOURING)))
    done = reply(RULES, state, '[inventory: action="reveal" item="Bag of Holding" who="Mira"]')
    assert ("resolved", 2, (Stack(item=DEVOURING, count=2),)) == (
        record(done).status, record(done).now, done.state.party[0].bag)
    assert "Bag of Holding was really Bag of Devouring." == record(done).note


def test_reveal_of_a_genuine_item_is_refused_and_changes_nothing() -> None:
    """ITM-FAKE-09: only a fake can be revealed (``not-fake``, ours); nothing changes."""
    state = party(RULES, mira(Stack(item=HOLDING)))
    done = reply(RULES, state, '[inventory: action="reveal" item="Bag of Holding" who="Mira"]')
    assert ("refused", "not-fake", state) == (record(done).status, record(done).reason,
                                              done.state)


def test_using_a_fake_does_what_it_really_does_and_reveals_it() -> None:
    """ITM-FAKE-09 / ITM-USE-25: the poison has no use, so nothing happens and the GM says so;
    the potion is a Potion of Poison from then on."""
    state = party(RULES, mira(FAKE_HEALING))
    done = reply(RULES, state, '[inventory: action="use" item="Potion of Healing" who="Mira"]')
    line = record(done).feedback or ""
    assert "Mira uses Potion of Poison: it has no rules for using it" in line
    assert line.endswith("Potion of Healing was really Potion of Poison.")
    assert (Stack(item=POISON),) == done.state.party[0].bag


def test_binding_a_fake_reveals_it() -> None:
    """ITM-FAKE-09: attunement reveals it (a difference read only in combat would not)."""
    state = party(RULES, mira(Stack(item=WARDING, really=EMBERS)))
    done = reply(RULES, state, '[inventory: action="bind" item="Ring of Warding" who="Mira"]')
    assert [(EMBERS, None, True)] == [(s.item, s.really, s.bound) for s in done.state.party[0].bag]
    assert "Ring of Warding was really Ring of Embers." in (record(done).feedback or "")


def test_an_inventory_change_that_shows_a_number_the_fake_would_not_give_reveals_it() -> None:
    """ITM-FAKE-11: equipping the Ring of Clumsiness shows -1 on checks where the Ring of
    Protection would give +1: it is revealed and the record says what it was."""
    state = party(RULES, mira(Stack(item=PROTECTION, really=CLUMSY)))
    done = reply(RULES, state, '[inventory: action="equip" item="Ring of Protection" who="Mira"]')
    assert [(CLUMSY, True)] == [(s.item, s.equipped) for s in done.state.party[0].bag]
    assert "Ring of Protection was really Ring of Clumsiness." in (record(done).note or "")


def test_a_difference_read_only_in_combat_does_not_reveal_the_fake() -> None:
    """ITM-FAKE-12: a carried Ring of Embers resists cold where the Ring of Warding resists fire;
    a combat-only difference: adding another item leaves it a fake."""
    state = party(RULES, mira(Stack(item=WARDING, really=EMBERS)))
    done = reply(RULES, state, '[inventory: add item="Potion of Healing" who="Mira"]')
    assert Stack(item=WARDING, really=EMBERS) == done.state.party[0].bag[0]


def test_an_honest_buyer_names_the_fake_and_a_dishonest_one_takes_it_as_it_seems() -> None:
    """ITM-FAKE-09: sold to an honest buyer the fake is priced as what it really is; the Fence
    takes it for what it seems (None: sold as shown)."""
    sale = honest_sale(RULES, FAKE_HEALING, APOTHECARY)
    assert sale is not None and POISON == sale.real.ref
    assert "Potion of Healing was really Potion of Poison." in sale.line
    assert honest_sale(RULES, FAKE_HEALING, FENCE) is None
    assert honest_sale(RULES, Stack(item=HEALING), APOTHECARY) is None


# --- inspecting (ITM-FAKE-14..24) -----------------------------------------------------------------


def test_a_successful_tell_raises_suspicion_and_keeps_the_name() -> None:
    """ITM-FAKE-19/20: Arcana 15+4 = 19 against 18: the reply says what Mira noticed and the bag
    shows she thinks it is a fake; it is still a Potion of Healing."""
    done = reply(RULES, party(RULES, mira(FAKE_HEALING)), inspect(), 15)
    stack = done.state.party[0].bag[0]
    assert "its magic does not feel like healing magic" in (record(done).note or "")
    assert (HEALING, POISON, ("Mira",), ("Mira",)) == (stack.item, stack.really, stack.tried,
                                                       stack.suspects)


def test_success_by_names_it_at_reveals_the_fake() -> None:
    """ITM-FAKE-21: 19+4 = 23 is 5 over 18 (``namesItAt: 5``): the fake is named and is its real
    item from then on."""
    done = reply(RULES, party(RULES, mira(FAKE_HEALING)), inspect(), 19)
    assert POISON == done.state.party[0].bag[0].item
    assert (record(done).note or "").endswith("It is really Potion of Poison.")


def test_failure_says_the_character_cannot_tell_and_uses_the_attempt() -> None:
    """ITM-FAKE-23: 5+4 = 9 fails: Mira cannot tell; a second try is refused and changes nothing
    (``already-tried``, ours)."""
    done = reply(RULES, party(RULES, mira(FAKE_HEALING)), inspect(), 5)
    assert (record(done).note or "").endswith("Mira cannot tell.")
    again = reply(RULES, done.state, inspect(), 20)
    assert ("refused", "already-tried", done.state) == (
        record(again).status, record(again).reason, again.state)


def test_a_genuine_item_rolls_the_tells_of_its_fakes_and_looks_genuine() -> None:
    """ITM-FAKE-22: asking betrays nothing: the real potion rolls the poison's Arcana tell, and
    success says it looks genuine."""
    done = reply(RULES, party(RULES, mira(Stack(item=HEALING))), inspect(), 15)
    assert "Mira inspects Potion of Healing (Arcana 19 against 18): it looks genuine." == \
        record(done).note
    assert ("Mira",) == done.state.party[0].bag[0].tried


@pytest.mark.parametrize(("bag", "why"), [
    (Stack(item=KIT), "nothing could give it away"),
    (Stack(item=HOLDING, really=DEVOURING), "Mira cannot check it at all")])
def test_nothing_to_check_is_refused_and_keeps_the_attempt(bag: Stack, why: str) -> None:
    """ITM-FAKE-24: the kit has no fake to betray; the Bag of Devouring's only tell needs Int 18.
    Refused ``nothing-to-check``; the stack remembers no attempt."""
    state = party(RULES, mira(bag))
    label = "Poisoner's kit" if bag.item == KIT else "Bag of Holding"
    done = reply(RULES, state, f'[inventory: action="inspect" item="{label}" who="Mira"]')
    assert ("refused", "nothing-to-check", state) == (
        record(done).status, record(done).reason, done.state)
    assert why in (record(done).feedback or "")


def test_the_best_check_is_the_one_with_the_best_chance() -> None:
    """ITM-FAKE-14/15/19: the Medicine tell needs the kit in Mira's own bag; with it, Medicine
    (+0 against 13) beats Arcana (+4 against 18); without it only Arcana is possible."""
    found = item_index(RULES).by_ref(POISON)
    assert found is not None
    poison = found.item
    asked: list[tuple[Tell, About]] = [(t, "item") for t in poison.tells]
    with_kit = party(RULES, mira(FAKE_HEALING, Stack(item=KIT)))
    without = party(RULES, mira(FAKE_HEALING))
    picked = best(tries(RULES, with_kit, 0, asked))
    assert "Medicine" == (picked.name if picked else None)
    assert ["Arcana"] == [t.name for t in tries(RULES, without, 0, asked)]


def test_inspecting_a_sellers_ware_rolls_the_manner_and_remembers_the_day() -> None:
    """ITM-FAKE-16/17/23: at the Fence, Mira's best check is Insight on the manner (advantage at
    Wis 18: two dice, the better 12 + 6 = 18 against 13): something is wrong with what the Fence
    sells, never what; the ware is remembered for the market day."""
    state = party(RULES, mira(wis=18, insight="proficient"), place=TOWN)
    done = reply(RULES, state, inspect(' seller="Fence"'), 12, 3)
    note = record(done).note or ""
    assert "their eyes slide away when you ask about it" in note
    assert "something is wrong with what the Fence sells" in note and "Poison" not in note
    assert {"fence:" + HEALING: ("Mira",)} == (done.state.market or MarketDay(place="")).tried
    assert "already-tried" == record(reply(RULES, done.state, inspect(' seller="Fence"'))).reason


def test_a_ware_nobody_here_shows_is_refused() -> None:
    """ITM-FAKE-17: the Fence is found from a town up; in a village nobody answers to it."""
    state = party(RULES, mira(), place=TOWN.model_copy(update={"size": "village"}))
    assert "no-seller" == record(reply(RULES, state, inspect(' seller="Fence"'))).reason


# --- noticing before paying (ITM-FAKE-25..28) -----------------------------------------------------


def test_a_party_member_notices_before_paying_and_the_buy_is_held() -> None:
    """ITM-FAKE-25/26/27: Ada (passive 10 + Insight +5 = 15 against the manner's 13) notices;
    nothing is paid, ``reason="held"`` with who noticed what; asked again the same day it goes
    through."""
    state = party(RULES, mira(), ada(wis=16, insight="proficient"), place=TOWN)
    held = notice_before_buy(state, context(RULES), 0, FENCE, FENCE_WARE, TOWN)
    assert held is not None
    assert ("refused", "held", "Mira") == (held.record.status, held.record.reason,
                                           held.record.who)
    assert "Ada noticed something about the seller (Insight): their eyes slide away" in \
        (getattr(held.record, "note", "") or "")
    assert state.party == held.state.party
    assert notice_before_buy(held.state, context(RULES), 0, FENCE, FENCE_WARE, TOWN) is None


def test_nobody_notices_when_no_score_reaches_the_difficulty() -> None:
    """ITM-FAKE-25: Ada's passive Insight 10 + 0 falls short of 13, Arcana 10 of 18."""
    state = party(RULES, mira(), ada(), place=TOWN)
    assert notice_before_buy(state, context(RULES), 0, FENCE, FENCE_WARE, TOWN) is None


def test_a_genuine_ware_or_an_honest_seller_is_never_held() -> None:
    """ITM-FAKE-25: only a purchase that would hand over a fake from a dishonest seller."""
    state = party(RULES, mira(), ada(wis=20, insight="expertise"), place=TOWN)
    genuine = Ware("fence", HEALING, 1, HEALING)
    assert notice_before_buy(state, context(RULES), 0, FENCE, genuine, TOWN) is None
    honest = Seller.model_validate({"id": "fence", "label": "Fence", "honest": True})
    assert notice_before_buy(state, context(RULES), 0, honest, FENCE_WARE, TOWN) is None


@pytest.mark.parametrize(("faces", "held"), [((1, 1), False), ((13, 13), True)])
def test_warn_by_roll_throws_real_dice(faces: tuple[int, ...], held: bool) -> None:
    """ITM-FAKE-28: ``warnBy: "roll"``: Ada rolls Arcana (1: 1 against 18) then Insight
    (1: 1 against 13) and notices nothing; with 13s her Insight 13 reaches 13."""
    rules = fakes_ruleset(lambda d: d["items"].update({"warnBy": "roll"}))
    fence = next(s for s in (rules.items.market.sellers if rules.items and rules.items.market
                             else ()) if s.id == "fence")
    state = party(rules, mira(), ada(), place=TOWN)
    done = notice_before_buy(state, context(rules, *faces), 0, fence, FENCE_WARE, TOWN)
    assert held == (done is not None)


# --- ways of seeing through fakes (ITM-FAKE-29..31) -----------------------------------------------


def test_a_way_that_lists_the_fake_names_it_without_using_the_attempt() -> None:
    """ITM-FAKE-29/30/31: Detect Poison and Disease lists the poison: it is named and revealed;
    no attempt is used."""
    done = reply(RULES, party(RULES, mira(FAKE_HEALING)), inspect(' with="detect poison and '
                                                                  'disease"'))
    assert [(POISON, ())] == [(s.item, s.tried) for s in done.state.party[0].bag]
    assert "is really Potion of Poison" in (record(done).note or "")


def test_a_fake_that_fools_the_way_shows_as_what_it_passes_for() -> None:
    """ITM-FAKE-30: the poison's ``foolsReveal`` lists Identify, which detects every fake: it
    reads genuine, and stays a fake."""
    state = party(RULES, mira(FAKE_HEALING))
    done = reply(RULES, state, inspect(' with="Identify"'))
    assert ("Identify on Potion of Healing: genuine.", state) == (record(done).note, done.state)


def test_a_genuine_item_under_a_partial_way_is_not_sure() -> None:
    """ITM-FAKE-30: a way that detects only some fakes reveals nothing on a genuine item."""
    done = reply(RULES, party(RULES, mira(Stack(item=HEALING))), inspect(' with="detect-poison"'))
    assert "Detect Poison and Disease on Potion of Healing: not sure." == record(done).note


def test_an_unknown_way_is_refused() -> None:
    """ITM-FAKE-30: ``with=`` names a way of ``revealsFakes`` (``unknown-way``, ours)."""
    state = party(RULES, mira(FAKE_HEALING))
    done = reply(RULES, state, inspect(' with="Divination"'))
    assert ("refused", "unknown-way", state) == (record(done).status, record(done).reason,
                                                 done.state)


# --- import (ITM-FAKE-02/03, ITM-IMPORT-13/14) ----------------------------------------------------


def _drop_target(data: dict[str, Any]) -> None:
    entries = data["catalogs"][-2]["entries"]
    data["catalogs"][-2]["entries"] = [e for e in entries if e["id"] != "bag-of-holding"]


def test_a_fake_whose_target_is_missing_is_refused_at_import() -> None:
    """ITM-FAKE-02/03 / ITM-IMPORT-13: ``passesFor`` must name a real item of the ruleset."""
    data = fakes_data()
    _drop_target(data)
    with pytest.raises(RulesetError, match="passesFor"):
        load_ruleset(data)


def test_naming_a_dishonest_seller_who_also_sells_the_item_yields_the_fake() -> None:
    """ITM-FAKE-06: the Fence sells potions as regular wares too; a purchase naming the Fence still
    hands over the fake from the Fence's stock, while one naming nobody stays genuine."""
    def fence_sells_potions(data: dict[str, Any]) -> None:
        by_id(data["items"]["market"]["sellers"], "fence")["sells"].append({"category": "potion"})

    rules = fakes_ruleset(fence_sells_potions)
    state = party(rules, mira(PURSE), ada(), place=TOWN)
    named = reply(rules, state, BUY.format(extra=' seller="Fence"'))
    assert Stack(item=HEALING, really=POISON) in named.state.party[0].bag
    unnamed = reply(rules, state, BUY.format(extra=""))
    assert Stack(item=HEALING) in unnamed.state.party[0].bag
