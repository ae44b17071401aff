"""Money: coins in bags, amounts, change-making, ``pay`` and ``earn`` (ITM-MONEY-01..17).

Brass Fair counts coppers: a brass ring is 10, a crown 100; fifty coins weigh a pound, and its
fair scrip (chits) weighs nothing. Its ``carry`` is by weight: unencumbered up to Load (4 + 2 x
Brawn), never past Most carried (8 + 3 x Brawn). Nobody below has a sheet, so everyone's Brawn is
the default 1: Load 6 lb, Most carried 11 lb. Lantern and Ledger has coin (farthing 1, groat 4)
but no ``carry`` and no market; Tidemark has no currencies at all.
"""

from __future__ import annotations

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
from middleware.rules import Ruleset
from middleware.state import Character, GameState, Stack
from middleware.stores.memory import MemoryStore
from tests.items.inventory_helpers import record, reply, state_of
from tests.rulesets import ruleset


def brass() -> Ruleset:
    """Brass Fair: coppers, brass rings and crowns by weight; chits of scrip that weigh nothing."""
    return ruleset("brass-fair")


def ledger() -> Ruleset:
    """Lantern and Ledger: farthings and groats, no ``carry``, no market, no ``one`` names."""
    return ruleset("lantern-and-ledger")


def moneyless() -> Ruleset:
    """Tidemark: no currencies."""
    return ruleset("tidemark-d20")


def coins(**counts: int) -> tuple[Stack, ...]:
    """A bag of coin stacks, ``coins(crown=1, copper=5)``."""
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
    done = played(brass(), (ada(),), '[inventory: action="earn" amount="3 brass rings"] '
                 '[inventory: action="earn" amount="2 brass rings"]')
    bag = done.state.party[0].bag
    assert (Stack(coins="ring", count=5),) == bag
    assert "brass rings" == label_of(item_index(brass()), bag[0])


def test_coins_weigh_a_unit_per_per_weight_and_count_towards_load() -> None:
    """ITM-MONEY-02: 50 coins weigh a pound, whatever the coin; 50 coppers and 100 rings weigh
    3 lb and count in the load."""
    index = item_index(brass())
    assert (0.02, 0.02) == (piece_weight(index, Goods(coins="copper")),
                            piece_weight(index, Goods(coins="crown")))
    assert 3.0 == load(brass(), ada(*coins(copper=50, ring=100)))


def test_a_family_without_per_weight_or_a_ruleset_without_carry_weighs_nothing() -> None:
    """ITM-MONEY-02: fair scrip has no ``perWeight`` and weighs nothing; Lantern and Ledger has
    no ``carry``."""
    assert 0.0 == piece_weight(item_index(brass()), Goods(coins="chit"))
    assert 0.0 == load(brass(), ada(*coins(chit=500)))
    assert 0.0 == load(ledger(), ada(*coins(groat=999)))


# --- ITM-MONEY-04/05/17: purses -----------------------------------------------------------


def test_a_purse_is_worth_its_coins_in_the_smallest_coin() -> None:
    """ITM-MONEY-04: 1 crown + 2 brass rings + 12 coppers are worth 132 coppers; scrip apart."""
    assert {"coin": 132} == purse(item_index(brass()), coins(crown=1, ring=2, copper=12))
    assert {"coin": 150, "scrip": 40} == purse(item_index(brass()),
                                               coins(crown=1, ring=5, chit=40))


def test_the_gm_sees_coin_worth_410_coppers_or_no_coins() -> None:
    """ITM-MONEY-05, Ambiguity 7: 4 crowns and a brass ring read ``Purse worth 410 coppers``; an
    empty purse reads ``no coins``; each family held is listed."""
    assert "Purse worth 410 coppers" == purse_line(brass(), coins(crown=4, ring=1))
    assert "no coins" == purse_line(brass(), (Stack(plain="Rope"),))
    assert "Purse worth 150 coppers; Fair scrip worth 40 fair chits" == purse_line(
        brass(), coins(crown=1, ring=5, chit=40))


