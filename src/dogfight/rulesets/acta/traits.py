"""ACTA traits: parsing the many spellings in the seed into one canonical form.

The seed writes "Devestating+1", "Fighter -Killer", "Fighter Killer",
"Accurate+1" and "Accurate +1"; all of them mean the same as the canonical
names below (clause ACTA-TRT-1).
"""

from __future__ import annotations

import re

import msgspec


class Trait(msgspec.Struct, frozen=True, array_like=True):
    """A parsed trait: canonical name and its number, if it takes one."""

    name: str
    value: int | None = None

    def label(self) -> str:
        """How the trait is written in our docs: 'Dodge 5+', 'Accurate +1', 'Precise'."""
        if self.value is None:
            return self.name
        if self.name in ("Dodge",):
            return f"{self.name} {self.value}+"
        if self.name in ("Accurate", "Devastating"):
            return f"{self.name} +{self.value}"
        return f"{self.name} {self.value}"


# canonical name -> how its number is written: None (no number), "plus" (+X),
# "target" (X+) or "count" (X)
KNOWN_TRAITS: dict[str, str | None] = {
    "Accurate": "plus",
    "Precise": None,
    "Devastating": "plus",
    "Multihit": "count",
    "Seeking": None,
    "Weak": None,
    "Dodge": "target",
    "Fighter": None,
    "Fighter-Killer": None,
    "SM": None,
    # ship traits used by the B5 resolution and by our own ship designs
    "Interceptors": "count",
    "Anti-Fighter": "count",
    "Command": "count",
    "Carrier": "count",
    # ACTA:SF phasers: Multihit 2 within X inches (ACTA-TRT-9)
    "Kill Zone": "count",
}

# lower-case squashed spelling -> canonical name
_SPELLINGS = {
    "accurate": "Accurate",
    "precise": "Precise",
    "devastating": "Devastating",
    "devestating": "Devastating",
    "multihit": "Multihit",
    "multi-hit": "Multihit",
    "seeking": "Seeking",
    "weak": "Weak",
    "dodge": "Dodge",
    "fighter": "Fighter",
    "fighter-killer": "Fighter-Killer",
    "fighterkiller": "Fighter-Killer",
    "sm": "SM",
    "super-manoeuvrable": "SM",
    "super-maneuverable": "SM",
    "interceptors": "Interceptors",
    "interceptor": "Interceptors",
    "anti-fighter": "Anti-Fighter",
    "antifighter": "Anti-Fighter",
    "command": "Command",
    "carrier": "Carrier",
    "killzone": "Kill Zone",
    "kill-zone": "Kill Zone",
}

_TRAIT = re.compile(r"^\s*(?P<name>[A-Za-z][A-Za-z\- ]*?)\s*(?P<num>[+-]?\s*\d+\s*\+?)?\s*$")


class TraitError(ValueError):
    """A trait text that is not a known trait, or has a bad number."""


def parse_trait(text: str) -> Trait:
    """Parse one trait as written in the seed or in our data files.

    >>> parse_trait("Devestating+1")
    Trait(name='Devastating', value=1)
    >>> parse_trait("Fighter -Killer")
    Trait(name='Fighter-Killer', value=None)
    >>> parse_trait("Dodge 5+")
    Trait(name='Dodge', value=5)
    """
    match = _TRAIT.match(text)
    if not match:
        raise TraitError(f"cannot read trait {text!r}")
    squashed = re.sub(r"\s*-\s*", "-", match.group("name").strip().lower())
    squashed = re.sub(r"\s+", "-" if squashed.startswith("fighter") else "", squashed)
    name = _SPELLINGS.get(squashed)
    if name is None:
        known = ", ".join(KNOWN_TRAITS)
        raise TraitError(f"unknown trait {text.strip()!r}; known traits: {known}")
    num = match.group("num")
    form = KNOWN_TRAITS[name]
    if form is None:
        if num:
            raise TraitError(f"trait {name} takes no number (got {text.strip()!r})")
        return Trait(name)
    if not num:
        if name == "Accurate":
            # Unnumbered Accurate is the B5 form; in SF it is read as Accurate +1.
            return Trait(name, 1)
        raise TraitError(f"trait {name} needs a number (got {text.strip()!r})")
    value = int(re.sub(r"[^\d-]", "", num.replace("+", "")))
    if form == "target" and not 2 <= value <= 6:
        raise TraitError(f"trait {name} needs a target of 2+ to 6+ (got {text.strip()!r})")
    return Trait(name, value)


def parse_traits(texts: tuple[str, ...] | list[str]) -> tuple[Trait, ...]:
    """Parse a list of traits (see `parse_trait`)."""
    return tuple(parse_trait(t) for t in texts)


def trait_value(traits: tuple[Trait, ...], name: str) -> int | None:
    """The number of the named trait, or None if absent (0 if present without a number)."""
    for trait in traits:
        if trait.name == name:
            return trait.value if trait.value is not None else 0
    return None


def has_trait(traits: tuple[Trait, ...], name: str) -> bool:
    """True if the named trait is present."""
    return any(t.name == name for t in traits)
