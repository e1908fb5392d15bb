"""How well a computer player plays the seed's tactics: figures counted over seeded
battles (`dogfight tactics sfa`).

The battles are played here with the real game in hand, so each decision can be judged
against what was true when it was made (the players themselves only see their seats):

- technologies used: actions that put a technology to work (selected as the turn's
  action, aborted to, a Temporal Displacement re-roll, Power spent on a Targeting
  Computer), per side and game;
- dice traded for Speed by attack selections;
- shots that can only botch (no roll of the pool can do damage: a Force Field, a scale
  or Enhanced Soak the pool cannot pass);
- fire at a wrecked craft while a working enemy craft was on offer;
- overkill: a missile launched at a craft already chased by as many missiles as it has
  Structure left;
- the record against the random player, and the time a decision takes.
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from dogfight.ai import RandomPlayer
from dogfight.core.game import Game
from dogfight.core.play import Player
from dogfight.core.scenario import load_scenario
from dogfight.core.seat import Seat
from dogfight.rulesets.sfa import actions as A
from dogfight.rulesets.sfa.actors import split_key
from dogfight.rulesets.sfa.combat import (
    defending_scale,
    disrupts,
    handling,
    shooter,
    soak_against,
    unit_scale,
)
from dogfight.rulesets.sfa.names import action_real
from dogfight.rulesets.sfa.rules import SFA_RULES, SfaRules
from dogfight.rulesets.sfa.state import SfaState

TECH_GAMES_SHARE = 5 / 6
"""tech-melee target: at least two technologies used in 5 of every 6 games."""
WIN_TARGET = 0.9
"""Share of games the player must win against the random player."""


@dataclass
class Figures:
    """What the battles showed, summed over games."""

    games: int = 0
    techs_by_game: list[dict[str, set[str]]] = field(default_factory=list)
    """Per game: side -> technologies it used."""
    carried: dict[str, set[str]] = field(default_factory=dict)
    """Side -> action technologies its craft carry (from the scenario)."""
    speed_dice: Counter[int] = field(default_factory=Counter)
    shots: int = 0
    botch_only: int = 0
    at_wrecks: int = 0
    overkill: int = 0
    wins: int = 0
    draws: int = 0
    random_games: int = 0
    times: list[float] = field(default_factory=list)

    def techs_used(self) -> Counter[str]:
        """Technology -> games in which some side used it."""
        out: Counter[str] = Counter()
        for game in self.techs_by_game:
            for tech in set().union(*game.values()) if game else set():
                out[tech] += 1
        return out

    def games_with_two(self) -> int:
        """Games in which at least two technologies were used (by either side)."""
        return sum(1 for g in self.techs_by_game if len(set().union(*g.values())) >= 2)

    def unused(self) -> list[str]:
        """Technologies some side carries but used in no game."""
        carried = set().union(*self.carried.values()) if self.carried else set()
        return sorted(carried - set(self.techs_used()))


ACTION_TECH_FIELDS = ("boosters", "teleport", "force_field", "plasma_field")


def tech_of(state: SfaState, action: Any) -> str:
    """The technology an action puts to work ('' for none)."""
    if isinstance(action, A.Select) and action.kind == "equipment":
        return action.item
    if isinstance(action, (A.Move, A.Abort)):
        abort = action.abort if isinstance(action, A.Move) else action.to
        if abort and abort != "extra_move":
            return abort
        if isinstance(action, A.Move) and action.dest is not None:
            sel = state.selections.get(f"{action.craft}#0")
            return sel.item if sel is not None and sel.kind == "equipment" else ""
    if isinstance(action, A.Displace) and action.use:
        return "temporal_displacement"
    if isinstance(action, A.Resolve) and action.power > 0:
        sel = state.selections.get(action.actor)
        if sel is not None and sel.kind == "attack":
            return "targeting_computer"
    return ""


def can_only_botch(state: SfaState, action: A.Resolve, rules: SfaRules) -> bool:
    """Whether a shot at a craft has no roll that does damage (the real numbers)."""
    target = state.craft.get(action.target)
    sel = state.selections.get(action.actor)
    if target is None or sel is None or sel.kind != "attack":
        return False
    craft_id, station = split_key(action.actor)
    me = state.craft[craft_id]
    design = state.type_of(me)
    weapon = next((w for w in design.weapons if w.name == sel.item), None)
    if weapon is None or weapon.guided:
        return False
    if target.force_field and not disrupts(design):
        return True
    person, skill = shooter(me, station)
    soak = soak_against(state, target, design, action.power, rules=rules)
    size = rules.attack_dice(
        design,
        person.dexterity,
        skill,
        handling(state, me, rules),
        weapon,
        soak,
        speed_dice=sel.speed_dice,
    )
    scale = unit_scale(state, design) if design.fighter is not None else weapon.scale
    best = rules.attack_damage(size, scale, defending_scale(state, target, design), willpower=True)
    return best <= 0 or (
        not action.willpower
        and rules.attack_damage(
            size, scale, defending_scale(state, target, design), willpower=False
        )
        <= 0
    )


def judge(
    state: SfaState,
    side: str,
    legal: list[Any],
    action: Any,
    rules: SfaRules,
    f: Figures,
    used: set[str],
) -> None:
    """Count what one decision of `side` shows."""
    real = action_real(state, action)
    tech = tech_of(state, real)
    if tech:
        used.add(tech)
    if isinstance(real, A.Select) and real.kind == "attack":
        design = state.type_of(state.craft[split_key(real.actor)[0]])
        weapon = next((w for w in design.weapons if w.name == real.item), None)
        if weapon is not None and not weapon.guided:
            f.speed_dice[real.speed_dice] += 1
    if not isinstance(real, A.Resolve) or not real.target:
        return
    sel = state.selections.get(real.actor)
    target = state.craft.get(real.target)
    if sel is None or sel.kind != "attack" or target is None:
        return
    f.shots += 1
    if can_only_botch(state, real, rules):
        f.botch_only += 1
    if target.disabled:
        others = [action_real(state, a) for a in legal if isinstance(a, A.Resolve) and a.target]
        if any(
            (c := state.craft.get(o.target)) is not None and not c.disabled and c.side != side
            for o in others
        ):
            f.at_wrecks += 1
    design = state.type_of(state.craft[split_key(real.actor)[0]])
    weapon = next((w for w in design.weapons if w.name == sel.item), None)
    if weapon is not None and weapon.guided:
        chasing = sum(
            1 for m in state.missiles.values() if m.target == target.id and m.side == side
        )
        if chasing and chasing >= target.structure:
            f.overkill += 1


def play_judged(
    game: Game, players: Mapping[str, Player], rng: random.Random, judged: set[str], f: Figures
) -> dict[str, set[str]]:
    """Play a game to its end, judging the decisions of the sides in `judged`."""
    used: dict[str, set[str]] = {s: set() for s in judged}
    found = getattr(game.ruleset, "rules", None)
    rules = found if isinstance(found, SfaRules) else SFA_RULES
    steps = 0
    while not game.is_over() and steps < 100_000:
        side = game.current_player()
        if side is None:
            break
        legal = game.legal_actions()
        start = time.perf_counter()
        action = players[side].decide(Seat(game, side), legal, rng)
        if side in judged:
            f.times.append(time.perf_counter() - start)
            judge(game.state, side, legal, action, rules, f, used[side])
        game.apply(action)
        steps += 1
    return used


def carried_techs(game: Game) -> dict[str, set[str]]:
    """Side -> action technologies its craft carry."""
    from dogfight.rulesets.sfa.technology import ACTION_TECHS

    state: SfaState = game.state
    out: dict[str, set[str]] = {s: set() for s in game.sides()}
    for craft in state.craft.values():
        design = state.type_of(craft)
        out[craft.side] |= {t for t in ACTION_TECHS if design.has(t)}
        if design.has("temporal_displacement"):
            out[craft.side].add("temporal_displacement")
    return out


def measure(
    scenario_name: str,
    battles: int,
    seed: int,
    make: Callable[[], Player],
    *,
    against_random: bool = True,
    ruleset: str = "sfa",
) -> Figures:
    """Play `battles` games of the player against itself (game seeds seed..), and as
    many against the random player (sides alternating), and count the figures."""
    scenario = load_scenario(f"{ruleset}/{scenario_name}")
    f = Figures()
    for i in range(battles):
        game = Game(scenario, seed=seed + i)
        if not f.carried:
            f.carried = carried_techs(game)
        sides = game.sides()
        used = play_judged(game, {s: make() for s in sides}, random.Random(seed + i), set(sides), f)
        f.techs_by_game.append(used)
        f.games += 1
    if against_random:
        for i in range(battles):
            game = Game(scenario, seed=seed + i)
            sides = game.sides()
            me = sides[i % 2]
            players: dict[str, Player] = {s: make() if s == me else RandomPlayer() for s in sides}
            play_judged(game, players, random.Random(seed + i), {me}, f)
            outcome = game.outcome()
            f.random_games += 1
            if outcome is not None and outcome.winner == me:
                f.wins += 1
            elif outcome is not None and outcome.winner is None:
                f.draws += 1
    return f


def rows(f: Figures, scenario_name: str) -> list[tuple[str, str, str, str]]:
    """(figure, measured, target, met) rows."""
    used = f.techs_used()
    out: list[tuple[str, str, str, str]] = []
    carried = sorted(set().union(*f.carried.values())) if f.carried else []
    for tech in carried:
        out.append(
            (
                f"games using {tech}",
                f"{used.get(tech, 0)} of {f.games}",
                ">= 1",
                ok(used.get(tech, 0) >= 1),
            )
        )
    if len(carried) >= 2:
        two = f.games_with_two()
        need = f.games * TECH_GAMES_SHARE
        out.append(
            ("games using 2+ technologies", f"{two} of {f.games}", ">= 5 in 6", ok(two >= need))
        )
    dice = ", ".join(f"{n}:{c}" for n, c in sorted(f.speed_dice.items())) or "none"
    other = any(n not in (0, 2) for n in f.speed_dice)
    out.append(("dice for Speed (dice:selections)", dice, "not only 0 and 2", ok(other)))
    out.append(
        ("shots that can only botch", f"{f.botch_only} of {f.shots}", "0", ok(f.botch_only == 0))
    )
    out.append(("shots at wrecks, others in reach", str(f.at_wrecks), "0", ok(f.at_wrecks == 0)))
    out.append(("missiles past a kill (overkill)", str(f.overkill), "0", ok(f.overkill == 0)))
    if f.random_games:
        share = f.wins / f.random_games
        out.append(
            (
                "wins against random",
                f"{f.wins} of {f.random_games}",
                ">= 90%",
                ok(share >= WIN_TARGET),
            )
        )
    return out


def ok(met: bool) -> str:
    return "yes" if met else "NO"


def median_ms(f: Figures) -> float:
    """The median decision time, in milliseconds."""
    return 1000 * statistics.median(f.times) if f.times else 0.0
