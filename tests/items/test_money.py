"""Money: coins in bags, amounts, change-making, ``pay`` and ``earn`` (ITM-MONEY-01..17).

Gravewatch counts pennies: a shilling is 12, a crown 60 (five shillings), and it has no ``carry``.
Ember Roads has ``carry`` (bulk, unencumbered up to Load = 6 + Brawn, never past 12) and two
families: coin (bit 1, mark 10, sovereign 100; 100 to a bulk) and salt (pinch 1, cake 20; 10 to a
bulk). Nobody below has a sheet, so everyone's Load is 6.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from middleware.character.summary import label_of
from middleware.engine import Engine
from middleware.items import item_index
from middleware.items.bag import Goods
from middleware.items.carry import load, piece_weight
from middleware.items.describe import cost_text
from middleware.items.money import (
    Amount,
    Payment,
    Refusal,
    make_change,
    money_instructions,
    pay,
    purse,
    purse_line,
    purse_lines,
    read_amount,
)
from middleware.pipeline import ResolvedReply
from middleware.rules import Ruleset, load_ruleset
from middleware.state import Character, GameState, Stack
from middleware.stores.memory import MemoryStore
from tests.conftest import compat_json
from tests.items.inventory_helpers import record, reply, state_of
from tests.rulesets import compat_ruleset as ruleset
from tests.rulesets import ember, gravewatch


def ember_with(change: Any) -> Ruleset:
    """Ember Roads with its parsed items block changed by ``change`` (a function of the block)."""
    raw = compat_json("ember-roads.json")
    change(raw["items"])
    return load_ruleset(raw)


def coins(**counts: int) -> tuple[Stack, ...]:
    """A bag of coin stacks, ``coins(crown=1, penny=5)``."""
    return tuple(Stack(coins=coin, count=n) for coin, n in counts.items() if n)


def ada(*bag: Stack) -> Character:
    return Character(name="Ada", player=True, bag=bag)


def bram(*bag: Stack) -> Character:
    return Character(name="Bram", bag=bag)


def played(rules: Ruleset, party: tuple[Character, ...], text: str) -> ResolvedReply:
    """``text`` resolved for a party in a fresh state."""
    return reply(rules, state_of(rules, *party), text)


def held(character: Character) -> dict[str, int]:
    """COIN id -> pieces in the bag."""
    out: dict[str, int] = {}
    for stack in character.bag:
        if stack.coins is not None:
            out[stack.coins] = out.get(stack.coins, 0) + stack.count
    return out


def paid(rules: Ruleset, bag: tuple[Stack, ...], value: int) -> Payment | Refusal:
    return pay(rules, ada(*bag), value, "coin")


def shape(payment: Payment | Refusal) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """(coins paid, coins back) by coin id, in the order the payment lists them."""
    assert isinstance(payment, Payment), payment
    return ([(c.unit.id, n) for c, n in payment.paid], [(c.unit.id, n) for c, n in payment.back])


# --- ITM-MONEY-01/02: coins are stacks, named by label, with weight --------------------------


def test_earned_coins_are_one_stack_per_coin_shown_by_its_label() -> None:
    """ITM-MONEY-01: coins are a stack per coin kind like any item, named by the coin's label;
    earning more of a kind joins its stack."""
    done = played(gravewatch(), (ada(),), '[inventory: action="earn" amount="3 shillings"] '
                 '[inventory: action="earn" amount="2 shillings"]')
    bag = done.state.party[0].bag
    assert (Stack(coins="shilling", count=5),) == bag
    assert "shillings" == label_of(item_index(gravewatch()), bag[0])


def test_coins_weigh_a_unit_per_per_weight_and_count_towards_load() -> None:
    """ITM-MONEY-02: 100 bits weigh 1 bulk, 10 pinches of salt weigh 1 bulk; they count in the load."""
    index = item_index(ember())
    assert (0.01, 0.1) == (piece_weight(index, Goods(coins="bit")),
                           piece_weight(index, Goods(coins="pinch")))
    assert 3.0 == load(ember(), ada(*coins(bit=100, mark=100, pinch=10)))


def test_a_family_without_per_weight_or_a_ruleset_without_carry_weighs_nothing() -> None:
    """ITM-MONEY-02: a family without ``perWeight`` weighs nothing; Gravewatch has no ``carry``."""
    light = ember_with(lambda items: items["currencies"][1].pop("perWeight"))
    assert 0.0 == load(light, ada(*coins(pinch=500)))
    assert 0.0 == load(gravewatch(), ada(*coins(crown=999)))


# --- ITM-MONEY-04/05/17: purses -----------------------------------------------------------


def test_a_purse_is_worth_its_coins_in_the_smallest_coin() -> None:
    """ITM-MONEY-04: 1 crown + 2 shillings + 12 pennies are worth 96 pennies; salt apart."""
    assert {"coin": 96} == purse(item_index(gravewatch()), coins(crown=1, shilling=2, penny=12))
    assert {"coin": 150, "salt": 40} == purse(item_index(ember()),
                                              coins(sovereign=1, mark=5, cake=2))


def test_the_gm_sees_coin_worth_432_pennies_or_no_coins() -> None:
    """ITM-MONEY-05, Ambiguity 7: 7 crowns and a shilling read ``Coin worth 432 pennies``; an
    empty purse reads ``no coins``; each family held is listed."""
    assert "Coin worth 432 pennies" == purse_line(gravewatch(), coins(crown=7, shilling=1))
    assert "no coins" == purse_line(gravewatch(), (Stack(plain="Rope"),))
    assert "Coin worth 150 bits; Salt worth 40 pinches" == purse_line(
        ember(), coins(sovereign=1, mark=5, cake=2))


def test_the_players_bag_is_always_listed_with_its_purse() -> None:
    """ITM-MONEY-05: the player's bag is listed even empty; a member's bag when it holds
    anything; a ruleset without currencies lists none."""
    state = GameState(ruleset="gravewatch", party=(ada(), bram(), Character(
        name="Juno", bag=coins(penny=3))))
    assert [("Ada", "no coins"), ("Juno", "Coin worth 3 pennies")] == purse_lines(gravewatch(),
                                                                                 state)
    assert [] == purse_lines(ruleset("ruleset-5e-2014.example.json"), state)


def test_one_names_a_single_coin_in_purses_prices_and_amounts() -> None:
    """ITM-MONEY-17: with ``one`` declared a single coin is ``1 bit``; without it, the label."""
    singular = ember_with(lambda items: items["currencies"][0]["units"][0].update(one="bit"))
    assert "Coin worth 1 bit" == purse_line(singular, coins(bit=1))
    assert "Coin worth 1 pennies" == purse_line(gravewatch(), coins(penny=1))
    amount = read_amount(item_index(singular), "1 Bit")
    assert isinstance(amount, Amount)
    assert ("1 bit", "2 bits") == (amount.text, Amount(amount.coin, 2).text)


def test_the_gm_sees_an_items_cost() -> None:
    """ITM-MONEY-06: the Grave spade ``costs 3 shillings``."""
    index = item_index(gravewatch())
    spade = index.find("Grave spade")
    assert spade is not None
    assert "costs 3 shillings" == cost_text(spade.item, index)


# --- ITM-MONEY-08: reading an amount -------------------------------------------------------


def test_an_amount_is_a_number_and_a_coin_by_id_or_label_in_any_case() -> None:
    """ITM-MONEY-08: ``1 penny``, ``12 pennies``, ``3 Shillings``, ``a crown``, ``1,000 PENNIES``."""
    index = item_index(gravewatch())
    read = {text: read_amount(index, text) for text in
            ("1 penny", "12 pennies", "3 Shillings", "a crown", "1,000 PENNIES", "crowns",
             "2x shilling")}
    assert {"1 penny": ("penny", 1), "12 pennies": ("penny", 12), "3 Shillings": ("shilling", 3),
            "a crown": ("crown", 1), "1,000 PENNIES": ("penny", 1000), "crowns": ("crown", 1),
            "2x shilling": ("shilling", 2)} == {
        text: (a.coin.unit.id, a.count) for text, a in read.items() if isinstance(a, Amount)}


def test_a_bare_number_takes_its_coin_from_coin_or_unit() -> None:
    """ITM-MONEY-08 (tolerant reading): ``amount="12" coin="penny"``."""
    amount = read_amount(item_index(gravewatch()), "12", "pennies")
    assert isinstance(amount, Amount)
    assert (12, 12) == (amount.count, amount.value)


def test_an_amount_is_bounded_and_the_gm_told() -> None:
    """SPEC §8: the number is held to 1..1,000,000; the note says so."""
    index = item_index(gravewatch())
    big, none = read_amount(index, "5000000 pennies"), read_amount(index, "0 crowns")
    assert isinstance(big, Amount) and isinstance(none, Amount)
    assert (1_000_000, "Amount 5000000 clamped to 1000000.") == (big.count, big.note)
    assert (1, "Amount 0 clamped to 1.") == (none.count, none.note)


def test_an_amount_we_cannot_read_is_refused() -> None:
    """ITM-MONEY-08/12: an unknown coin is ``unknown-coin``; no amount or a number we cannot
    place is ``bad-amount`` (ours); a ruleset without money is ``no-currencies``."""
    index = item_index(gravewatch())
    reasons = [r.reason for r in (read_amount(index, "3 ducats"), read_amount(index, "12"),
                                  read_amount(index, ""), read_amount(index, "shillings 3"),
                                  read_amount(index, "2.5 crowns"))
               if isinstance(r, Refusal)]
    assert ["unknown-coin", "unknown-coin", "bad-amount", "bad-amount", "bad-amount"] == reasons
    none = read_amount(item_index(ruleset("ruleset-5e-2014.example.json")), "3 gp")
    assert isinstance(none, Refusal) and "no-currencies" == none.reason


# --- ITM-MONEY-10/11: change-making --------------------------------------------------------


def test_the_pages_example_one_crown_pays_three_shillings() -> None:
    """ITM-MONEY-10/11: 3 shillings from a purse of one crown: the crown is broken and 2
    shillings come back: ``Paid with crowns ×1; shillings ×2 back.``"""
    payment = paid(gravewatch(), coins(crown=1), 36)
    assert ([("crown", 1)], [("shilling", 2)]) == shape(payment)
    assert isinstance(payment, Payment)
    assert "Paid with crowns ×1; shillings ×2 back." == payment.line
    assert coins(shilling=2) == payment.bag


def test_largest_coins_that_fit_first_and_no_change_when_exact() -> None:
    """ITM-MONEY-10: 40 pennies from 2 crowns, 3 shillings, 5 pennies: crowns do not fit,
    3 shillings (36) then 4 pennies; nothing is broken."""
    payment = paid(gravewatch(), coins(crown=2, shilling=3, penny=5), 40)
    assert ([("shilling", 3), ("penny", 4)], []) == shape(payment)
    assert isinstance(payment, Payment)
    assert "Paid with shillings ×3, pennies ×4." == payment.line


def test_the_smallest_coin_that_covers_the_rest_is_broken() -> None:
    """ITM-MONEY-10: 5 pennies from a crown and a shilling: the shilling (not the crown) is
    broken and 7 pennies come back."""
    assert ([("shilling", 1)], [("penny", 7)]) == shape(
        paid(gravewatch(), coins(crown=1, shilling=1), 5))


def test_what_fits_is_paid_before_a_coin_is_broken() -> None:
    """ITM-MONEY-10: 30 pennies from 2 crowns and a shilling: the shilling fits (12), 18 are
    still owed, a crown is broken, 42 come back as 3 shillings and 6 pennies (largest first)."""
    assert ([("crown", 1), ("shilling", 1)], [("shilling", 3), ("penny", 6)]) == shape(
        paid(gravewatch(), coins(crown=2, shilling=1), 30))


def test_pennies_that_fit_are_paid_even_when_a_crown_is_then_broken() -> None:
    """ITM-MONEY-10 read literally: 3 shillings (36) from a crown and 5 pennies: the 5 pennies
    fit and go first, then the crown is broken for the 31 still owed: 29 back (2 shillings, 5
    pennies)."""
    assert ([("crown", 1), ("penny", 5)], [("shilling", 2), ("penny", 5)]) == shape(
        paid(gravewatch(), coins(crown=1, penny=5), 36))


def test_ember_roads_change_in_marks_and_bits() -> None:
    """ITM-MONEY-10: 25 bits from a sovereign and 3 bits: 3 bits, then the sovereign; 78 bits
    back as 7 marks and 8 bits."""
    assert ([("sovereign", 1), ("bit", 3)], [("mark", 7), ("bit", 8)]) == shape(
        paid(ember(), coins(sovereign=1, bit=3), 25))


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 6), st.integers(0, 15), st.integers(0, 40), st.integers(1, 600))
def test_a_payment_takes_exactly_the_amount_and_never_more_coins_than_held(
        crowns: int, shillings: int, pennies: int, value: int) -> None:
    """ITM-MONEY-09/10: after any payment the family is worth exactly ``value`` less and no coin
    count is negative or more than was held; it is refused only when the purse is worth less."""
    rules = gravewatch()
    bag = coins(crown=crowns, shilling=shillings, penny=pennies)
    before = purse(item_index(rules), bag).get("coin", 0)
    payment = paid(rules, bag, value)
    if before < value:
        assert isinstance(payment, Refusal) and "cannot-afford" == payment.reason
        return
    assert isinstance(payment, Payment)
    assert before - value == purse(item_index(rules), payment.bag).get("coin", 0)
    assert all(stack.count > 0 for stack in payment.bag)
    have = held(ada(*bag))
    assert all(n <= have.get(c.unit.id, 0) for c, n in payment.paid)


def test_make_change_answers_none_when_the_purse_falls_short() -> None:
    """ITM-MONEY-12: 2 shillings and 3 pennies cannot pay 28 pennies."""
    family = [c for c in item_index(gravewatch()).coins if c.family.id == "coin"]
    assert None is make_change({"shilling": 2, "penny": 3}, family, 28)


# --- ITM-MONEY-07/09/11/12: the pay action --------------------------------------------------


def test_pay_rewrites_the_tag_with_the_coins_paid_and_given_back() -> None:
    """ITM-MONEY-07/11, SPEC §6: the resolved tag names the coin, the amount as ``price``, the
    shillings held after as ``now`` and the page's line as ``note``."""
    done = played(gravewatch(), (ada(*coins(crown=1)),),
                 'Ada pays. [inventory: action="pay" amount="3 shillings" who="Ada"]')
    assert ('Ada pays. [inventory: action="pay" item="shillings" count="3" who="Ada" result="ok" '
            'now="2" price="3 shillings" note="Paid with crowns ×1; shillings ×2 back."]'
            ) == done.text
    found = record(done)
    assert ({"crown": 1}, {"shilling": 2}) == (found.paid, found.change)
    assert "Left: Coin worth 24 pennies." in (found.feedback or "")


