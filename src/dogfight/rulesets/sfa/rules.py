"""The SFA rules as pure functions over plain values, each written once.

The engine (through `ctx.rules`), the exact odds (`sfa.odds`, through `rules=`), the
computer player (through `seat.ruleset.rules`) and the browser board (through
`game.ruleset.rules`) all call these methods, so a ruleset subclass that overrides one
(`rules = MyRules()`) changes every one of them together.

No method here rolls dice or changes a state: each answers a question about numbers,
craft designs and weapons. The arithmetic of a dice pool itself lives in `pool.py`
(rolling and exact counting share its `judge`); the methods here are the one door
through which every layer reaches it.
"""

from __future__ import annotations

from fractions import Fraction

from dogfight.rulesets.sfa import pool as P
from dogfight.rulesets.sfa.actors import EXTRA_MOVE
from dogfight.rulesets.sfa.craft import Craft, Weapon
from dogfight.rulesets.sfa.maneuvers import MANEUVERS


class SfaRules:
    """Every SFA rule that more than one layer needs. Subclass and override to vary one."""

    # ---- dice pools (seed 003, "Attacking") ---------------------------------------------

    def judge(self, successes: int, ones: int, willpower: bool) -> tuple[int, bool]:
        """Net successes and botch of one roll with these counts: each 1 cancels a
        success, a bought Willpower success cannot be cancelled and stops a botch
        (SFA-ATK-3, SFA-ATK-5)."""
        return P.judge(successes, ones, willpower)

    def pool_odds(
        self, size: int, *, willpower: bool = False, difficulty: int = P.DEFAULT_DIFFICULTY
    ) -> tuple[dict[int, Fraction], Fraction]:
        """The exact odds of one pool: net successes -> probability, and the botch chance,
        counted with this object's `judge`."""
        return P.exact_distribution(
            size, willpower=willpower, difficulty=difficulty, judge=self.judge
        )

    def attack_pool(
        self,
        dexterity: int,
        skill: int,
        handling: int,
        weapon_modifier: int,
        target_soak: int,
        *,
        removed_for_speed: int = 0,
    ) -> int:
        """The dice an attack rolls: Dexterity + skill + Handling + the weapon's modifier -
        the target's total Soak - dice traded for Speed, at least one (SFA-ATK-1)."""
        return P.attack_pool(
            dexterity,
            skill,
            handling,
            weapon_modifier,
            target_soak,
            removed_for_speed=removed_for_speed,
        )

    def attack_dice(
        self,
        design: Craft,
        dexterity: int,
        skill: int,
        handling: int,
        weapon: Weapon,
        target_soak: int,
        *,
        speed_dice: int = 0,
    ) -> int:
        """The pool of one attack by a unit of `design` (the firer's Dexterity and skill,
        its current Handling): a Street Fighter rolls Strength + the maneuver's modifier
        (`weapon.attack` holds technique + modifier) instead, with no craft Handling
        (SFA-SF-5); a craft rolls `attack_pool` (SFA-ATK-1)."""
        if design.fighter is not None:
            return self.attack_pool(
                design.fighter.strength,
                0,
                0,
                weapon.attack,
                target_soak,
                removed_for_speed=speed_dice,
            )
        return self.attack_pool(
            dexterity, skill, handling, weapon.attack, target_soak, removed_for_speed=speed_dice
        )

    def guided_pool(self, pool: int, target_soak: int) -> int:
        """The dice a missile (or a Plasma Field) rolls: its own pool less the target's
        total Soak, at least one (SFA-MSL-2)."""
        return max(P.MIN_POOL, pool - target_soak)

    def piloting_pool(self, dexterity: int, piloting: int, handling: int) -> int:
        """The dice of a Piloting roll (crossing an obstacle): Dexterity + Piloting + the
        craft's current Handling, at least one (SFA-OBS-1)."""
        return max(P.MIN_POOL, dexterity + piloting + handling)

    def attack_shots(self, weapon: Weapon) -> int:
        """Guns one attack fires: each of a fire-linked group (a missile or rocket
        salvo is bought and fired one at a time) (SFA-ATK-1, SFA-ATK-6)."""
        return weapon.count if weapon.fire_linked and not expendable(weapon) else 1

    def damage_checks(self, weapon: Weapon) -> int:
        """Pools each gun rolls: a rocket salvo's damage checks, else one (SFA-ATK-6)."""
        return max(1, weapon.damage_checks)

    def attack_rolls(self, weapon: Weapon) -> int:
        """Attack rolls one resolution makes: each gun, each damage check."""
        return self.attack_shots(weapon) * self.damage_checks(weapon)

    # ---- Soak, Handling and scale -------------------------------------------------------

    def total_soak(
        self,
        dexterity: int,
        piloting: int,
        armor: int,
        shields: int,
        handling: int,
        maneuver_soak: int = 0,
    ) -> int:
        """A craft's total Soak: pilot Dexterity + Piloting + the craft's Soak (armour and
        shields) + Handling + this turn's maneuver Soak, never below 0 (SFA-SOAK-1)."""
        return max(0, dexterity + piloting + armor + shields + handling + maneuver_soak)

    def handling(self, design_handling: int, maneuver_handling: int) -> int:
        """A craft's Handling with this turn's maneuver penalties (SFA-MOV-4)."""
        return design_handling + maneuver_handling

    def maneuver(self, step: str) -> tuple[str, int, int] | None:
        """A maneuver step's (name, Soak modifier, Handling modifier), added up for the
        turn (SFA-MOV-4); None for a step that is not a maneuver."""
        return MANEUVERS.get(step)

    def scale_adjust(self, net: int, attacker_scale: int, target_scale: int) -> int:
        """Net successes after the interscale rule: 5 fewer per step up, 5 more per step
        down on a roll that hit (interscale combat)."""
        return P.scale_adjust(net, attacker_scale, target_scale)

    def attack_damage(
        self, net: int, attacker_scale: int, target_scale: int, *, willpower: bool
    ) -> int:
        """The damage of an attack roll: `scale_adjust`, but at least 1 when a Willpower
        success was bought (SFA-ATK-5)."""
        return P.attack_damage(
            net, attacker_scale, target_scale, willpower=willpower, adjust=self.scale_adjust
        )

    def collision_damage(self, structure: int, hexes: int, soak: int) -> int:
        """Damage from hitting a craft or an obstacle: its Structure times the hexes moved
        this turn, less the victim's collision Soak (SFA-COL-2, SFA-OBS-1)."""
        return structure * hexes - soak

    # ---- movement -----------------------------------------------------------------------

    def move_budget(self, move: int, kind: str, boost: int = 0) -> int:
        """Hexes a craft may fly this turn: its Move, + 3 for the extra-move action, +
        `boost` (the Booster hexes it can pay for) (SFA-MOV-1, SFA-TEC-04)."""
        if kind == "extra_move":
            return move + EXTRA_MOVE
        return move + boost


def expendable(weapon: Weapon) -> bool:
    """Missiles and rocket salvos are bought one at a time and used up (SFA-ATK-6)."""
    return weapon.guided or weapon.damage_checks > 1


SFA_RULES = SfaRules()
"""The rules of the `sfa` ruleset itself, for code called without a ruleset's rules."""
