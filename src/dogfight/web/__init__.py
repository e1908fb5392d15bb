"""Browser play: a web server over the Game API (see docs/web-api.md)."""
