"""A mutated transcript gets a clear error and loses nothing (SPEC §4, §8; README "What a replay
shows"): whatever is done to a bundled transcript, ``gm-middleware replay`` exits 0 (all good),
1 (a failed ``expect``), 2 (a malformed line, named) or 3 (a line that cannot be read, named),
never with a traceback, and nothing of a replay that stopped is kept.

Hypothesis draws one of ``transcripts/*.jsonl`` and mutates its parsed lines: a key deleted, a
value replaced by another JSON type (strings with quotes, brackets, rich markup, newlines, a lone
surrogate, very long ones; 0, negative, huge and non-integer numbers; booleans, null, empty and
nested containers), whole lines duplicated, dropped, swapped or added (``select``, ``fork``,
events pointing at turns, candidates and people that do not exist), ``type`` changed, scripted
dice and seeds out of range, party members with missing or wrong fields, ``expect`` blocks of the
wrong shape, ``ruleset`` naming an unknown ruleset, a path, or a mutated ruleset inline; now and
then a line is cut short, made not JSON, or written with surrogate bytes that are not UTF-8.

Each mutated transcript is replayed twice: through the CLI in-process (``CliRunner``, kept in a
SQLite store given with ``--store``) and through the Python API (``prepare`` + ``replay`` on a
``memory://`` store). Checked:

1. the exit code is 0, 1, 2 or 3 and no exception but ``SystemExit`` escaped, no traceback;
2. 1 names a ``gm`` line with an ``expect`` and says "expectation failed"; 2 and 3 name a line of
   the file at or after the first line the mutation changed (3: "could not read"); 0 printed one
   rewritten reply per ``gm`` line;
3. the API raises only ``GMError`` subclasses (the replay's own: ``TranscriptError`` and its
   ``ExpectationError`` / ``UnreadableTranscript``), the kind the CLI's exit code says;
4. a replay that stopped left no game in either store; one that ended kept its games;
5. nothing was logged at ``error`` (a resolver's own bug, SPEC §8) by the API's replay.

Half the examples mutate plausibly (values of the type each field takes, the game line kept
first, no line spoiled), so the replay reads them and goes on into the engine; the other half
with any value. A second property plays the bundled transcripts on mutated copies of their
rulesets given inline: what loads plays, or the replay stops with its own error.

``GM_HUNT_EXAMPLES`` (default 200 for each, about 20 s for the module) sets how many examples
each property tries, for a longer hunt.
"""

from __future__ import annotations

import asyncio
import copy
import json
import os
import re
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import structlog
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st
from structlog.testing import capture_logs
from typer.testing import CliRunner, Result

from middleware.cli.app import app
from middleware.engine import Engine
from middleware.errors import (
    ExpectationError,
    GameError,
    TranscriptError,
    Unreadable,
)
from middleware.stores import Store, open_store
from middleware.text import clean
from middleware.transcript import prepare, replay
from middleware.transcript.lines import decoded_lines
from tests.conftest import ROOT

EXAMPLES = int(os.environ.get("GM_HUNT_EXAMPLES", "200"))
runner = CliRunner()

DEMOS = sorted((ROOT / "transcripts").glob("*.jsonl"))
SOURCES = {path: [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
                  if line.strip()] for path in DEMOS}
RULESETS = sorted((ROOT / "middleware" / "rulesets").glob("*.json"))
RULESET_JSON = {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in RULESETS}
REST_IDS = sorted({rest["id"] for data in RULESET_JSON.values() for rest in data.get("rests", [])})
KINDS = ["game", "user", "gm", "select", "rest", "edit", "gear", "fork"]
FIELDS = {"game": ["id", "ruleset", "seed", "party", "options"], "user": ["text"],
          "gm": ["text", "key", "seed", "dice", "expect"], "select": ["candidate"],
          "rest": ["who", "rest"], "edit": ["who", "live"], "gear": ["who", "kit", "picks", "again"],
          "fork": ["at", "id"]}

JsonValue = Any
"""A parsed JSON value (a line, or anything inside one): mutated in place."""


def nested(depth: int) -> JsonValue:
    value: JsonValue = 1
    for _ in range(depth):
        value = [value]
    return value


