"""The import graph of ``middleware/``: layers that only import downwards, and no loops.

The layers, bottom first, are the README's architecture section (the same list, checked below). A
module may import its own layer or one below it, never one above; no two modules import each other
in a loop, whether the imports sit at the top of a module, inside a function or under
``TYPE_CHECKING`` (an annotation is a dependency too). A package's ``__init__`` is its face: it
may gather its own modules.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from tests.conftest import ROOT

PACKAGE = ROOT / "middleware"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "names", "text", "numbers", "json_input", "segments", "cache", "collector", "lazy",
     "logs", "dice", "records", "scan", "parse"),
    ("rules",),
    ("state",),
    ("sheet",),
    ("items",),
    ("character",),
    ("resolve",),
    ("rewrite", "pipeline"),
    ("stores", "engine", "paths"),
    ("transcript", "gm_view", "display", "cli", "proxy", "bots"),
)
"""Bottom first: names and errors; the ruleset models; state; the sheet and item readers and the
character who holds both; the resolvers (market rules included); the per-reply pipeline; the
engine with its stores; the faces."""


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = _modules()


def _imported(module: str, path: Path) -> Iterator[str]:
    """Every ``middleware`` module ``module`` imports, wherever in the file the import stands."""
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, node, is_package)
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base
                     for a in node.names]
        else:
            continue
        for name in names:
            while name not in MODULES and "." in name:
                name = name.rsplit(".", 1)[0]
            if name in MODULES and name.startswith("middleware."):
                yield name


def _absolute(module: str, node: ast.ImportFrom, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[:len(base) - node.level + 1]
    return ".".join([*base, *([node.module] if node.module else [])])


def _layer(module: str) -> int:
    top = module.split(".")[1]
    for index, layer in enumerate(LAYERS):
        if top in layer:
            return index
    raise AssertionError(f"{module} is in no layer: add its package to LAYERS and the README")


GRAPH = {module: set(_imported(module, path)) - {module} for module, path in MODULES.items()}


def test_every_module_sits_in_a_layer() -> None:
    """A new top-level module or package must be given its layer (and its README line)."""
    assert [] == [m for m in MODULES if m != "middleware" and not _placed(m)]


def _placed(module: str) -> bool:
    return any(module.split(".")[1] in layer for layer in LAYERS)


def test_no_module_imports_a_layer_above_its_own() -> None:
    """Imports only go down the layers (or stay in their own)."""
    upward = [f"{a} -> {b}" for a, targets in GRAPH.items() if a != "middleware"
              for b in targets if _layer(b) > _layer(a)]
    assert [] == sorted(upward)


def test_no_modules_import_each_other_in_a_loop() -> None:
    """No cycle between modules, counting imports inside functions and under TYPE_CHECKING."""
    assert [] == _cycles(GRAPH)


def test_no_subpackages_import_each_other_in_a_loop() -> None:
    """Two packages of one layer may both be used by a third, but never by each other in turn."""
    packages: dict[str, set[str]] = {}
    for a, targets in GRAPH.items():
        for b in targets:
            pa, pb = _package(a), _package(b)
            if pa != pb and not pb.startswith(pa + ".") and not pa.startswith(pb + "."):
                packages.setdefault(pa, set()).add(pb)
    assert [] == _cycles(packages)


def _package(module: str) -> str:
    return module if MODULES[module].name == "__init__.py" else module.rsplit(".", 1)[0]


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.append(top)
                        if top == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph.get(child, ())))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def test_the_cycle_finder_finds_a_loop() -> None:
    """The finder itself: a loop of three is one component, a chain is none."""
    assert [["a", "b", "c"]] == _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})
    assert [] == _cycles({"a": {"b"}, "b": {"c"}})


def test_the_readme_lists_the_layers_in_this_order() -> None:
    """The README's architecture section names the same layers, bottom first."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Architecture", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| (\d+) \| ([^|]+) \|", section, flags=re.M)
    written = tuple(tuple(re.findall(r"`([a-z_]+)`", names)) for _, names in rows)
    assert LAYERS == written
