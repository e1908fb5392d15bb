"""The registry of rulesets, found by name or alias."""

from __future__ import annotations

from dogfight.core.errors import UnknownName
from dogfight.core.ruleset import Ruleset

_RULESETS: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    """Add a ruleset under its name and aliases."""
    for key in (ruleset.name, *ruleset.aliases):
        _RULESETS[key.lower()] = ruleset
    return ruleset


def _load_builtin() -> None:
    # Importing the package registers the built-in rulesets.
    import dogfight.rulesets  # noqa: F401


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
