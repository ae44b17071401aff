"""The parse front by example: every tolerance of SPEC §1b, one test each, and the stream (§7).

The tags the model writes (SPEC §1) are read into ``Tag(name, attrs, words, ...)``; the text around
them is kept byte for byte. A tag that cannot be read stays text and carries ``problems`` (§8).
"""

from __future__ import annotations

import pytest

from middleware.parse import MAX_REPLY_CHARS, READ_BUDGET, TagStream, merge_text, parse, source_of
from middleware.segments import Segment, Tag, Text
from tests.conftest import compat_json


def only_tag(text: str) -> Tag:
    """The single tag of a reply (the test fails if there is not exactly one)."""
    tags = [s for s in parse(text) if isinstance(s, Tag)]
    assert 1 == len(tags), tags
    return tags[0]


def streamed(chunks: list[str]) -> list[Segment]:
    stream = TagStream()
    out = [s for chunk in chunks for s in stream.feed(chunk)]
    return merge_text([*out, *stream.close()])


# ── finding tags in free text ──────────────────────────────────────────────────────────────────


def test_the_four_tags_are_found_between_prose_with_their_spans() -> None:
    """SPEC §1: a reply is prose and tags; each tag keeps its exact source and span."""
    text = 'The smith nods. [inventory: action="buy" item="Hand axe"] "Three shillings."'
    expected = [
        Text("The smith nods. ", 0, 16),
        Tag("inventory", {"action": "buy", "item": "Hand axe"}, (), text[16:57], 16, 57),
        Text(' "Three shillings."', 57, len(text)),
    ]
    assert expected == parse(text)


@pytest.mark.parametrize("written", ["SKILL_CHECK", "Skill_Check", "skill_CHECK", "sKiLl_cHeCk"])
def test_tag_names_are_read_in_any_case(written: str) -> None:
    """SPEC §1b: `[SKILL_CHECK: …]` is a skill check; the name is given lowercased."""
    assert "skill_check" == only_tag(f'[{written}: skill="Ward" dc="2"]').name


def test_the_body_runs_to_the_first_bracket_outside_a_quoted_value() -> None:
    """SPEC §1b: a `]` inside a quoted value does not end the tag."""
    tag = only_tag('Ada reads. [skill_check: skill="Lore [old]" dc="2"] Done.')
    assert {"skill": "Lore [old]", "dc": "2"} == tag.attrs


def test_a_tag_never_closed_is_prose() -> None:
    """SPEC §1b: an opened tag with no closing `]` stays text, byte for byte."""
    text = 'She rolls [skill_check: skill="Ward" dc="2" and the lamp goes out.'
    assert [Text(text, 0, len(text))] == parse(text)


def test_tags_may_span_lines_and_repeat() -> None:
    """SPEC §1b: a tag may run over several lines, and a reply may hold many tags."""
    text = '[place: name="Millbrook"\n  size="market town"]\nThen [loot: a] [LOOT: a]'
    tags = [s for s in parse(text) if isinstance(s, Tag)]
    assert ["place", "loot", "loot"] == [t.name for t in tags]
    assert {"name": "Millbrook", "size": "market town"} == tags[0].attrs


def test_spacing_and_newlines_around_equals_are_free() -> None:
    """SPEC §1b: `key = value` with any spacing, newlines included."""
    tag = only_tag('[skill_check: skill =\n  "Ward"   dc\t=\t2\n]')
    assert {"skill": "Ward", "dc": "2"} == tag.attrs


def test_keys_are_read_in_any_case() -> None:
    """SPEC §1b: keys in any case are lowercased (`upgradeOwn` is read as `upgradeown`)."""
    tag = only_tag('[skill_check: SKILL="Ward" Dc="2" upgradeOwn="1"]')
    assert {"skill": "Ward", "dc": "2", "upgradeown": "1"} == tag.attrs


@pytest.mark.parametrize(
    "quoted",
    ['"Bram the Quiet"', "'Bram the Quiet'", "“Bram the Quiet”", "‘Bram the Quiet’"],
)
def test_values_are_read_in_every_quote_of_the_spec(quoted: str) -> None:
    """SPEC §1b: values in "…", '…', “…” or ‘…’ are given without their quotes."""
    assert {"who": "Bram the Quiet"} == only_tag(f"[skill_check: who={quoted}]").attrs


