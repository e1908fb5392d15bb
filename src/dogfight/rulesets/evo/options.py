"""EVO rule options: the notes' proposals and the seed's ambiguities (data/evo/rules.md)."""

from __future__ import annotations

from dogfight.core.options import Option
from dogfight.rulesets.evo.movement import COURSE_MIN_MOVE

OPTIONS: tuple[Option, ...] = (
    Option(
        name="activation",
        default="player_turns",
        choices=("player_turns", "alternate"),
        clause="EVO-SEQ-2",
        doc="player_turns: one side activates all its flights, then the other (BF Evo). "
        "alternate: the sides take turns activating one flight at a time.",
    ),
    Option(
        name="roll_off",
        default="choose",
        choices=("choose", "winner_first"),
        clause="EVO-SEQ-1",
        doc="choose: the winner of the roll-off chooses to go first or second (BF Evo). "
        "winner_first: the winner always goes first.",
    ),
    Option(
        name="fire_zone",
        default=6.0,
        minimum=0.1,
        maximum=1000,
        clause="EVO-SHT-2",
        doc='Size of the fire zone in inches (the seed: 6").',
    ),
    Option(
        name="fire_zone_measure",
        default="radius",
        choices=("radius", "diameter"),
        clause="EVO-SHT-2",
        doc="radius: every model within fire_zone inches of the target model is in the zone. "
        "diameter: within half of it.",
    ),
    Option(
        name="free_allocation",
        default="choose",
        choices=("choose", "spread", "target"),
        clause="EVO-SHT-4",
        doc="Dice left once every model in the zone has one: choose: the firing player "
        "allocates them among the target's flight in the zone (BF Evo). spread: they go on "
        "round, highest to nearest. target: all on the nominated model.",
    ),
    Option(
        name="dodge_saves",
        default=True,
        clause="EVO-DMG-3",
        doc="true: a model with Dodge X+ may turn a Kill into an ordinary hit on X+ (then it "
        "takes its Save). false: no dodge saves.",
    ),
    Option(
        name="no_dodge_on_six",
        default=True,
        clause="EVO-DMG-3",
        doc="true: a model shot from its six may not dodge.",
    ),
    Option(
        name="suppression",
        default="dice",
        choices=("dice", "casualty", "off"),
        clause="EVO-SUP-1",
        doc="dice: a flight assigned at least as many dice (after 1s) as it has models is "
        "suppressed. casualty: a flight that loses a model to a Shoot is suppressed. "
        "off: no suppression. A suppressed flight has one action fewer in its next activation.",
    ),
    Option(
        name="command_range",
        default=6.0,
        minimum=0,
        maximum=1000,
        clause="EVO-CMD-1",
        doc="Models farther than this from their leader at the start of an activation only "
        "drift and react.",
    ),
    Option(
        name="leader_loss_costs_action",
        default=True,
        clause="EVO-CMD-2",
        doc="true: a flight whose leader died spends one action naming a new leader.",
    ),
    Option(
        name="command_bonus",
        default=True,
        clause="EVO-CMD-3",
        doc="true: once per turn a flight with the Command trait may give one friendly flight "
        "(itself included) whose models are within command_range of its leader one action "
        "more when it is activated (at most three). false: Command does nothing.",
    ),
    Option(
        name="leave_table",
        default="disengage",
        choices=("disengage", "stop"),
        clause="EVO-MOV-4",
        doc="disengage: a model whose centre leaves the table is removed (not destroyed). "
        "stop: it stops at the edge.",
    ),
    Option(
        name="course_min_move",
        default=COURSE_MIN_MOVE,
        minimum=0,
        maximum=100,
        clause="EVO-MOV-3",
        doc="After a manoeuvre, a net move (from the start point) of this many inches or "
        "less has no direction: the model keeps its old facing. 0: any move turns it.",
    ),
    Option(
        name="close_range",
        default=10.0,
        minimum=0,
        maximum=1000,
        clause="EVO-CLS-1",
        doc="Close range in inches: reactions, stealth and 'on my six' use it.",
    ),
    Option(
        name="reaction_range",
        default="close",
        choices=("close", "weapon"),
        clause="EVO-REA-2",
        doc="close: a reaction may fire only at a model within close_range of a model of the "
        "reacting flight whose weapon bears on it (the seed's close range, EVO-CLS-1). "
        "weapon: at any model of the triggering flight its weapons reach.",
    ),
    Option(
        name="turn_limit_result",
        default="points",
        choices=("points", "draw"),
        clause="EVO-WIN-2",
        doc="At the turn limit: points: the side that destroyed the larger share of the "
        "enemy's points wins. draw: a draw.",
    ),
)
