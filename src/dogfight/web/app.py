"""The web server: a FastAPI app over the live games (routes as in docs/web-api.md).

Every refusal is JSON `{"error": "..."}` with the contract's status, never a trace.
Handlers that play or read games run in the thread pool, so games proceed side by
side; bodies are read here first, capped at `MAX_BODY` bytes.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, TypeVar

import anyio.to_thread
import msgspec
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from dogfight import __version__
from dogfight.ai import player_kinds
from dogfight.core.errors import DogfightError
from dogfight.core.game import Game
from dogfight.core.limits import find_problem
from dogfight.core.registry import all_rulesets, find_ruleset
from dogfight.core.scenario import builtin_scenario_files, load_scenario
from dogfight.web.cache import MEMORY_MB
from dogfight.web.errors import BadRequest, NotFound, TooLarge, status_of
from dogfight.web.guard import SECURITY_HEADERS, refusal
from dogfight.web.longpoll import Changes, check_wait, view_after
from dogfight.web.requests import ActionBody, MoveBody, NewGame, ScenarioText, UndoBody
from dogfight.web.rules_text import find_clause
from dogfight.web.sessions import COMPUTER_PROCESSES, COMPUTER_WORKERS, MAX_LIVE, Hub
from dogfight.web.store import Store
from dogfight.web.why import explain_step

MAX_BODY = 256 * 1024
"""The largest request body taken (a scenario or game file upload): 256 KiB."""
STATIC_DIR = Path(__file__).parent / "static"
REQUEST_THREADS = 100
"""Threads answering requests at once (each game's requests take turns on its lock)."""

LOG = logging.getLogger("dogfight.web")

T = TypeVar("T")


def json_response(data: Any, status: int = 200) -> Response:
    """A JSON answer encoded by msgspec (the view holds Structs-made plain data)."""
    return Response(msgspec.json.encode(data), status_code=status, media_type="application/json")


class Guard:
    """The checks of `guard.refusal` on every HTTP request (refused in one line of
    JSON) and `guard.SECURITY_HEADERS` on every answer that does not set its own."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str] | None) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    if name not in headers:
                        headers[name] = value
            await send(message)

        refused = refusal(scope["method"], Headers(scope=scope), self.hosts)
        if refused is not None:
            await error_response(*refused)(scope, receive, secured)
            return
        await self.app(scope, receive, secured)


def error_response(status: int, message: str) -> Response:
    """The one error shape of the API."""
    line = " ".join(str(message).split())  # one line, whatever the message held
    return json_response({"error": line}, status)


async def read_body(request: Request, limit: int = MAX_BODY) -> bytes:
    """The request body, refused with 413 past `limit` bytes (declared or sent)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise TooLarge(
            f"request body of {int(declared)} bytes is over the {limit // 1024} KiB limit"
        )
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise TooLarge(f"request body is over the {limit // 1024} KiB limit")
        chunks.append(chunk)
    return b"".join(chunks)


def decode(raw: bytes, kind: type[T]) -> T:
    """A JSON body as `kind`; malformed JSON or a bad field is a 400 naming it."""
    if not raw.strip():
        raise BadRequest("the request body is empty; send a JSON object")
    try:
        value = msgspec.json.decode(raw, type=kind)
        # Whether the decoder overflows on deep nesting depends on the interpreter's
        # recursion limit (a library may raise it): the depth is checked here as well,
        # without recursion, so a deep body is refused the same way every time.
        problem = find_problem(msgspec.to_builtins(value), numbers=False)
    except msgspec.ValidationError as exc:
        raise BadRequest(f"bad request body: {exc}") from None
    except msgspec.DecodeError as exc:
        raise BadRequest(f"malformed JSON in the request body: {exc}") from None
    except RecursionError:
        raise BadRequest("the request body is nested too deeply to read") from None
    if problem is not None and "nested" in problem[1]:
        raise BadRequest("the request body is nested too deeply to read")
    return value


@functools.cache
def lobby() -> list[dict[str, Any]]:
    """Every ruleset with its built-in scenarios (and their sides) and its options."""
    rows = []
    for ruleset in all_rulesets():
        scenarios = []
        for path in builtin_scenario_files(ruleset.name):
            scenario = load_scenario(str(path))
            scenarios.append(
                {
                    "name": path.stem,
                    "title": scenario.title,
                    "description": scenario.description,
                    "sides": list(Game(scenario, seed=0).sides()),
                }
            )
        rows.append(
            {
                "name": ruleset.name,
                "title": ruleset.title,
                "scenarios": scenarios,
                "players": list(player_kinds(ruleset)),
                "options": [
                    {
                        "name": o.name,
                        "default": o.default,
                        "doc": o.doc,
                        "choices": list(o.choices) if o.choices else None,
                        "type": type(o.default).__name__,
                    }
                    for o in ruleset.options
                ],
            }
        )
    return rows


def create_app(
    db_path: Path | str,
    *,
    static_dir: Path | None = None,
    max_live: int = MAX_LIVE,
    hosts: frozenset[str] | None = None,
    people_choose_seeds: bool = False,
    computer_workers: int | None = COMPUTER_WORKERS,
    computer_processes: int | None = COMPUTER_PROCESSES,
    memory_mb: float = MEMORY_MB,
) -> FastAPI:
    """The web app, its games kept in the SQLite file `db_path` (and at most `max_live`
    of them in memory at once), answering to the host names `hosts` (None: any; the
    CLI passes `guard.allowed_hosts` of its listen address). `people_choose_seeds` is
    for tests only: it lets a game between people be made with a chosen seed. The
    computer thinks on `computer_workers` threads outside the requests (None: inside
    the request that made its turn due, as tests that read its answer at once want),
    each decision made in one of `computer_processes` worker processes (None: on the
    thread itself). The games in memory are held to about `memory_mb` megabytes (see
    web/cache.py); the store has every game, so one dropped is rebuilt when next asked."""
    # Load the ruleset plugins now, in one thread: the registry's first load is not
    # safe against the concurrent first requests of a fresh server.
    all_rulesets()
    hub = Hub(
        Store(db_path),
        max_live,
        people_choose_seeds=people_choose_seeds,
        computer_workers=computer_workers,
        computer_processes=computer_processes,
        memory_bytes=int(memory_mb * 1_000_000),
    )
    static = static_dir or STATIC_DIR

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # A request waiting on a worker process (a view being built) holds one of
        # these threads without the GIL: Starlette's default of 40 would queue the
        # 41st client's request behind them.
        anyio.to_thread.current_default_thread_limiter().total_tokens = REQUEST_THREADS
        yield
        # On SIGTERM or Ctrl+C uvicorn ends the app here: the write-ahead log goes into
        # the database file, so that the file alone holds every game.
        hub.close()
        hub.store.checkpoint()

    app = FastAPI(
        title="dogfight", version=__version__, docs_url=None, redoc_url=None, lifespan=lifespan
    )
    app.state.hub = hub
    changes = Changes()
    hub.on_change = changes.moved
    app.state.changes = changes

    # A plain ASGI middleware, not Starlette's `@app.middleware("http")`: that one
    # runs every request through a task and memory streams of its own, a cost paid
    # on every request of every page.
    app.add_middleware(Guard, hosts=hosts)

    @app.exception_handler(DogfightError)
    async def _dogfight_error(request: Request, exc: DogfightError) -> Response:
        return error_response(status_of(exc), str(exc))

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError) -> Response:
        problems = []
        for error in exc.errors():
            where = ".".join(str(p) for p in error.get("loc", ()))
            problems.append(f"{where}: {error.get('msg', 'invalid')}")
        return error_response(400, "bad request: " + "; ".join(problems))

    @app.exception_handler(HTTPException)
    async def _http_error(request: Request, exc: HTTPException) -> Response:
        if exc.status_code == 404:
            return error_response(404, f"no such page or route: {request.url.path}")
        if exc.status_code == 405:
            return error_response(405, f"{request.method} is not allowed on {request.url.path}")
        return error_response(exc.status_code, str(exc.detail))

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> Response:
        # A bug, not bad input: the trace goes to the server's log; the answer is one
        # line without the exception's text, which could quote hidden state.
        LOG.error("internal error on %s %s", request.method, request.url.path, exc_info=exc)
        return error_response(
            500, f"internal error ({type(exc).__name__}); the server's log has the details"
        )

    # ---- the page ------------------------------------------------------------------

    def page(name: str) -> Response:
        path = static / name
        if not path.is_file():
            raise NotFound(f"the page {name} is not installed with this server")
        return FileResponse(path, media_type="text/html")

    @app.get("/", include_in_schema=False)
    def index() -> Response:
        return page("index.html")

    @app.get("/game/{game}", include_in_schema=False)
    def game_page(game: str) -> Response:
        return page("game.html")

    app.mount("/static", StaticFiles(directory=static, check_dir=False), name="static")

    # ---- the lobby -----------------------------------------------------------------

    @app.get("/api/rulesets")
    def rulesets() -> Response:
        return json_response(lobby())

    @app.post("/api/games")
    async def create_game(request: Request) -> Response:
        body = decode(await read_body(request), NewGame)
        created = await run_in_threadpool(hub.create, body)
        return json_response(created, 201)

    @app.post("/api/scenarios/read")
    async def read_scenario(request: Request) -> Response:
        body = decode(await read_body(request), ScenarioText)
        return json_response(await run_in_threadpool(hub.read_upload, body))

    @app.post("/api/games/open")
    async def open_game(request: Request, seats: str | None = None) -> Response:
        raw = await read_body(request)
        if not raw.strip():
            raise BadRequest("the request body is empty; send a game file")
        created = await run_in_threadpool(hub.open_file, raw, seats)
        return json_response(created, 201)

    # ---- playing -------------------------------------------------------------------

    @app.get("/api/games/{game}")
    async def show_game(
        game: str,
        token: str | None = None,
        step: int | None = None,
        after: int | None = None,
        wait: float | None = None,
    ) -> Response:
        check_wait(after, wait, step)
        if after is None or wait is None:
            return json_response(await run_in_threadpool(hub.view, game, token, step))
        # A long-poll (web/longpoll.py): held until the game moves past `after`. The
        # time held before the move is told in Server-Timing, so that a client can
        # count the time from the move to its answer, not the wait.
        view, held = await view_after(hub, changes, game, token, after, wait)
        answer = json_response(view)
        answer.headers["Server-Timing"] = f"held;dur={1000 * held:.1f}"
        return answer

    @app.get("/api/games/{game}/position")
    async def position(game: str, step: int, token: str | None = None) -> Response:
        # The board steps through the computer's actions with these (web/review.py).
        return json_response(await run_in_threadpool(hub.step_view, game, token, step))

    @app.post("/api/games/{game}/actions")
    async def act(game: str, request: Request) -> Response:
        body = decode(await read_body(request), ActionBody)

        def run() -> dict[str, Any]:
            return hub.act(
                game, body.token, index=body.index, action=body.action, version=body.version
            )

        return json_response(await run_in_threadpool(run))

    @app.post("/api/games/{game}/move")
    async def move(game: str, request: Request) -> Response:
        body = decode(await read_body(request), MoveBody)

        view = await run_in_threadpool(
            hub.move, game, body.token, body.unit, body.x, body.y, body.facing
        )
        return json_response(view)

    @app.post("/api/games/{game}/undo")
    async def undo(game: str, request: Request) -> Response:
        body = decode(await read_body(request), UndoBody)

        return json_response(await run_in_threadpool(hub.undo, game, body.token))

    @app.get("/api/games/{game}/why")
    async def why(game: str, step: int, token: str | None = None) -> Response:
        def run() -> dict[str, Any]:
            live = hub.get(game)
            return explain_step(live, live.seat_of(token), step)

        return json_response(await run_in_threadpool(run))

    @app.get("/api/games/{game}/file")
    def game_file(game: str, token: str | None = None) -> Response:
        name, data = hub.game_file(game, token)
        return Response(
            data,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    @app.get("/api/rules/{ruleset}/{clause}")
    def rule(ruleset: str, clause: str) -> Response:
        try:
            name = find_ruleset(ruleset).name
        except DogfightError as exc:
            raise NotFound(str(exc)) from None
        return json_response(find_clause(name, clause))

    return app
