"""The registry of rulesets, found by name or alias."""

from __future__ import annotations

import importlib
import threading
from importlib.metadata import entry_points

from dogfight.core.errors import UnknownName
from dogfight.core.ruleset import Ruleset

_RULESETS: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    """Add a ruleset under its name and aliases."""
    for key in (ruleset.name, *ruleset.aliases):
        _RULESETS[key.lower()] = ruleset
    return ruleset


ENTRY_POINT_GROUP = "dogfight.rulesets"
_loaded = False
_load_lock = threading.Lock()


def _load_builtin() -> None:
    """Register every ruleset advertised under the `dogfight.rulesets` entry point.

    The core names no ruleset in its imports (layers import downwards only); the
    rulesets are plugins. Running from a source tree that was never installed has
    no entry points, so the built-in package is then imported by name.
    """
    global _loaded
    if _loaded:
        return
    # A server's first requests arrive on several threads at once: only one loads, and
    # the others wait until every ruleset is registered (not merely until loading began).
    with _load_lock:
        if _loaded:
            return
        found = entry_points(group=ENTRY_POINT_GROUP)
        for point in found:
            cls = point.load()
            if cls.name not in _RULESETS:
                register(cls())
        if not found:
            importlib.import_module("dogfight.rulesets")
        _loaded = True


def find_ruleset(name: str) -> Ruleset:
    """The ruleset called `name` (or an alias of it)."""
    _load_builtin()
    try:
        return _RULESETS[name.lower()]
    except KeyError:
        raise UnknownName(
            f"no ruleset '{name}'; known rulesets: {', '.join(r.name for r in all_rulesets())}"
        ) from None


def all_rulesets() -> list[Ruleset]:
    """Every registered ruleset, once each, by name."""
    _load_builtin()
    unique = {r.name: r for r in _RULESETS.values()}
    return [unique[k] for k in sorted(unique)]
