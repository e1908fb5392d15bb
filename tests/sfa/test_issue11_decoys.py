"""Issue 11 item 10: the Holo-Projector (SFA-TEC-16). Nothing the other side is shown
tells decoy from craft, and the decoy may be switched off and on at any time during the
turn.

The seed: "Projects a holographic decoy of a spacecraft up to 5 hexes away ... The decoy
may be turned off and on at any time during the turn."
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from dogfight.ai import make_player
from dogfight.core import Event, Game
from dogfight.core.errors import IllegalAction
from dogfight.core.scenario import scenario_from_raw
from dogfight.core.seat import Seat
from dogfight.rulesets.sfa import actions as A
from dogfight.rulesets.sfa.names import shown_name
from dogfight.rulesets.sfa.state import SfaState

from .builders import (
    BLUE,
    RED,
    at,
    craft,
    design,
    finish_turn,
    fly,
    make_game,
    pass_windows,
    run_until,
    scenario_raw,
    select,
    weapon,
)

HOLO = design("holo", weapon("light_laser"), power=5, technologies=["holo_projector"])
PLAIN = design("plain", weapon("light_laser"), weapon("heavy_laser"))
ALIAS = re.compile(r"^[A-Z]x\d+$")
PROJECT = A.Select(actor="B1#0", kind="equipment", item="holo_projector")


def projected(where: tuple[int, int] = (5, 6)) -> Game:
    """B1 (a Holo-Projector) flies to (5, 8) and projects a decoy at `where`; R1 at
    (5, 3) faces it."""
    game = make_game(
        craft(0, "holo", (5, 9), 0, id="B1"),
        craft(1, "plain", (5, 3), 3, id="R1"),
        designs=[HOLO, PLAIN],
    )
    select(game, {"B1#0": PROJECT})
    fly(game, "B1", "F")
    pass_windows(game)
    game.apply(A.Resolve(actor="B1#0", at=at(*where)))
    return game


def blue_pieces(game: Game, seat: str | None = RED) -> dict[str, dict[str, Any]]:
    """Blue's pieces as `seat` is shown them, by the name it is shown."""
    return {k: v for k, v in game.observation(seat)["craft"].items() if v["side"] == BLUE}


def names_in(event: Event) -> str:
    """An event's text and data, as one string to search for ids."""
    return f"{event.text} {event.data}"


def word(name: str) -> re.Pattern[str]:
    """`name` as a whole word (an actor key 'B1#0' included)."""
    return re.compile(rf"(?<![\w~-]){re.escape(name)}(?![\w~-])")


# ---- one id format for craft and decoy ------------------------------------------------


def test_SFA_TEC_16_craft_and_decoy_get_fresh_aliases_of_one_format() -> None:
    """SFA-TEC-16: Red was shown B1 as Bx1; once the decoy is up it is shown two pieces,
    both under fresh aliases of the same form, with the same fields and values but for
    the id and the place. Blue still sees its own ids and its decoy as a decoy."""
    game = make_game(
        craft(0, "holo", (5, 9), 0, id="B1"),
        craft(1, "plain", (5, 3), 3, id="R1"),
        designs=[HOLO, PLAIN],
    )
    assert set(blue_pieces(game)) == {"Bx1"}
    select(game, {"B1#0": PROJECT})
    fly(game, "B1", "F")
    pass_windows(game)
    game.apply(A.Resolve(actor="B1#0", at=at(5, 6)))
    seen = blue_pieces(game)
    assert set(seen) == {"Bx2", "Bx3"}
    one, two = seen.values()
    assert set(one) == set(two)
    assert {k for k in one if one[k] != two[k]} == {"id", "hex"}
    assert set(blue_pieces(game, None)) == {"Bx2", "Bx3"}
    mine = game.observation(BLUE)
    assert "B1" in mine["craft"] and list(mine["decoys"]) == list(game.state.decoys)
    assert "names" not in game.observation(RED) and "name_sides" not in game.observation(RED)


def test_SFA_TEC_16_a_decoy_has_its_projectors_actors() -> None:
    """SFA-TEC-16: in the next turn Red is shown an actor, a Speed and a place in the
    order for both pieces, not only for the craft."""
    game = projected()
    finish_turn(game)
    assert game.state.turn == 2 and game.state.phase == "select"
    seen = game.observation(RED)
    stations = [k for k in seen["to_select"] if k.startswith("Bx")]
    assert sorted(stations) == sorted(f"{name}#0" for name in blue_pieces(game))
    assert len(stations) == 2
    select(game, {})
    seen = game.observation(RED)
    assert sorted(k for k in seen["speeds"] if k.startswith("Bx")) == stations
    assert len({seen["speeds"][k] for k in stations}) == 1


