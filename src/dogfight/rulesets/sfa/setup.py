"""The SFA scenario schema and the first position of a battle."""

from __future__ import annotations

from typing import Annotated

import msgspec

from dogfight.core.data import convert
from dogfight.core.errors import DataError, UnknownName
from dogfight.core.limits import Rating
from dogfight.core.scenario import Scenario
from dogfight.geometry.hex import offset_to_hex
from dogfight.geometry.hexmap import HexMap, Terrain
from dogfight.rulesets.sfa.combat import OBSTACLE_COUNT, OBSTACLES
from dogfight.rulesets.sfa.craft import (
    DEFAULT_PILOT,
    STARSHIP,
    Craft,
    CraftSpec,
    Pilot,
    build_craft,
    find_craft,
    pilot_template,
)
from dogfight.rulesets.sfa.crew import crew_for
from dogfight.rulesets.sfa.person import (
    FighterSpec,
    build_fighter,
    fighter_pilot,
    find_fighter,
)
from dogfight.rulesets.sfa.state import CraftState, SfaState


class PilotSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A pilot or gunner written out in full."""

    name: str = "Pilot"
    dexterity: Rating = 3
    wits: Rating = 3
    piloting: Rating = 2
    gunnery: Rating = 1
    willpower: Rating = 5


class TerrainEntry(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Obstacles in one hex, `at: [column, row]`."""

    at: tuple[int, int]
    kind: str
    count: int | None = None
    """How many objects the hex holds, 1 to the seed's figure for the kind (asteroid 1,
    mine 5, debris and ring 20); left out, the seed's figure (SFA-OBS-1)."""


MAX_MAP_SIDE = 100
"""The most columns or rows a map may have: far beyond any table (the seed's battles fit
in 20 x 16), and small enough that every hex can be listed, searched and drawn."""

MapSide = Annotated[int, msgspec.Meta(ge=1, le=MAX_MAP_SIDE)]


class MapSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The hex map: columns x rows (1 to `MAX_MAP_SIDE` each), and its obstacles."""

    width: MapSide = 20
    height: MapSide = 16
    terrain: list[TerrainEntry] = msgspec.field(default_factory=list)


class CraftEntry(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One craft on a side: its design, hex `at: [column, row]` on the map, facing
    (0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW) and crew (templates or full sheets)."""

    type: str
    at: tuple[int, int]
    facing: int = 0
    id: str = ""
    pilot: str | PilotSpec | None = None
    """The pilot; left out, a `regular` one, or the craft's Artificial Intelligence on a
    design with no crew (SFA-TEC-02)."""
    gunners: list[str | PilotSpec] = msgspec.field(default_factory=list)