@pytest.mark.parametrize("quoted", ["„Bram the Quiet”", "«Bram the Quiet»", "“Bram the Quiet\""])
def test_values_in_other_common_quotes_are_read_too(quoted: str) -> None:
    """SPEC §1b "and more": Polish „…”, guillemets, and a curly quote closed by a straight one."""
    assert {"who": "Bram the Quiet"} == only_tag(f"[skill_check: who={quoted}]").attrs


def test_an_unquoted_value_runs_to_the_next_space() -> None:
    """SPEC §1b: outside inventory an unquoted value ends at a space; what follows is a word."""
    tag = only_tag("[skill_check: skill=Ward dc=2 advantage who=Bram]")
    assert ({"skill": "Ward", "dc": "2", "who": "Bram"}, ("advantage",)) == (tag.attrs, tag.words)


def test_an_inventory_value_unquoted_runs_to_the_next_key() -> None:
    """SPEC §1b: `item=Bronze Key who=Bram` names "Bronze Key"."""
    tag = only_tag("[inventory: item=Bronze Key who=Bram]")
    assert {"item": "Bronze Key", "who": "Bram"} == tag.attrs


def test_there_are_no_escapes() -> None:
    """SPEC §1b: a backslash is a plain character; the first matching quote closes the value."""
    assert {"skill": "Ward\\", "dc": "2"} == only_tag('[skill_check: skill="Ward\\" dc="2"]').attrs


def test_an_apostrophe_does_not_close_a_single_quoted_value() -> None:
    """SPEC §1b: a single quote closes only before a space or the end, so names keep apostrophes."""
    assert {"item": "Widow's ring"} == only_tag("[inventory: item='Widow's ring']").attrs


def test_a_bare_key_declares_nothing() -> None:
    """SPEC §1b: `who=` (or `who=""`) declares nothing, and does not undo an earlier value."""
    tag = only_tag('[skill_check: skill="Ward" who= dc="2" dc=]')
    assert {"skill": "Ward", "dc": "2"} == tag.attrs
    assert {"item": "Poultice"} == only_tag('[inventory: who="" item="Poultice"]').attrs


def test_a_duplicate_key_on_a_check_keeps_the_last() -> None:
    """SPEC §1b: duplicate keys, last wins on checks."""
    tag = only_tag('[skill_check: skill="Ward" dc="2" DC="3"]')
    assert {"skill": "Ward", "dc": "3"} == tag.attrs


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ('[inventory: item="Poultice" item="Hand axe"]', {"item": "Poultice"}),
        ('[place: name="Millbrook" name="Ashford"]', {"name": "Millbrook"}),
        ('[loot: table="grave_goods" table="fence"]', {"table": "grave_goods"}),
    ],
)
def test_a_duplicate_key_elsewhere_keeps_the_first(written: str, expected: dict[str, str]) -> None:
    """SPEC §1b: duplicate keys, first wins on inventory, place and loot."""
    assert expected == only_tag(written).attrs


def test_advantage_and_disadvantage_are_bare_words_on_a_check() -> None:
    """SPEC §1b: `advantage` / `disadvantage` written bare are flags in ``words``."""
    assert ("advantage",) == only_tag('[skill_check: skill="Ward" advantage]').words
    assert ("disadvantage",) == only_tag('[skill_check: disadvantage skill="Ward"]').words


def test_advantage_inside_a_quoted_skill_is_a_name_not_a_flag() -> None:
    """SPEC §1b: `skill="Press the advantage"` names a skill and sets no flag."""
    tag = only_tag('[skill_check: skill="Press the advantage" dc="2"]')
    assert ({"skill": "Press the advantage", "dc": "2"}, ()) == (tag.attrs, tag.words)


def test_an_inventory_action_word_comes_before_the_first_attribute() -> None:
    """SPEC §1b: `[inventory: pay amount="1 crown"]` is a pay."""
    tag = only_tag('[inventory: pay amount="1 crown"]')
    assert (("pay",), {"amount": "1 crown"}) == (tag.words, tag.attrs)


def test_a_bare_table_on_loot() -> None:
    """SPEC §1b: `[loot: grave_goods]` names its table as a bare word."""
    assert ("grave_goods",) == only_tag("[loot: grave_goods]").words


def test_items_and_counts_are_kept_as_written() -> None:
    """SPEC §1b: `items=` stays one string (the resolver splits it); `qty=` and kin as written."""
    tag = only_tag('[inventory: action=add items="Poultice, Hand axe" qty="two" who=Ada]')
    assert {"action": "add", "items": "Poultice, Hand axe", "qty": "two", "who": "Ada"} == tag.attrs


