"""Tool mode's functions and calls, pure (issue 15 part 2): the schemas derived from the ruleset,
a call written as the tag the grammar reads, streamed call deltas accumulated, and the GM's view
teaching tool mode only when it is on (part 3)."""

from __future__ import annotations

import re
from typing import Any

import jsonschema
import pytest

from middleware.gm_view import ViewOptions, build_view
from middleware.parse import parse
from middleware.proxy.tools import ENGINE_TOOLS, engine_tools
from middleware.proxy.tools.calls import CallReader, ToolCall, calls_of, tag_text
from middleware.records import Record
from middleware.rules.registry import bundled_ids, load_bundled
from middleware.rules.ruleset import Ruleset
from middleware.segments import Tag
from tests.gm_view.helpers import BRASS_PARTY, WARDEN, brass, gravewatch, start
from tests.rulesets import ember, five_e

TAG = re.compile(r"\[\s*(skill_check|inventory|place|loot|sheet|dice)\s*:", re.IGNORECASE)


def functions(ruleset: Ruleset) -> dict[str, dict[str, Any]]:
    return {t["function"]["name"]: t["function"] for t in engine_tools(ruleset)}


def properties(ruleset: Ruleset, name: str) -> dict[str, Any]:
    found: dict[str, Any] = functions(ruleset)[name]["parameters"]["properties"]
    return found


@pytest.mark.parametrize("ruleset_id", bundled_ids())
def test_every_bundled_rulesets_functions_are_valid_json_schema(ruleset_id: str) -> None:
    """The six functions, in order, each with a valid JSON Schema of its parameters and no
    parameter that carries a result."""
    found = functions(load_bundled(ruleset_id))
    assert list(ENGINE_TOOLS) == list(found)
    for function in found.values():
        jsonschema.Draft202012Validator.check_schema(function["parameters"])
        assert not {"rolls", "total", "result", "now"} & set(function["parameters"]["properties"])


def test_the_checks_skills_are_an_enum_from_the_ruleset() -> None:
    """``skill_check.skill`` lists the skills, saves and abilities by label; ``difficulty`` the
    ladder's rungs; only the attributes this resolution kind reads (Gravewatch: a dice pool with
    threshold, bonus, explode, reroll, spend and charms; no advantage mode)."""
    pool = properties(gravewatch(), "skill_check")
    sheet = gravewatch().sheet
    assert [*(s.label for s in (*sheet.skills, *sheet.saves)),
            *(a.label for a in sheet.abilities)] == pool["skill"]["enum"]
    assert {"threshold", "bonus", "explode", "reroll", "spend", "use"} <= set(pool)
    assert "mode" not in pool
    assert ["Easy", "Risky", "Hard"] == properties(brass(), "skill_check")["difficulty"]["enum"]
    assert "threshold" not in properties(brass(), "skill_check")


def test_the_inventory_function_lists_the_actions_this_ruleset_has() -> None:
    """ITM-BAG-11 as the rules block says it: Brass Fair has slots (equip), coins (pay, earn) and a
    market (buy, sell, with levels), no binding; Gravewatch binds."""
    brass_actions = properties(brass(), "inventory")["action"]["enum"]
    assert ["add", "remove", "give", "use", "inspect", "reveal", "equip", "unequip", "pay", "earn",
            "buy", "sell"] == brass_actions
    assert {"bind", "unbind"} <= set(properties(gravewatch(), "inventory")["action"]["enum"])
    assert {"buy", "sell"}.isdisjoint(properties(ember(), "inventory")["action"]["enum"])
    assert ["cheap", "fair", "dear"] == properties(brass(), "inventory")["level"]["enum"]
    assert "size" in properties(brass(), "place") and "size" not in properties(ember(), "place")


def test_a_call_is_written_as_the_tag_the_grammar_reads() -> None:
    """Every listed argument becomes an attribute in the function's order; numbers as text,
    flags as bare words; arguments the function does not list (a result the model made up) are
    dropped; quotes and brackets in a value cannot break the tag."""
    check = ToolCall("c", "skill_check", '{"dc": 8, "skill": "Scrap", "rolls": "6|6", '
                                         '"total": 15}')
    assert '[skill_check: skill="Scrap" dc="8"]' == tag_text(check, properties(ember(), "skill_check"))
    track = ToolCall("t", "sheet", '{"op": "track", "track": "heat", "mark": true, "amount": 1}')
    written = tag_text(track, properties(ember(), "sheet"))
    assert '[sheet: op="track" amount="1" track="heat" mark]' == written
    odd = ToolCall("o", "inventory", '{"action": "add", "item": "Rope \\"long\\" [x]"}')
    [tag] = [s for s in parse(tag_text(odd, properties(ember(), "inventory"))) if isinstance(s, Tag)]
    assert {"action": "add", "item": "Rope long x"} == {k: " ".join(v.split())
                                                        for k, v in tag.attrs.items()}


