"""The whole ruleset file: every top-level key of the Game Mode format, nothing dropped.

Blocks whose keys the middleware does not model one by one (``battle``, ``gm``, ``layers`` and most
of ``combat``) are kept whole as the file's JSON, stored and handed on unchanged; what is read of
them is read where it is used (a layer's changes in ``rules/layers.py``, ``gm.sheetSummary`` by
the charms). SHEET-FILE-06: an unknown top-level key still refuses the file.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, PrivateAttr, StringConstraints

from middleware.json_input import JsonObject
from middleware.names import normalize_name
from middleware.rules.base import MODEL_CONFIG, Strict, one_line_descriptions
from middleware.rules.catalogs import Catalog
from middleware.rules.combat import CombatBlock
from middleware.rules.common import Rung
from middleware.rules.items import ItemsBlock
from middleware.rules.kinds.dice_sum import DiceSum, NaturalsSetting
from middleware.rules.resolution import ResolutionBlock
from middleware.rules.rests import Rest
from middleware.rules.sheet import SheetBlock

RulesetId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_-]*$", max_length=60)]
"""A ruleset's own id: like a sheet id, but hyphens are allowed (``5e-2014``, ``ember-roads``)."""


class License(Strict):
    """The licence of the rules text the file carries (kept with the file, never removed)."""

    spdx: str | None = Field(default=None, max_length=80)
    """The SPDX identifier of the rules text's licence, e.g. ``CC-BY-4.0`` or ``OGL-1.0a``."""
    attribution: str | None = Field(default=None, max_length=2000)
    """The credit line the licence asks for, kept with the file and shown where the rules text
    is."""


class Coverage(Strict):
    """What parts of play the ruleset decides; the rest is left to the Game Master."""

    checks: bool = False
    """Whether the ruleset decides skill and ability checks (otherwise the Game Master does)."""
    saves: bool = False
    """Whether the ruleset decides saving throws."""
    sheet: bool = False
    """Whether the character sheet is the ruleset's (abilities, skills, derived values)."""
    resources: bool = False
    """Whether live pools and tracks (hit points, willpower, stress) are kept by the rules."""
    rests: bool = False
    """Whether rests and what they restore are the ruleset's."""
    combat: bool = False
    """Whether fights are rolled by the ruleset."""
    summary: str | None = Field(default=None, max_length=1000)
    """A line telling the Game Master what the ruleset leaves to it (up to 1000 characters)."""


SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
"""The JSON Schema dialect pydantic writes."""
SCHEMA_ID = "urn:gm-middleware:ruleset:1"
"""The schema's own id: a name, not an address (the schema is printed by ``gm-middleware schema``),
versioned with ``schemaVersion``."""


def _schema_root(schema: JsonObject, model: type[Strict]) -> None:
    """The file's schema says which dialect it is written in and which schema it is."""
    one_line_descriptions(schema, model)
    schema.update({"$schema": SCHEMA_DIALECT, "$id": SCHEMA_ID})


class Ruleset(Strict):
    """A loaded ruleset. Build it with ``load_ruleset``, which also runs the import checks."""

    model_config = ConfigDict(**{**MODEL_CONFIG, "json_schema_extra": _schema_root})

    json_schema_url: str | None = Field(default=None, alias="$schema")
    """The JSON Schema this file is written against, so an editor can check it and show help as it
    is typed (e.g. the output of ``gm-middleware schema`` saved beside it)."""
    schema_version: Literal[1] = Field(alias="schemaVersion")
    """The version of the ruleset format; always 1."""
    id: RulesetId
    """The ruleset's own id: lowercase letters, digits, ``_`` and ``-``, up to 60 characters
    (``ember-roads``, ``5e-2014``)."""
    version: int = Field(ge=1)
    """The ruleset's own version number, 1 or more; raise it when the rules change."""
    name: str = Field(min_length=1, max_length=80)
    """The ruleset's name as players see it (1 to 80 characters)."""
    edition: str | None = Field(default=None, max_length=200)
    """The game or edition the rules follow, e.g. ``5th edition, 2014 rules``."""
    license: License | None = None
    """The licence of the rules text the file carries."""
    coverage: Coverage | None = None
    """Which parts of play the ruleset decides; the rest is left to the Game Master."""
    capability_api: str | float | None = Field(default=None, alias="capabilityApi")
    """The lowest engine version whose features a packaged ruleset uses; a ruleset a user imports
    needs none."""
    resolution: ResolutionBlock
    """How every check and save is rolled; ``kind`` picks one of dice-sum, dice-pool, dice-highest,
    roll-against and symbol-pool."""
    sheet: SheetBlock
    """The character sheet: abilities, skills, saves, fields, lists, derived values and live pools
    and tracks."""
    rests: list[Rest] = Field(default_factory=list, max_length=12)
    """The rests a party can take (up to 12) and what each one restores."""
    gm: JsonObject | None = None
    """What the Game Master is told about the rules; kept whole and handed on unchanged."""
    items: ItemsBlock | None = None
    """The items block: categories, rarities, tags, stats, slots, carrying, money, markets and
    loot."""
    catalogs: list[Catalog] = Field(default_factory=list)
    """Lists of things a character can have or choose (items, charms, knacks), each entry with its
    mechanics."""
    battle: JsonObject | None = None
    """The peer's battle settings; kept whole and handed on unchanged."""
    combat: CombatBlock | None = None
    """How fights are rolled: attack and damage rows, guard, conditions."""
    layers: list[JsonObject] = Field(default_factory=list)
    """Optional changes a game can switch on over the rules (a hard winter, a long night); kept as
    the file gives them."""

    _source: JsonObject | None = PrivateAttr(default=None)

    @property
    def source(self) -> JsonObject:
        """The file's JSON as loaded (``$comment``s and all), e.g. to store with a game."""
        if self._source is not None:
            return self._source
        return self.model_dump(mode="json", by_alias=True, exclude_unset=True)

    def ladder_rung(self, label: str) -> Rung | None:
        """CHK-COMMON-08: the rung a ``difficulty=`` names; None when no rung or two share it."""
        wanted = normalize_name(label)
        found = [r for r in self.resolution.difficulty_ladder if normalize_name(r.label) == wanted]
        return found[0] if len(found) == 1 else None

    def naturals_for(self, kind: Literal["check", "save"]) -> NaturalsSetting:
        """CHK-SUM-03 / SPEC §10: the naturals for checks or saves (``none`` off dice-sum)."""
        if isinstance(self.resolution, DiceSum):
            return self.resolution.naturals_for(kind)
        return "none"
