"""The ruleset's JSON Schema helps whoever writes a ruleset: every key explained, the file checked.

``gm-middleware schema`` prints it; an editor given it (``"$schema"`` in the ruleset, or the editor's
own setting) shows each key's description while a ruleset is typed and marks a key it does not know.
The descriptions are the models' own field docstrings. Validated here with ``jsonschema``, the
validator such editors' tooling uses, against the bundled rulesets and the peer's example files.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from middleware.cli import app
from middleware.rules import ruleset_json_schema
from middleware.rules.registry import bundled_ids, load_bundled
from tests.peer import compat_json
from tests.rulesets import by_id, row_path

SCHEMA = ruleset_json_schema()
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def properties(schema: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Every (object, key, property schema) of the root and of each definition."""
    for name, part in [("Ruleset", schema), *schema["$defs"].items()]:
        for key, prop in part.get("properties", {}).items():
            yield name, key, prop


def errors_in(data: Any) -> list[str]:
    """Where and why ``data`` breaks the schema (empty when it fits)."""
    return [f"{e.json_path}: {e.message}" for e in VALIDATOR.iter_errors(data)]


def test_every_property_of_the_schema_has_a_description() -> None:
    """Each of the ~950 keys an editor completes carries help text, on one line."""
    found = list(properties(SCHEMA))
    missing = [f"{name}.{key}" for name, key, prop in found if not prop.get("description")]
    assert len(found) > 900
    assert [] == missing
    assert [] == [f"{n}.{k}" for n, k, p in found if "\n" in p["description"]]


def test_a_description_is_the_fields_own_words() -> None:
    """The text comes from the model's field docstring, so it names what the key does."""
    pool = SCHEMA["$defs"]["DicePool"]["properties"]
    assert "counts as two successes" in pool["double"]["description"]
    assert "``with=``" in SCHEMA["$defs"]["PoolSize"]["properties"]["abilityPlusAbility"][
        "description"]


def test_the_schema_names_its_dialect_and_itself() -> None:
    """``$schema`` and ``$id`` at the root; the schema is itself a valid 2020-12 schema."""
    assert "https://json-schema.org/draft/2020-12/schema" == SCHEMA["$schema"]
    assert "urn:gm-middleware:ruleset:1" == SCHEMA["$id"]
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_the_cli_prints_the_same_schema() -> None:
    """``gm-middleware schema`` is what a user saves beside the ruleset."""
    result = CliRunner().invoke(app, ["schema"])
    assert 0 == result.exit_code
    assert SCHEMA == json.loads(result.stdout)


@pytest.mark.parametrize("ruleset_id", bundled_ids())
def test_every_bundled_ruleset_fits_the_schema(ruleset_id: str) -> None:
    """The bundled rulesets, as shipped, raise no error in an editor using the schema."""
    assert [] == errors_in(load_bundled(ruleset_id).source)


@pytest.mark.parametrize("name", ["gravewatch.json", "ember-roads.json",
                                  "ruleset-5e-2014.example.json"])
def test_the_peers_example_rulesets_fit_the_schema(name: str) -> None:
    """compat/README: the peer's files load unchanged, and the schema accepts them too."""
    assert [] == errors_in(compat_json(name))


def test_a_ruleset_naming_the_schema_still_fits_it() -> None:
    """A file that points its editor at the schema with ``$schema`` stays valid."""
    data = dict(load_bundled("cinder-watch").source, **{"$schema": "./ruleset.schema.json"})
    assert [] == errors_in(data)


def test_the_schema_marks_what_the_loader_refuses() -> None:
    """SHEET-FILE-06: an unknown key, a wrong kind and a missing key are marked where they are."""
    data = json.loads(json.dumps(load_bundled("cinder-watch").source))
    data["resolution"]["explodes"] = {"from": 10}
    by_id(data["sheet"]["abilities"], "grip")["min"] = "low"
    del data["schemaVersion"]
    found = errors_in(data)
    assert any(e.startswith("$:") and "'schemaVersion' is a required property" in e
               for e in found)
    grip = row_path(data, "$.sheet.abilities[grip].min")
    assert any(e.startswith(f"{grip}:") for e in found)
    assert any("explodes" in e for e in found)