def test_small_model_item_proposals_are_read_as_written() -> None:
    """ITM-PROPOSE-02/03/06: `stats=` pairs, `worn=` changes, `none` and `+1` reach the resolver."""
    text = (
        '[inventory: action="add" item="Rusty hook" like="Hand axe" stats="guard=1, worn=+1 Guard"'
        " tags=none worn=Brawn +1; disadvantage on Sway checks summary='A hook.']"
    )
    expected = {
        "action": "add",
        "item": "Rusty hook",
        "like": "Hand axe",
        "stats": "guard=1, worn=+1 Guard",
        "tags": "none",
        "worn": "Brawn +1; disadvantage on Sway checks",
        "summary": "A hook.",
    }
    assert expected == only_tag(text).attrs


def test_an_unquoted_value_may_hold_an_equals_sign() -> None:
    """ITM-PROPOSE-02: `stats=guard=1` gives stats "guard=1", not a key `guard`."""
    tag = only_tag("[inventory: stats=guard=1 who=Ada]")
    assert {"stats": "guard=1", "who": "Ada"} == tag.attrs


def test_pairs_written_without_spaces_between_them() -> None:
    """SPEC §1b: `skill="Ward"dc="2"` still reads two attributes."""
    assert {"skill": "Ward", "dc": "2"} == only_tag('[skill_check: skill="Ward"dc="2"]').attrs


def test_an_unreadable_tag_stays_text_and_says_where() -> None:
    """SPEC §8: a malformed tag stays as written and carries a problem with a caret under it."""
    text = "Ada [loot: = grave_goods] looks."
    tag = only_tag(text)
    assert (text, "loot", {}) == (source_of(parse(text)), tag.name, tag.attrs)
    assert "unreadable at column 2:\n = grave_goods\n ^" == tag.problems[0]


def test_an_unreadable_tag_keeps_its_problem_to_itself() -> None:
    """SPEC §8: the tags around a malformed one are read as usual; only it carries a problem."""
    text = "[loot: a] [loot: = grave_goods] [inventory: item=Bronze Key who=Bram]"
    tags = [s for s in parse(text) if isinstance(s, Tag)]
    expected = [({}, ("a",), 0), ({}, (), 1), ({"item": "Bronze Key", "who": "Bram"}, (), 0)]
    assert expected == [(t.attrs, t.words, len(t.problems)) for t in tags]


def test_an_unreadable_line_is_pointed_at_on_its_own_line() -> None:
    """SPEC §8: in a tag over several lines, the column and caret are those of the faulty line."""
    tag = only_tag('[place: name="Millbrook"\n  size = = "town"]')
    assert 'unreadable at column 10:\n  size = = "town"\n         ^' == tag.problems[0]


def test_each_tag_of_a_reply_is_read_on_its_own() -> None:
    """SPEC §1b: a quoted `]` or an inventory value running on stays within its own tag."""
    text = '[loot: x="a]" y] [inventory: item=Bronze Key who=Bram] [inventory: item=Old Rope n=2]'
    tags = [s for s in parse(text) if isinstance(s, Tag)]
    expected = [{"x": "a]"}, {"item": "Bronze Key", "who": "Bram"}, {"item": "Old Rope", "n": "2"}]
    assert expected == [t.attrs for t in tags]


def test_other_bracketed_things_are_prose() -> None:
    """SPEC §1: only the six tag families are read; `[item_used]`, `[sheets:]` and links stay
    prose."""
    text = '[sheets: op="rest"] [item_used] [a link](http://x) [lootbox: x=1] [ place :name=x'
    assert [Text(text, 0, len(text))] == parse(text)


def test_model_results_are_kept_as_attributes_for_the_resolver_to_discard() -> None:
    """SPEC §3: a tag imitating a resolved one is still a tag; parse keeps `rolls=`, `result=`."""
    tag = only_tag('[skill_check: skill="Ward" dc="2" rolls="6|6" result="success"]')
    assert {"skill": "Ward", "dc": "2", "rolls": "6|6", "result": "success"} == tag.attrs


@pytest.mark.parametrize("ruleset", ["gravewatch.json", "ember-roads.json"])
def test_every_item_name_of_the_compat_rulesets_reads_back_in_every_quote(ruleset: str) -> None:
    """SPEC §1b on real data: each item label, in each quote, is read back exactly."""
    catalogs = [c for c in compat_json(ruleset)["catalogs"] if c.get("holds") == "items"]
    labels = [entry["label"] for catalog in catalogs for entry in catalog["entries"]]
    assert labels  # the ruleset does carry items to read
    for label in labels:
        for left, right in [('"', '"'), ("'", "'"), ("“", "”"), ("‘", "’")]:
            assert {"item": label} == only_tag(f"[inventory: item={left}{label}{right}]").attrs


