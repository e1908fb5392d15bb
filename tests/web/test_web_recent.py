"""The board's what-happened layer (the SCENE's `recent`, dogfight.web.recent) and the
envelope's holes: built only from what a seat may see, and agreeing with the rules."""

from __future__ import annotations

import math
import random

import msgspec
import yaml

from dogfight.core.errors import IllegalAction
from dogfight.core.game import Game, new_game
from dogfight.core.scenario import scenario_from_raw
from dogfight.web import views
from dogfight.web.boards import board_for

from .test_web_hidden import preferred, stealth_duel


def scene_of(game: Game, seat: str | None) -> dict:
    built = views.build_view(
        game, game_id="g", seat=seat, seats={}, step=None, can_undo=False, unit_sides={}
    )
    return built["scene"]


def test_trails_run_from_the_turns_start_to_where_units_stand() -> None:
    game = new_game("furball", seed=3)
    rng = random.Random(1)
    turn = game.state.turn
    starts = {u["id"]: (u["x"], u["y"]) for u in scene_of(game, "Empire")["units"]}
    trails = 0
    while game.state.turn < 4 and not game.is_over():
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
        scene = scene_of(game, "Empire")
        now = {u["id"]: (u["x"], u["y"]) for u in scene["units"]}
        if game.state.turn != turn:
            # a new turn: its trails start where the units stand now
            turn, starts = game.state.turn, now
            continue
        recent = scene["recent"]
        if recent["turn"] != turn:
            continue  # nothing has happened yet this turn: the last turn's are shown
        for trail in recent["trails"]:
            trails += 1
            assert (trail["x1"], trail["y1"]) == starts[trail["unit"]]
            assert (trail["x2"], trail["y2"]) == now[trail["unit"]]
        moved = {i for i in now if i in starts and now[i] != starts[i]}
        assert moved <= {t["unit"] for t in recent["trails"]}
    assert trails


def test_recent_never_shows_a_craft_the_seat_cannot_see() -> None:
    """A cloaked craft of the other side leaves no trail, attack line or wreck in a
    seat's scene (nor in a spectator's)."""
    game = Game(scenario_from_raw(yaml.safe_load(stealth_duel()), "test"), seed=4)
    for _ in range(200):
        if game.state.craft["W2"].cloaked:
            break
        side = game.current_player()
        shown = [
            {"index": i, "action": msgspec.to_builtins(a)}
            for i, a in enumerate(game.legal_actions())
        ]
        game.apply(game.legal_actions()[preferred(str(side), shown)["index"]])
    assert game.state.craft["W2"].cloaked
    for seat in ("Corsairs", None):
        recent = scene_of(game, seat)["recent"]
        named = {t["unit"] for t in recent["trails"]} | {w["unit"] for w in recent["wrecks"]}
        named |= {a["attacker"] for a in recent["attacks"]} | {
            a["target"] for a in recent["attacks"]
        }
        assert "W2" not in named
    mine = scene_of(game, "Wardens")
    w2 = next(u for u in mine["units"] if u["id"] == "W2")
    assert w2["marks"] == ["cloaked"]


def test_an_acta_envelopes_holes_are_the_points_the_rules_refuse() -> None:
    """ACTA-FTR-3: inside a hole a move is refused for stacking; just outside it, the
    stacking rule has nothing against it."""
    game = new_game("furball", seed=3)
    board = board_for("acta")
    while not board.envelopes(game):
        game.apply(game.legal_actions()[0])
    height = game.state.table.height
    checked = 0
    for unit, envelope in board.envelopes(game).items():
        for hole in [s for s in envelope["shapes"] if s["cls"] == "blocked"]:
            for k in range(8):
                a = 2 * math.pi * k / 8
                for frac, refused in ((0.95, True), (1.02, False)):
                    x = hole["x"] + frac * hole["r"] * math.cos(a)
                    y = hole["y"] + frac * hole["r"] * math.sin(a)
                    others = [
                        o
                        for o in envelope["shapes"][1:]
                        if o is not hole and math.hypot(x - o["x"], y - o["y"]) < o["r"]
                    ]
                    if not refused and others:
                        continue
                    try:
                        board.compose_move(game, unit, x, y, 0.0)
                        problem = ""
                    except IllegalAction as exc:
                        problem = str(exc)
                    if "ACTA-FTR-2" in problem or "off the table" in problem:
                        continue  # beyond the move's reach: not what the hole is about
                    assert ("ACTA-FTR-3" in problem) == refused, (unit, x, height - y, problem)
                    checked += 1
    assert checked
