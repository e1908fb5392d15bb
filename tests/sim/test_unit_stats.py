"""Unit rosters and per-unit statistics: who was fielded, lost, and destroyed by whom.

States are changed by hand through each ruleset's own damage code (so that the rules'
bookkeeping is what is tested), then the roster and the battle result are checked
against what was done. Played battles are checked against their event logs.
"""

from __future__ import annotations

import pytest

from dogfight.core import EventLog, Game, load_scenario
from dogfight.core.ruleset import UnitRecord
from dogfight.dice import seeded
from dogfight.rulesets.acta import actions as acta_actions
from dogfight.rulesets.acta import combat as acta_combat
from dogfight.rulesets.acta.context import Ctx as ActaCtx
from dogfight.rulesets.evo.context import Ctx as EvoCtx
from dogfight.rulesets.evo.movement import remove as evo_remove
from dogfight.rulesets.sfa.combat import damage_craft
from dogfight.rulesets.sfa.context import Ctx as SfaCtx
from dogfight.sim import BattleResult, UnitStats, play_battle, result_of
from dogfight.sim.runner import unit_stats


def _log(game: Game) -> EventLog:
    return EventLog(seeded(0))


def _records(game: Game) -> dict[str, UnitRecord]:
    return {r.id: r for r in game.ruleset.roster(game.state)}


def _units(result: BattleResult) -> dict[tuple[str, str], UnitStats]:
    return {(u.side, u.type): u for u in result.units}


# ---- unit_stats on a hand-made roster ----------------------------------------------------


def test_unit_stats_counts_kills_losses_and_damage() -> None:
    roster = [
        UnitRecord(id="a1", side="A", type="wasp", strength=2, remaining=2),
        UnitRecord(
            id="a2",
            side="A",
            type="wasp",
            strength=2,
            remaining=0,
            destroyed=True,
            destroyed_by="b1",
        ),
        UnitRecord(id="a3", side="A", type="mantis", strength=8, remaining=5),
        UnitRecord(id="b1", side="B", type="zul", strength=2, remaining=1),
        UnitRecord(
            id="b2",
            side="B",
            type="zul",
            strength=2,
            remaining=0,
            destroyed=True,
            destroyed_by="a1",
        ),
        UnitRecord(
            id="b3",
            side="B",
            type="zaresh",
            strength=1,
            remaining=0,
            destroyed=True,
            destroyed_by="a3",
        ),
        # Friendly fire: a loss for B, a kill for nobody.
        UnitRecord(
            id="b4",
            side="B",
            type="zaresh",
            strength=1,
            remaining=0,
            destroyed=True,
            destroyed_by="b1",
        ),
        # Destroyed by nobody known (a natural 1 on defensive fire): a loss only.
        UnitRecord(id="b5", side="B", type="zaresh", strength=1, remaining=0, destroyed=True),
        # Left the table: strength taken, not lost.
        UnitRecord(id="b6", side="B", type="zaresh", strength=1, remaining=0),
    ]
    stats = unit_stats(roster, ["A", "B"])
    assert [(u.side, u.type) for u in stats] == [
        ("A", "mantis"),
        ("A", "wasp"),
        ("B", "zaresh"),
        ("B", "zul"),
    ]
    by = {(u.side, u.type): u for u in stats}
    assert by["A", "wasp"] == UnitStats(
        side="A", type="wasp", fielded=2, lost=1, kills=1, damage_taken=2.0
    )
    assert by["A", "mantis"] == UnitStats(
        side="A", type="mantis", fielded=1, lost=0, kills=1, damage_taken=3.0
    )
    assert by["B", "zul"] == UnitStats(
        side="B", type="zul", fielded=2, lost=1, kills=1, damage_taken=3.0
    )
    assert by["B", "zaresh"] == UnitStats(
        side="B", type="zaresh", fielded=4, lost=3, kills=0, damage_taken=4.0
    )


