"""dogfight: an engine for tabletop space-fighter combat.

Three rule systems share one engine: `acta` (fighters for A Call to Arms:
Star Fleet), `evo` (Babylon 5 fighters on Battlefield Evolution) and `sfa`
(Space Fighter Alpha). Find a ruleset with `find_ruleset(name)` and start a
game with `new_game(scenario, seed=...)`.
"""

__version__ = "0.1.0"

ENGINE_VERSION = __version__
"""Written into every game file; replay refuses files from another major version."""