def test_pay_comes_from_the_players_bag_without_who_and_only_one_bag() -> None:
    """ITM-MONEY-09: without ``who=`` the player pays; Bram's coins are never touched."""
    done = played(gravewatch(), (bram(*coins(crown=5)), ada(*coins(shilling=4))),
                 "[inventory: pay amount='3 shillings']")
    assert ({"crown": 5}, {"shilling": 1}) == (held(done.state.party[0]),
                                               held(done.state.party[1]))


def test_pay_uses_only_the_named_coins_family() -> None:
    """ITM-MONEY-09: salt never pays for bits: 5 bits from a purse of salt is ``cannot-afford``."""
    done = played(ember(), (ada(*coins(cake=10)),), '[inventory: action="pay" amount="5 bits"]')
    assert ("refused", "cannot-afford") == (record(done).status, record(done).reason)


def test_pay_may_name_the_coin_with_item_and_count() -> None:
    """ITM-MONEY-08 (tolerant reading): ``item="shillings" count="2"`` pays 2 shillings."""
    done = played(gravewatch(), (ada(*coins(shilling=5)),),
                 '[inventory: action="pay" item="shillings" count="2"]')
    assert {"shilling": 3} == held(done.state.party[0])


def test_every_refusal_changes_nothing() -> None:
    """ITM-MONEY-12: ``cannot-afford``, ``unknown-coin``, ``bad-amount``, ``unknown-character``
    leave the state exactly as it was; a ruleset without money refuses ``no-currencies``."""
    party = (ada(*coins(crown=1, penny=3)), bram())
    tags = ['[inventory: action="pay" amount="2 crowns"]',
            '[inventory: action="pay" amount="3 ducats"]',
            '[inventory: action="pay" amount="some money"]',
            '[inventory: action="earn" amount="3 crowns" who="Mira"]',
            '[inventory: action="pay" amount="1 penny" who="Mira"]']
    for tag in tags:
        done = played(gravewatch(), party, tag)
        assert GameState(ruleset="gravewatch", party=party) == done.state, tag
    reasons = [record(played(gravewatch(), party, tag)).reason for tag in tags]
    assert ["cannot-afford", "unknown-coin", "unknown-coin", "unknown-character",
            "unknown-character"] == reasons
    fifth = ruleset("ruleset-5e-2014.example.json")
    none = played(fifth, party, '[inventory: action="pay" amount="3 gp"]')
    assert ("no-currencies", party) == (record(none).reason, none.state.party)


