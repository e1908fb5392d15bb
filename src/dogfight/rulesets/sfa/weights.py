"""The sfa heuristic's weights, and the personas that change them.

Everything the heuristic scores is in Structure points of enemy craft (see
`heuristic`); these numbers say how much each kind of gain or danger counts. The
default player uses `Weights()`; a persona (`heuristic:aggressive`,
`heuristic:cautious`) reads its changes from a data file,
`data/sfa/personas/<name>.yaml`, one weight a line with a comment saying why.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from dogfight.core.personas import PersonaBook

PERSONAS = ("aggressive", "cautious")
"""The personas shipped with the ruleset (files in data/sfa/personas/)."""


@dataclass(frozen=True, slots=True)
class Weights:
    """How much each consideration counts (defaults: the plain heuristic)."""

    kill_share: float = 0.3
    """Worth of putting a craft out of action, as a share of its starting Structure, on
    top of the Structure it loses: it stops fighting."""
    loss_weight: float = 1.2
    """Weight of our own losses against the enemy's (an even trade is no gain when ahead)."""
    smart: float = 0.5
    """Weight of an enemy's best move against the average of its moves (the rest)."""
    dodge_chance: float = 0.4
    """Chance a faster enemy, still to act, slips off our line before we fire."""
    before: float = 0.8
    """Worth of a line laid before the target moves, against one laid after."""
    tempo: float = 0.5
    """Share of an enemy's fire that acting faster than it lets us avoid."""
    next_shot: float = 0.5
    """Weight of next turn's shot prospects."""
    next_danger: float = 0.4
    """Weight of next turn's exposure."""
    fast_escape: float = 0.5
    """Share of next turn's exposure a craft that moves 2+ hexes keeps (it can fly off)."""
    missile_worth: float = 0.75
    """Worth of a launched missile against its first attack's (it hunts, it can be shot)."""
    missile_far: float = 0.3
    """Weight of an incoming missile that cannot reach us next turn."""
    abort_cost: float = 1.5
    """Price of the Willpower an abort spends (it could buy a success later)."""
    willpower_cost: float = 1.0
    """Price of the Willpower a sure success spends."""
    edge_price: float = 0.3
    """Price of ending where the next move has few ways to stay on the map."""
    interrupt_margin: float = 0.3
    """How much better acting now must look before an actor interrupts."""
    crowd: float = 0.05
    """Price of ending next to our own craft (collisions, shared lines)."""
    resolve_window: float = 1.0
    """Chance that, after an enemy pilot moves, we are asked again before it fires, so
    that waiting keeps the dodge. SFA-SEQ-4 opens that window."""
    info: float = 0.2
    """Price, per enemy actor still to move that is slower than ours, of acting before it
    (waiting, we would see where it went)."""
    block_later: float = 0.5
    """Chance a craft in front of another at the end of a turn is still there when the one
    behind must move (it depends on next turn's Speeds)."""
    approach: float = 0.05
    """Worth per hex of closing on an enemy that no shot can reach yet."""
    missile_spend: float = 0.1
    """Price of launching a missile (each is bought once and gone when fired)."""
    botch_price: float = 0.02
    """Price of a shot that cannot do damage: it can only botch (SFA-ATK-4)."""
    # ---- technologies
    shield: float = 1.0
    """Share of this turn's expected incoming fire a Force Field is worth (SFA-TEC-14)."""
    cloak: float = 0.8
    """Share of next turn's expected incoming fire that cloaking (Stealth) is worth, and
    that staying cloaked keeps (SFA-TEC-25)."""
    decoy: float = 0.3
    """Share of the incoming fire a Holo-Projector decoy draws off (SFA-TEC-16)."""
    stun: float = 0.8
    """Share of an enemy's threat and prospects an EMP stun is worth (SFA-TEC-09)."""
    charge_hope: float = 0.5
    """Chance a doomsday device charged now still finds its targets next turn
    (SFA-TEC-06, SFA-TEC-19): they see it charging and may fly off."""
    lost_turn: float = 0.6
    """Worth of one turn of our craft's action (what a Death Blossom's two lost turns
    cost, SFA-TEC-06)."""
    power_price: float = 0.05
    """Price of one point of Power spent (it is never restored in a battle)."""
    trail_hope: float = 0.5
    """Chance an enemy that may cross a Plasma Trail next turn still does (SFA-TEC-22):
    the trail stays hot through the next turn, and it may see it."""
    design_turns: float = 2.0
    """Turns over which a change of design (Transformation, Duplicator: SFA-TEC-30,
    SFA-TEC-08) is counted: it lasts, but the battle moves on."""


BOOK = PersonaBook("sfa", Weights, PERSONAS, default_bounds=(0.0, math.inf))
"""The sfa personas, read and checked by the one loader of core/personas.py (every
weight a finite number, none negative)."""

persona_path = BOOK.path
load_weights = BOOK.load
persona = BOOK.persona
