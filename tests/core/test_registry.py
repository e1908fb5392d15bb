"""The ruleset registry under concurrent first use (a web server's first requests)."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_first_lookups_from_many_threads_all_find_the_ruleset() -> None:
    # A fresh interpreter, so the registry has not been loaded yet: twenty threads
    # ask at once, and every one must find 'sfa' (before the fix, most got UnknownName).
    code = textwrap.dedent(
        """
        import threading
        from dogfight.core.registry import find_ruleset
        barrier = threading.Barrier(20)
        failures = []
        def ask():
            barrier.wait()
            try:
                find_ruleset("sfa")
            except Exception as exc:
                failures.append(repr(exc))
        threads = [threading.Thread(target=ask) for _ in range(20)]
        for t in threads: t.start()
        for t in threads: t.join()
        print(len(failures))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "0"