TEXTS = ["", " ", '"', "'", "[", "]", "[/red]", "[bold]x[/bold]", "[/branch]", "\n", "a\nb\r\n",
         "\ud800", "a \udfff b \ud800", "\x00", "\u2028", "caf\u00e9 \U0001f3b2",
         '[skill_check: skill="Climb" dc="7"]', '[skill_check: skill="Ward" dc="99999999999"]',
         '[inventory: action="add" item="Rope" count="10000"]', "[place: name=\"Mill",
         "[on success] up [on failure] down [/branch]", '[sheet: op="damage" amount="3"]',
         "[dice: 1000d1000]", "x" * 5000, "[" * 3000, "y" * 120_000]
"""Strings a user's editor or a careless script may leave in a transcript."""

TAGS = ['[skill_check: skill="Climb" dc="1e999"]', '[skill_check: skill="Reckon" dc="-99"]',
        '[skill_check: skill="Haggle" who="Nobody" advantage disadvantage]',
        '[SKILL_CHECK: skill=Climb dc=7 rolls="6|6" total="99" result="critical_success"]',
        '[inventory: action="buy" item="Hand axe" count="-5"]',
        '[inventory: action="sell" item="chandlery/lamp-oil" count="99999999999999999999"]',
        '[inventory: action="pay" amount="1 groat" who="Tobiah Crane"]',
        '[inventory: action="give" item="Flask of lamp oil" to="Tobiah Crane"]',
        '[inventory: action="use" item="Flask of lamp oil"]', '[inventory: items="a, b, , c"]',
        '[loot: table="grave_goods"]', '[loot: nowhere]', '[place: name="Millbrook" size="city"]',
        '[place: name="" day="new"]', '[sheet: op="damage" amount="1000000"]',
        '[sheet: op="heal" amount="-3"]', '[sheet: op="rest" rest="camp"]',
        '[sheet: op="condition" condition="rattled"]', '[dice: 0d0]', '[dice: 100d1000+1000]',
        "[on success] up [/branch]", "[on failure]", "[/branch]", "[skill_check: skill=",
        "[inventory: action=\"add\" item=\"Rope\"", "]]]", "[[["]
"""Tags a model may write, well formed or not, with values past every bound."""

NUMBERS = [0, -1, 1, 2, 7, 10**30, -(10**30), 2**63, -(2**63) - 1, 10**399, 10**400, 1.5, -0.0,
           1e300, 2.0]
"""10**399 has 400 digits (read), 10**400 one more (cannot be read)."""

SCALARS = st.one_of(st.sampled_from([*TEXTS, *NUMBERS, True, False, None]),
                    st.text(max_size=12), st.integers(),
                    st.floats(allow_nan=False, allow_infinity=False))
VALUES = st.one_of(
    st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3)
                 | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=5),
    st.sampled_from([[], {}, [None, "x", 3, {}], nested(100), nested(200)]))
"""Any JSON value, the wrong type for most fields."""

FACES = st.sampled_from([0, -1, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 20, 100, 101, 1000, 1001, 10**6,
                         10**30, 1.0, 2.5, "3", True, None])
PARTY_NAMES = sorted({member["name"] for lines in SOURCES.values()
                      for member in lines[0].get("party", []) if "name" in member})
WHO = [*PARTY_NAMES, "Nobody", "wren ashby", "Ada"]
KITS = ["Traveller's bundle", "Warden's kit", "warden", "carter", "nope"]
EDGE_INTS = st.sampled_from([0, 1, -1, 3, 10_000, 2**31, 2**63 - 1, -(2**63), 2**63, 10**30])
"""Integers as JSON reads them, 64-bit edges and past them."""


@dataclass(frozen=True)
class Aim:
    """How an example mutates: with values of the type each field takes (``plausible``: the
    replay goes on past them, into the engine) or with any JSON value; and which file a
    ``ruleset`` path may name beside the transcript."""

    plausible: bool
    ruleset_file: str


def field_values(field: str, aim: Aim) -> st.SearchStrategy[JsonValue]:
    """Values for one field: of its type near its edges, or near misses beside any JSON value."""
    if aim.plausible:
        return PLAUSIBLE.get(field, SCALARS)
    return st.one_of(HOSTILE[field], VALUES) if field in HOSTILE else VALUES