def test_a_refused_payment_says_what_the_purse_holds() -> None:
    """ITM-MONEY-12: ``[... result="refused" reason="cannot-afford" ...]`` with the purse named."""
    done = played(gravewatch(), (ada(*coins(crown=1)),), '[inventory: pay amount="2 crowns"]')
    assert ('[inventory: action="pay" item="crowns" who="Ada" result="refused" '
            'reason="cannot-afford" price="2 crowns" note="Ada cannot afford 2 crowns: Coin '
            'worth 60 pennies."]') == done.text


def test_change_that_does_not_fit_refuses_too_heavy_and_changes_nothing() -> None:
    """SPEC §10: Ada carries 12 bulk of rations (her limit); paying 1 bit with a sovereign would
    bring back 18 coins she cannot carry: ``too-heavy``, nothing paid."""
    rations = Stack(item="outfitter/road-rations", count=7), Stack(
        item="outfitter/road-rations", count=5)
    party = (ada(*rations, *coins(sovereign=1)),)
    done = played(ember(), party, '[inventory: action="pay" amount="1 bit"]')
    assert ("too-heavy", party) == (record(done).reason, done.state.party)
    exact = played(ember(), (ada(*rations, *coins(sovereign=1)),),
                  '[inventory: action="pay" amount="1 sovereign"]')
    assert ("resolved", {}) == (record(exact).status, held(exact.state.party[0]))