def test_a_killer_type_with_no_losses_still_gets_a_row() -> None:
    roster = [
        UnitRecord(id="a1", side="A", type="ace", strength=1, remaining=1),
        UnitRecord(
            id="b1",
            side="B",
            type="zul",
            strength=2,
            remaining=0,
            destroyed=True,
            destroyed_by="a1",
        ),
    ]
    by = {(u.side, u.type): u for u in unit_stats(roster, ["A", "B"])}
    assert by["A", "ace"].kills == 1 and by["A", "ace"].lost == 0


# ---- acta -----------------------------------------------------------------------------------


def test_acta_roster_at_the_start_lists_fighters_aboard() -> None:
    game = Game(load_scenario("carrier-strike"), seed=1)
    records = _records(game)
    aboard = [r for r in records.values() if "/aboard-" in r.id]
    carrier = next(u for u in game.state.units.values() if u.aboard)
    assert len([r for r in aboard if r.id.startswith(carrier.id + "/")]) == len(carrier.aboard)
    for record in records.values():
        assert record.remaining == record.strength
        assert not record.destroyed and record.destroyed_by is None
    # Strength is Damage points, per the unit type.
    assert records[carrier.id].strength == game.state.types[carrier.type].damage


def test_acta_destruction_by_fire_and_dogfight_is_credited() -> None:
    game = Game(load_scenario("furball"), seed=1)
    state = game.state
    ctx = ActaCtx(state, game.options, _log(game))
    # E-F1 (a wasp) shoots down K-F1 (a zaresh, 1 Damage): one point is enough.
    acta_combat.damage_fighter(ctx, state.units["K-F1"], 1, "ACTA-FTR-5", "test", "E-F1")
    # K-F2 (a zul, 2 Damage) takes one point from E-F2: damaged, not destroyed.
    acta_combat.damage_fighter(ctx, state.units["K-F2"], 1, "ACTA-FTR-5", "test", "E-F2")
    # E-F4 (a wasp) loses a dogfight to K-F3 (a zul).
    acta_combat.destroy(ctx, state.units["E-F4"], "ACTA-DOG-5", "test", "K-F3")
    destroyed = [e for e in ctx.log.events if e.data.get("destroyed")]
    assert [(e.data["unit"], e.data["by"]) for e in destroyed] == [
        ("K-F1", "E-F1"),
        ("E-F4", "K-F3"),
    ]
    records = _records(game)
    assert records["K-F1"] == UnitRecord(
        id="K-F1",
        side="Klingon",
        type="zaresh",
        strength=1.0,
        remaining=0.0,
        destroyed=True,
        destroyed_by="E-F1",
        destroyed_by_side="Empire",
        destroyed_by_type="wasp",
    )
    assert (records["K-F2"].remaining, records["K-F2"].destroyed) == (1.0, False)
    assert records["E-F4"].destroyed_by == "K-F3"
    assert len(records) == 8  # the destroyed are still on the roster

    result = result_of(game)
    assert result.damage_taken == {"Empire": 2.0, "Klingon": 2.0}
    assert result.damage_dealt == {"Empire": 2.0, "Klingon": 2.0}
    assert result.survivors == {"Empire": 3, "Klingon": 3}
    units = _units(result)
    assert (units["Empire", "wasp"].fielded, units["Empire", "wasp"].lost) == (2, 1)
    assert units["Empire", "wasp"].kills == 1
    assert units["Empire", "hummingbird"].kills == 0  # K-F2 was only damaged
    assert (units["Klingon", "zaresh"].lost, units["Klingon", "zul"].kills) == (1, 1)


