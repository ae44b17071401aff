"""The package's public surface: curated in ``__init__`` with ``__all__`` (STYLE, httpx anchor)."""

from __future__ import annotations

import subprocess
import sys

import middleware


def test_every_public_name_is_importable_and_listed() -> None:
    """Everything in ``__all__`` exists, and no public name is exported without being listed."""
    missing = [name for name in middleware.__all__ if not hasattr(middleware, name)]
    assert [] == missing
    exported = {n for n in vars(middleware) if not n.startswith("_")}
    modules = {n for n in exported if type(getattr(middleware, n)).__name__ == "module"}
    assert set(middleware.__all__) == exported - modules


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
