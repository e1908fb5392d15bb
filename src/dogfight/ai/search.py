"""The search player: looks ahead by playing the game out in worlds its side may imagine.

At each decision it takes its guide's choice (the ruleset's heuristic) and the guide's
next best actions, those of the same unit first (`WeighingPlayer.weigh` when the guide
has it, else the guide's choice and some other legal actions), and weighs them by
determinized expectimax of depth one:

- a *world* is a game drawn with `Seat.sample`, consistent with what the side knows
  (the other side's secrets resampled, the dice reseeded); the real game's dice and
  hidden things are never read;
- in each world every candidate still in the running is played, then the game is played
  on by the guide for both sides across `horizon` turn ends, and the
  position is valued for the side: +1 for a win and -1 for a loss once the game is
  over, plus the difference of the sides' standings (`Ruleset.standing`, the turn
  limit's count, e.g. the share of enemy strength destroyed);
- all candidates are played in the same worlds with the same playout seeds, so their
  difference is not drowned by the luck of the dice;
- the budget, counted in simulations (one candidate played out in one world), is spent
  by sequential halving: rounds of equal shares, the worse half dropped after each.

The budget is a count, never a time, so a game replays exactly; the defaults are the
ruleset's `search_budget` and `search_horizon` (about half a second a decision).
Everything random comes from the generator the player is given.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from dogfight.ai.random_player import RandomPlayer
from dogfight.core.errors import DogfightError, IllegalAction
from dogfight.core.game import Game
from dogfight.core.play import Player, RememberingPlayer, Weighed, WeighingPlayer
from dogfight.core.ruleset import Ruleset
from dogfight.core.seat import Seat

DEFAULT_WIDTH = 4
"""Candidates weighed at a decision: the guide's best few (more spreads the budget thin)."""

PLAYOUT_CAP = 400
"""Most actions in one playout: a safety stop far beyond any turn of a built-in scenario."""

PRIOR = 0.05
"""Value added for the guide's first choice (half that for its second, a third for its
third...): a candidate must come out clearly better to overturn the guide's order (a few
simulations are noisy), and among those the simulations cannot tell apart the guide
decides."""

SIMULATIONS_PER_CANDIDATE = 4
"""A budget weighs at most one candidate per this many simulations (a small budget
weighs fewer candidates rather than each on one noisy playout)."""

ILLEGAL_VALUE = -3.0
"""The value of a candidate the rules refuse in a drawn world (below any outcome)."""

GuideFactory = Callable[[], Player]


def guide_kind(offered: Mapping[str, GuideFactory]) -> str:
    """The kind the search follows among those a ruleset offers: its heuristic, else the
    ruleset's first own kind that is neither random nor a search, else random."""
    if "heuristic" in offered:
        return "heuristic"
    for kind in offered:
        base = kind.partition(":")[0]
        if base not in ("random", "search"):
            return kind
    return "random"


def parse_budget(arg: str) -> int:
    """The budget in `search:BUDGET`: a whole number of simulations, 1 to 100000."""
    text = arg.strip()
    if not text.isdigit() or not 1 <= int(text) <= 100_000:
        raise DogfightError(
            f"search:{arg}: the budget is a whole number of simulations from 1 to 100000"
        )
    return int(text)


@dataclass
class Candidate:
    """One action being weighed and what its simulations gave so far."""

    action: Any
    rank: int
    """Its place in the guide's order (0: the guide's choice)."""
    source: str
    """Where it came from, in words: the guide's ranking and reason, or a random draw."""
    total: float = 0.0
    visits: int = 0
    wins: int = 0
    losses: int = 0
    dropped_after: int = 0
    """The round after which sequential halving dropped it (0: never dropped)."""

    @property
    def mean(self) -> float:
        """The mean value of its simulations (0 before any)."""
        return self.total / self.visits if self.visits else 0.0