def test_text_outside_tags_is_kept_byte_for_byte() -> None:
    """SPEC §2: the segments cover the reply exactly, CRLF, tabs and odd spaces included."""
    text = "A\r\n\t[loot: x]\u00a0 “quoted” [ ] \u2028end"
    segments = parse(text)
    assert text == source_of(segments)
    assert [(0, 4), (4, 13), (13, len(text))] == [(s.start, s.end) for s in segments]


# ── limits (SPEC §8) ───────────────────────────────────────────────────────────────────────────


def test_a_megabyte_of_open_brackets_is_prose() -> None:
    """SPEC §8: hostile input (`[[[[…`, 1 MB) is one run of prose, read in linear time."""
    text = "[" * MAX_REPLY_CHARS
    assert [Text(text, 0, len(text))] == parse(text)


def test_a_megabyte_of_tag_headers_never_closed_is_prose() -> None:
    """SPEC §8: a reply of opened tags with quotes that hide every `]` stays prose."""
    text = '[loot: x=" ] " ' * (MAX_REPLY_CHARS // 15)
    assert [Text(text, 0, len(text))] == parse(text)


def test_text_past_the_reply_limit_is_prose() -> None:
    """SPEC §8: no tag is looked for past MAX_REPLY_CHARS; the text is still kept."""
    tag = "[loot: grave_goods]"
    text = " " * (MAX_REPLY_CHARS - 5) + tag
    assert [Text(text, 0, len(text))] == parse(text)


def test_tags_past_the_reading_budget_keep_a_problem() -> None:
    """SPEC §8: once the reply's tags pass READ_BUDGET characters, later tags are not read."""
    big = '[place: name="' + "x" * (READ_BUDGET - 20) + '"]'
    reply = big + " [loot: grave_goods] [loot: grave_goods]"
    tags = [s for s in parse(reply) if isinstance(s, Tag)]
    assert [(), (), ("not read",)] == [tuple(p[:8] for p in t.problems) for t in tags]


# ── the stream (SPEC §7: pass text on at once, hold only a possible tag) ─────────────────────────


def test_prose_is_passed_on_at_once() -> None:
    """SPEC §7: a chunk that cannot become a tag comes straight back."""
    assert [Text("The lamp gutters. ", 0, 18)] == TagStream().feed("The lamp gutters. ")


def test_a_possible_tag_start_is_held_and_released_when_it_is_not_one() -> None:
    """SPEC §7: `[skill_ch` waits; `[skill_chart]` turns out to be prose and comes back."""
    stream = TagStream()
    assert ([Text("See ", 0, 4)], "[skill_ch") == (stream.feed("See [skill_ch"), stream.held)
    assert [Text("[skill_chart] now", 4, 21)] == stream.feed("art] now")


def test_a_tag_split_across_chunks_comes_back_whole() -> None:
    """SPEC §7: a tag cut anywhere by the chunking is one Tag with spans in the whole reply."""
    text = 'Ada: [skill_check: skill="Ward ]" dc="2"] ok'
    chunks = ["Ada: [sk", 'ill_check: skill="Wa', 'rd ]" d', 'c="2"', "] ok"]
    assert parse(text) == streamed(chunks)


def test_the_stream_holds_an_open_tag_and_flushes_it_as_prose_on_close() -> None:
    """SPEC §1b, §7: an open body waits; at the end of the reply an unclosed tag is prose."""
    stream = TagStream()
    first = stream.feed('Ward: [skill_check: skill="Ward" ')
    last = stream.close()
    assert ([Text("Ward: ", 0, 6)], [Text('[skill_check: skill="Ward" ', 6, 33)]) == (first, last)


def test_the_stream_passes_prose_past_the_reply_limit() -> None:
    """SPEC §8: the stream applies the same reply limit as parse: no tag past it."""
    text = " " * (MAX_REPLY_CHARS - 3) + "[loot: x] tail"
    chunks = [text[:500_000], text[500_000:], " more"]
    assert [Text(text + " more", 0, len(text) + 5)] == streamed(chunks)


def test_feeding_a_closed_stream_is_a_bug() -> None:
    """A proxy that feeds after close has lost track of its replies: that raises."""
    stream = TagStream()
    stream.close()
    with pytest.raises(ValueError, match="closed"):
        stream.feed("more")