def _forward(game: Game) -> A.Move:
    craft_id = game.state.acting.rpartition("#")[0]
    return A.Move(craft=craft_id, steps="F")


# ---- the log --------------------------------------------------------------------------


def test_SFA_TEC_16_no_event_shown_to_red_names_a_real_blue_id() -> None:
    """SFA-TEC-16: no event Red or a spectator is shown names B1 or the decoy's real id,
    and neither fresh alias appears in the log before the projection."""
    game = projected()
    decoy = next(iter(game.state.decoys))
    for seat in (RED, None):
        log = game.events_for(seat)
        for event in log:
            for real in ("B1", decoy):
                assert not word(real).search(names_in(event)), (seat, event)
    # Red is told its view changed, by names only; neither fresh one has a history.
    log = game.events_for(RED)
    fresh = set(blue_pieces(game))
    first = next(i for i, e in enumerate(log) if any(n in e.text for n in fresh))
    assert log[first].clause == "SFA-TEC-16"
    assert "Bx1" in log[first].text  # the name Red knew it by, retired
    assert any(word("B1").search(e.text) for e in game.events_for(BLUE))


def test_SFA_TEC_16_the_decoy_is_logged_flying_like_a_craft() -> None:
    """SFA-TEC-16: when B1 flies, Red's log shows two flights, one per piece it sees."""
    game = projected()
    finish_turn(game)
    select(game, {})
    run_until(game, "B1#0", "move")
    fly(game, "B1", "F")
    turn = [e for e in game.events_for(RED) if e.data.get("turn") == 2]
    flights = [e for e in turn if e.clause == "SFA-MOV-1" and str(e.data["unit"]).startswith("Bx")]
    assert sorted(str(e.data["unit"]) for e in flights) == sorted(blue_pieces(game))
    assert {e.text.split(" ", 1)[1] for e in flights} == {"(holo) flies F"}


# ---- naming targets -------------------------------------------------------------------


def test_SFA_TEC_16_red_names_blue_pieces_by_their_aliases() -> None:
    """SFA-TEC-16: Red's legal targets are the names it is shown; a real id of a Blue
    piece is refused with a reason; a shot at the decoy's alias rolls nothing and the
    decoy vanishes, its projector never named."""
    game = projected((5, 10))  # behind B1: both are ahead of R1 at its shot
    finish_turn(game)
    select(game, {"R1#0": A.Select(actor="R1#0", kind="attack", item="Light Laser")})
    run_until(game, "R1#0", "resolve")
    targets = {a.target for a in game.legal_actions() if isinstance(a, A.Resolve) and a.target}
    assert targets and targets <= set(blue_pieces(game))
    with pytest.raises(IllegalAction, match="as you are shown them"):
        game.check(A.Resolve(actor="R1#0", target="B1"))
    decoy = next(iter(game.state.decoys.values()))
    alias = shown_name(game.state, RED, decoy.id)
    assert alias in targets
    count = game.dice.count
    events = game.apply(A.Resolve(actor="R1#0", target=alias))
    assert not game.state.decoys and game.dice.count == count
    shown = [game.ruleset.event_view(game.state, e, RED) for e in events]
    assert any(e is not None and f"{alias} was a decoy" in e.text for e in shown)


# ---- switching it off and on ------------------------------------------------------------


def blue_decides(game: Game) -> None:
    """Take Red's decisions (first offered, moving one hex) until Blue decides."""
    for _ in range(50):
        if game.current_player() == BLUE:
            return
        game.apply(_forward(game) if game.state.step == "move" else game.legal_actions()[0])
    raise AssertionError("Blue never decided")  # pragma: no cover


def test_SFA_TEC_16_switch_the_decoy_off_and_on_at_any_decision() -> None:
    """SFA-TEC-16 ("may be turned off and on at any time during the turn"): at each of
    Blue's decisions the switch is offered, costs no action, and Blue then decides what it
    was deciding; off, Red sees one piece under a fresh alias and cannot target the decoy;
    on again, two under fresh aliases. Each decoy switches once per decision."""
    game = projected()
    blue_decides(game)
    off = A.Hologram(craft="B1", on=False)
    assert off in game.legal_actions()
    before = (game.state.phase, game.state.step, game.state.to_select, game.state.acting)
    seen_before = set(blue_pieces(game))
    game.apply(off)
    assert game.current_player() == BLUE
    assert (game.state.phase, game.state.step, game.state.to_select, game.state.acting) == before
    seen = blue_pieces(game)
    assert len(seen) == 1 and not set(seen) & seen_before
    assert all(ALIAS.match(name) for name in seen)
    assert A.Hologram(craft="B1", on=True) not in game.legal_actions()
    with pytest.raises(IllegalAction, match="switched at this decision"):
        game.check(A.Hologram(craft="B1", on=True))
    with pytest.raises(IllegalAction, match="already off"):
        game.check(off)
    red_log = [e for e in game.events_for(RED) if e.clause == "SFA-TEC-16"]
    assert red_log and not any(word("B1").search(names_in(e)) for e in red_log)
    # Blue's decision goes on; at its next one it may switch the decoy back on.
    game.apply(next(a for a in game.legal_actions() if not isinstance(a, A.Hologram)))
    blue_decides(game)
    on = A.Hologram(craft="B1", on=True)
    assert on in game.legal_actions()
    last = set(blue_pieces(game))
    game.apply(on)
    now = set(blue_pieces(game))
    assert len(now) == 2 and not now & (last | seen_before)