def test_the_players_bag_is_always_listed_with_its_purse() -> None:
    """ITM-MONEY-05: the player's bag is listed even empty; a member's bag when it holds
    anything; a ruleset without currencies lists none."""
    state = GameState(ruleset="brass-fair", party=(ada(), bram(), Character(
        name="Juno", bag=coins(copper=3))))
    assert [("Ada", "no coins"), ("Juno", "Purse worth 3 coppers")] == purse_lines(brass(), state)
    assert [] == purse_lines(moneyless(), state)


def test_one_names_a_single_coin_in_purses_prices_and_amounts() -> None:
    """ITM-MONEY-17: with ``one`` declared a single coin is ``1 copper``; without it (Lantern and
    Ledger), the label."""
    assert "Purse worth 1 copper" == purse_line(brass(), coins(copper=1))
    assert "Coin worth 1 farthings" == purse_line(ledger(), coins(farthing=1))
    amount = read_amount(item_index(brass()), "1 Copper")
    assert isinstance(amount, Amount)
    assert ("1 copper", "2 coppers") == (amount.text, Amount(amount.coin, 2).text)


def test_the_gm_sees_an_items_cost() -> None:
    """ITM-MONEY-06: the Tin lantern ``costs 3 brass rings``."""
    index = item_index(brass())
    lantern = index.find("Tin lantern")
    assert lantern is not None
    assert "costs 3 brass rings" == cost_text(lantern.item, index)


# --- ITM-MONEY-08: reading an amount -------------------------------------------------------


def test_an_amount_is_a_number_and_a_coin_by_id_or_label_in_any_case() -> None:
    """ITM-MONEY-08: ``1 copper``, ``12 coppers``, ``3 Brass Rings``, ``a crown``,
    ``1,000 COPPERS``, ``crowns``, ``2x ring``."""
    index = item_index(brass())
    read = {text: read_amount(index, text) for text in
            ("1 copper", "12 coppers", "3 Brass Rings", "a crown", "1,000 COPPERS", "crowns",
             "2x ring")}
    assert {"1 copper": ("copper", 1), "12 coppers": ("copper", 12),
            "3 Brass Rings": ("ring", 3), "a crown": ("crown", 1),
            "1,000 COPPERS": ("copper", 1000), "crowns": ("crown", 1),
            "2x ring": ("ring", 2)} == {
        text: (a.coin.unit.id, a.count) for text, a in read.items() if isinstance(a, Amount)}


def test_a_bare_number_takes_its_coin_from_coin_or_unit() -> None:
    """ITM-MONEY-08 (tolerant reading): ``amount="12" coin="brass rings"`` is worth 120."""
    amount = read_amount(item_index(brass()), "12", "brass rings")
    assert isinstance(amount, Amount)
    assert (12, 120) == (amount.count, amount.value)


def test_an_amount_is_bounded_and_the_gm_told() -> None:
    """SPEC §8: the number is held to 1..1,000,000; the note says so."""
    index = item_index(brass())
    big, none = read_amount(index, "5000000 coppers"), read_amount(index, "0 crowns")
    assert isinstance(big, Amount) and isinstance(none, Amount)
    assert (1_000_000, "Amount 5000000 clamped to 1000000.") == (big.count, big.note)
    assert (1, "Amount 0 clamped to 1.") == (none.count, none.note)


def test_an_amount_we_cannot_read_is_refused() -> None:
    """ITM-MONEY-08/12: an unknown coin is ``unknown-coin``; no amount or a number we cannot
    place is ``bad-amount`` (ours); a ruleset without money is ``no-currencies``."""
    index = item_index(brass())
    reasons = [r.reason for r in (read_amount(index, "3 ducats"), read_amount(index, "12"),
                                  read_amount(index, ""), read_amount(index, "rings 3"),
                                  read_amount(index, "2.5 crowns"))
               if isinstance(r, Refusal)]
    assert ["unknown-coin", "unknown-coin", "bad-amount", "bad-amount", "bad-amount"] == reasons
    none = read_amount(item_index(moneyless()), "3 gp")
    assert isinstance(none, Refusal) and "no-currencies" == none.reason


# --- ITM-MONEY-10/11: change-making --------------------------------------------------------


