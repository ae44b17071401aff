"""The whole ruleset file: every top-level key of the Game Mode format, nothing dropped.

Blocks a later issue implements (``battle``, ``gm``, ``layers`` and most of
``combat``) are kept whole as validated JSON: their shape is checked there, but they are already
stored and handed on unchanged (SHEET-FILE-06: an unknown top-level key still refuses the file).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, PrivateAttr, StringConstraints

from middleware.names import normalize_name
from middleware.rules.base import Strict
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

Json = dict[str, Any]


class License(Strict):
    """The licence of the rules text the file carries (kept with the file, never removed)."""

    spdx: str | None = Field(default=None, max_length=80)
    attribution: str | None = Field(default=None, max_length=2000)


class Coverage(Strict):
    """What parts of play the ruleset decides; the rest is left to the Game Master."""

    checks: bool = False
    saves: bool = False
    sheet: bool = False
    resources: bool = False
    rests: bool = False
    combat: bool = False
    summary: str | None = Field(default=None, max_length=1000)


class Ruleset(Strict):
    """A loaded ruleset. Build it with ``load_ruleset``, which also runs the import checks."""

    json_schema_url: str | None = Field(default=None, alias="$schema")
    schema_version: Literal[1] = Field(alias="schemaVersion")
    id: RulesetId
    version: int = Field(ge=1)
    name: str = Field(min_length=1, max_length=80)
    edition: str | None = Field(default=None, max_length=200)
    license: License | None = None
    coverage: Coverage | None = None
    capability_api: str | float | None = Field(default=None, alias="capabilityApi")
    resolution: ResolutionBlock
    sheet: SheetBlock
    rests: list[Rest] = Field(default_factory=list, max_length=12)
    gm: Json | None = None
    items: ItemsBlock | None = None
    catalogs: list[Catalog] = Field(default_factory=list)
    battle: Json | None = None
    combat: CombatBlock | None = None
    layers: list[Json] = Field(default_factory=list)

    _source: Json | None = PrivateAttr(default=None)

    @property
    def source(self) -> Json:
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
