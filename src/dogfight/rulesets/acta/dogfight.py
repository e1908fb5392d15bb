"""ACTA dogfights: fighters in base contact fight it out with d6 + Dogfight + support."""

from __future__ import annotations

from dataclasses import dataclass

from dogfight.rulesets.acta.combat import damage_fighter, destroy
from dogfight.rulesets.acta.context import BASE_RULES, Ctx
from dogfight.rulesets.acta.rules import DOGFIGHT_DRONE_BONUS as DOGFIGHT_DRONE_BONUS
from dogfight.rulesets.acta.rules import ActaRules
from dogfight.rulesets.acta.state import ActaState, UnitState


def dogfight_score(state: ActaState, fighter: UnitState, rules: ActaRules = BASE_RULES) -> int:
    """A fighter's Dogfight score, with dogfight drones if it swapped its drone
    (`ActaRules.dogfight_score`)."""
    return rules.dogfight_score(state.unit_type(fighter).dogfight, fighter.dogfight_drones)


def dogfight_bonus(
    state: ActaState, fighter: UnitState, support: int, rules: ActaRules = BASE_RULES
) -> int:
    """What the fighter adds to its d6 in a dogfight with `support` supporters
    (`ActaRules.dogfight_bonus`)."""
    ftype = state.unit_type(fighter)
    return rules.dogfight_bonus(ftype.dogfight, fighter.dogfight_drones, support)


def pair_key(a: str, b: str) -> tuple[str, str]:
    """The two fighters of a dogfight, in a fixed order (ACTA-DOG-6)."""
    return (a, b) if a <= b else (b, a)


def dogfight_enemies(state: ActaState, fighter: UnitState) -> list[UnitState]:
    """Enemy fighters this fighter may attack in a dogfight now: in base contact, not
    the unit it was intercepted from (ACTA-SUP-4), and not a pair that already rolled
    this Attack Phase, as a tied pair stays locked until the next one (ACTA-DOG-6)."""
    fought = state.fought_pairs
    return [
        e
        for e in state.enemy_fighters_touching(fighter)
        if e.id not in fighter.barred and pair_key(fighter.id, e.id) not in fought
    ]


def may_support(state: ActaState, fighter: UnitState) -> bool:
    """A fighter may support only a dogfight its side is fighting this step, against an
    enemy fighter it touches (ACTA-DOG-3)."""
    targets = {e for _, e in state.dogfights}
    return any(e.id in targets for e in state.enemy_fighters_touching(fighter))


def unassigned_engaged(state: ActaState, side: str) -> list[UnitState]:
    """The nominating side's fighters touching enemy fighters that still need a role.

    Every fighter in a dogfight it may fight must attack or support one being fought
    (ACTA-DOG-1..3); one whose every enemy is barred to it or already fought this phase,
    and that touches no enemy being fought, has no role to take."""
    assigned = {a for a, _ in state.dogfights} | set(state.supporters)
    return [
        f
        for f in state.fighters(side)
        if not (f.on_defensive_fire or f.dogfight_done)
        and f.id not in assigned
        and (dogfight_enemies(state, f) or may_support(state, f))
    ]


def defender_candidates(state: ActaState, side: str) -> list[UnitState]:
    """Defending fighters that may support: not the target of a dogfight this step, not
    yet committed this turn, and touching one of the attacking fighters (ACTA-DOG-4)."""
    targets = {e for _, e in state.dogfights}
    attackers = [state.units[a] for a, _ in state.dogfights if a in state.units]
    out = []
    for f in state.fighters(state.other(side)):
        if f.id in targets or f.attack_done or f.dogfight_done:
            continue
        if any(state.touching(f, a) for a in attackers):
            out.append(f)
    return out


@dataclass(frozen=True, slots=True)
class DogfightRoll:
    """One side's total in a dogfight: d6 + bonus, shown as d6 + Dogfight + support."""

    face: int
    score: int
    bonus: int
    """Everything added to the d6 (`ActaRules.dogfight_bonus`)."""

    @property
    def support(self) -> int:
        """The part of the bonus beyond the Dogfight score: the supporters' help."""
        return self.bonus - self.score

    @property
    def total(self) -> int:
        """d6 + bonus."""
        return self.face + self.bonus


def resolve_dogfights(ctx: Ctx, side: str) -> list[tuple[str, str]]:
    """Resolve every dogfight the side nominated, one after another (ACTA-DOG-5..7).

    Returns the (attacker, enemy) pairs that were rolled (those that did not lapse)."""
    state = ctx.state
    defenders = state.defender_supporters or ()
    rolled = []
    for attacker_id, enemy_id in state.dogfights:
        attacker = state.units.get(attacker_id)
        enemy = state.units.get(enemy_id)
        if attacker is None or enemy is None:
            ctx.emit(
                "ACTA-DOG-7",
                f"dogfight {attacker_id} v {enemy_id} lapses: one of them is already destroyed",
            )
            continue
        # ACTA-DOG-3: +1 per other friendly fighter touching the enemy being fought.
        own = [
            s
            for s in state.supporters
            if s in state.units and state.touching(state.units[s], enemy)
        ]
        theirs = [
            d for d in defenders if d in state.units and state.touching(state.units[d], attacker)
        ]
        fight_one(ctx, attacker, enemy, len(own), len(theirs))
        rolled.append((attacker_id, enemy_id))
        # ACTA-DOG-6: whatever the result, this pair has had its dogfight this phase.
        state.fought_pairs = (*state.fought_pairs, pair_key(attacker_id, enemy_id))
    return rolled


def fight_one(
    ctx: Ctx, attacker: UnitState, enemy: UnitState, support: int, enemy_support: int
) -> None:
    """Roll one dogfight and apply the result to the loser."""
    state = ctx.state
    for _ in range(100):
        rules = ctx.rules
        a = DogfightRoll(
            ctx.roll(),
            dogfight_score(state, attacker, rules),
            dogfight_bonus(state, attacker, support, rules),
        )
        d = DogfightRoll(
            ctx.roll(),
            dogfight_score(state, enemy, rules),
            dogfight_bonus(state, enemy, enemy_support, rules),
        )
        text = (
            f"dogfight {ctx.name(attacker)} {a.face}+{a.score}+{a.support}={a.total} v "
            f"{ctx.name(enemy)} {d.face}+{d.score}+{d.support}={d.total}"
        )
        data = {
            "attacker": attacker.id,
            "defender": enemy.id,
            "attacker_total": a.total,
            "defender_total": d.total,
        }
        result = rules.dogfight_result(a.total, d.total)
        if result:
            ctx.emit("ACTA-DOG-5", text, **data)
            winner, loser = (attacker, enemy) if result > 0 else (enemy, attacker)
            lose(ctx, loser, winner)
            return
        if ctx.opt("dogfight_tie") == "locked":
            ctx.emit("ACTA-DOG-6", text + ": a tie, nobody falls and both stay locked", **data)
            return
        ctx.emit("ACTA-DOG-6", text + ": a tie, roll again", **data)
    raise RuntimeError("dogfight tie re-rolled 100 times")  # pragma: no cover - dice script bug


def lose(ctx: Ctx, loser: UnitState, winner: UnitState) -> None:
    """The loser of a dogfight is destroyed, or takes one undodgeable damage (option)."""
    why = f"shot down in a dogfight by {ctx.name(winner)}"
    if ctx.opt("dogfight_loser") == "destroyed":
        destroy(ctx, loser, "ACTA-DOG-5", why, winner.id)
    else:
        damage_fighter(ctx, loser, 1, "ACTA-DOG-5", why, winner.id)
