"""A package whose public names are imported on first use (PEP 562), so importing the package
costs none of its modules: ``middleware`` and ``middleware.proxy`` are built this way.

Each such package lists its names twice: under ``TYPE_CHECKING`` (what mypy reads) and in a
table of name -> module (what runs); ``tests/api/test_public_surface.py`` holds the two equal.

A process that serves (``serve``, the ready bots) undoes the laziness before its first request
(``ready_to_serve``): what spares a command's start would otherwise fall on the first player's
turn.
"""

import importlib
import sys
import types
from collections.abc import Mapping
from typing import TypeVar

T = TypeVar("T")


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


def ready_to_serve() -> None:
    """Once a serving process has built what it serves with (the app or the bot, the ruleset):
    what a turn loads on first use loaded now, so the first player waits no longer than the next
    (through ``serve``, a first turn's first byte 28 ms where the next took 3 ms, measured), then
    all of it frozen out of the collector's walks. Not the bots' and the CLI's modules (each
    bot's framework is an extra, and its own modules are imported by then), nor the ruleset's
    models: reading it built its validator, which holds them all; each nested model's own would
    take 11 MB more, for the turn that invents an item."""
    from middleware.collector import settle_for_serving

    load_everything("middleware", skip=("middleware.bots", "middleware.cli"),
                    unbuilt=("middleware.rules",))
    settle_for_serving()


def load_everything(package: str, skip: tuple[str, ...] = (), unbuilt: tuple[str, ...] = ()
                    ) -> None:
    """For a process that serves from now on: every module of ``package`` imported (but those
    under ``skip``, not even looked into), and every model of theirs whose validator waits for
    its first use (pydantic's ``defer_build``) built (but those of modules under ``unbuilt``), so
    a request pays for neither. Through ``serve``, a first turn's first byte came 28 ms after its
    request where the next's came after 3 ms: the state's and the records' models built, a module
    of the GM's view imported."""
    from pydantic import BaseModel  # here: ``import middleware`` loads this module, and no more

    _import_all(package, skip)
    for model in _subclasses(BaseModel):
        if model.__module__.startswith(f"{package}.") and not model.__pydantic_complete__ \
                and not model.__module__.startswith(unbuilt):
            model.model_rebuild()


def _import_all(package: str, skip: tuple[str, ...]) -> None:
    import pkgutil

    for module in pkgutil.iter_modules(importlib.import_module(package).__path__, f"{package}."):
        if module.name.startswith(skip):
            continue
        if module.ispkg:
            _import_all(module.name, skip)
        else:
            importlib.import_module(module.name)


def _subclasses(base: type[T]) -> list[type[T]]:
    """Every subclass of ``base``, at any depth."""
    found: list[type[T]] = []
    todo = list(base.__subclasses__())
    while todo:
        model = todo.pop()
        found.append(model)
        todo += model.__subclasses__()
    return found
