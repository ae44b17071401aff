"""A package whose public names are imported on first use (PEP 562), so importing the package
costs none of its modules: ``middleware`` and ``middleware.proxy`` are built this way.

Each such package lists its names twice: under ``TYPE_CHECKING`` (what mypy reads) and in a
table of name -> module (what runs); ``tests/api/test_public_surface.py`` holds the two equal.
"""

import importlib
import sys
import types
from collections.abc import Mapping


def lazy_package(name: str, sources: Mapping[str, str]) -> None:
    """Make package ``name`` import each of ``sources``' names from its module on first use
    (and keep it after); a submodule imported later never replaces a public name of its own
    name (Python sets each submodule on its package: ``middleware.parse`` would otherwise
    replace the function ``parse``)."""
    package = sys.modules[name]
    package.__class__ = _package_class(sources)


def _package_class(sources: Mapping[str, str]) -> type[types.ModuleType]:
    class LazyPackage(types.ModuleType):
        def __getattr__(self, name: str) -> object:
            source = sources.get(name)
            if source is None:
                raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
            value = getattr(importlib.import_module(source), name)
            self.__dict__[name] = value
            return value

        def __dir__(self) -> list[str]:
            return sorted({*self.__dict__, *sources})

        def __setattr__(self, name: str, value: object) -> None:
            if not (name in sources and isinstance(value, types.ModuleType)):
                super().__setattr__(name, value)

    return LazyPackage