# --- ITM-MONEY-13: earning -------------------------------------------------------------------


def test_earn_goes_to_the_who_bag() -> None:
    """ITM-MONEY-13: ``who="Bram"`` puts the coins in Bram's bag, not the player's."""
    done = played(gravewatch(), (ada(), bram()),
                 '[inventory: action="earn" amount="12 pennies" who="Bram"]')
    assert ({}, {"penny": 12}) == (held(done.state.party[0]), held(done.state.party[1]))
    assert ('[inventory: action="earn" item="pennies" count="12" who="Bram" result="ok" '
            'now="12"]') == done.text


def test_earn_past_the_who_limit_is_too_heavy_and_changes_nothing() -> None:
    """SPEC §10, ITM-BAG-16: 1,300 bits (13 bulk) never go into a bag whose limit is 12."""
    party = (ada(),)
    done = played(ember(), party, '[inventory: action="earn" amount="1300 bits" who="Ada"]')
    assert ("too-heavy", party) == (record(done).reason, done.state.party)


def test_earn_without_who_is_shared_by_the_carry_rule() -> None:
    """ITM-MONEY-02/13, ITM-BAG-15: 1,000 bits (10 bulk) fit nobody whole below Load 6: Ada
    takes 600 (up to 6), Bram the other 400; one part per bag."""
    done = played(ember(), (ada(), bram()), '[inventory: action="earn" amount="1000 bits"]')
    assert ({"bit": 600}, {"bit": 400}) == (held(done.state.party[0]), held(done.state.party[1]))
    assert [("Ada", 600), ("Bram", 400)] == [(p.who, p.count) for p in record(done).parts]


