"""What a check works out once is never read for another check: the memos on the dice-sum path
(sheet, check values and odds, effects and sources, the ladder) are keyed by everything they
depend on (SHEET-EVAL-01, SHEET-CHK-03, CHK-SUM, CHK-COMMON-08/11, ITM-CHECK-15)."""

from __future__ import annotations

from middleware.cache import IdentityCache
from middleware.character.check import CheckSheet, assemble_check
from middleware.dice import Dice
from middleware.resolve import Context
from middleware.resolve.checks import read_ask, resolve_check
from middleware.resolve.checks.changes import changes_of
from middleware.resolve.checks.record import CheckRecord
from middleware.rules.layers import ladder_of
from middleware.rules.load import load_ruleset
from middleware.rules.ruleset import Ruleset
from middleware.segments import Tag
from middleware.sheet.effects import Modifier
from middleware.sheet.roller import find_roller
from middleware.state import GameState, Sheet
from tests.checks.test_resolve_check import JUNO, VESS
from tests.conftest import compat_path
from tests.rulesets import bundled_path


def hearth() -> Ruleset:
    """A new Hearth and Haul object each call: nothing worked out for another object applies to
    it."""
    return load_ruleset(bundled_path("hearth-and-haul"))


def ember() -> Ruleset:
    """A new Ember Roads object (the peer's file with a layer that brings its own ladder)."""
    return load_ruleset(compat_path("ember-roads.json"))


def tidemark() -> Ruleset:
    return load_ruleset(bundled_path("tidemark-d20"))


def fifth() -> Ruleset:
    return load_ruleset(compat_path("ruleset-5e-2014.example.json"))


def tag(*words: str, **attrs: str) -> Tag:
    return Tag("skill_check", attrs, words, "[skill_check: ...]", 0, 18)


def record(ruleset: Ruleset, state: GameState, faces: list[int], *words: str,
           **attrs: str) -> CheckRecord:
    done = resolve_check(tag(*words, **attrs), state, Context(ruleset=ruleset,
                                                              dice=Dice(1, script=faces)))
    assert isinstance(done.record, CheckRecord)
    return done.record


def test_each_dc_and_mode_reads_its_own_odds() -> None:
    """CHK-SUM-02/10, SPEC §6 ``chance``: the same tag on the same sheet at dc 8, 12, 8 and with
    advantage gives, in turn, the chance a ruleset seeing the check for the first time gives."""
    asks = [{"dc": "8"}, {"dc": "12"}, {"dc": "8"}, {"dc": "12", "mode": "advantage"}]
    warm = fifth()
    state = GameState(ruleset=warm.id, party=(VESS,))
    seen = [record(warm, state, [10, 10] if a.get("mode") else [10], skill="Stealth", **a)
            for a in asks]
    fresh = [record(fifth(), state, [10, 10] if a.get("mode") else [10], skill="Stealth", **a)
             for a in asks]
    assert [r.chance for r in fresh] == [r.chance for r in seen]
    assert [(8, "normal"), (12, "normal"), (8, "normal"), (12, "advantage")] == \
        [(r.dc, r.mode) for r in seen]
    assert len({r.chance for r in seen}) == 3


def test_the_sheet_is_read_for_the_check_asked() -> None:
    """SHEET-CHK-03, SHEET-SKL-07: two spellings of Scout read one sheet; ``with="Brawn"`` and
    another skill read their own numbers, however often the sheet was read before."""
    ruleset = hearth()
    state = GameState(ruleset=ruleset.id, party=(JUNO,))
    roller = find_roller(state, None)
    plain, spelled, brawn = (assemble_check(ruleset, state, roller, skill, with_)
                             for skill, with_ in (("Scout", None), ("scout check", None),
                                                  ("Scout", "Brawn")))
    assert (3, 3, 2) == (plain.number, spelled.number, brawn.number)
    assert ("scout", "brawn") == (plain.id, brawn.ability)
    assert plain is assemble_check(ruleset, state, roller, "Scout", None)


def test_a_save_hint_reads_the_save() -> None:
    """SHEET-SKL-07 step 4: the bare word ``save`` reads "Dexterity" as the save, not the ability
    check, on a sheet that already answered the ability check."""
    ruleset = fifth()
    state = GameState(ruleset=ruleset.id, party=(VESS,))
    roller = find_roller(state, None)
    check = assemble_check(ruleset, state, roller, "Dexterity", None)
    save = assemble_check(ruleset, state, roller, "Dexterity", None, is_save_hint=True)
    assert ("ability", "save") == (check.target, save.target)


def test_effects_and_sources_follow_the_resolution() -> None:
    """ITM-CHECK-15: one sheet read twice gives the same ``effects``/``from``; a ruleset that
    rolls twice names the source of a lean, one that rolls once does not."""
    sheet = CheckSheet("skill", "scout", "Scout", 3,
                       modifiers=(Modifier("Cold", -1), Modifier("Lamp", dice="1d4")),
                       leans=(("advantage", "Charm"),))
    twice, once = tidemark().resolution, hearth().resolution
    assert ("-1+1d4", "Cold, Lamp, Charm") == changes_of(sheet, twice) == changes_of(sheet, twice)
    assert ("-1+1d4", "Cold, Lamp") == changes_of(sheet, once)


