"""How well a computer player plays the seed's tactics, counted over seeded battles.

`dogfight tactics evo` prints these figures beside their targets (issue 14):

- 'on my six': the share of damage dice (after the 1s) given to a model whose firers
  are on its six (EVO-SIX-1), in the skirmish;
- stealth: of the shots at a model with a stealth Target, the share fired from within
  close range, where its base Target holds (EVO-STL-1);
- fire zones: the share of multi-model manoeuvres in which the models get different
  moves, and the share of a flight's models caught in one fire zone when it is shot at
  (flights of three or more: two models within command range always share a zone,
  EVO-SHT-2, EVO-CMD-1);
- friendly fire: shots (and reactions) whose fire zone holds a model of the firer's
  own side;
- escorts (a side with wards, see `wards_of`): the share of escort activations that end
  within close range of a ward, the share of ward activations that end beyond close
  range of every enemy, and the share of ward models still on the table at the end.

Every count is read from the states and events of real games, through the rules'
own functions (fire zone, firers, 'on my six', Target), never restated.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dogfight.core.game import Game
from dogfight.core.options import OptionValue
from dogfight.core.scenario import Scenario, load_scenario
from dogfight.core.seat import Seat
from dogfight.rulesets.evo import actions as A
from dogfight.rulesets.evo.shooting import (
    firing_dice,
    on_my_six,
    target_score,
    unit_models,
    zone_models,
)
from dogfight.rulesets.evo.wards import wards_of

if TYPE_CHECKING:
    from dogfight.rulesets.evo.ruleset import EvoRuleset
    from dogfight.rulesets.evo.state import EvoState

SCENARIOS = ("skirmish", "stealth-ambush", "shuttle-escort")
"""The scenarios measured when none is named: one for each tactic the figures test."""


@dataclass
class Tally:
    """Counts over the battles of one scenario."""

    battles: int = 0
    dice: int = 0
    six_dice: int = 0
    stealth_shots: int = 0
    stealth_close: int = 0
    manoeuvres: int = 0
    spread_manoeuvres: int = 0
    zone_caught: int = 0
    zone_models: int = 0
    shots: int = 0
    friendly_zone: int = 0
    escort_ends: int = 0
    escort_near: int = 0
    ward_ends: int = 0
    ward_clear: int = 0
    ward_models: int = 0
    ward_left: int = 0
    wins: dict[str, int] = field(default_factory=dict)

    def add(self, other: Tally) -> None:
        """Add another tally's counts to this one."""
        for name in self.__dataclass_fields__:
            if name == "wins":
                for k, v in other.wins.items():
                    self.wins[k] = self.wins.get(k, 0) + v
            else:
                setattr(self, name, getattr(self, name) + getattr(other, name))


def shooter_of(state: EvoState, action: Any) -> str:
    """The flight whose dice an action rolls or places ('' for none)."""
    if isinstance(action, A.Shoot | A.React | A.LaunchTorpedo):
        return action.unit
    if isinstance(action, A.Allocate) and state.shot is not None:
        return state.shot.flight
    return ""


def count_shot(ruleset: EvoRuleset, state: EvoState, action: Any, tally: Tally) -> None:
    """The shot figures of a Shoot, launch or reaction about to be resolved."""
    ctx = ruleset.ctx(state)
    flight = state.flights[action.unit]
    target = state.models.get(action.target)
    if target is None:
        return
    if isinstance(action, A.LaunchTorpedo):
        flight.launching = True
        try:
            firers, _ = firing_dice(ctx, flight, target, reaction=False)
        finally:
            flight.launching = False
    else:
        firers, _ = firing_dice(ctx, flight, target, reaction=isinstance(action, A.React))
    zone = zone_models(ctx, flight, target)
    tally.shots += 1
    if any(state.flights[m.unit].side == flight.side for m in zone):
        tally.friendly_zone += 1
    utype = state.type_of(target)
    if utype.stealth_target is not None and firers:
        tally.stealth_shots += 1
        if target_score(ctx, target, firers) == utype.target:
            tally.stealth_close += 1
    # A flight of two cannot spread: both stay within command range (6"), so within
    # the 6" zone of each other; only flights of three or more are counted.
    victims = state.models_of(state.flights[target.unit])
    if len(victims) >= 3:
        tally.zone_models += len(victims)
        tally.zone_caught += sum(1 for m in zone if m.unit == target.unit)


