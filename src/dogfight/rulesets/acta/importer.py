"""Import craft written in the seed's stat-line text format into unit data.

The seed (000) lists its sample fighters as plain text, one craft after another::

    Zaresh Superiority Fighter (Z1)
    The primary production fighter of the Klingon empire, ...
    Speed: 10, Turn: SM, Dogfight: +1, Damage: 1, Traits: Dodge 5+, Fighter
    ISD: 169+
    Phaser-3F 2" 1 Precise
    Drone 6" 1 Seeking, Devastating +1, (*)

This module turns such text into plain dicts shaped like `units.UnitSpec`, and
writes them as YAML files for `data/acta/units/`. Anything that is not part of a
craft (the rules prose around the sample craft, footnotes) is skipped; a line that
looks like a stat line or a weapon line but cannot be read is an error naming the
file and line.

The seed's sample fighters in `data/acta/units/` were generated with::

    dogfight import acta ../shared/seeds/000_713b90d668744347.txt \\
        --out src/dogfight/data/acta/units --origin seed \\
        --source "seed 000 (ACTA:SF fighter rules post)" \\
        --fleet-of hornet,dragonfly,wasp,hummingbird=Empire \\
        --fleet-of zketh,zaresh,zul=Klingon --overwrite
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from dogfight.core.data import convert
from dogfight.core.errors import DataError
from dogfight.core.files import write_atomic
from dogfight.rulesets.acta.traits import TraitError, parse_trait
from dogfight.rulesets.acta.units import ARCS, UnitSpec, build_unit

ORIGINS = ("seed", "original")

_STAT_FIELDS = ("speed", "turn", "dogfight", "damage", "traits")
_REQUIRED_STATS = ("speed", "turn", "dogfight", "damage")

# A line is taken for a stat line when it names at least two stat fields, so that
# "Turn: SM, Dogfight: 0, ..." with Speed missing is still reported, not skipped.
_STAT_KEY = re.compile(r"\b(speed|turn|dogfight|damage|traits)\s*:", re.IGNORECASE)

# "Name words (DESIGNATION)": the designation is short and has a letter or digit,
# so that prose ending in a long parenthesised remark, or a weapon line ending in
# the (*) mark, is not mistaken for a title.
_TITLE = re.compile(
    r"^(?P<name>[^\s(].*?)\s*\((?=[^()]*[A-Za-z0-9])(?P<designation>[^()]{1,12})\)$"
)

_ISD = re.compile(r"^ISD\b\s*:?\s*(?P<value>.*)$", re.IGNORECASE)
_ISD_VALUE = re.compile(r"^(?P<year>\d+)\s*\+?$")

_INCH = r"(?:[\"”″]|in\b)"

# A weapon line: NAME RANGE" [ARC] AD [TRAITS, ...]. The inch mark is optional
# here so that a line missing only that is still read.
_WEAPON = re.compile(
    r"^(?P<name>\S+(?:\s+\S+)*?)\s+(?P<range>\d+(?:\.\d+)?)\s*" + _INCH + r"?"
    r"\s+(?:(?P<arc>[A-Za-z]{1,2})\s+)?(?P<ad>\d+)(?:\s*,?\s+(?P<traits>.*?))?\s*$"
)

# Lines that are meant as weapon lines, even if malformed: a short name followed by
# a range with an inch mark, or by a range, an arc code and a number. Prose such
# as "Up to 4 fighters may ..." matches neither.
_WEAPON_LIKE = re.compile(
    r"^[^\s(]\S*(?:\s+\S+){0,3}?\s+\d+(?:\.\d+)?\s*(?:"
    + _INCH
    + r"|\s+(?:"
    + "|".join(ARCS)
    + r")\s+\d+\b)"
)

_DRONE_MARK = "(*)"


def _fail(where: str, line: int, message: str) -> DataError:
    return DataError(f"{where}:{line}: {message}")


def _number(text: str) -> int | float:
    """An int when the value is whole, so that YAML shows `8`, not `8.0`."""
    value = float(text)
    return int(value) if value.is_integer() else value


def craft_id(name: str) -> str:
    """The unit id for a craft name: a lower-case ASCII slug.

    A name that starts with a non-ASCII word followed by an English gloss in
    parentheses ("Mǎfēng (Hornet) Assault Fighter") takes the gloss ("hornet");
    any other name takes its first word, with accents folded and apostrophes
    dropped ("Z'keth Assault Fighter" gives "zketh").
    """
    gloss = re.match(r"^(\S+)\s+\(([^()]+)\)", name)
    if gloss and not gloss.group(1).isascii():
        word = gloss.group(2)
    else:
        word = name.split()[0] if name.split() else ""
    folded = unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode("ascii")
    folded = re.sub(r"['’`]", "", folded).lower()
    return re.sub(r"[^a-z0-9]+", "-", folded).strip("-")


def _parse_traits(text: str, where: str, line: int) -> tuple[list[str], bool]:
    """Canonical trait labels from a comma list, and whether it had the (*) mark."""
    labels: list[str] = []
    drones = False
    for part in text.split(","):
        item = part.strip()
        if not item:
            # the seed leaves trailing commas ("Weak,"): they mean nothing
            continue
        if item == _DRONE_MARK:
            drones = True
            continue
        try:
            labels.append(parse_trait(item).label())
        except TraitError as exc:
            raise _fail(where, line, str(exc)) from None
    return labels, drones


def _parse_stat_line(text: str, where: str, line: int) -> dict[str, Any]:
    """Speed, turn, dogfight, damage and traits from a stat line."""
    # Everything after "Traits:" is the trait list, which has commas of its own.
    head, sep, trait_text = _split_traits(text)
    values: dict[str, str] = {}
    for part in head.split(","):
        item = part.strip()
        if not item:
            continue
        key, colon, value = item.partition(":")
        key = key.strip().lower()
        if not colon:
            raise _fail(where, line, f"stat line: cannot read {item!r} (expected 'Name: value')")
        if key not in _STAT_FIELDS:
            known = ", ".join(f.capitalize() for f in _STAT_FIELDS)
            raise _fail(where, line, f"stat line: unknown field {key!r}; known fields: {known}")
        if key in values:
            raise _fail(where, line, f"stat line: field {key.capitalize()!r} given twice")
        values[key] = value.strip()
    for key in _REQUIRED_STATS:
        if key not in values:
            raise _fail(where, line, f"stat line: field {key.capitalize()!r} missing")
        if not values[key]:
            raise _fail(where, line, f"stat line: field {key.capitalize()!r} has no value")

    stats: dict[str, Any] = {}
    if not re.fullmatch(r"\d+(?:\.\d+)?", values["speed"]):
        raise _fail(where, line, f"stat line: Speed must be a number, not {values['speed']!r}")
    stats["speed"] = _number(values["speed"])
    turn = values["turn"]
    if turn.upper() == "SM":
        stats["turn"] = "SM"
    elif turn.isdigit():
        stats["turn"] = int(turn)
    else:
        raise _fail(where, line, f"stat line: Turn must be SM or a number, not {turn!r}")
    if not re.fullmatch(r"[+-]?\d+", values["dogfight"]):
        raise _fail(
            where, line, f"stat line: Dogfight must be a whole number, not {values['dogfight']!r}"
        )
    stats["dogfight"] = int(values["dogfight"])
    if not values["damage"].isdigit() or int(values["damage"]) < 1:
        raise _fail(
            where,
            line,
            f"stat line: Damage must be a whole number of at least 1, not {values['damage']!r}",
        )
    stats["damage"] = int(values["damage"])
    traits, drones = _parse_traits(trait_text, where, line) if sep else ([], False)
    if drones:
        raise _fail(where, line, "stat line: the (*) mark belongs on a weapon line")
    stats["traits"] = traits
    return stats


def _split_traits(text: str) -> tuple[str, str, str]:
    """Split a stat line at 'Traits:' into (head, separator, trait list)."""
    match = re.search(r"\btraits\s*:", text, flags=re.IGNORECASE)
    if match is None:
        return text, "", ""
    return text[: match.start()], match.group(0), text[match.end() :]


def _parse_weapon(text: str, where: str, line: int) -> dict[str, Any]:
    """One weapon line as a `WeaponSpec`-shaped dict."""
    match = _WEAPON.match(text)
    if match is None:
        raise _fail(
            where,
            line,
            f"weapon line: cannot read {text!r} "
            "(expected NAME RANGE\" [ARC] AD [TRAITS], e.g. 'Phaser-3F 2\" T 1 Precise')",
        )
    arc = match.group("arc")
    if arc is not None:
        arc = arc.upper()
        if arc not in ARCS:
            raise _fail(
                where, line, f"weapon line: unknown arc {arc!r}; arcs are {', '.join(ARCS)}"
            )
    ad = int(match.group("ad"))
    if ad < 1:
        raise _fail(where, line, "weapon line: AD must be at least 1")
    traits, drones = _parse_traits(match.group("traits") or "", where, line)
    return {
        "name": match.group("name"),
        "range": _number(match.group("range")),
        "arc": arc,
        "ad": ad,
        "traits": traits,
        "dogfight_drones": drones,
    }


def _is_stat_line(text: str) -> bool:
    return len({m.lower() for m in _STAT_KEY.findall(text)}) >= 2


def parse_craft_text(
    text: str,
    where: str,
    *,
    fleet: str = "Unknown",
    origin: str = "original",
    source: str = "",
    fleets: Mapping[str, str] | None = None,
) -> list[dict[str, Any]]:
    """Read every craft in stat-line text; return one `UnitSpec`-shaped dict per craft.

    `where` names the text in error messages (usually the file path). Every craft
    gets `fleet`, except those whose id is a key of `fleets`, which get the mapped
    fleet; `origin` ('seed' or 'original') and `source` are copied into each unit.
    A craft that appears twice with the same stats is kept once (the seed repeats
    its whole text). Raises `DataError` naming the line for anything malformed, for
    a craft repeated with different stats, for a `fleets` key naming no craft, and
    when the text holds no craft at all.
    """
    if origin not in ORIGINS:
        raise DataError(f"{where}: origin must be one of {', '.join(ORIGINS)}, not {origin!r}")
    lines = [ln.strip() for ln in text.splitlines()]
    units: dict[str, dict[str, Any]] = {}
    first_line: dict[str, int] = {}
    consumed = 0  # lines before this index belong to an earlier craft
    i = 0
    while i < len(lines):
        if not _is_stat_line(lines[i]):
            i += 1
            continue
        stat_index = i
        # The title is the nearest title-shaped line above the stat line; the lines
        # between are the description. Searching upwards skips any prose before it.
        title_index = next(
            (j for j in range(stat_index - 1, consumed - 1, -1) if _TITLE.match(lines[j])),
            None,
        )
        if title_index is None:
            raise _fail(
                where,
                stat_index + 1,
                "stat line without a title line above it "
                "(expected e.g. 'Zaresh Superiority Fighter (Z1)')",
            )
        title = _TITLE.match(lines[title_index])
        assert title is not None  # matched just above
        name = title.group("name").strip()
        description = " ".join(ln for ln in lines[title_index + 1 : stat_index] if ln)
        stats = _parse_stat_line(lines[stat_index], where, stat_index + 1)

        isd: int | None = None
        weapons: list[dict[str, Any]] = []
        i = stat_index + 1
        while True:
            # Blank lines inside a craft are allowed; peek past them.
            j = i
            while j < len(lines) and not lines[j]:
                j += 1
            if j >= len(lines):
                break
            isd_match = _ISD.match(lines[j])
            if isd_match and isd is None and not weapons:
                year = _ISD_VALUE.match(isd_match.group("value").strip())
                if year is None:
                    raise _fail(
                        where,
                        j + 1,
                        f"ISD line: expected a year such as 'ISD: 176+', not {lines[j]!r}",
                    )
                isd = int(year.group("year"))
            elif _WEAPON_LIKE.match(lines[j]):
                weapons.append(_parse_weapon(lines[j], where, j + 1))
            else:
                break
            i = j + 1
        consumed = i

        unit_id = craft_id(name)
        if not unit_id:
            raise _fail(where, title_index + 1, f"cannot make an id from the name {name!r}")
        kind = "fighter" if "Fighter" in stats["traits"] else "ship"
        unit: dict[str, Any] = {
            "id": unit_id,
            "name": name,
            "designation": title.group("designation").strip(),
            "kind": kind,
            "fleet": (fleets or {}).get(unit_id, fleet),
            "origin": origin,
            "source": source,
            "description": description,
            "isd": isd,
            # the stat-line format has no points cost
            "points": None,
            **stats,
            "weapons": weapons,
        }
        # Check it the way the catalog will, so the importer never writes a unit
        # that fails to load.
        place = f"{where}:{title_index + 1}"
        build_unit(convert(unit, UnitSpec, place), place)

        if unit_id in units:
            if units[unit_id] != unit:
                raise _fail(
                    where,
                    title_index + 1,
                    f"craft '{unit_id}' appears again with different stats "
                    f"(first at line {first_line[unit_id]})",
                )
            continue
        units[unit_id] = unit
        first_line[unit_id] = title_index + 1

    if not units:
        raise DataError(
            f"{where}: no craft found (each craft needs a title line such as "
            "'Zaresh Superiority Fighter (Z1)' and a stat line such as "
            "'Speed: 10, Turn: SM, Dogfight: +1, Damage: 1, Traits: Dodge 5+, Fighter')"
        )
    unknown = sorted(set(fleets or {}) - set(units))
    if unknown:
        raise DataError(
            f"{where}: fleet given for craft not in the text: {', '.join(unknown)}; "
            f"craft found: {', '.join(units)}"
        )
    return list(units.values())


class _Dumper(yaml.SafeDumper):
    """Block style, except lists of plain values (traits) which read better inline."""


def _represent_list(dumper: yaml.SafeDumper, data: list[Any]) -> yaml.Node:
    flow = all(isinstance(x, str | int | float | bool) or x is None for x in data)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


_Dumper.add_representer(list, _represent_list)


def to_yaml(unit: Mapping[str, Any], *, header: str = "") -> str:
    """A unit dict as YAML text, keys in the given order, with `header` as # comments."""
    body = yaml.dump(
        dict(unit),
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=88,
    )
    comment = "".join(f"# {ln}".rstrip() + "\n" for ln in header.splitlines())
    return comment + body


