"""What starting costs: ``import middleware`` and every ``--help`` import none of the engine.

Each runs in a fresh interpreter, which then lists the modules it holds: the package imports a
public name's module when the name is first used, and a command imports the engine, the stores,
the proxy and the ruleset models when it runs, so that showing help never waits for them. How long
each takes is measured in ``tests/benchmarks/test_start_up_bench.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

SERVERS = ("asyncio", "asyncpg", "starlette", "uvicorn", "aiohttp", "uvloop", "structlog")
"""What only a running command needs: the event loop, the database driver, the web stack, the
log set-up."""

ENGINE = ("lark", "middleware.parse", "middleware.engine", "middleware.stores",
          "middleware.pipeline", "middleware.rules", "middleware.state", "middleware.resolve",
          "middleware.transcript", "middleware.proxy.app", "middleware.bots.run")
"""The engine and everything under it, down to the tag grammar and the ruleset models."""

_REPORT = """
import json, sys
def report(**more):
    parse = sys.modules.get("middleware.parse")
    built = parse._parser.cache_info().currsize if parse else 0
    print(json.dumps({"modules": sorted(sys.modules), "parsers": built, **more}))
"""
"""Prints, last, the modules the interpreter holds and how many tag parsers it built."""

_HELP = """
import typer.main
from typer.testing import CliRunner
from middleware.cli import app

def paths(command, path):
    yield path
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        yield from paths(sub, [*path, name])

every = paths(typer.main.get_command(app), [])
shown = {" ".join(p): CliRunner().invoke(app, [*p, "--help"]) for p in every}
report(codes={k: r.exit_code for k, r in shown.items()},
       usage={k: r.output.count("Usage:") for k, r in shown.items()})
"""


def _probe(code: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", _REPORT + code], capture_output=True, text=True,
                          check=True)
    found: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return found


def _loaded(modules: list[str], prefixes: tuple[str, ...]) -> list[str]:
    return [m for m in modules if any(m == p or m.startswith(p + ".") for p in prefixes)]


def test_every_help_is_shown_without_the_engine_or_the_servers() -> None:
    """``gm-middleware --help`` and each command's ``--help`` exit 0, show their usage once, and
    import neither the engine, the stores, the proxy, the web stack nor the tag grammar."""
    found = _probe(_HELP)
    assert {"", "serve", "replay", "odds", "bot telegram"} <= set(found["codes"])
    assert {} == {k: code for k, code in found["codes"].items() if code != 0}
    assert {} == {k: n for k, n in found["usage"].items() if n != 1}
    assert [] == _loaded(found["modules"], SERVERS + ENGINE)


def test_importing_the_package_imports_none_of_its_engine() -> None:
    """``import middleware`` imports none of its modules but the one that makes its names lazy: no
    grammar, no model, no engine, no CLI."""
    found = _probe("import middleware\nreport()\n")
    assert [] == _loaded(found["modules"], SERVERS + ENGINE + ("pydantic", "typer", "rich"))
    assert ["middleware", "middleware.lazy"] == _loaded(found["modules"], ("middleware",))


def test_a_public_name_brings_its_module_when_first_used() -> None:
    """The first use of ``middleware.Engine`` imports the engine; the grammar is built only when
    a tag body first needs it (a plain one, ``key="value"`` pairs and bare words, is read without
    it)."""
    found = _probe("import middleware\nmiddleware.Engine\nreport()\n")
    assert "middleware.engine" in found["modules"]
    assert 0 == found["parsers"]
    found = _probe("import middleware\nmiddleware.parse('[dice: 1d6]')\nreport()\n")
    assert 0 == found["parsers"]
    found = _probe("import middleware\nmiddleware.parse(\"[loot: table='x']\")\nreport()\n")
    assert 1 == found["parsers"]