def test_earn_without_who_leaves_behind_what_nobody_can_carry() -> None:
    """ITM-BAG-16: 3,000 bits: each takes up to their limit (1,200); 600 stay and the GM is told."""
    done = played(ember(), (ada(), bram()), '[inventory: action="earn" amount="3000 bits"]')
    assert ({"bit": 1200}, {"bit": 1200}) == (held(done.state.party[0]),
                                              held(done.state.party[1]))
    assert "600 bits left behind: nobody can carry more." in (record(done).feedback or "")


# --- ITM-MONEY-15/16: instructions, buying as pay then add -----------------------------------


def test_only_a_ruleset_with_money_gets_pay_and_earn_instructions_listing_its_coins() -> None:
    """ITM-MONEY-15: the instructions list the coins; without currencies there are none."""
    text = money_instructions(gravewatch())
    assert text is not None
    assert "Coin: pennies (1), shillings (12), crowns (60)" in text
    assert 'action="pay"' in text and 'action="earn"' in text
    assert None is money_instructions(ruleset("ruleset-5e-2014.example.json"))


def test_buying_without_a_market_is_a_payment_then_an_add() -> None:
    """ITM-MONEY-16, SPEC §3: the add sees what the payment left in the same reply."""
    done = played(gravewatch(), (ada(*coins(crown=1)),),
                 '[inventory: pay amount="3 shillings"] [inventory: add item="Grave spade"]')
    bag = done.state.party[0].bag
    assert [("resolved", None), ("resolved", None)] == [(r.status, r.reason)
                                                        for r in done.records]
    assert (Stack(coins="shilling", count=2), Stack(item="kit/grave-spade")) == bag


async def test_a_regenerated_reply_never_pays_twice() -> None:
    """ITM-BAG-21, SPEC §3: every candidate of a turn pays from the turn-start purse."""
    engine = Engine(MemoryStore())
    await engine.create_game("chat", gravewatch(), [ada(*coins(crown=1))])
    tag = '[inventory: action="pay" amount="3 shillings"]'
    first = await engine.process("chat", 1, tag)
    second = await engine.process("chat", 1, f"Again. {tag}")
    assert ({"shilling": 2}, {"shilling": 2}) == (held(first.state.party[0]),
                                                  held(second.state.party[0]))
    turn_two = await engine.process("chat", 2, tag)
    assert "cannot-afford" == turn_two.records[0].reason


def test_an_amount_is_paid_once_whatever_items_the_tag_lists() -> None:
    """ITM-MONEY-07: ``items="Rope, Torch"`` beside ``amount=`` does not pay the amount twice."""
    done = played(gravewatch(), (ada(*coins(shilling=10)),),
                 '[inventory: action="pay" amount="3 shillings" items="Rope, Torch"]')
    assert {"shilling": 7} == held(done.state.party[0])