def test_the_pages_example_one_crown_pays_three_rings() -> None:
    """ITM-MONEY-10/11: 3 brass rings from a purse of one crown: the crown is broken and 7
    rings come back: ``Paid with crowns ×1; brass rings ×7 back.``"""
    payment = paid(brass(), coins(crown=1), 30)
    assert ([("crown", 1)], [("ring", 7)]) == shape(payment)
    assert isinstance(payment, Payment)
    assert "Paid with crowns ×1; brass rings ×7 back." == payment.line
    assert coins(ring=7) == payment.bag


def test_largest_coins_that_fit_first_and_no_change_when_exact() -> None:
    """ITM-MONEY-10: 40 coppers from 2 crowns, 3 rings, 15 coppers: crowns do not fit, 3 rings
    (30) then 10 coppers; nothing is broken."""
    payment = paid(brass(), coins(crown=2, ring=3, copper=15), 40)
    assert ([("ring", 3), ("copper", 10)], []) == shape(payment)
    assert isinstance(payment, Payment)
    assert "Paid with brass rings ×3, coppers ×10." == payment.line


def test_the_smallest_coin_that_covers_the_rest_is_broken() -> None:
    """ITM-MONEY-10: 5 coppers from a crown and a ring: the ring (not the crown) is broken and
    5 coppers come back."""
    assert ([("ring", 1)], [("copper", 5)]) == shape(paid(brass(), coins(crown=1, ring=1), 5))


def test_what_fits_is_paid_before_a_coin_is_broken() -> None:
    """ITM-MONEY-10: 25 coppers from 2 crowns and a ring: the ring fits (10), 15 are still
    owed, a crown is broken, 85 come back as 8 rings and 5 coppers (largest first)."""
    assert ([("crown", 1), ("ring", 1)], [("ring", 8), ("copper", 5)]) == shape(
        paid(brass(), coins(crown=2, ring=1), 25))


def test_coppers_that_fit_are_paid_even_when_a_crown_is_then_broken() -> None:
    """ITM-MONEY-10 read literally: 3 rings (30) from a crown and 5 coppers: the 5 coppers fit
    and go first, then the crown is broken for the 25 still owed: 75 back (7 rings, 5
    coppers)."""
    assert ([("crown", 1), ("copper", 5)], [("ring", 7), ("copper", 5)]) == shape(
        paid(brass(), coins(crown=1, copper=5), 30))


def test_lantern_and_ledger_change_in_farthings() -> None:
    """ITM-MONEY-10: 7 farthings from 2 groats and a farthing: a groat (4) and the farthing fit,
    2 are still owed, the other groat is broken and 2 farthings come back."""
    assert ([("groat", 2), ("farthing", 1)], [("farthing", 2)]) == shape(
        paid(ledger(), coins(groat=2, farthing=1), 7))


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 6), st.integers(0, 15), st.integers(0, 40), st.integers(1, 800))
def test_a_payment_takes_exactly_the_amount_and_never_more_coins_than_held(
        crowns: int, rings: int, coppers: int, value: int) -> None:
    """ITM-MONEY-09/10: after any payment the family is worth exactly ``value`` less and no coin
    count is negative or more than was held; it is refused only when the purse is worth less."""
    rules = brass()
    bag = coins(crown=crowns, ring=rings, copper=coppers)
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
    """ITM-MONEY-12: 2 rings and 3 coppers (23) cannot pay 28 coppers."""
    family = [c for c in item_index(brass()).coins if c.family.id == "coin"]
    assert None is make_change({"ring": 2, "copper": 3}, family, 28)


# --- ITM-MONEY-07/09/11/12: the pay action --------------------------------------------------


def test_pay_rewrites_the_tag_with_the_coins_paid_and_given_back() -> None:
    """ITM-MONEY-07/11, SPEC §6: the resolved tag names the coin, the amount as ``price``, the
    rings held after as ``now`` and the page's line as ``note``."""
    done = played(brass(), (ada(*coins(crown=1)),),
                 'Ada pays. [inventory: action="pay" amount="3 brass rings" who="Ada"]')
    assert ('Ada pays. [inventory: action="pay" item="brass rings" count="3" who="Ada" '
            'result="ok" now="7" price="3 brass rings" note="Paid with crowns ×1; brass rings '
            '×7 back."]') == done.text
    found = record(done)
    assert ({"crown": 1}, {"ring": 7}) == (found.paid, found.change)
    assert "Left: Purse worth 70 coppers." in (found.feedback or "")


