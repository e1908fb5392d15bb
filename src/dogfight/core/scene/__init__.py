"""Building blocks of what the browser draws: plain shapes, the board adapter, the
free-table frame. Each ruleset's board (its `board.py`) is built from these."""