def count_dice(
    ruleset: EvoRuleset, before: EvoState, shooter: str, events: list[Any], tally: Tally
) -> None:
    """The damage dice placed by the events, and those on a model's six (EVO-SIX-1),
    judged on the table as it stood when the dice were rolled."""
    ctx = ruleset.ctx(before)
    flight = before.flights[shooter]
    everyone = unit_models(ctx, flight)
    for event in events:
        placed = event.data.get("allocations")
        if not isinstance(placed, dict):
            continue
        for mid, dice in placed.items():
            model = before.models.get(mid)
            if model is None:
                continue
            tally.dice += len(dice)
            if on_my_six(ctx, model, everyone):
                tally.six_dice += len(dice)


def count_end(state: EvoState, unit: str, wards: set[str], tally: Tally) -> None:
    """Where an activation of a side with wards ended (escort figures)."""
    flight = state.flights.get(unit)
    if flight is None or not flight.models:
        return
    ruleset_close = float(state.options.get("close_range", 10.0))
    mine = state.models_of(flight)
    enemies = [m for f in state.live_flights(state.other(flight.side)) for m in state.models_of(f)]
    if unit in wards:
        tally.ward_ends += 1
        if all(
            m.pose.position.distance(e.pose.position) > ruleset_close for m in mine for e in enemies
        ):
            tally.ward_clear += 1
        return
    escorted = [m for w in wards if w in state.flights for m in state.models_of(state.flights[w])]
    if not escorted:
        return
    tally.escort_ends += 1
    lead = state.models.get(flight.leader) or mine[0]
    if any(lead.pose.position.distance(w.pose.position) <= ruleset_close for w in escorted):
        tally.escort_near += 1


def play_measured(
    ruleset: EvoRuleset,
    scenario: Scenario,
    seed: int,
    players: Mapping[str, Callable[[], Any]],
    tally: Tally,
    rules: Mapping[str, OptionValue] | None = None,
) -> None:
    """Play one battle (game seed `seed`, the players' generator Random(seed)) and add
    its figures to `tally`."""
    game = Game(scenario, seed=seed, rules=rules)
    state: EvoState = game.state
    rng = random.Random(seed)
    made = {side: players[side]() for side in game.sides()}
    wards = {fid for side in game.sides() for fid in wards_of(state, side)}
    ward_sides = {state.flights[w].side for w in wards}
    tally.ward_models += sum(len(state.flights[w].models) for w in wards)
    steps = 0
    while not game.is_over() and steps < 100_000:
        side = game.current_player()
        if side is None:
            break
        legal = game.legal_actions()
        action = made[side].decide(Seat(game, side), legal, rng)
        state = game.state
        shooter = shooter_of(state, action)
        before = state.clone() if shooter else None
        if isinstance(action, A.Shoot | A.React | A.LaunchTorpedo):
            count_shot(ruleset, state, action, tally)
        if isinstance(action, A.Manoeuvre) and len(action.moves) >= 2:
            tally.manoeuvres += 1
            if len({(m.dx, m.dy) for m in action.moves}) > 1:
                tally.spread_manoeuvres += 1
        active = state.active_unit if state.phase == "act" else ""
        events = game.apply(action)
        if before is not None:
            count_dice(ruleset, before, shooter, events, tally)
        state = game.state
        ended = state.phase != "act" or state.active_unit != active
        if (
            active
            and ended
            and active in state.flights
            and state.flights[active].side in ward_sides
        ):
            count_end(state, active, wards, tally)
        steps += 1
    tally.ward_left += sum(len(game.state.flights[w].models) for w in wards)
    outcome = game.outcome()
    winner = outcome.winner if outcome is not None and outcome.winner else "draw"
    tally.wins[winner] = tally.wins.get(winner, 0) + 1
    tally.battles += 1