def test_SFA_TEC_16_a_decoy_switched_off_is_no_target() -> None:
    """SFA-TEC-16: while off, the decoy is not among Red's targets."""
    game = projected((5, 10))  # behind B1: both are ahead of R1 at its shot
    finish_turn(game)
    select(game, {"R1#0": A.Select(actor="R1#0", kind="attack", item="Light Laser")})
    run_until(game, "R1#0", "resolve")
    decoy = next(iter(game.state.decoys.values()))
    aimed = {a.target for a in game.legal_actions() if isinstance(a, A.Resolve) and a.target}
    assert shown_name(game.state, RED, decoy.id) in aimed and len(aimed) == 2
    decoy.on = False
    targets = {a.target for a in game.legal_actions() if isinstance(a, A.Resolve) and a.target}
    assert len(targets) == 1 and targets <= set(blue_pieces(game))
    assert decoy.id not in targets and shown_name(game.state, RED, decoy.id) not in targets


def test_SFA_TEC_16_a_side_without_a_projector_keeps_its_ids() -> None:
    """SFA-TEC-16: Blue cannot project, so nothing needs hiding: Red sees B1."""
    game = make_game(
        craft(0, "plain", (5, 9), 0, id="B1"),
        craft(1, "holo", (5, 3), 3, id="R1"),
        designs=[HOLO, PLAIN],
    )
    assert "B1" in game.observation(RED)["craft"]
    assert set(game.observation(BLUE)["craft"]) == {"B1", "Rx1"}


# ---- whole games ------------------------------------------------------------------------


GADGET = design(
    "gadget",
    weapon("light_laser"),
    weapon("medium_laser"),
    power=10,
    move=3,
    technologies=["holo_projector", "stealth", "teleport"],
)


def gadget_game(seed: int) -> Game:
    """Two projectors a side, close together."""
    raw = scenario_raw(
        craft(0, "gadget", (5, 9), 0, id="B1"),
        craft(0, "gadget", (8, 10), 0, id="B2"),
        craft(1, "gadget", (5, 5), 3, id="R1"),
        craft(1, "gadget", (8, 4), 3, id="R2"),
        designs=[GADGET],
        size=(14, 14),
        turn_limit=5,
    )
    return Game(scenario_from_raw(raw, "test"), seed=seed)


def nothing_tells(game: Game, start: int) -> None:
    """Each seat (and a spectator) is shown the other side's pieces under aliases of one
    form, a shown decoy exactly as its projector but for id and place, with the same
    actors; its log from event `start` on names no real id of the other side."""
    state: SfaState = game.state
    for seat in (*state.sides, None):
        seen = game.observation(seat)
        hidden = {
            c.id
            for c in state.craft.values()
            if c.side != seat and c.side in state.name_sides.values()
        } | {d.id for d in state.decoys.values() if state.owner[d.owner] != seat}
        for cid, shown in seen["craft"].items():
            if shown["side"] != seat and shown["side"] in state.name_sides.values():
                assert ALIAS.match(cid), (seat, cid)
        for decoy in state.decoys.values():
            if state.owner[decoy.owner] == seat or not decoy.on or decoy.owner not in state.craft:
                continue  # not shown (a decoy left behind when its projector went)
            fake = seen["craft"][shown_name(state, seat, decoy.id)]
            real = seen["craft"].get(shown_name(state, seat, decoy.owner))
            if real is not None:
                assert {k for k in fake if fake[k] != real[k]} <= {"id", "hex"}
            stations = {
                k.rpartition("#")[2] for k in seen["speeds"] if k.startswith(fake["id"] + "#")
            }
            owner = shown_name(state, seat, decoy.owner)
            assert stations == {
                k.rpartition("#")[2] for k in seen["speeds"] if k.startswith(owner + "#")
            }
        log = game.events_for(seat)
        patterns = [word(real) for real in hidden]
        for event in log[start:]:
            assert not any(p.search(names_in(event)) for p in patterns), (seat, event)


