"""The sfa heuristic plays the seed's tactics (issue 14): technologies, dice for Speed,
no hopeless shots, no fire at wrecks, no overkill; what it weighed (`weigh`); personas.
Each test builds a position and checks one decision."""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import pytest

from dogfight.ai import make_player
from dogfight.core.errors import DataError
from dogfight.core.play import WeighingPlayer
from dogfight.core.seat import Seat
from dogfight.rulesets.sfa import actions as A
from dogfight.rulesets.sfa.heuristic import SfaHeuristic
from dogfight.rulesets.sfa.state import Missile
from dogfight.rulesets.sfa.weights import PERSONAS, Weights, load_weights, persona_path

from .test_sfa_heuristic import DRONE, GUNBOAT, HEAVY, design, position, select_all, turn_of

BUNKER = design(
    "bunker", {"kind": "heavy_laser"}, move=1, structure=20, power=5, technologies=["force_field"]
)
"""A slow gun platform (Heavy Laser ahead, range 10) with a Force Field."""
LANCER = design(
    "lancer",
    {"kind": "light_laser"},
    move=3,
    structure=12,
    power=10,
    technologies=["death_blossom", "pi_tac_cannon"],
)
"""A fighter carrying both doomsday devices."""
CRAFT = [GUNBOAT, DRONE, HEAVY, BUNKER, LANCER]


def weighed(game: Any, player: SfaHeuristic | None = None, seed: int = 0) -> list[Any]:
    """The player's candidates for the decision now, checked against `decide`."""
    player = player or SfaHeuristic()
    legal = game.legal_actions()
    out = player.weigh(Seat.of(game), legal, random.Random(seed))
    assert out[0].action == player.decide(Seat.of(game), legal, random.Random(seed))
    assert all(w.action in legal for w in out)
    return out


def best(game: Any, player: SfaHeuristic | None = None) -> Any:
    return weighed(game, player)[0].action


def under_fire(pilot: str = "rookie", facing: int = 3) -> Any:
    """The bunker 5 hexes south of a heavy gun platform; `facing` 3 points the heavy's
    gun at it."""
    return position(
        (0, "B", "bunker", 5, 9, 0),
        (1, "H", "heavy", 5, 4, facing),
        pilots={"B": pilot},
        custom_craft=CRAFT,
    )


# ---- weigh ------------------------------------------------------------------------------


def test_the_heuristic_weighs_its_candidates_best_first_with_reasons() -> None:
    game = under_fire()
    out = weighed(game)
    assert isinstance(SfaHeuristic(), WeighingPlayer)
    assert len(out) > 3
    assert all(w.reason for w in out)
    scores = [w.score for w in out]
    assert scores[0] == max(scores)
    assert scores[1:] == sorted(scores[1:], reverse=True)


def test_weigh_names_the_shot_the_move_and_the_resolution_in_words() -> None:
    game = position((0, "G", "gunboat", 5, 9, 0), (1, "D", "drone", 5, 6, 0), custom_craft=CRAFT)
    assert "shot worth" in weighed(game)[0].reason
    select_all(game, {"G#0": ("attack", "Light Laser", 0)})
    turn_of(game, "G#0", "move")
    assert any("flies 'F'" in w.reason for w in weighed(game))
    game.apply(A.Move(craft="G", steps="F"))
    turn_of(game, "G#0", "resolve")
    assert weighed(game)[0].reason.startswith("fire at D")


# ---- technologies -----------------------------------------------------------------------


def test_raises_its_force_field_when_a_big_hit_threatens() -> None:
    action = best(under_fire())
    assert action == A.Select(actor="B#0", kind="equipment", item="force_field")


def test_keeps_its_force_field_down_when_nothing_threatens() -> None:
    action = best(under_fire(facing=0))  # the heavy's gun points away
    assert isinstance(action, A.Select)
    assert action.kind != "equipment"


def test_fires_a_charged_death_blossom_into_a_crowd_of_enemies() -> None:
    game = position(
        (0, "L", "lancer", 5, 6, 0),
        (1, "D1", "drone", 3, 5, 0),
        (1, "D2", "drone", 7, 6, 0),
        (1, "D3", "drone", 5, 3, 0),
        custom_craft=CRAFT,
    )
    game.state.craft["L"].charged = "death_blossom"
    action = best(game)
    assert action == A.Select(actor="L#0", kind="equipment", item="death_blossom")


def test_holds_a_charged_death_blossom_when_a_friend_would_be_caught() -> None:
    game = position(
        (0, "L", "lancer", 5, 6, 0),
        (0, "F", "heavy", 6, 6, 0),
        (1, "D1", "drone", 3, 5, 0),
        custom_craft=CRAFT,
    )
    game.state.craft["L"].charged = "death_blossom"
    action = best(game)
    assert action != A.Select(actor="L#0", kind="equipment", item="death_blossom")


def test_fires_a_charged_pi_tac_down_a_line_of_enemies() -> None:
    game = position(
        (0, "L", "lancer", 5, 10, 0),
        (1, "D1", "drone", 5, 5, 0),
        (1, "D2", "drone", 5, 2, 0),
        custom_craft=CRAFT,
    )
    game.state.craft["L"].charged = "pi_tac_cannon"
    action = best(game)
    assert action == A.Select(actor="L#0", kind="equipment", item="pi_tac_cannon")
    select_all(game, {"L#0": ("equipment", "pi_tac_cannon", 0)})
    turn_of(game, "L#0", "move")
    game.apply(A.Move(craft="L", steps="F"))
    turn_of(game, "L#0", "resolve")
    assert best(game) == A.Resolve(actor="L#0", use=True)