def import_file(
    path: Path | str,
    out_dir: Path | str,
    *,
    fleet: str = "Unknown",
    origin: str = "original",
    source: str | None = None,
    fleets: Mapping[str, str] | None = None,
    overwrite: bool = False,
) -> list[Path]:
    """Import every craft of a stat-line text file into `<out_dir>/<id>.yaml` files.

    `fleet`, `fleets` and `origin` are as in `parse_craft_text`; `source` defaults
    to "imported from <file name>". Nothing is written if any craft is malformed,
    or if a target file exists and `overwrite` is false. Returns the paths written.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"{path}: cannot read ({exc.__class__.__name__}: {exc})") from None
    return import_text(
        text,
        str(path),
        path.name,
        out_dir,
        fleet=fleet,
        origin=origin,
        source=source,
        fleets=fleets,
        overwrite=overwrite,
    )


def import_text(
    text: str,
    where: str,
    name: str,
    out_dir: Path | str,
    *,
    fleet: str = "Unknown",
    origin: str = "original",
    source: str | None = None,
    fleets: Mapping[str, str] | None = None,
    overwrite: bool = False,
) -> list[Path]:
    """`import_file` of text already read (standard input, for `import acta -`): `where`
    names it in errors, `name` in the written files' header and default `source`."""
    out = Path(out_dir)
    units = parse_craft_text(
        text,
        where,
        fleet=fleet,
        origin=origin,
        source=f"imported from {name}" if source is None else source,
        fleets=fleets,
    )
    targets = [out / f"{unit['id']}.yaml" for unit in units]
    if not overwrite:
        existing = [str(t) for t in targets if t.exists()]
        if existing:
            raise DataError(
                f"{where}: not overwriting existing unit files: {', '.join(existing)} "
                "(pass --overwrite to replace them)"
            )
    out.mkdir(parents=True, exist_ok=True)
    # The header names only the file, not its folder, so the output is the same
    # wherever the seed is checked out (a test compares it with the data files).
    header = f"Generated by dogfight.rulesets.acta.importer from {name}."
    if origin == "seed":
        header += "\nDo not edit by hand: re-run the importer (tests check the two agree)."
    for unit, target in zip(units, targets, strict=True):
        write_atomic(target, to_yaml(unit, header=header))
    return targets


def fleet_map(items: Sequence[str]) -> dict[str, str]:
    """'id1,id2=Fleet' arguments as {id: fleet}."""
    mapping: dict[str, str] = {}
    for item in items:
        ids, sep, fleet = item.partition("=")
        if not sep or not fleet.strip() or not ids.strip():
            raise DataError(f"--fleet-of takes IDS=FLEET (e.g. zul,zaresh=Klingon), not {item!r}")
        for unit_id in ids.split(","):
            if unit_id.strip():
                mapping[unit_id.strip()] = fleet.strip()
    return mapping