def keen(legal: list[Any], rng: random.Random) -> list[Any]:
    """The actions a random player picks from, leaning towards projecting decoys and
    switching them, so that a short game has plenty of them."""
    for wanted in (
        lambda a: isinstance(a, A.Select) and a.item == "holo_projector",
        lambda a: isinstance(a, A.Resolve) and a.at is not None,
        lambda a: isinstance(a, A.Hologram),
        lambda a: isinstance(a, A.Pass),  # an abort would drop the projection
        lambda a: isinstance(a, A.Move) and not a.abort,
    ):
        some = [a for a in legal if wanted(a)]
        if some and rng.random() < 0.8:
            return some
    return legal


@pytest.mark.parametrize("seed", range(3))
def test_SFA_TEC_16_whole_random_games_never_tell_decoy_from_craft(seed: int) -> None:
    """SFA-TEC-16: over whole random games of projector-laden craft, no seat is shown
    anything that tells a decoy from a craft by its name, fields or actors."""
    game = gadget_game(seed)
    rng = random.Random(seed)
    decoys = 0
    for _ in range(3000):
        if game.is_over():
            break
        game.apply(rng.choice(keen(game.legal_actions(), rng)))
        decoys += bool(game.state.decoys)
        nothing_tells(game, 0)
    assert decoys


def test_SFA_TEC_16_heuristic_games_never_tell_decoy_from_craft() -> None:
    """SFA-TEC-16: the same over a game the heuristic player plays on both sides, which
    names targets as it is shown them."""
    game = gadget_game(7)
    player = make_player("heuristic", game.ruleset.name)
    rng = random.Random(7)
    decoys = 0
    for _ in range(1500):
        if game.is_over():
            break
        legal = game.legal_actions()
        # Steered to project and switch decoys, which its own choices rarely do.
        project = [
            a
            for a in legal
            if (isinstance(a, A.Select) and a.item == "holo_projector")
            or (isinstance(a, A.Resolve) and a.at is not None)
            or isinstance(a, A.Hologram)
        ]
        if project and rng.random() < 0.5:
            game.apply(rng.choice(project))
            continue
        game.apply(player.decide(Seat(game), legal, rng))
        decoys += bool(game.state.decoys)
        nothing_tells(game, 0)
    assert game.is_over() and decoys


def test_SFA_TEC_16_the_public_speeds_list_the_decoy_too() -> None:
    """SFA-TEC-16: the public reveal of Speeds (SFA-SEQ-2) lists an actor for both
    pieces Red sees, with the same Speed."""
    game = projected()
    finish_turn(game)
    select(game, {})
    (reveal,) = [
        e
        for e in game.events_for(RED)
        if e.clause == "SFA-SEQ-2" and e.data.get("turn") == 2 and "speeds" in e.data
    ]
    blue = {k: v for k, v in reveal.data["speeds"].items() if k.startswith("Bx")}
    assert sorted(blue) == sorted(f"{name}#0" for name in blue_pieces(game))
    assert len(set(blue.values())) == 1
    assert all(word(k).search(reveal.text) for k in blue)


def test_SFA_TEC_16_a_duplicated_projector_veils_its_new_side() -> None:
    """SFA-TEC-16, SFA-TEC-08: R1 copies B1's Holo-Projector with its Duplicator; from
    then on Blue is shown Red's pieces under aliases too, while the events logged before
    keep the name Blue was shown then."""
    copier = design("copier", weapon("light_laser"), power=20, technologies=["duplicator"])
    game = make_game(
        craft(0, "holo", (5, 9), 0, id="B1"),
        craft(1, "copier", (5, 6), 3, id="R1"),
        designs=[HOLO, copier],
    )
    assert "R1" in game.observation(BLUE)["craft"]
    select(game, {"R1#0": A.Select(actor="R1#0", kind="equipment", item="duplicator")})
    run_until(game, "R1#0", "resolve")
    early = len(game.events)
    target = shown_name(game.state, RED, "B1")
    game.apply(A.Resolve(actor="R1#0", target=target))
    assert game.state.types[game.state.craft["R1"].type].has("holo_projector")
    assert set(game.observation(BLUE)["craft"]) == {"B1", "Rx1"}
    shown = [game.ruleset.event_view(game.state, e, BLUE) for e in game.events]
    before = [e for e in shown[:early] if e is not None]
    assert any(word("R1").search(e.text) for e in before)
    after = [e for e in shown[early:] if e is not None]
    assert after and not any(word("R1").search(names_in(e)) for e in after)