class SearchPlayer:
    """Chooses by simulation among the guide's best candidates (see the module's doc).

    `budget` counts simulations (None: the ruleset's `search_budget`); `width` is how
    many candidates are weighed; `horizon` how many turn ends a playout crosses (None:
    the ruleset's `search_horizon`; 0 stops at the end of the turn being decided).
    """

    name = "search"

    def __init__(
        self,
        budget: int | None = None,
        *,
        width: int = DEFAULT_WIDTH,
        horizon: int | None = None,
    ) -> None:
        if budget is not None and budget < 1:
            raise ValueError("a search budget is at least one simulation")
        if width < 1 or (horizon is not None and horizon < 0):
            raise ValueError("a search weighs at least one candidate, over a horizon >= 0")
        self.budget = budget
        self.width = width
        self.horizon = horizon
        self._guides: dict[str, Player] = {}

    @classmethod
    def with_arg(cls, arg: str) -> SearchPlayer:
        """The player of kind `search:ARG`: ARG is its budget in simulations."""
        return cls(parse_budget(arg))

    # ---- the Player and WeighingPlayer protocols ----------------------------------------

    def decide(self, seat: Seat, legal: list[Any], rng: random.Random) -> Any:
        """The candidate whose simulations came out best."""
        return self.weigh(seat, legal, rng)[0].action

    def weigh(self, seat: Seat, legal: list[Any], rng: random.Random) -> list[Weighed]:
        """The candidates weighed, best first, each with its mean simulated value and,
        in words, how many simulations it had and how they came out."""
        # One draw from the caller's generator per decision: what the search does inside
        # never shifts the generator for the decisions after it.
        inner = random.Random(rng.getrandbits(64))
        budget = self.budget if self.budget is not None else seat.ruleset.search_budget
        width = min(self.width, max(1, budget // SIMULATIONS_PER_CANDIDATE))
        candidates = self.candidates(seat, legal, inner, width)
        if len(candidates) == 1:
            only = candidates[0]
            why = (
                "the only legal action" if len(legal) == 1 else f"the only candidate: {only.source}"
            )
            return [Weighed(only.action, 0.0, why)]
        guide = self.guide(seat.ruleset)
        remembers = guide if isinstance(guide, RememberingPlayer) else None
        if remembers is not None:
            # The playouts of one decision pass through the same positions again and
            # again; what the guide worked out at one is good for this decision only.
            remembers.remember_positions(True)
        try:
            self.halve(seat, candidates, budget, inner)
        finally:
            if remembers is not None:
                remembers.remember_positions(False)
        ranked = sorted(candidates, key=self._order)
        return [Weighed(c.action, round(c.mean, 4), self._words(c)) for c in ranked]

    # ---- the steps ----------------------------------------------------------------------

    def guide(self, ruleset: Ruleset) -> Player:
        """The player whose choices the search weighs and who plays its playouts."""
        found = self._guides.get(ruleset.name)
        if found is None:
            from dogfight.ai import players_of

            offered = players_of(ruleset)
            kind = guide_kind(offered)
            found = self._guides[ruleset.name] = (
                offered[kind]() if kind in offered else RandomPlayer()
            )
        return found

    def candidates(
        self, seat: Seat, legal: list[Any], rng: random.Random, width: int
    ) -> list[Candidate]:
        """The guide's choice and its next best distinct actions, up to `width`: first
        those of the same unit (`Ruleset.actor_of`), then those of the whole side, then
        the rest, the guide's order kept within each. The ranking is the guide's `weigh`
        when it has one, else its choice and the other legal actions drawn with `rng`.

        Why the same unit first: where the rules let a side move its units in any order,
        the guide's next choices are mostly the first moves of other units, worth about
        as much as its choice, and the budget would go on telling equals apart; other
        moves of the unit it chose are a real alternative."""
        if len(legal) == 1:
            return [Candidate(legal[0], 0, "the only legal action")]
        guide = self.guide(seat.ruleset)
        kind = getattr(guide, "name", "guide")
        ranked: list[tuple[Any, str]] = []
        guide_rng = random.Random(rng.getrandbits(64))
        if isinstance(guide, WeighingPlayer):
            for place, weighed in enumerate(guide.weigh(seat, legal, guide_rng), start=1):
                why = weighed.reason or f"scored {weighed.score:g}"
                ranked.append((weighed.action, f"the {kind}'s {_ordinal(place)} choice: {why}"))
        else:
            ranked.append((guide.decide(seat, legal, guide_rng), f"the {kind}'s choice"))
            others = list(legal)
            rng.shuffle(others)
            ranked.extend(
                (action, "a legal action drawn at random to compare") for action in others
            )
        actor_of = seat.ruleset.actor_of
        first = actor_of(ranked[0][0])

        def group(item: tuple[Any, str]) -> int:
            actor = actor_of(item[0])
            return 0 if actor == first else 1 if actor is None else 2

        found: list[Candidate] = []
        seen: set[bytes] = set()
        for action, source in [ranked[0], *sorted(ranked[1:], key=group)]:
            key = msgspec.json.encode(action)
            if key not in seen:
                seen.add(key)
                found.append(Candidate(action, len(found), source))
                if len(found) == width:
                    break
        return found

    def halve(
        self, seat: Seat, candidates: list[Candidate], budget: int, rng: random.Random
    ) -> None:
        """Spend `budget` simulations on `candidates` by sequential halving, every
        candidate of a round played in the same drawn worlds."""
        alive = list(candidates)
        rounds = max(1, math.ceil(math.log2(len(alive))))
        guide = self.guide(seat.ruleset)
        for number in range(1, rounds + 1):
            share = max(1, (budget // rounds) // len(alive))
            for _ in range(share):
                world = seat.sample(random.Random(rng.getrandbits(64)))
                playout_seed = rng.getrandbits(64)
                for candidate in alive:
                    self.simulate(world, seat.side, candidate, guide, playout_seed)
            if number == rounds or len(alive) == 1:
                break
            alive.sort(key=self._order)
            keep = math.ceil(len(alive) / 2)
            for dropped in alive[keep:]:
                dropped.dropped_after = number
            alive = alive[:keep]

    def simulate(
        self, world: Game, side: str, candidate: Candidate, guide: Player, seed: int
    ) -> None:
        """Play `candidate` in a copy of `world`, play on, and add the value to it."""
        game = world.clone()
        try:
            game.apply(candidate.action)
        except IllegalAction:
            candidate.total += ILLEGAL_VALUE
            candidate.visits += 1
            return
        horizon = self.horizon if self.horizon is not None else game.ruleset.search_horizon
        playout(game, guide, random.Random(seed), horizon)
        value = position_value(game, side)
        outcome = game.outcome()
        if outcome is not None and outcome.winner is not None:
            if outcome.winner == side:
                candidate.wins += 1
            else:
                candidate.losses += 1
        candidate.total += value
        candidate.visits += 1

    # ---- ordering and words -------------------------------------------------------------

    def _order(self, candidate: Candidate) -> tuple[int, float, int]:
        # Kept to the end first, then by mean value, the guide's order breaking near-ties.
        prior = PRIOR / (1 + candidate.rank)
        kept = candidate.dropped_after or 10**6
        return (-kept, -(candidate.mean + prior), candidate.rank)

    def _words(self, c: Candidate) -> str:
        plays = f"{c.visits} simulation{'s' if c.visits != 1 else ''}"
        ended = f", game won in {c.wins}, lost in {c.losses}" if c.wins or c.losses else ""
        dropped = f", dropped after round {c.dropped_after}" if c.dropped_after else ""
        return f"{plays} worth {c.mean:+.2f} on average{ended}{dropped}; {c.source}"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def playout(game: Game, guide: Player, rng: random.Random, horizon: int) -> None:
    """Play `game` on with `guide` deciding for every side, until the game is over or
    `horizon` turn ends have passed (at most `PLAYOUT_CAP` actions)."""
    start = game.state.turn
    for _ in range(PLAYOUT_CAP):
        if game.is_over() or game.state.turn > start + horizon:
            return
        side = game.current_player()
        if side is None:
            return
        legal = game.legal_actions()
        if not legal:
            return
        game.apply(guide.decide(Seat(game, side), legal, rng))


def position_value(game: Game, side: str) -> float:
    """How good `game` is for `side`: +1 won, -1 lost (0 otherwise), plus its standing
    (`Ruleset.standing`) less the best standing of the other sides."""
    standing = game.ruleset.standing(game.state)
    mine = standing.get(side, 0.0)
    theirs = max((v for s, v in standing.items() if s != side), default=0.0)
    value = mine - theirs
    outcome = game.outcome()
    if outcome is not None and outcome.winner is not None:
        value += 1.0 if outcome.winner == side else -1.0
    return value