def test_acta_fighters_aboard_die_with_their_ship() -> None:
    game = Game(load_scenario("carrier-strike"), seed=1)
    state = game.state
    carrier = next(u for u in state.units.values() if u.aboard and u.side == "Empire")
    killer = next(u for u in state.units.values() if u.side == "Klingon")
    carried = len(carrier.aboard)
    ctx = ActaCtx(state, game.options, _log(game))
    carrier.damage = 0
    acta_combat.after_damage(ctx, carrier, killer.id)
    records = _records(game)
    lost = [r for r in records.values() if r.id.split("/")[0] == carrier.id]
    assert len(lost) == carried + 1
    assert all(r.destroyed and r.destroyed_by == killer.id and r.remaining == 0 for r in lost)
    result = result_of(game)
    kills = sum(u.kills for u in result.units if u.side == "Klingon")
    assert kills == carried + 1


def test_acta_kill_stays_credited_after_the_killer_is_recovered_aboard() -> None:
    # A fighter recovered aboard its carrier loses its id (the roster lists it as
    # 'SHIP/aboard-N'): its earlier kills must still count for its side and type.
    game = Game(load_scenario("carrier-strike"), seed=1)
    state = game.state
    ctx = ActaCtx(state, game.options, _log(game))
    carrier = state.units["E-CV1"]
    carrier.take_off(len(carrier.aboard) - 1)  # room in the hangar
    acta_combat.damage_fighter(ctx, state.units["K-F1"], 1, "ACTA-FTR-5", "test", "E-F2")
    game.ruleset._apply_recover(ctx, acta_actions.Recover(unit="E-F2", ship="E-CV1"))
    assert "E-F2" not in state.units
    units = _units(result_of(game))
    assert units["Empire", "hummingbird"].kills == 1
    assert sum(u.kills for u in units.values()) == 1
    assert units["Klingon", "zaresh"].lost == 1


# ---- evo ------------------------------------------------------------------------------------


def test_evo_flight_destroyed_by_the_flight_that_shot_its_last_model() -> None:
    game = Game(load_scenario("evo/skirmish"), seed=1)
    state = game.state
    ctx = EvoCtx(state, game.options, _log(game))
    target = state.flights["NA-1"]
    models = list(target.models)
    assert len(models) == 3
    # EA-2 kills the first two models, EA-3 the last: EA-3 destroyed the flight.
    for mid, shooter in zip(models, ["EA-2", "EA-2", "EA-3"], strict=True):
        evo_remove(
            ctx,
            state.models[mid],
            "EVO-DMG-1",
            "test",
            destroyed=True,
            by="Earth Alliance",
            shooter=shooter,
        )
    # One model of NA-2 leaves the table: removed, not destroyed.
    evo_remove(
        ctx, state.models[state.flights["NA-2"].models[0]], "EVO-MOV-4", "test", destroyed=False
    )
    records = _records(game)
    assert records["NA-1"] == UnitRecord(
        id="NA-1",
        side="Narn Regime",
        type="frazi",
        strength=3.0,
        remaining=0.0,
        destroyed=True,
        destroyed_by="EA-3",
    )
    assert (records["NA-2"].remaining, records["NA-2"].destroyed) == (2.0, False)
    events = [e for e in ctx.log.events if e.data.get("destroyed")]
    assert [e.data["by"] for e in events] == ["EA-2", "EA-2", "EA-3"]
    result = result_of(game)
    assert result.damage_dealt["Earth Alliance"] == 4.0  # 3 destroyed + 1 disengaged
    assert result.damage_taken["Narn Regime"] == 4.0
    assert result.survivors == {"Earth Alliance": 3, "Narn Regime": 2}
    kills = {u.type: u.kills for u in result.units if u.side == "Earth Alliance"}
    ea3_type = state.flights["EA-3"].type
    assert kills[ea3_type] >= 1
    assert sum(kills.values()) == 1


def test_evo_flight_that_disengages_entirely_is_not_destroyed() -> None:
    game = Game(load_scenario("evo/skirmish"), seed=1)
    state = game.state
    ctx = EvoCtx(state, game.options, _log(game))
    flight = state.flights["EA-1"]
    for mid in list(flight.models):
        evo_remove(ctx, state.models[mid], "EVO-MOV-4", "test", destroyed=False)
    record = _records(game)["EA-1"]
    assert (record.remaining, record.destroyed, record.destroyed_by) == (0.0, False, None)
    assert _units(result_of(game))["Earth Alliance", flight.type].lost == 0


