"""`dogfight bench --web`'s figures: the processors each load phase kept busy, and the
ceiling they put on the throughput of many clients over one (issue 16, item 16)."""

from __future__ import annotations

import os
import time

import pytest

from dogfight.web.bench import _Client, bench_web, served

KEEP_ALIVE_S = 5
"""uvicorn's default keep-alive: an idle connection is closed after it."""


@pytest.mark.slow
def test_each_phase_counts_the_processors_it_kept_busy_and_the_ceiling_follows() -> None:
    found = bench_web(clients=2, solo_games=1, turns=1)
    solo, many = found.runs
    assert (solo.clients, many.clients) == (1, 2)
    assert solo.actions > 0 and many.actions > 0
    # One client's requests wait for each other, so its phase keeps about one
    # processor busy at most (the server, a worker or the client at a time).
    assert 0.0 < solo.cores <= 1.5
    assert 0.0 < many.cores <= found.processors + 0.1
    assert found.processors == os.cpu_count()
    assert found.ceiling == pytest.approx(found.processors / solo.cores)
    assert found.speedup == pytest.approx(many.actions_per_s / solo.actions_per_s)


@pytest.mark.slow
def test_the_client_opens_its_connection_again_after_the_server_dropped_it() -> None:
    with served([]) as (base, _pid):
        client = _Client(base, timeout=10)
        try:
            assert client.request("GET", "/api/rulesets")[0] == 200
            assert client._connection is not None
            # The server closes a connection idle past its keep-alive (uvicorn: 5 s).
            time.sleep(KEEP_ALIVE_S + 1.5)
            status, _headers, body = client.request("GET", "/api/rulesets")
            assert status == 200 and b"acta" in body
        finally:
            client.close()