@pytest.mark.parametrize("arguments", ["", "not json", "[1, 2]", '{"skill": '])
def test_arguments_that_are_no_json_object_write_an_empty_tag(arguments: str) -> None:
    """Unreadable arguments say nothing: the tag the resolvers then refuse as written."""
    call = ToolCall("c", "skill_check", arguments)
    assert "[skill_check: ]" == tag_text(call, properties(ember(), "skill_check"))


def test_streamed_call_deltas_are_accumulated_and_only_the_clients_passed_on() -> None:
    """OpenAI's streamed form: id and name first, arguments in fragments, by index. The Engine's
    call (index 0) is kept back; the client's (index 1) is passed on renumbered to 0."""
    reader = CallReader(ENGINE_TOOLS)
    passed = [*reader.feed([{"index": 0, "id": "a", "type": "function",
                              "function": {"name": "skill_check", "arguments": ""}}]),
              *reader.feed([{"index": 1, "id": "b", "type": "function",
                              "function": {"name": "weather", "arguments": '{"pl'}}]),
              *reader.feed([{"index": 0, "function": {"arguments": '{"skill": "Scrap"'}}]),
              *reader.feed([{"index": 1, "function": {"arguments": 'ace": "x"}'}}]),
              *reader.feed([{"index": 0, "function": {"arguments": ', "dc": 8}'}}])]
    assert [ToolCall("a", "skill_check", '{"skill": "Scrap", "dc": 8}')] == reader.engine_calls()
    assert [ToolCall("b", "weather", '{"place": "x"}')] == reader.client_calls()
    assert [0, 0] == [d["index"] for d in passed]
    assert '{"place": "x"}' == "".join(d["function"]["arguments"] for d in passed)


def test_a_non_streaming_messages_calls_are_read_and_bad_entries_skipped() -> None:
    message = {"tool_calls": [{"id": "a", "type": "function",
                               "function": {"name": "dice", "arguments": '{"roll": "2d6"}'}},
                              {"id": "b"}, "junk"]}
    assert [ToolCall("a", "dice", '{"roll": "2d6"}')] == calls_of(message)


@pytest.mark.parametrize("ruleset_id", bundled_ids())
def test_the_view_teaches_tool_mode_only_when_it_is_on(ruleset_id: str) -> None:
    """Part 3: with tools on, the rules block tells the model to call functions and teaches no
    tag; with tools off, it teaches tags and never mentions functions."""
    ruleset = load_bundled(ruleset_id)
    state = start(ruleset, [])
    done = (Record(tag="dice", status="resolved", feedback="2d6: 7."),)
    tools = build_view(ruleset, state, done, ViewOptions(tools=True))
    tags = build_view(ruleset, state, done)
    assert TAG.search(tools.rules) is None, TAG.search(tools.rules)
    assert "you call functions; you never write tags" in tools.rules
    assert TAG.search(tags.rules) is not None
    assert "function" not in tags.rules.lower()
    assert "function calls" in tools.state and "function" not in tags.state


def test_the_tool_mode_view_keeps_the_facts_a_call_needs() -> None:
    """What a schema cannot hold is still taught: what a check rolls, the ladder, the tiers,
    spends and charms, coins, loot tables, the market's sizes, the items of the game."""
    rules = build_view(brass(), start(brass(), BRASS_PARTY), (), ViewOptions(tools=True)).rules
    for wanted in ("This game rolls 2d6 plus the sheet number", "Risky: 7",
                   "Skills: Haggle, Scout, Ward.", "coppers (1), brass rings (10), crowns (100)",
                   "road_finds (Road finds)", "fair (fair town)", "ITEMS OF THIS GAME"):
        assert wanted in rules, wanted
    pool = build_view(gravewatch(), start(gravewatch(), WARDEN), (),
                      ViewOptions(tools=True)).rules
    assert "each 1 Resolve buys 1 automatic success" in pool and "Steady Hand" in pool


@pytest.mark.parametrize("load", [gravewatch, ember, five_e], ids=["gravewatch", "ember", "5e"])
def test_the_peers_rulesets_teach_no_tag_in_tool_mode(load: Any) -> None:
    """The same for the peer's rulesets, whose authors' guidance is kept in the block."""
    ruleset = load()
    rules = build_view(ruleset, start(ruleset, []), (), ViewOptions(tools=True)).rules
    assert TAG.search(rules) is None


def test_whole_calls_streamed_without_an_index_stay_apart() -> None:
    """A server that streams each whole call in a chunk of its own, with no ``index``: two ids are
    two calls, not one with the arguments run together."""
    reader = CallReader(ENGINE_TOOLS)
    for n in (1, 2):
        reader.feed([{"id": f"c{n}", "function": {"name": "dice", "arguments": f'{{"roll": "{n}d6"}}'}}])
    assert [ToolCall("c1", "dice", '{"roll": "1d6"}'), ToolCall("c2", "dice", '{"roll": "2d6"}')] \
        == reader.engine_calls()
