"""`dogfight serve` and `dogfight play`: browser play over the web server (dogfight.web).

Registered on the main app by importing this module (see the end of cli/main.py).
"""

from __future__ import annotations

import socket
import webbrowser
from pathlib import Path
from typing import Annotated, Any

import typer

from dogfight.cli import output as out
from dogfight.cli.common import JsonFlag, RuleOption, ScenarioArg, app, seed_option
from dogfight.core.errors import DataError, DogfightError
from dogfight.core.options import parse_rule_args
from dogfight.core.registry import find_ruleset
from dogfight.core.scenario import load_scenario
from dogfight.web.cache import MEMORY_MB
from dogfight.web.sessions import COMPUTER_PROCESSES, HUMAN, SEAT_KINDS

DEFAULT_DB = Path("dogfight-games.sqlite")
"""Where games are kept unless --db says otherwise: a file in the current folder."""

HostOption = Annotated[str, typer.Option(help="Address to listen on (127.0.0.1: this machine).")]
PortOption = Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")]
AllowHostOption = Annotated[
    list[str] | None,
    typer.Option(
        "--allow-host",
        help="Another host name the server answers to (e.g. behind a proxy); repeatable.",
    ),
]
DbOption = Annotated[
    Path,
    typer.Option(help="SQLite file the games are kept in (made if missing).", dir_okay=False),
]


SHUTDOWN_S = 3
"""Seconds a stopping server waits for the requests still open before cutting them."""


def run_server(app_: Any, host: str, port: int) -> None:
    """Serve the app until interrupted (tests replace this to serve nothing)."""
    import uvicorn

    # A page's held long-poll (web/longpoll.py) would keep a stopping server waiting
    # for up to its whole wait: requests still open after a few seconds are cut (the
    # page asks again when the server is back; an action commits in milliseconds).
    uvicorn.run(
        app_,
        host=host,
        port=port,
        log_level="warning",
        timeout_graceful_shutdown=SHUTDOWN_S,
    )


MemoryOption = Annotated[
    int,
    typer.Option(
        "--memory-mb",
        min=1,
        max=1_000_000,
        metavar="MB",
        help="Megabytes the games in memory may take (estimated); past it the least "
        "recently used are dropped and rebuilt from the database when next asked.",
    ),
]


ProcessesOption = Annotated[
    int | None,
    typer.Option(
        "--computer-processes",
        min=0,
        max=64,
        help="Worker processes the computer decides in (default: one a processor, up "
        "to 4; 0: on the server's own threads).",
    ),
]


def _app(
    db: Path,
    host: str,
    allow_host: list[str] | None,
    memory_mb: int = MEMORY_MB,
    processes: int | None = None,
) -> Any:
    from dogfight.web.app import create_app
    from dogfight.web.guard import allowed_hosts

    if not db.parent.is_dir():
        raise DataError(f"{db}: no such folder {db.parent}")
    return create_app(
        db,
        hosts=allowed_hosts(host, allow_host or ()),
        memory_mb=memory_mb,
        computer_processes=COMPUTER_PROCESSES if processes is None else processes or None,
    )


def check_port_free(host: str, port: int) -> None:
    """Refuse a port another server already listens on, before any link is printed:
    a link printed first would answer from that other server."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        # As the server will: a port left in TIME_WAIT by a stopped server is free.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise DogfightError(
                f"--port {port}: cannot listen on {host}:{port} ({exc.strerror or exc}); "
                "another server may be using it: choose another with --port"
            ) from None


def _base_url(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
    if ":" in shown:
        shown = f"[{shown}]"  # an IPv6 address in a URL
    return f"http://{shown}:{port}"


@app.command()
def serve(
    host: HostOption = "127.0.0.1",
    port: PortOption = 8000,
    db: DbOption = DEFAULT_DB,
    allow_host: AllowHostOption = None,
    memory_mb: MemoryOption = MEMORY_MB,
    computer_processes: ProcessesOption = None,
) -> None:
    """Run the web server for browser play (lobby at http://HOST:PORT/)."""
    check_port_free(host, port)
    web = _app(db, host, allow_host, memory_mb, computer_processes)
    typer.echo(f"dogfight web server: {_base_url(host, port)}/ (games kept in {db})")
    run_server(web, host, port)


@app.command()
def play(
    scenario: ScenarioArg,
    as_side: Annotated[
        str | None, typer.Option("--as", help="The side you play (default: the first side).")
    ] = None,
    ai: Annotated[
        str,
        typer.Option("--ai", help="Computer player for the other sides: heuristic or random."),
    ] = "heuristic",
    rule: RuleOption = None,
    seed: Annotated[
        int | None,
        # The game database keeps the seed as a SQLite (64-bit) integer.
        seed_option("Seed of the dice (default: a random one)."),
    ] = None,
    host: HostOption = "127.0.0.1",
    port: PortOption = 8000,
    db: DbOption = DEFAULT_DB,
    allow_host: AllowHostOption = None,
    no_browser: Annotated[
        bool, typer.Option("--no-browser", help="Print the link; do not open a browser.")
    ] = False,
    json_out: JsonFlag = False,
) -> None:
    """Start a game against the computer in the browser: print its link, then serve."""
    loaded = load_scenario(scenario)
    try:
        find_ruleset(loaded.ruleset)
    except DogfightError as exc:
        raise DataError(f"{loaded.where}: field 'ruleset': {exc}") from None
    kind = ai.strip().lower()
    if kind not in SEAT_KINDS or kind == HUMAN:
        raise DogfightError(f"--ai {ai}: no computer player {ai!r}; kinds: heuristic, random")
    check_port_free(host, port)
    web = _app(db, host, allow_host)
    hub = web.state.hub
    from dogfight.core.game import Game

    sides = list(Game(loaded, seed=0).sides())
    side = _pick_side(as_side, sides)
    seats = {s: (HUMAN if s == side else kind) for s in sides}
    created = hub.create_from(loaded, seats, parse_rule_args(rule or []), seed)
    base = _base_url(host, port)
    link = f"{base}{created.seats[side].link}"
    spectator = f"{base}{created.spectator}"
    if json_out:
        out.print_json(
            {
                "game": created.game,
                "side": side,
                "link": link,
                "spectator": spectator,
                "db": str(db),
            }
        )
    else:
        typer.echo(f"{loaded.title}: you play {side}; the computer ({kind}) plays the rest")
        typer.echo(f"Your link:      {link}")
        typer.echo(f"Spectator link: {spectator}")
        typer.echo(f"Games kept in {db}; stop the server with Ctrl+C")
    if not no_browser:
        webbrowser.open(link)
    run_server(web, host, port)


def _pick_side(text: str | None, sides: list[str]) -> str:
    if text is None:
        return sides[0]
    if text in sides:
        return text
    folded = [s for s in sides if s.lower() == text.strip().lower()]
    if len(folded) == 1:
        return folded[0]
    raise DogfightError(
        f"--as {text}: no side {text!r} in this scenario; sides: {', '.join(sides)}"
    )