# ---- dice for Speed, hopeless shots, wrecks, overkill -----------------------------------


def test_weighs_every_useful_number_of_dice_for_speed() -> None:
    out = weighed(under_fire())
    # Each trade weighed puts the rookie before more of the heavy's choices than one die
    # fewer: the others only weaken the shot.
    dice = {w.action.speed_dice for w in out if isinstance(w.action, A.Select)}
    assert 0 in dice and max(dice) > 2 and dice <= set(range(7))
    # A regular pilot trades 3 dice: enough to act before the heavy's every choice, and
    # 1 die puts it before only some; more than 3 would buy nothing.
    out = weighed(under_fire("regular"))
    regular = [w.action.speed_dice for w in out if isinstance(w.action, A.Select)]
    assert out[0].action == A.Select(actor="B#0", kind="attack", item="Heavy Laser", speed_dice=3)
    assert {1, 3} <= set(regular) and max(regular) == 3


def aimed(*targets: tuple[str, int, int]) -> Any:
    """A veteran gunboat's resolution, its lasers up the column at drones."""
    game = position(
        (0, "G", "gunboat", 5, 9, 0),
        *((1, t, "drone", col, row, 0) for t, col, row in targets),
        pilots={"G": "veteran"},
        custom_craft=CRAFT,
    )
    select_all(game, {"G#0": ("attack", "Light Laser", 0)})
    turn_of(game, "G#0", "move")
    game.apply(A.Move(craft="G", steps="F"))
    turn_of(game, "G#0", "resolve")
    return game


def test_will_not_fire_a_shot_that_can_only_botch() -> None:
    game = aimed(("D", 5, 6))
    game.state.craft["D"].force_field = True  # no damage gets through (SFA-TEC-14)
    out = weighed(game)
    assert out[0].action == A.Resolve(actor="G#0")
    shot = next(w for w in out if w.action == A.Resolve(actor="G#0", target="D"))
    assert "can only botch" in shot.reason
    assert shot.score < 0


def test_fires_at_the_working_craft_not_the_wreck() -> None:
    game = aimed(("W", 5, 6), ("D", 5, 4))
    wreck = game.state.craft["W"]
    wreck.disabled, wreck.structure = True, 0
    assert A.Resolve(actor="G#0", target="W") in game.legal_actions()
    assert best(game) == A.Resolve(actor="G#0", target="D")


def test_holds_fire_rather_than_shoot_a_wreck() -> None:
    game = aimed(("W", 5, 6))
    wreck = game.state.craft["W"]
    wreck.disabled, wreck.structure = True, 0
    assert best(game) == A.Resolve(actor="G#0")


def test_sends_no_second_missile_at_a_craft_the_first_will_finish() -> None:
    def launch_decision(chased: bool) -> Any:
        game = position(
            (0, "G", "gunboat", 5, 11, 0), (1, "D", "drone", 5, 2, 0), custom_craft=CRAFT
        )
        game.state.craft["D"].structure = 1
        if chased:
            game.state.missiles["M9"] = Missile(
                id="M9", side="Blue", target="D", hex=game.state.craft["D"].hex, pool=14
            )
        select_all(game, {"G#0": ("attack", "Missile/Torpedo", 0)})
        turn_of(game, "G#0", "move")
        game.apply(game.legal_actions()[0])
        turn_of(game, "G#0", "resolve")
        return best(game)

    assert launch_decision(chased=False) == A.Resolve(actor="G#0", target="D")
    assert launch_decision(chased=True) == A.Resolve(actor="G#0")


# ---- personas ---------------------------------------------------------------------------


def test_the_personas_are_player_kinds_of_their_own() -> None:
    for name in PERSONAS:
        player = make_player(f"heuristic:{name}", "sfa")
        assert isinstance(player, SfaHeuristic)
        assert player.w != Weights()
        assert player.name == f"heuristic:{name}"


def test_the_cautious_persona_shields_where_the_plain_heuristic_fires() -> None:
    game = under_fire("regular")
    plain = best(game)
    cautious = best(game, make_player("heuristic:cautious", "sfa"))  # type: ignore[arg-type]
    assert isinstance(plain, A.Select) and plain.kind == "attack"
    assert cautious == A.Select(actor="B#0", kind="equipment", item="force_field")


def test_the_aggressive_persona_does_not_hide_behind_a_force_field() -> None:
    game = under_fire("rookie")
    aggressive = best(game, make_player("heuristic:aggressive", "sfa"))  # type: ignore[arg-type]
    assert best(game).kind == "equipment"
    assert aggressive.kind != "equipment"


def test_every_persona_file_gives_each_weight_a_comment() -> None:
    for name in PERSONAS:
        lines = persona_path(name).read_text(encoding="utf-8").splitlines()
        weights = [line for line in lines if line and not line.startswith("#")]
        assert weights
        assert all("#" in line for line in weights), name


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("lost_weight: 1.0\n", "field 'lost_weight': not a weight"),
        ("loss_weight: .nan\n", "field 'loss_weight'"),
        ("loss_weight: fast\n", "field 'loss_weight': 'fast' is not a number"),
        ("shield: -1\n", "field 'shield': -1 is not a finite number of 0 or more"),
        ("- 1\n", "a persona file is a mapping"),
    ],
)
def test_a_bad_persona_file_is_refused_naming_file_and_field(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "odd.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_weights(path)
    assert str(path) in str(caught.value)
    assert message in str(caught.value)


def test_a_persona_file_changes_only_what_it_names(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("shield: 2.5  # shields up\n", encoding="utf-8")
    weights = load_weights(path)
    assert weights.shield == 2.5
    assert weights.loss_weight == Weights().loss_weight
    assert math.isfinite(weights.cloak)
