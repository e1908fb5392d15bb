"""`dogfight bench --web`: the web server's latency and throughput over loopback, and
`--web-memory` the memory its live games hold.

The load figures come from a real server (`dogfight serve`, in its own process, so the
clients' threads do not share its GIL) and clients playing games against the
computer (heuristic opponents, the three rulesets in turn, two turns a game): first
one client, then many at once. A client plays as the page does: it acts, reads the
view the action's reply holds, and while the computer plays it long-polls the view
(`?after=VERSION&wait=S`, web/longpoll.py) until the game has moved.

Every request is timed: creating the game, each action, each view. A long-poll's
latency is its round trip less the time the server held it before the game moved
(the server says so in its `Server-Timing` header): the wait for the computer is not
the server's slowness, but the time from the computer's move to the client knowing
is. Throughput is the actions (both sides') committed a second.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import http.client
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import tracemalloc
import urllib.parse
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import msgspec
import yaml

from dogfight.core.data import package_data
from dogfight.core.game import Game
from dogfight.core.registry import all_rulesets
from dogfight.core.scenario import builtin_scenarios
from dogfight.sim.stats import nearest_rank


@functools.cache
def bench_scenarios() -> tuple[tuple[str, str, str, str], ...]:
    """(ruleset, scenario, person's side, computer's side): each ruleset's quick
    scenario (`Ruleset.quick_scenario`), played in turn by the clients, the person on
    the first side and the computer on the second."""
    out = []
    for ruleset in all_rulesets():
        scenarios = builtin_scenarios(ruleset.name)
        chosen = [s for s in scenarios if s.name == ruleset.quick_scenario] or scenarios[:1]
        for scenario in chosen:
            sides = list(Game(scenario, seed=0).sides())
            out.append((ruleset.name, scenario.name, sides[0], sides[-1]))
    return tuple(out)


WAIT_S = 30.0
"""How long a client's long-poll asks to be held at most."""


def held_seconds(headers: Any) -> float:
    """The seconds a long-poll was held before the game moved, from the server's
    `Server-Timing: held;dur=MS` header (0 without one)."""
    for part in headers.get("server-timing", "").split(","):
        name, _, rest = part.strip().partition(";")
        if name == "held" and rest.startswith("dur="):
            with contextlib.suppress(ValueError):
                return max(0.0, float(rest[4:]) / 1000)
    return 0.0


class LoadRun(msgspec.Struct, frozen=True, kw_only=True):
    """One load phase: `clients` playing a game each at once."""

    clients: int
    games: int
    requests: int
    actions: int
    seconds: float
    p50_ms: float
    p99_ms: float
    max_ms: float
    actions_per_s: float
    p99_by_request: dict[str, float] = {}
    """p99 in milliseconds of each kind of request: "create" (the game), "view" (the
    first view), "act" (an action), "wait" (a long-poll, its hold not counted)."""
    cores: float = 0.0
    """Processors busy on average while the phase ran: the server, its workers and
    the clients (this process), from their processor seconds over the wall time."""


class WebBench(msgspec.Struct, frozen=True, kw_only=True):
    """The load phases and the throughput of the many clients over the one."""

    runs: list[LoadRun]
    speedup: float
    resident_mb: float
    """The resident memory of the server and its worker processes at the end (Linux;
    0 where /proc is not there)."""
    server_cpu_s: float
    """Processor seconds the server's own process used while the many clients played."""
    workers_cpu_s: float
    """Processor seconds its worker processes used meanwhile."""
    processors: int = 0
    """This machine's processors."""
    ceiling: float = 0.0
    """The most the many clients' throughput could be over the one's on this machine
    with no cost added by the load: the processors over those the one client's
    phase kept busy (each of its requests waits for the last)."""


def _descendants(pid: int) -> list[int]:
    """Process `pid` and its descendants, from /proc (Linux; [pid] elsewhere)."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        with contextlib.suppress(OSError, ValueError):
            for task in Path(f"/proc/{current}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
    return found


def cpu_seconds(pid: int) -> tuple[float, float]:
    """Processor seconds used so far by process `pid` itself and by its descendants
    (its worker processes), from /proc (Linux; zeros elsewhere)."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    own, others = 0.0, 0.0
    for current in _descendants(pid):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            used = (int(fields[11]) + int(fields[12])) / tick
            if current == pid:
                own = used
            else:
                others += used
    return own, others