def evo_scenario(ruleset: EvoRuleset, name: str) -> Scenario:
    """A scenario of this ruleset by name or path (ValueError naming it otherwise)."""
    scenario = load_scenario(name)
    if scenario.ruleset != ruleset.name:
        raise ValueError(
            f"--scenario: '{name}' is a {scenario.ruleset} scenario, not {ruleset.name}"
        )
    return scenario


def measure(
    ruleset: EvoRuleset,
    scenario: str,
    battles: int,
    seed: int,
    kind: str = "heuristic",
    rules: Mapping[str, OptionValue] | None = None,
) -> Tally:
    """The tally of `battles` battles of `scenario`, `kind` against itself, seeds
    seed, seed + 1, ..."""
    found = ruleset.players()
    if kind not in found:
        raise ValueError(
            f"--player: no {ruleset.name} player kind {kind!r} (kinds: {', '.join(sorted(found))})"
        )
    loaded = evo_scenario(ruleset, scenario)
    tally = Tally()
    sides = Game(loaded, seed=seed, rules=rules).sides()
    players = {s: found[kind] for s in sides}
    for i in range(battles):
        play_measured(ruleset, loaded, seed + i, players, tally, rules)
    return tally


@dataclass(frozen=True)
class Figure:
    """One measured figure beside its target."""

    name: str
    value: float | None
    """None when the battles gave nothing to count."""
    count: str
    target: str
    met: bool | None


def share(part: int, whole: int) -> float | None:
    """part / whole, or None for nothing counted."""
    return part / whole if whole else None


def figures(tallies: Mapping[str, Tally]) -> list[Figure]:
    """The figures of issue 14 from the scenarios' tallies, each where it belongs:
    'on my six' in the skirmish (or the only scenario measured), stealth where a
    stealthy model was shot at, escorts where a side had wards."""
    out: list[Figure] = []
    total = Tally()
    for t in tallies.values():
        total.add(t)
    six = tallies.get("skirmish", total if len(tallies) == 1 else Tally())
    where = "skirmish" if "skirmish" in tallies else "all"

    def add(name: str, part: int, whole: int, target: str, ok: Callable[[float], bool]) -> None:
        value = share(part, whole)
        out.append(
            Figure(name, value, f"{part}/{whole}", target, None if value is None else ok(value))
        )

    add(
        f"damage dice on the target's six ({where})",
        six.six_dice,
        six.dice,
        ">= 10%",
        lambda v: v >= 0.10,
    )
    add(
        'shots at stealthy models from within 10"',
        total.stealth_close,
        total.stealth_shots,
        ">= 60%",
        lambda v: v >= 0.60,
    )
    add(
        "multi-model manoeuvres that spread the models",
        total.spread_manoeuvres,
        total.manoeuvres,
        "> 0%",
        lambda v: v > 0.0,
    )
    add(
        "a flight's models (3 or more) caught in one zone",
        total.zone_caught,
        total.zone_models,
        "< 90%",
        lambda v: v < 0.90,
    )
    add(
        "shots into a zone holding own models",
        total.friendly_zone,
        total.shots,
        "0%",
        lambda v: v == 0.0,
    )
    add(
        'escort activations ending within 10" of a ward',
        total.escort_near,
        total.escort_ends,
        ">= 50%",
        lambda v: v >= 0.50,
    )
    add(
        'ward activations ending beyond 10" of every enemy',
        total.ward_clear,
        total.ward_ends,
        ">= 50%",
        lambda v: v >= 0.50,
    )
    add(
        "ward models still on the table at the end",
        total.ward_left,
        total.ward_models,
        "(higher is better)",
        lambda v: True,
    )
    return out


def figure_text(value: float | None) -> str:
    """A share as people read it."""
    return "-" if value is None else f"{100 * value:.1f}%"


def wins_text(tally: Tally) -> str:
    """Who won the battles of one scenario."""
    return ", ".join(f"{k} {v}" for k, v in sorted(tally.wins.items())) or "none"


__all__ = ["SCENARIOS", "Figure", "Tally", "figures", "measure"]