def live_values(values: st.SearchStrategy[JsonValue]) -> st.SearchStrategy[JsonValue]:
    """Live state as an ``edit`` line or a party member gives it (SHEET-TRN), with ``values``
    where a number or a name goes."""
    pools = st.sampled_from(["pluck", "ember", "stamina", "grit", "lucidity", "x", ""])
    return st.fixed_dictionaries({}, optional={
        "pools": st.dictionaries(pools, st.fixed_dictionaries({"value": values}) | values,
                                 max_size=2),
        "conditions": st.lists(st.sampled_from(["rattled", "drenched", "", "nope"]) | values,
                               max_size=3),
        "states": st.dictionaries(st.sampled_from(["lamp", "x"]),
                                  st.sampled_from(["hooded", "dark", "lit", ""]) | values,
                                  max_size=2),
        "wounds": st.dictionaries(st.sampled_from(["harm", "x"]), st.fixed_dictionaries(
            {"marks": st.lists(st.sampled_from(["cut", "bruise", "tear", "x"]) | values,
                               max_size=4)}) | values, max_size=2),
        "tracks": st.dictionaries(st.sampled_from(["harm", "x"]), values, max_size=2)})


def expect_values(values: st.SearchStrategy[JsonValue]) -> st.SearchStrategy[JsonValue]:
    record = st.dictionaries(st.sampled_from(["tag", "status", "total", "rolls", "who", "x"]),
                             values, max_size=3)
    return st.fixed_dictionaries({}, optional={
        "text": st.sampled_from(TEXTS) | values,
        "records": st.lists(record, max_size=3) | values,
        "state": st.fixed_dictionaries({}, optional={"place": values, "party": values}) | values,
        "extra": values})


def member_fields(values: st.SearchStrategy[JsonValue]) -> dict[str, st.SearchStrategy[JsonValue]]:
    """A party member's fields (SHEET-TRN), with ``values`` where a number or a name goes."""
    return {
        "name": st.sampled_from([*PARTY_NAMES, "", "x" * 300]) | values,
        "player": st.booleans() | values,
        "sheet": st.fixed_dictionaries({"v": st.just(1) | values, "build": values}) | values,
        "live": live_values(values),
        "bag": st.lists(st.fixed_dictionaries({}, optional={
            "item": st.sampled_from(["chandlery/lamp-oil", "Rope", "nope", ""]) | values,
            "coins": st.sampled_from(["groat", "shilling", "nope"]) | values,
            "count": st.sampled_from([0, -1, 10**30, 10_000, 1.5, "2"]) | values,
            "equipped": st.booleans() | values}), max_size=3),
        "notes": values}


def party_values(values: st.SearchStrategy[JsonValue]) -> st.SearchStrategy[JsonValue]:
    return st.lists(st.fixed_dictionaries({}, optional=member_fields(values)), max_size=3)


def options(values: st.SearchStrategy[JsonValue]) -> st.SearchStrategy[JsonValue]:
    return st.fixed_dictionaries({}, optional={
        "dice": st.sampled_from(["turn", "candidate"]) | values,
        "layers": st.sampled_from([["long_night"], ["x"], ["a", "a"], []]) | values,
        "branches": st.booleans() | values})


NAMES = st.sampled_from(["", "Nobody", "x" * 300, "[/red]", "\ud800"])
PLAUSIBLE: dict[str, st.SearchStrategy[JsonValue]] = {
    "dice": st.lists(st.integers(1, 12), max_size=10),
    "seed": EDGE_INTS | st.integers(),
    "candidate": st.integers(0, 3),
    "at": st.integers(0, 4),
    "who": st.sampled_from(WHO),
    "rest": st.sampled_from([*REST_IDS, "nap"]),
    "kit": st.sampled_from(KITS),
    "picks": st.lists(st.sampled_from(["Coil of rope", "", "nope", "Lantern"]), max_size=4),
    "id": st.sampled_from(["b", "lantern-branch", "lantern-demo", "[/red]"]),
    "key": st.sampled_from(["a", "b", "[/red]", ""]),
    "text": st.sampled_from(TEXTS),
    "type": st.sampled_from(KINDS),
    "options": options(st.sampled_from([0, "x", None])),
    "live": live_values(EDGE_INTS | NAMES),
    "expect": expect_values(st.sampled_from([0, "x", None, []])),
    "party": party_values(EDGE_INTS | NAMES),
    "ruleset": st.sampled_from([*RULESET_JSON, "r.json"]),
}
"""Values of the type each field takes: the replay reads them and goes on into the engine."""

