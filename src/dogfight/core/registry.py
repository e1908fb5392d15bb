"""The registry of rulesets, found by name or alias.

Rulesets are plugins: each is advertised under the `dogfight.rulesets` entry-point
group (the built-in ones in this package's pyproject, a ruleset of another package in
that package's), and registered the first time anyone looks one up.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import threading
from typing import Any

from dogfight.core.errors import DogfightError, UnknownName
from dogfight.core.names import suggest
from dogfight.core.ruleset import Ruleset

_RULESETS: dict[str, Ruleset[Any, Any]] = {}


def register(ruleset: Ruleset[Any, Any]) -> Ruleset[Any, Any]:
    """Add a ruleset under its name and aliases (a later one of the same name replaces
    the earlier)."""
    for key in (ruleset.name, *ruleset.aliases):
        _RULESETS[key.lower()] = ruleset
    return ruleset


def unregister(name: str) -> None:
    """Remove the ruleset called `name` with its aliases (tests, a plugin's own tools)."""
    ruleset = _RULESETS.get(name.lower())
    if ruleset is None:
        return
    for key in (ruleset.name, *ruleset.aliases):
        if _RULESETS.get(key.lower()) is ruleset:
            del _RULESETS[key.lower()]


ENTRY_POINT_GROUP = "dogfight.rulesets"
BUILTIN_PACKAGE = "dogfight.rulesets"
"""The package of the rulesets shipped with dogfight; importing it registers them."""
_loaded = False
_load_lock = threading.Lock()


def _plugin(point: importlib.metadata.EntryPoint) -> Ruleset[Any, Any]:
    """The ruleset an entry point names (a Ruleset subclass, or an instance of one)."""
    try:
        found = point.load()
    except Exception as exc:  # anything a broken plugin raises: say which one it is
        raise DogfightError(
            f"ruleset plugin '{point.name}' ({point.value}) cannot be loaded: {exc}"
        ) from None
    if isinstance(found, type) and issubclass(found, Ruleset):
        return found()
    if isinstance(found, Ruleset):
        return found
    raise DogfightError(f"ruleset plugin '{point.name}' ({point.value}) is not a Ruleset subclass")


def _load_builtin() -> None:
    """Register every ruleset advertised under the `dogfight.rulesets` entry point.

    The core names no ruleset in its imports (layers import downwards only); the
    rulesets are plugins. Running from a source tree that was never installed has no
    entry points of its own, so the built-in package is then imported by name (other
    packages' plugins still load).
    """
    global _loaded
    if _loaded:
        return
    # A server's first requests arrive on several threads at once: only one loads, and
    # the others wait until every ruleset is registered (not merely until loading began).
    with _load_lock:
        if _loaded:
            return
        found = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
        for point in found:
            if point.name.lower() in _RULESETS:
                continue  # registered already (by import, or by a test)
            ruleset = _plugin(point)
            if ruleset.name.lower() not in _RULESETS:
                register(ruleset)
        if not any(p.value.startswith(BUILTIN_PACKAGE + ".") for p in found):
            importlib.import_module(BUILTIN_PACKAGE)
        _loaded = True


def find_ruleset(name: str) -> Ruleset[Any, Any]:
    """The ruleset called `name` (or an alias of it)."""
    _load_builtin()
    try:
        return _RULESETS[name.lower()]
    except KeyError:
        known = [r.name for r in all_rulesets()]
        hint = suggest(name, known)
        listed = ", ".join(known)
        raise UnknownName(f"no ruleset '{name}'{hint}; known rulesets: {listed}") from None


def all_rulesets() -> list[Ruleset[Any, Any]]:
    """Every registered ruleset, once each, by name."""
    _load_builtin()
    unique = {r.name: r for r in _RULESETS.values()}
    return [unique[k] for k in sorted(unique)]