def test_pay_comes_from_the_players_bag_without_who_and_only_one_bag() -> None:
    """ITM-MONEY-09: without ``who=`` the player pays; Bram's coins are never touched."""
    done = played(brass(), (bram(*coins(crown=5)), ada(*coins(ring=4))),
                 "[inventory: pay amount='3 brass rings']")
    assert ({"crown": 5}, {"ring": 1}) == (held(done.state.party[0]),
                                           held(done.state.party[1]))


def test_pay_uses_only_the_named_coins_family() -> None:
    """ITM-MONEY-09: scrip never pays for coppers: 5 coppers from a purse of chits is
    ``cannot-afford``."""
    done = played(brass(), (ada(*coins(chit=10)),), '[inventory: action="pay" amount="5 coppers"]')
    assert ("refused", "cannot-afford") == (record(done).status, record(done).reason)


def test_pay_may_name_the_coin_with_item_and_count() -> None:
    """ITM-MONEY-08 (tolerant reading): ``item="brass rings" count="2"`` pays 2 rings."""
    done = played(brass(), (ada(*coins(ring=5)),),
                 '[inventory: action="pay" item="brass rings" count="2"]')
    assert {"ring": 3} == held(done.state.party[0])


def test_every_refusal_changes_nothing() -> None:
    """ITM-MONEY-12: ``cannot-afford``, ``unknown-coin``, ``bad-amount``, ``unknown-character``
    leave the state exactly as it was; a ruleset without money refuses ``no-currencies``."""
    party = (ada(*coins(crown=1, copper=3)), bram())
    tags = ['[inventory: action="pay" amount="2 crowns"]',
            '[inventory: action="pay" amount="3 ducats"]',
            '[inventory: action="pay" amount="some money"]',
            '[inventory: action="earn" amount="3 crowns" who="Mira"]',
            '[inventory: action="pay" amount="1 copper" who="Mira"]']
    for tag in tags:
        done = played(brass(), party, tag)
        assert GameState(ruleset="brass-fair", party=party) == done.state, tag
    reasons = [record(played(brass(), party, tag)).reason for tag in tags]
    assert ["cannot-afford", "unknown-coin", "unknown-coin", "unknown-character",
            "unknown-character"] == reasons
    none = played(moneyless(), party, '[inventory: action="pay" amount="3 gp"]')
    assert ("no-currencies", party) == (record(none).reason, none.state.party)


def test_a_refused_payment_says_what_the_purse_holds() -> None:
    """ITM-MONEY-12: ``[... result="refused" reason="cannot-afford" ...]`` with the purse named."""
    done = played(brass(), (ada(*coins(crown=1)),), '[inventory: pay amount="2 crowns"]')
    assert ('[inventory: action="pay" item="crowns" who="Ada" result="refused" '
            'reason="cannot-afford" price="2 crowns" note="Ada cannot afford 2 crowns: Purse '
            'worth 100 coppers."]') == done.text


def test_change_that_does_not_fit_refuses_too_heavy_and_changes_nothing() -> None:
    """SPEC §10: Ada carries 11 lb of tonics (her Most carried) and a crown; paying 1 copper
    with the crown would bring back 18 coins (9 rings, 9 coppers: 0.36 lb) she cannot carry:
    ``too-heavy``, nothing paid. Paying the crown itself only lightens her."""
    tonics = (Stack(item="wares/tonic", count=5), Stack(item="wares/tonic", count=5),
              Stack(item="wares/tonic", count=1))
    party = (ada(*tonics, *coins(crown=1)),)
    done = played(brass(), party, '[inventory: action="pay" amount="1 copper"]')
    assert ("too-heavy", party) == (record(done).reason, done.state.party)
    exact = played(brass(), party, '[inventory: action="pay" amount="1 crown"]')
    assert ("resolved", {}) == (record(exact).status, held(exact.state.party[0]))


# --- ITM-MONEY-13: earning -------------------------------------------------------------------


def test_earn_goes_to_the_who_bag() -> None:
    """ITM-MONEY-13: ``who="Bram"`` puts the coins in Bram's bag, not the player's."""
    done = played(brass(), (ada(), bram()),
                 '[inventory: action="earn" amount="12 coppers" who="Bram"]')
    assert ({}, {"copper": 12}) == (held(done.state.party[0]), held(done.state.party[1]))
    assert ('[inventory: action="earn" item="coppers" count="12" who="Bram" result="ok" '
            'now="12"]') == done.text


