"""What every request must show before the server reads it, and the headers every
answer carries: the defences against other sites driving a player's browser.

- A request that changes something (POST, PUT, PATCH, DELETE) must send JSON. A page
  on another site can send a form or `text/plain` body without asking the browser's
  leave (a "simple" request); a JSON body always needs that leave, which we never give.
- If it says where it comes from (`Origin`), that must be this server. Clients that
  are not browsers send no Origin and are let through.
- The `Host` header must name this server, so that a site whose name is made to point
  at this machine (DNS rebinding) cannot read or drive its games.
- Every answer forbids framing and inline scripts, and sends no referrer (a game link
  holds a seat's token).
"""

from __future__ import annotations

import socket
from collections.abc import Iterable, Mapping
from urllib.parse import urlsplit

STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""The methods that change something and so must pass the cross-site checks."""

LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
"""Names of this machine that every server answers to."""

ANY_ADDRESS = frozenset({"", "0.0.0.0", "::"})
"""Listen addresses that mean every interface."""

SECURITY_HEADERS: Mapping[str, str] = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        "frame-ancestors 'none'"
    ),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
"""Sent with every answer."""


def allowed_hosts(listen: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """The host names a server listening on `listen` answers to: this machine's local
    names, the listen address itself and, when it listens on every interface, this
    machine's name and addresses; plus `extra` (`--allow-host`)."""
    names = set(LOCAL_NAMES)
    names.update(_bare(h) for h in extra if h.strip())
    if listen in ANY_ADDRESS:
        names.update(_this_machine())
    else:
        names.add(_bare(listen))
    return frozenset(n.lower() for n in names)


def _this_machine() -> set[str]:
    names = {socket.gethostname()}
    try:
        host, aliases, addresses = socket.gethostbyname_ex(socket.gethostname())
    except OSError:
        return names
    return names | {host, *aliases, *addresses}


def _bare(host: str) -> str:
    """A host without its port or IPv6 brackets."""
    host = host.strip()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host[1:]
    if host.count(":") == 1:
        return host.split(":", 1)[0]
    return host


def refusal(
    method: str, headers: Mapping[str, str], hosts: frozenset[str] | None
) -> tuple[int, str] | None:
    """Why a request is refused (status and one line), or None if it may go on.

    `headers` are the request's, with lower-case names; `hosts` None lets any Host in
    (a server made for tests or behind a proxy that checks it)."""
    host = headers.get("host", "")
    if hosts is not None and _bare(host).lower() not in hosts:
        return 421, (
            f"this server does not answer to the host name {host!r}; "
            "start it with --allow-host NAME to let that name in"
        )
    if method.upper() not in STATE_CHANGING:
        return None
    origin = headers.get("origin")
    if origin is not None and not _same_origin(origin, host):
        return 403, f"requests from another site ({origin}) may not change games"
    if headers.get("sec-fetch-site", "same-origin") == "cross-site":
        return 403, "requests from another site may not change games"
    media = headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media != "application/json":
        shown = media or "none"
        return 415, f"send the request body as JSON (Content-Type: application/json, not {shown})"
    return None


def _same_origin(origin: str, host: str) -> bool:
    if origin == "null":
        return False
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()
