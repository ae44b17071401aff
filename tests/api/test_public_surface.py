"""The package's public surface: curated in ``__init__`` with ``__all__`` (STYLE, httpx anchor)."""

from __future__ import annotations

import ast
import subprocess
import sys
from types import ModuleType

import pytest

import middleware
import middleware.proxy
from tests.conftest import ROOT


def test_every_public_name_is_importable_and_listed() -> None:
    """Everything in ``__all__`` exists, and no public name is exported without being listed."""
    missing = [name for name in middleware.__all__ if not hasattr(middleware, name)]
    assert [] == missing
    exported = {n for n in vars(middleware) if not n.startswith("_")}
    modules = {n for n in exported if isinstance(getattr(middleware, n), ModuleType)}
    assert set(middleware.__all__) == exported - modules


@pytest.mark.parametrize("package", [middleware, middleware.proxy], ids=lambda p: p.__name__)
def test_each_name_loaded_on_first_use_comes_from_the_module_mypy_reads(package: ModuleType) -> None:
    """A package that imports its names on first use says twice where each comes from: its
    ``TYPE_CHECKING`` imports (what mypy checks a user's code against) and ``_SOURCES`` (what
    runs). Both name the same module for every name, and with the imports made at once they
    are ``__all__``, each once."""
    path = ROOT / package.__name__.replace(".", "/") / "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typed: dict[str, str] = {}
    eager: dict[str, str] = {}
    for node in tree.body:
        found = typed if isinstance(node, ast.If) else eager
        for imported in ast.walk(node):
            if isinstance(imported, ast.ImportFrom):
                found.update({alias.name: imported.module or "" for alias in imported.names})
    assert package._SOURCES == typed
    assert sorted(package.__all__) == sorted([*typed, *eager])
    assert not set(typed) & set(eager)


def test_a_star_import_gives_the_public_names() -> None:
    """``from middleware import *`` loads every name of ``__all__``, each the object of its module."""
    names: dict[str, object] = {}
    exec("from middleware import *", names)
    assert set(middleware.__all__) == set(names) - {"__builtins__"}
    assert middleware.engine.Engine is names["Engine"]
    assert middleware.parse is names["parse"] and callable(middleware.parse)


@pytest.mark.parametrize("first", ["middleware.errors", "middleware.parse", "middleware.pipeline"])
def test_parse_stays_the_function_whatever_imports_its_module(first: str) -> None:
    """``middleware.parse`` is the function, not the module of the same name, whether the module
    is imported before the name is first used or after."""
    code = (f"import middleware, {first}; before = middleware.parse; import middleware.parse; "
            "from middleware.parse import parse; "
            "print(before is parse is middleware.parse, [s.name for s in middleware.parse('[dice: 1d6]')])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "True ['dice']" == out.stdout.strip()


def test_importing_the_package_builds_no_parser() -> None:
    """Importing has no side effects: the Lark parser is built lazily on first use."""
    code = ("import middleware, middleware.parse as p; "
            "print(p._parser.cache_info().currsize if hasattr(p, '_parser') else 'lazy')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() in {"0", "lazy"}


async def test_the_readme_example_runs() -> None:
    """The Python API example of the README, on the in-memory store."""
    engine = middleware.Engine(await middleware.open_store("memory://"))
    ruleset = middleware.load_bundled("lantern-and-ledger")
    party = middleware.read_party(ruleset, [{"name": "Wren", "player": True}], line=None)
    await engine.create_game("chat-1", ruleset, party, seed=7)
    await engine.user("chat-1", 1, "I climb to the lamp.")
    done = await engine.process("chat-1", 1, 'She climbs [skill_check: skill="Climb" dc="7"].',
                                dice=[6, 6])
    assert "resolved" == done.records[0].status
    assert done.text.startswith('She climbs [skill_check: skill="Climb" dc="7" rolls="6|6"')
    await engine.process("chat-1", 1, "A regenerated reply.")
    await engine.select("chat-1", 1, 0)
    await engine.fork("chat-1", 1, "chat-1-branch")
    assert ("Wren",) == tuple(m.name for m in (await engine.state("chat-1-branch")).party)