def test_earn_past_the_who_limit_is_too_heavy_and_changes_nothing() -> None:
    """SPEC §10, ITM-BAG-16: 600 coppers (12 lb) never go into a bag whose limit is 11 lb."""
    party = (ada(),)
    done = played(brass(), party, '[inventory: action="earn" amount="600 coppers" who="Ada"]')
    assert ("too-heavy", party) == (record(done).reason, done.state.party)


def test_earn_without_who_is_shared_by_the_carry_rule() -> None:
    """ITM-MONEY-02/13, ITM-BAG-15: 500 coppers (10 lb) fit nobody whole below Load 6 lb: Ada
    takes 300 (up to 6 lb), Bram the other 200; one part per bag."""
    done = played(brass(), (ada(), bram()), '[inventory: action="earn" amount="500 coppers"]')
    assert ({"copper": 300}, {"copper": 200}) == (held(done.state.party[0]),
                                                  held(done.state.party[1]))
    assert [("Ada", 300), ("Bram", 200)] == [(p.who, p.count) for p in record(done).parts]


def test_earn_without_who_leaves_behind_what_nobody_can_carry() -> None:
    """ITM-BAG-16: 1,500 coppers: each takes up to their limit of 11 lb (550); 400 stay and the
    GM is told."""
    done = played(brass(), (ada(), bram()), '[inventory: action="earn" amount="1500 coppers"]')
    assert ({"copper": 550}, {"copper": 550}) == (held(done.state.party[0]),
                                                  held(done.state.party[1]))
    assert "400 coppers left behind: nobody can carry more." in (record(done).feedback or "")


# --- ITM-MONEY-15/16: instructions, buying as pay then add -----------------------------------


def test_only_a_ruleset_with_money_gets_pay_and_earn_instructions_listing_its_coins() -> None:
    """ITM-MONEY-15: the instructions list the coins; without currencies there are none."""
    text = money_instructions(brass())
    assert text is not None
    assert "Purse: coppers (1), brass rings (10), crowns (100); Fair scrip: fair chits (1)" in text
    assert 'action="pay"' in text and 'action="earn"' in text
    assert None is money_instructions(moneyless())


def test_buying_without_a_market_is_a_payment_then_an_add() -> None:
    """ITM-MONEY-16, SPEC §3: Lantern and Ledger has no market; the add sees what the payment
    left in the same reply (a groat broken for 3 farthings, 1 back)."""
    done = played(ledger(), (ada(*coins(groat=1)),),
                 '[inventory: pay amount="3 farthings"] '
                 '[inventory: add item="Lamplighter\'s pole"]')
    bag = done.state.party[0].bag
    assert [("resolved", None), ("resolved", None)] == [(r.status, r.reason)
                                                        for r in done.records]
    assert (Stack(coins="farthing", count=1), Stack(item="chandlery/hooked-pole")) == bag


async def test_a_regenerated_reply_never_pays_twice() -> None:
    """ITM-BAG-21, SPEC §3: every candidate of a turn pays from the turn-start purse."""
    engine = Engine(MemoryStore())
    await engine.create_game("chat", brass(), [ada(*coins(crown=1))])
    tag = '[inventory: action="pay" amount="6 brass rings"]'
    first = await engine.process("chat", 1, tag)
    second = await engine.process("chat", 1, f"Again. {tag}")
    assert ({"ring": 4}, {"ring": 4}) == (held(first.state.party[0]),
                                          held(second.state.party[0]))
    turn_two = await engine.process("chat", 2, tag)
    assert "cannot-afford" == turn_two.records[0].reason


def test_an_amount_is_paid_once_whatever_items_the_tag_lists() -> None:
    """ITM-MONEY-07: ``items="Rope, Lantern"`` beside ``amount=`` does not pay the amount twice."""
    done = played(brass(), (ada(*coins(ring=10)),),
                 '[inventory: action="pay" amount="3 brass rings" items="Rope, Lantern"]')
    assert {"ring": 7} == held(done.state.party[0])