def test_the_ladder_is_the_resolutions_own_until_a_layer_brings_one() -> None:
    """CHK-COMMON-08: without layers every state of a game reads the resolution's ladder (one
    value per ruleset); with ``hard_winter`` on, the layer's."""
    ruleset = ember()
    bare, other = GameState(ruleset=ruleset.id), GameState(ruleset=ruleset.id, party=(JUNO,))
    winter = GameState(ruleset=ruleset.id, layers=("hard_winter",))
    assert ladder_of(ruleset, bare.layers) is ladder_of(ruleset, other.layers)
    assert [6, 8, 10, 12] == [rung.dc for rung in ladder_of(ruleset, bare.layers)]
    assert [7, 9, 11, 13] == [rung.dc for rung in ladder_of(ruleset, winter.layers)]


def test_a_dc_is_read_in_any_digits_and_held_to_the_range() -> None:
    """CHK-COMMON-11/12: ``dc="15"``, ``"DC 15"``, ``" 15 "`` and Arabic-Indic ``"١٥"`` are 15;
    ``"Hard"`` names a rung; ``"5000"`` is held to 1000 on the record."""
    dcs = [read_ask(tag(skill="Scout", dc=text)) for text in ("15", "DC 15", " 15 ", "١٥", "Hard")]
    assert [(15, None), (15, None), (15, None), (15, None), (None, "Hard")] == \
        [(ask.dc, ask.difficulty) for ask in dcs if ask is not None]
    ruleset = hearth()
    far = record(ruleset, GameState(ruleset=ruleset.id, party=(JUNO,)), [3, 4], skill="Scout",
                 dc="5000")
    assert (1000, True) == (far.dc, "dc 5000 clamped to 1000." in (far.feedback or ""))


def test_the_identity_cache_builds_once_per_object() -> None:
    """A value is built once per identity of its objects and extra key; an equal but distinct
    object is another key."""
    cache: IdentityCache[list[int]] = IdentityCache()
    one, same_value = [1], [1]
    built = [cache.get((one,), "x", lambda: [len(one)]) for _ in range(2)]
    assert built[0] is built[1]
    assert built[0] is not cache.get((same_value,), "x", lambda: [len(same_value)])
    assert built[0] is not cache.get((one,), "y", lambda: [len(one)])


def test_one_party_reads_each_roller_and_sheet_asked() -> None:
    """SHEET-CHK-01..03: on one state, the player, a ``who=`` naming them, a stranger and another
    skill each roll with their own sheet, as a ruleset seeing the check for the first time
    rolls them; a party an earlier tag changed rolls with the member as they now stand."""
    asks = [{"skill": "Scout"}, {"skill": "Scout", "who": "Juno"},
            {"skill": "Scout", "who": "Nobody"}, {"skill": "Haggle"}, {"skill": "Scout"}]
    warm = hearth()
    state = GameState(ruleset=warm.id, party=(JUNO,))
    seen = [record(warm, state, [3, 4], dc="7", **a) for a in asks]
    fresh = [record(hearth(), state, [3, 4], dc="7", **a) for a in asks]
    assert [(r.total, r.feedback) for r in fresh] == [(r.total, r.feedback) for r in seen]
    assert [10, 10, 7, 7, 10] == [r.total for r in seen]
    wiser = JUNO.model_copy(update={"sheet": Sheet.model_validate(
        {"v": 1, "build": {"abilities": {"wits": 4}, "skills": {"scout": "trained"}}})})
    assert 12 == record(warm, state.with_character(0, wiser), [3, 4], skill="Scout", dc="7").total


def test_a_layer_on_the_same_party_reads_its_own_ladder() -> None:
    """CHK-COMMON-08: ``difficulty="Risky"`` on one party object is dc 8 on the resolution's
    ladder and dc 9 once ``hard_winter`` brings its own, whichever was read first."""
    ruleset = ember()
    bare = GameState(ruleset=ruleset.id, party=(JUNO,))
    winter = bare.model_copy(update={"layers": ("hard_winter",)})
    assert bare.party is winter.party
    dcs = [record(ruleset, state, [3, 4], skill="Scout", difficulty="Risky").dc
           for state in (bare, winter, bare)]
    assert [8, 9, 8] == dcs


def test_a_difficulty_and_a_dc_on_one_sheet_read_their_own() -> None:
    """CHK-COMMON-08/09: on one sheet, ``difficulty="Hard"``, ``dc="9"``, ``difficulty="Easy"``,
    no difficulty and an unknown rung each read their own number and note."""
    ruleset = hearth()
    state = GameState(ruleset=ruleset.id, party=(JUNO,))
    asks = [{"difficulty": "Hard"}, {"dc": "9"}, {"difficulty": "Easy"}, {}, {"difficulty": "Odd"}]
    seen = [record(ruleset, state, [3, 4], skill="Scout", **a) for a in asks]
    assert [(9, "Hard"), (9, None), (5, "Easy"), (7, "Risky"), (7, "Risky")] == \
        [(r.dc, r.difficulty) for r in seen]
    assert 'Difficulty "Odd" names no rung' in (seen[4].feedback or "")
    assert "names no rung" not in (seen[3].feedback or "")