# ---- sfa ------------------------------------------------------------------------------------


def test_sfa_destroyed_disabled_and_departed_craft() -> None:
    game = Game(load_scenario("fighter-duel"), seed=1)
    state = game.state
    ctx = SfaCtx(state, game.options, _log(game))
    a1, a2, r2 = state.craft["A1"], state.craft["A2"], state.craft["R2"]
    start_a1 = state.start_structure["A1"]
    # R1 blows A1 apart at once: past minus its starting Structure.
    damage_craft(ctx, a1, 2 * start_a1 + 1, "SFA-ATK-1", "test", by="R1")
    # R2 knocks A2 out; later R1 finishes it: the kill stays R2's.
    damage_craft(ctx, a2, state.start_structure["A2"], "SFA-ATK-1", "test", by="R2")
    assert state.craft["A2"].disabled
    damage_craft(ctx, state.craft["A2"], 100, "SFA-ATK-1", "test", by="R1")
    # R2 leaves the map.
    state.remove_craft(r2, destroyed=False)
    records = _records(game)
    assert set(records) == {"A1", "A2", "R1", "R2"}
    assert records["A1"] == UnitRecord(
        id="A1",
        side="Aliens",
        type="alien-disk-fighter",
        strength=float(start_a1),
        remaining=0.0,
        destroyed=True,
        destroyed_by="R1",
    )
    assert (records["A2"].destroyed, records["A2"].destroyed_by) == (True, "R2")
    assert (records["R2"].destroyed, records["R2"].remaining) == (False, 0.0)
    destroyed = [e for e in ctx.log.events if e.data.get("destroyed")]
    assert [(e.data["unit"], e.data["by"]) for e in destroyed] == [("A1", "R1"), ("A2", "R1")]
    result = result_of(game)
    units = _units(result)
    assert units["Rebels", "rebel-fighter"].kills == 2
    assert units["Aliens", "alien-disk-fighter"].lost == 2
    assert units["Rebels", "rebel-fighter"].lost == 0
    assert result.survivors == {"Rebels": 1, "Aliens": 0}


# ---- played battles agree with their logs ------------------------------------------------


@pytest.mark.parametrize("name", ["furball", "escort-mission", "evo/skirmish", "fighter-duel"])
def test_played_battle_roster_matches_the_log(name: str) -> None:
    scenario = load_scenario(name)
    for seed in range(3):
        game = play_battle(scenario, seed, default="random")
        records = _records(game)
        result = result_of(game)
        sides = game.sides()
        # Totals: everything taken by one side was dealt by the other.
        assert result.damage_dealt[sides[0]] == pytest.approx(result.damage_taken[sides[1]])
        assert sum(u.fielded for u in result.units) == len(records)
        lost = sum(1 for r in records.values() if r.destroyed)
        assert sum(u.lost for u in result.units) == lost
        if scenario.ruleset == "acta":
            # Every destruction event names the unit and who did it, as the roster does.
            events = [e for e in game.events if e.data.get("destroyed")]
            for event in events:
                record = records[event.data["unit"]]
                assert record.destroyed and record.destroyed_by == event.data["by"]
            on_roster = {r.id for r in records.values() if r.destroyed and "/aboard-" not in r.id}
            assert on_roster == {e.data["unit"] for e in events}
        if scenario.ruleset == "evo":
            for flight in game.state.flights.values():
                shot = [
                    e
                    for e in game.events
                    if e.data.get("destroyed") and e.data.get("unit") == flight.id
                ]
                record = records[flight.id]
                assert record.remaining == flight.start_models - flight.destroyed - (
                    flight.friendly_losses + flight.disengaged
                )
                assert len(shot) == flight.destroyed + flight.friendly_losses
                if record.destroyed:
                    assert record.destroyed_by == shot[-1].data["by"]