def resident_mb(pid: int) -> float:
    """The resident memory of process `pid` and its descendants, from /proc (Linux)."""
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        with contextlib.suppress(OSError, ValueError):
            for line in Path(f"/proc/{current}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
            for task in Path(f"/proc/{current}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
    return total / 1000


def small_scenario(ruleset: str, name: str, turns: int) -> str:
    """A built-in scenario's YAML, `turns` turns long."""
    raw = yaml.safe_load((package_data(ruleset, "scenarios") / f"{name}.yaml").read_text())
    raw["turn_limit"] = turns
    return yaml.safe_dump(raw, sort_keys=False)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def served(extra: list[str]) -> Iterator[tuple[str, int]]:
    """A `dogfight serve` process on a fresh database; yields its base URL and pid."""
    port = _free_port()
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-m", "dogfight", "serve", "--port", str(port)]
        command += ["--db", str(Path(folder) / "bench.sqlite"), *extra]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                if _answers(base):
                    break
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("the benchmark's server did not start")
                time.sleep(0.2)
            yield base, server.pid
        finally:
            server.terminate()
            server.wait(60)


class _Client:
    """A plain HTTP/1.1 client over one kept-alive connection (the standard library's):
    the load's clients share the machine's processors with the server, and a heavier
    client library's own cost would be counted as the server's latency."""

    def __init__(self, base: str, timeout: float) -> None:
        parts = urllib.parse.urlsplit(base)
        self._host, self._port, self._timeout = parts.hostname or "", parts.port, timeout
        self._connection: http.client.HTTPConnection | None = None

    def request(
        self, method: str, path: str, params: dict[str, Any] | None = None, json: Any = None
    ) -> tuple[int, http.client.HTTPMessage, bytes]:
        """The status, headers and body of one request (a dropped kept-alive
        connection is opened again once)."""
        if params:
            path += "?" + urllib.parse.urlencode(params)
        body = msgspec.json.encode(json) if json is not None else None
        headers = {"Content-Type": "application/json"} if body is not None else {}
        for attempt in (1, 2):
            if self._connection is None:
                self._connection = http.client.HTTPConnection(
                    self._host, self._port, timeout=self._timeout
                )
            try:
                self._connection.request(method, path, body=body, headers=headers)
                reply = self._connection.getresponse()
                return reply.status, reply.headers, reply.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        """Close the connection (a later request opens a new one)."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None


def _answers(base: str) -> bool:
    """Whether the server at `base` answers (its list of rulesets)."""
    probe = _Client(base, timeout=5)
    try:
        return probe.request("GET", "/api/rulesets")[0] == 200
    except (OSError, http.client.HTTPException):
        return False
    finally:
        probe.close()


def _play(base: str, number: int, turns: int, kind: str) -> tuple[list[tuple[str, float]], int]:
    """One client's game to the end: each request's kind and seconds, and the actions
    taken."""
    scenarios = bench_scenarios()
    ruleset, name, human, computer = scenarios[number % len(scenarios)]
    rng = random.Random(number)
    times: list[tuple[str, float]] = []
    client = _Client(base, timeout=300)

    def timed(label: str, method: str, path: str, **kwargs: Any) -> Any:
        start = time.perf_counter()
        status, headers, body = client.request(method, path, **kwargs)
        times.append((label, time.perf_counter() - start - held_seconds(headers)))
        if status >= 400:
            raise RuntimeError(f"{method} {path}: {status} {body.decode(errors='replace')}")
        return msgspec.json.decode(body)

    try:
        made = timed(
            "create",
            "POST",
            "/api/games",
            json={
                "ruleset": ruleset,
                "scenario_text": small_scenario(ruleset, name, turns),
                "seats": {human: "human", computer: kind},
                "seed": number,
            },
        )
        game, token = made["game"], made["seats"][human]["token"]
        shown = timed("view", "GET", f"/api/games/{game}", params={"token": token})
        while not shown["over"]:
            if not shown["your_turn"]:
                params = {"token": token, "after": shown["version"], "wait": WAIT_S}
                shown = timed("wait", "GET", f"/api/games/{game}", params=params)
                continue
            choice = shown["actions"][rng.randrange(len(shown["actions"]))]
            body = {"token": token, "index": choice["index"], "version": shown["version"]}
            shown = timed("act", "POST", f"/api/games/{game}/actions", json=body)
        return times, int(shown["version"])
    finally:
        client.close()


def _busy_seconds(pid: int) -> float:
    """Processor seconds used so far by the server `pid`, its workers and this process."""
    mine = os.times()
    return sum(cpu_seconds(pid)) + mine.user + mine.system


def load_run(
    base: str, clients: int, games: int, turns: int, kind: str, pid: int | None = None
) -> LoadRun:
    """`games` games played by `clients` clients at once (each its next game in turn);
    with the server's `pid`, the processors they kept busy are counted too."""
    busy = _busy_seconds(pid) if pid is not None else 0.0
    start = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        results = list(pool.map(lambda n: _play(base, n, turns, kind), range(games)))
    seconds = time.perf_counter() - start
    busy = _busy_seconds(pid) - busy if pid is not None else 0.0
    labelled = [t for r in results for t in r[0]]
    times = [seconds for _, seconds in labelled]
    actions = sum(r[1] for r in results)
    kinds = sorted({label for label, _ in labelled})
    return LoadRun(
        clients=clients,
        games=games,
        requests=len(times),
        actions=actions,
        seconds=seconds,
        p50_ms=1000 * nearest_rank(times, 0.5),
        p99_ms=1000 * nearest_rank(times, 0.99),
        max_ms=1000 * max(times),
        actions_per_s=actions / seconds,
        p99_by_request={
            k: 1000 * nearest_rank([t for label, t in labelled if label == k], 0.99) for k in kinds
        },
        cores=busy / seconds if seconds > 0 else 0.0,
    )


def bench_web(
    clients: int = 50,
    solo_games: int = 6,
    turns: int = 2,
    kind: str = "heuristic",
    processes: int | None = None,
) -> WebBench:
    """One client playing `solo_games` games one after another, then `clients` clients
    playing a game each at once, against one fresh server (its computer deciding in
    `processes` worker processes; None: the server's default, 0: on its threads)."""
    extra = [] if processes is None else ["--computer-processes", str(processes)]
    with served(extra) as (base, pid):
        # Warm the server: imports, worker processes, each ruleset's data files read
        # once (a fresh server's first game of a ruleset reads its catalogues).
        for number in range(len(bench_scenarios())):
            _play(base, number, 1, kind)
        solo = load_run(base, 1, solo_games, turns, kind, pid)
        before = cpu_seconds(pid)
        many = load_run(base, clients, clients, turns, kind, pid)
        after = cpu_seconds(pid)
        memory = resident_mb(pid)
    return WebBench(
        runs=[solo, many],
        speedup=many.actions_per_s / solo.actions_per_s,
        resident_mb=memory,
        server_cpu_s=after[0] - before[0],
        workers_cpu_s=after[1] - before[1],
        processors=os.cpu_count() or 1,
        ceiling=(os.cpu_count() or 1) / solo.cores if solo.cores > 0 else 0.0,
    )


class MemoryRun(msgspec.Struct, frozen=True, kw_only=True):
    """The memory `games` live games held, by ruleset of the games copied."""

    games: int
    traced_mb: float
    estimated_mb: float
    per_game_kb: float


def bench_web_memory(games: int = 1000, actions: int = 40, seed: int = 1) -> MemoryRun:
    """Python memory (tracemalloc) held by `games` live games in one hub, each a
    game of the rulesets' scenarios in turn `actions` actions in (both sides played
    by random choices), its player's and spectator's views built: as a server holds
    games that people play. No computer players are made here (a server's computer
    decides in worker processes)."""
    from dogfight.core.game import Game
    from dogfight.core.scenario import scenario_from_raw
    from dogfight.web.sessions import Hub
    from dogfight.web.store import Store

    with tempfile.TemporaryDirectory() as folder:
        hub = Hub(
            Store(Path(folder) / "memory.sqlite"),
            max_live=games + 1,
            computer_workers=None,
            memory_bytes=10**12,
        )
        made = []
        for number, (ruleset, name, human, other) in enumerate(bench_scenarios()):
            raw = yaml.safe_load(small_scenario(ruleset, name, 8))
            game = Game(scenario_from_raw(raw, name), seed=seed + number)
            rng = random.Random(seed + number)
            while len(game.actions) < actions and not game.is_over():
                legal = game.legal_actions()
                game.apply(legal[rng.randrange(len(legal))])
            made.append((game, {human: "human", other: "human"}))
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        for number in range(games):
            game, seats = made[number % len(made)]
            created = hub._start(game.clone(), seats, list(game.actions))
            token = created.seats[next(iter(seats))].token
            hub.view(created.game, token)
            hub.view(created.game, None)
        gc.collect()
        traced = tracemalloc.get_traced_memory()[0] - before
        tracemalloc.stop()
        estimated = hub.games.held_bytes()
        hub.close()
    return MemoryRun(
        games=games,
        traced_mb=traced / 1e6,
        estimated_mb=estimated / 1e6,
        per_game_kb=traced / games / 1e3,
    )