HOSTILE: dict[str, st.SearchStrategy[JsonValue]] = {
    "dice": st.one_of(st.lists(FACES | st.integers(1, 20), max_size=8),
                      st.just(list(range(1, 7)) * 2000)),
    "seed": st.sampled_from([-1, "7", 10**30, 2**63, -(2**63) - 1, 10**399, 1.5, True, None]),
    "candidate": st.sampled_from([-1, 5, 99, 10**30, "0", 1.0, True, None]),
    "at": st.sampled_from([-1, 9, 10**30, "1", 1.5, None]),
    "who": st.sampled_from(["", 5, None]),
    "rest": st.sampled_from(["", "LAMPLIGHT", 0]),
    "kit": st.sampled_from(["", 0]),
    "id": st.sampled_from(["", "x" * 201, "\ud800", "a/b"]),
    "type": st.sampled_from(["GM", "", "tool", "assistant", 5, None]),
    "options": options(VALUES),
    "live": live_values(VALUES),
    "expect": expect_values(VALUES),
    "party": party_values(VALUES),
}
"""Near misses of what each field takes (the line is then refused, or should be)."""


def ruleset_refs(aim: Aim) -> st.SearchStrategy[JsonValue]:
    """What ``ruleset`` may say: a bundled id, an unknown one, paths good and bad, inline."""
    if aim.plausible:
        return st.sampled_from([*RULESET_JSON, aim.ruleset_file])
    return st.one_of(
        st.sampled_from(["nope", "LANTERN-AND-LEDGER", "", ".", "/", "..", "../",
                         "/etc/hostname", "/dev/null", "t.jsonl", "missing.json",
                         aim.ruleset_file, str(RULESETS[0]), "\x00", "a" * 5000]),
        st.sampled_from(list(RULESET_JSON.values())),
        mutated_rulesets())


@st.composite
def mutated_rulesets(draw: st.DrawFn) -> JsonValue:
    """A bundled ruleset inline, changed here and there: refused whole, or played."""
    ruleset = json.loads(json.dumps(draw(st.sampled_from(list(RULESET_JSON.values())))))
    for _ in range(draw(st.integers(1, 3))):
        _replace_or_delete(draw, ruleset, Aim(plausible=draw(st.booleans()), ruleset_file=""))
    return ruleset


def same_type(old: JsonValue) -> st.SearchStrategy[JsonValue]:
    """Another value of ``old``'s JSON type: the plausible change of a value deep in a line."""
    if isinstance(old, bool):
        return st.booleans()
    if isinstance(old, int):
        return EDGE_INTS | st.integers(-3, 30)
    if isinstance(old, float):
        return st.floats(allow_nan=False, allow_infinity=False)
    if isinstance(old, str):
        return st.sampled_from(TEXTS) | st.text(max_size=12)
    if isinstance(old, list):
        return st.lists(st.sampled_from(old), max_size=len(old) + 2) if old else st.just([])
    return st.just({}) if isinstance(old, dict) else st.none()


# --- where in a line a mutation lands --------------------------------------------------------