class FighterEntry(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One Street Fighter on a side: a sheet by id (`data/sfa/fighters/` or the
    scenario's `custom_fighters`) and a hex `at: [column, row]` (SFA-SF-1)."""

    type: str
    at: tuple[int, int]
    facing: int = 0
    id: str = ""


class SideSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One side: its craft and its Street Fighters."""

    name: str
    craft: list[CraftEntry] = msgspec.field(default_factory=list)
    fighters: list[FighterEntry] = msgspec.field(default_factory=list)


class SfaScenarioSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The whole scenario file for the `sfa` ruleset."""

    name: str
    ruleset: str
    sides: list[SideSpec]
    title: str = ""
    description: str = ""
    map: MapSpec = msgspec.field(default_factory=MapSpec)
    turn_limit: int = 10
    options: dict[str, bool | int | float | str] = msgspec.field(default_factory=dict)
    custom_craft: list[CraftSpec] = msgspec.field(default_factory=list)
    custom_units: list[CraftSpec] = msgspec.field(default_factory=list)
    unit_files: list[str] = msgspec.field(default_factory=list)
    custom_fighters: list[FighterSpec] = msgspec.field(default_factory=list)


def person(value: str | PilotSpec, where: str) -> Pilot:
    """A crew member from a template name (rookie, regular, veteran, ace) or in full."""
    if isinstance(value, str):
        try:
            return pilot_template(value)
        except (UnknownName, ValueError) as exc:
            raise DataError(f"{where}: {exc}") from None
    return Pilot(**msgspec.structs.asdict(value))


def build_state(scenario: Scenario) -> SfaState:
    """The initial state of a scenario; raises DataError naming the field."""
    where = scenario.where
    spec = convert(scenario.raw, SfaScenarioSpec, where)
    if len(spec.sides) != 2 or spec.sides[0].name == spec.sides[1].name:
        raise DataError(f"{where}: field 'sides': an sfa battle has two differently named sides")
    if spec.turn_limit < 1:
        raise DataError(f"{where}: field 'turn_limit': must be at least 1")
    custom: dict[str, Craft] = {}
    for i, cspec in enumerate([*spec.custom_craft, *spec.custom_units]):
        custom[cspec.id] = build_craft(cspec, f"{where}: custom craft [{i}]")
    people: dict[str, Craft] = {}
    for i, fspec in enumerate(spec.custom_fighters):
        people[fspec.id] = build_fighter(fspec, f"{where}: custom_fighters[{i}]")
    hexmap = HexMap(width=spec.map.width, height=spec.map.height)
    for i, spot in enumerate(spec.map.terrain):
        if spot.kind not in OBSTACLES:
            raise DataError(
                f"{where}: field 'map.terrain[{i}].kind': must be one of "
                f"{', '.join(OBSTACLES)}, not {spot.kind!r}"
            )
        place = offset_to_hex(*spot.at)
        if not hexmap.contains(place):
            raise DataError(f"{where}: field 'map.terrain[{i}].at': {spot.at} is off the map")
        if hexmap.terrain_at(place).kind != "open":
            raise DataError(
                f"{where}: field 'map.terrain[{i}].at': {spot.at} already has an obstacle "
                "(one kind per hex; give its number with 'count')"
            )
        most = OBSTACLE_COUNT[spot.kind]
        count = most if spot.count is None else spot.count
        if not 1 <= count <= most:
            raise DataError(
                f"{where}: field 'map.terrain[{i}].count': a hex holds 1 to {most} "
                f"{spot.kind} objects, not {count} (SFA-OBS-1)"
            )
        structure = OBSTACLES[spot.kind][0]
        hexmap = hexmap.with_terrain(place, Terrain(spot.kind, structure=structure, count=count))
    state = SfaState(
        turn=0,
        turn_limit=spec.turn_limit,
        map=hexmap,
        sides=(spec.sides[0].name, spec.sides[1].name),
        craft={},
        types={},
    )
    for si, side in enumerate(spec.sides):
        for ci, entry in enumerate(side.craft):
            field = f"sides[{si}].craft[{ci}]"
            try:
                ctype = find_craft(entry.type, custom)
            except UnknownName as exc:
                raise DataError(f"{where}: field '{field}.type': {exc}") from None
            state.types[ctype.id] = ctype
            cid = entry.id or f"{side.name[:3].upper()}-{ci + 1}"
            if cid in state.craft:
                raise DataError(f"{where}: field '{field}.id': duplicate craft id '{cid}'")
            at = offset_to_hex(*entry.at)
            if not hexmap.contains(at):
                raise DataError(f"{where}: field '{field}.at': {entry.at} is off the map")
            if state.occupant(at) is not None:
                raise DataError(f"{where}: field '{field}.at': another craft is in that hex")
            if not 0 <= entry.facing <= 5:
                raise DataError(f"{where}: field '{field}.facing': must be 0 to 5")
            named = (
                None
                if entry.pilot is None
                else person(entry.pilot, f"{where}: field '{field}.pilot'")
            )
            gunners = tuple(
                person(g, f"{where}: field '{field}.gunners[{gi}]'")
                for gi, g in enumerate(entry.gunners)
            )
            if not gunners and ctype.gunners_needed():
                spare = max(0, ctype.crew - 1)
                gunners = (DEFAULT_PILOT,) * min(spare, ctype.gunners_needed())
            pilot, gunners = crew_for(ctype, named, gunners, DEFAULT_PILOT)
            state.craft[cid] = CraftState(
                id=cid,
                type=ctype.id,
                side=side.name,
                hex=at,
                facing=entry.facing,
                structure=ctype.structure,
                power=ctype.power,
                pilot=pilot,
                gunners=gunners,
                willpower=pilot.willpower,
                origin_type=ctype.id,
            )
            state.start_structure[cid] = ctype.structure
            state.owner[cid] = side.name
    if not any(side.craft for side in spec.sides):
        state.map_scale = 0  # only people: a Street Fighter-scale map (SFA-SF-3)
    for si, side in enumerate(spec.sides):
        for fi, fentry in enumerate(side.fighters):
            place_fighter(state, people, fentry, side.name, f"sides[{si}].fighters[{fi}]", where)
        if not side.craft and not side.fighters:
            raise DataError(f"{where}: field 'sides[{si}]': a side needs a craft or a fighter")
    scales = {t.scale for t in state.types.values()}
    state.mixed_time = max(scales) >= STARSHIP and min(scales) < STARSHIP
    return state


def place_fighter(
    state: SfaState,
    people: dict[str, Craft],
    entry: FighterEntry,
    side: str,
    field: str,
    where: str,
) -> None:
    """Put one Street Fighter on the map as a scale-0 unit (SFA-SF-1)."""
    try:
        design = find_fighter(entry.type, people)
    except UnknownName as exc:
        raise DataError(f"{where}: field '{field}.type': {exc}") from None
    state.types[design.id] = design
    index = sum(1 for c in state.craft.values() if c.side == side and state.is_person(c))
    uid = entry.id or f"{side[:3].upper()}-F{index + 1}"
    if uid in state.craft:
        raise DataError(f"{where}: field '{field}.id': duplicate id '{uid}'")
    at = offset_to_hex(*entry.at)
    if not state.map.contains(at):
        raise DataError(f"{where}: field '{field}.at': {entry.at} is off the map")
    if state.map_scale == 0 and state.occupant(at) is not None:
        raise DataError(f"{where}: field '{field}.at': someone else is in that hex")
    if not 0 <= entry.facing <= 5:
        raise DataError(f"{where}: field '{field}.facing': must be 0 to 5")
    pilot = fighter_pilot(design)
    state.craft[uid] = CraftState(
        id=uid,
        type=design.id,
        side=side,
        hex=at,
        facing=entry.facing,
        structure=design.structure,
        power=0,
        pilot=pilot,
        willpower=pilot.willpower,
        origin_type=design.id,
    )
    state.start_structure[uid] = design.structure
    state.owner[uid] = side