def locations(value: JsonValue, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place inside ``value`` (a key of a dict, an index of a list), depth first."""
    children = value.items() if isinstance(value, dict) else \
        enumerate(value) if isinstance(value, list) else ()
    for key, child in children:
        yield (*at, key)
        yield from locations(child, (*at, key))


def parent_of(value: JsonValue, where: tuple[Any, ...]) -> JsonValue:
    for key in where[:-1]:
        value = value[key]
    return value


def fresh(draw: st.DrawFn, values: st.SearchStrategy[JsonValue]) -> JsonValue:
    """A value drawn, copied: strategies hand out the same list or dict again (``[]``, a deep
    nest), and a later mutation must not change it in the strategy itself."""
    return copy.deepcopy(draw(values))


def _replace_or_delete(draw: st.DrawFn, value: JsonValue, aim: Aim) -> str:
    """A place inside ``value`` deleted, or given another value (plausible: of its type)."""
    places = [where for where in locations(value)
              if not (aim.plausible and where == ("type",))]  # plausibly: still the same kind
    if not places:
        return "nothing to change"
    where = draw(st.sampled_from(places))
    parent = parent_of(value, where)
    deep = len(where) > 1 or isinstance(parent, list)  # plausibly: keep a line's own keys
    if (deep or not aim.plausible) and draw(st.integers(0, 3 if aim.plausible else 1)) == 0:
        del parent[where[-1]]
        return f"deleted {where}"
    field = next((k for k in reversed(where) if isinstance(k, str)), "")
    parent[where[-1]] = fresh(draw, same_type(parent[where[-1]]) if aim.plausible
                              else field_values(field, aim))
    return f"replaced {where} with {json.dumps(parent[where[-1]])[:80]}"


# --- mutations of the parsed lines -------------------------------------------------------------

Mutation = Callable[[st.DrawFn, list[JsonValue], Aim], str]
"""Changes the lines in place; says what it did."""


def pick_line(draw: st.DrawFn, lines: list[JsonValue]) -> int:
    return draw(st.integers(0, len(lines) - 1))


def change_inside(draw: st.DrawFn, lines: list[JsonValue], aim: Aim) -> str:
    """Anything inside a line, however deep (a party member's skill, a pool's value)."""
    if not lines:
        return "no line"
    index = pick_line(draw, lines)
    return f"line {index + 1}: " + _replace_or_delete(draw, lines[index], aim)


def set_field(draw: st.DrawFn, lines: list[JsonValue], aim: Aim) -> str:
    """A field of its kind (or of another kind) set to a value aimed at it."""
    dicts = [i for i, line in enumerate(lines) if isinstance(line, dict)]
    if not dicts:
        return "no object line"
    index = draw(st.sampled_from(dicts))
    kind = lines[index].get("type")
    own = FIELDS.get(kind, []) if isinstance(kind, str) else []
    every = sorted({f for fs in FIELDS.values() for f in fs} | {"type"})
    field = draw(st.sampled_from(own if own and (aim.plausible or draw(st.integers(0, 4)))
                                 else every))
    value = fresh(draw, ruleset_refs(aim) if field == "ruleset" else field_values(field, aim))
    lines[index][field] = value
    return f"line {index + 1}: {field} = {json.dumps(value)[:80]}"


def party_member(draw: st.DrawFn, lines: list[JsonValue], aim: Aim) -> str:
    """A party member of the game line loses a field, gets a wrong one, or comes twice."""
    game = lines[0] if lines and isinstance(lines[0], dict) else None
    party = game.get("party") if game else None
    if not isinstance(party, list) or not party:
        return "no party"
    index = draw(st.integers(0, len(party) - 1))
    how = draw(st.sampled_from(["twice", "drop-field", "field"]))
    if how == "twice":
        party.append(json.loads(json.dumps(party[index])))
    elif how == "drop-field" and isinstance(party[index], dict) and party[index]:
        del party[index][draw(st.sampled_from(sorted(party[index])))]
    else:
        member = party[index] if isinstance(party[index], dict) else {}
        field = draw(st.sampled_from(["name", "player", "sheet", "live", "bag", "notes"]))
        member[field] = fresh(draw, member_fields(EDGE_INTS if aim.plausible
                                                  else VALUES)[field])
        party[index] = member
    return f"party[{index}] {how}"


def add_line(draw: st.DrawFn, lines: list[JsonValue], aim: Aim) -> str:
    """A new line of any kind, its fields drawn as that kind takes them or not."""
    kind = draw(st.sampled_from(KINDS[1:]))
    line: dict[str, JsonValue] = {"type": kind}
    for field in FIELDS[kind]:
        if aim.plausible or draw(st.integers(0, 3)):
            line[field] = fresh(draw, field_values(field, aim))
    at = draw(st.integers(1, max(1, len(lines))))
    lines.insert(at, line)
    return f"added at {at + 1}: {json.dumps(line)[:100]}"


def reorder(draw: st.DrawFn, lines: list[JsonValue], aim: Aim) -> str:
    """A whole line duplicated, dropped, swapped with another or moved (plausibly: not the
    game line)."""
    if len(lines) < 2:
        return "no line"
    how = draw(st.sampled_from(["duplicate", "drop", "swap", "move"]))
    first = 1 if aim.plausible else 0
    i, j = draw(st.integers(first, len(lines) - 1)), draw(st.integers(first, len(lines) - 1))
    if how == "duplicate":
        lines.insert(j, json.loads(json.dumps(lines[i])))
    elif how == "drop":
        del lines[i]
    elif how == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    else:
        lines.insert(j, lines.pop(i))
    return f"{how} {i + 1} {j + 1}"


def retype(draw: st.DrawFn, lines: list[JsonValue], aim: Aim) -> str:
    """A line's ``type`` changed, or the whole line made another JSON value."""
    if not lines:
        return "no line"
    index = pick_line(draw, lines)
    if draw(st.integers(0, 5)) == 0:
        lines[index] = fresh(draw, st.sampled_from([[], "gm", 3, None, True, [lines[index]]]))
    elif isinstance(lines[index], dict):
        lines[index]["type"] = fresh(draw, field_values("type", aim))
    return f"line {index + 1} retyped"


def splice(draw: st.DrawFn, lines: list[JsonValue], _: Aim) -> str:
    """Tags and hostile text put into a reply or a player's line, where a model or an editor
    might leave them; scripted faces added now and then, so checks throw them."""
    texts = [i for i, line in enumerate(lines)
             if isinstance(line, dict) and isinstance(line.get("text"), str)]
    if not texts:
        return "no text"
    index = draw(st.sampled_from(texts))
    text, piece = lines[index]["text"], draw(st.sampled_from(TAGS + TEXTS[:20]))
    at = draw(st.integers(0, len(text)))
    lines[index]["text"] = text[:at] + piece + text[at:]
    if lines[index].get("type") == "gm" and draw(st.booleans()):
        lines[index]["dice"] = draw(st.lists(st.integers(1, 6), max_size=12))
    return f"line {index + 1}: {piece!r} at {at}"


MUTATIONS: list[Mutation] = [change_inside, set_field, set_field, party_member, add_line,
                             reorder, retype, splice]
PLAUSIBLE_MUTATIONS: list[Mutation] = [change_inside, change_inside, set_field, set_field,
                                       party_member, add_line, reorder, splice, splice]


# --- the file as written --------------------------------------------------------------------


@dataclass(frozen=True)
class Mutated:
    """A bundled transcript after its mutations, as the lines of the file to write."""

    source: Path
    lines: list[str]
    first_changed: int
    """The number (1-based) of the first line that differs from the source's."""

    def write(self, folder: Path) -> Path:
        path = folder / "t.jsonl"
        # surrogatepass: a raw lone surrogate goes out as bytes that are not UTF-8, as a
        # careless writer would leave it
        path.write_text("\n".join(self.lines) + "\n", encoding="utf-8", errors="surrogatepass")
        return path

    def kinds(self) -> list[str | None]:
        """Each line's ``type`` as the reader will see it (None: not an object, or no type)."""
        return [_kind(line) for line in self.lines]


def _kind(raw: str) -> str | None:
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    return data.get("type") if isinstance(data, dict) and isinstance(data.get("type"), str) \
        else None


def render(lines: list[JsonValue], ascii_only: bool) -> list[str]:
    return [json.dumps(line, ensure_ascii=ascii_only) for line in lines]


def spoil(draw: st.DrawFn, lines: list[str]) -> None:
    """Now and then, a line that is not JSON at all: cut short, junk, a BOM, a blank line."""
    how = draw(st.sampled_from(["none"] * 5 + ["cut", "junk", "bom", "blank", "crlf"]))
    index = draw(st.integers(0, len(lines) - 1)) if lines else 0
    if how == "cut" and lines:
        lines[index] = lines[index][: draw(st.integers(0, max(0, len(lines[index]) - 1)))]
    elif how == "junk":
        lines.insert(index, draw(st.sampled_from(["not json", "{", "}", "[1, 2]", "'gm'",
                                                  '{"type": "gm", "text": "a",}', "null"])))
    elif how == "bom" and lines:
        lines[index] = "\ufeff" + lines[index]
    elif how == "blank":
        lines.insert(index, draw(st.sampled_from(["", "   ", "\t"])))
    elif how == "crlf":
        lines[:] = [line + "\r" for line in lines]


@st.composite
def mutated_transcripts(draw: st.DrawFn) -> Mutated:
    source = draw(st.sampled_from(DEMOS))
    lines = json.loads(json.dumps(SOURCES[source]))
    if draw(st.booleans()):  # else the first changed reply fails its expect, and stops there
        for line in lines:
            line.pop("expect", None)
    aim = Aim(plausible=draw(st.booleans()), ruleset_file=draw(st.sampled_from(["t.jsonl",
                                                                               "r.json"])))
    for _ in range(draw(st.integers(1, 3))):
        mutation = draw(st.sampled_from(PLAUSIBLE_MUTATIONS if aim.plausible else MUTATIONS))
        note(mutation(draw, lines, aim))
    ascii_only = draw(st.booleans())
    written = render(lines, ascii_only)
    if not aim.plausible:
        spoil(draw, written)
    before = render(SOURCES[source], ascii_only)  # with expects, so a line without is changed
    first = next((i for i, (a, b) in enumerate(zip(before, written, strict=False)) if a != b),
                 min(len(before), len(written)))
    return Mutated(source, written, first + 1)


# --- running it ---------------------------------------------------------------------------------


def exit_of(error: BaseException | None) -> int:
    """The exit code the CLI gives for what the API raised."""
    if error is None:
        return 0
    if isinstance(error, ExpectationError):
        return 1
    return 3 if isinstance(error, Unreadable) else 2


def chats_of(case: Mutated) -> set[str]:
    """Every chat id the transcript names (the game's, the forks'): none may outlive a failure.
    """
    ids = set()
    for raw in case.lines:
        try:
            data = json.loads(raw)
        except ValueError:
            continue
        if isinstance(data, dict) and data.get("type") in ("game", "fork") \
                and isinstance(data.get("id"), str):
            ids.add(clean(data["id"]))  # as the reader has it: lone surrogates replaced
    return ids


async def kept_games(url: str, chats: set[str]) -> set[str]:
    store = await open_store(url)
    try:
        return {chat for chat in chats if await _has_game(store, chat)}
    finally:
        await store.close()


async def _has_game(store: Store, chat: str) -> bool:
    try:
        await store.get_game(chat)
    except GameError:
        return False
    return True


async def api_replay(path: Path, chats: set[str]) -> tuple[BaseException | None, int, set[str]]:
    """The API's outcome: what it raised, how many gm steps it yielded, which of ``chats`` it
    kept."""
    store = await open_store("memory://")
    steps, error = 0, None
    try:
        with path.open("rb") as handle:
            prepared = prepare(decoded_lines(handle), base=path.parent)
        async for step in replay(prepared, Engine(store)):
            steps += step.kind == "gm" and step.processed is not None
    except Exception as exc:  # what escapes is the finding
        error = exc
    kept = {chat for chat in chats if await _has_game(store, chat)}
    await store.close()
    return error, steps, kept


def gist(stderr: str) -> str:
    """What an error says, numbers and quoted names left out: to count kinds of errors."""
    return re.sub(r"line \d+|\d+|'.*?'", "#", stderr.rsplit(": line", 1)[-1])[:50]


def named_line(result: Result, path: Path) -> int | None:
    found = re.search(rf"✗ {re.escape(str(path))}: (?:could not read: )?line (\d+)",
                      result.stderr)
    return int(found.group(1)) if found else None


def check_cli(case: Mutated, path: Path, result: Result, as_json: bool) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert result.exit_code in (0, 1, 2, 3), result.output
    assert "Traceback" not in result.output
    kinds = case.kinds()
    if result.exit_code == 0:
        shown = [json.loads(line) for line in result.stdout.split("\n")[:-1]] if as_json \
            else re.findall(r"^GM \(candidate \d+", result.stdout, re.MULTILINE)
        assert kinds.count("gm") == len(shown), result.stdout[-2000:]
        return
    number = named_line(result, path)
    assert number is not None, result.stderr
    assert case.first_changed <= number <= len(case.lines), (case.first_changed, result.stderr)
    if result.exit_code == 1:
        assert "expectation failed" in result.stderr
        assert "gm" == kinds[number - 1] and '"expect"' in case.lines[number - 1]
    if result.exit_code == 3:
        assert "could not read" in result.stderr


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.large_base_example])
@given(case=mutated_transcripts(), as_json=st.booleans())
def test_a_mutated_transcript_replays_or_stops_with_a_clear_error(case: Mutated,
                                                                   as_json: bool) -> None:
    """Exit 0, 1, 2 or 3 with the line named, never a traceback; the API raises only the
    replay's own errors, the same kind; a replay that stopped keeps nothing (SPEC §4, §8)."""
    with tempfile.TemporaryDirectory(prefix="gm-mutated-") as tmp:
        folder = Path(tmp)
        (folder / "r.json").write_text(json.dumps(RULESET_JSON["lantern-and-ledger"]))
        path = case.write(folder)
        url = f"sqlite:///{folder}/kept.db"
        result = runner.invoke(app, ["replay", str(path), "--store", url,
                                     *(["--json"] if as_json else [])])
        structlog.reset_defaults()  # the command logged to the runner's stderr, now closed
        note(result.stderr[-3000:])
        event(f"exit {result.exit_code}")
        if result.exit_code:
            event(gist(result.stderr))
        check_cli(case, path, result, as_json)

        chats = chats_of(case)
        with capture_logs() as logs:
            error, steps, kept = asyncio.run(api_replay(path, chats))
        assert [] == [e for e in logs if e["log_level"] in ("error", "critical")]
        assert error is None or isinstance(error, TranscriptError), repr(error)  # a GMError
        assert result.exit_code == exit_of(error), (repr(error), result.stderr)
        if error is None:
            assert case.kinds().count("gm") == steps
            assert chats == kept == asyncio.run(kept_games(url, chats))
        else:
            assert set() == kept
            if (folder / "kept.db").exists():
                assert set() == asyncio.run(kept_games(url, chats))


# --- the same games on mutated rulesets ---------------------------------------------------------


@st.composite
def games_on_mutated_rulesets(draw: st.DrawFn) -> list[str]:
    """A bundled transcript, its expects dropped, on a copy of its ruleset given inline with a
    value changed (of its type: a price, a maximum, a label) or a key gone."""
    lines = json.loads(json.dumps(SOURCES[draw(st.sampled_from(DEMOS))]))
    ruleset = copy.deepcopy(RULESET_JSON[lines[0]["ruleset"]])
    for _ in range(draw(st.integers(1, 3))):
        note(_replace_or_delete(draw, ruleset, Aim(plausible=True, ruleset_file="")))
    lines[0]["ruleset"] = ruleset
    for line in lines:
        line.pop("expect", None)
    return render(lines, ascii_only=True)


async def played(lines: list[str]) -> None:
    store = await open_store("memory://")
    try:
        async for _ in replay(prepare(lines), Engine(store)):
            pass
    finally:
        await store.close()


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(lines=games_on_mutated_rulesets())
def test_a_game_on_a_mutated_ruleset_plays_or_is_refused(lines: list[str]) -> None:
    """SPEC §8: a ruleset is checked whole at import, so what loads plays: the game replays,
    or stops with the replay's own ``TranscriptError`` (the ruleset refused at line 1, a rest
    or a name the changed ruleset no longer has), and nothing is logged at ``error``. (A price
    of 2**64 loaded and crashed the engine's digest of the ruleset.)"""
    with capture_logs() as logs:
        try:
            asyncio.run(played(lines))
        except TranscriptError as exc:
            event("refused at import" if exc.line == 1 and exc.path == "$.ruleset"
                  else "stopped later")
        else:
            event("played")
    assert [] == [e for e in logs if e["log_level"] in ("error", "critical")]
