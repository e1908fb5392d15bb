"""The `odds` group: exact odds of one resolution (counted, not sampled), optionally
drawn. Each ruleset declares its kinds (`Ruleset.commands()`, group "odds"); they are
built into `dogfight odds RULESET KIND` by cli/ruleset_commands.py.

Registered on the shared app when `dogfight.cli.main` imports this module.
"""

from __future__ import annotations

from dogfight.cli.common import app
from dogfight.cli.ruleset_commands import add_ruleset_commands, new_group
from dogfight.core.registry import all_rulesets

odds_app = new_group("odds")
app.add_typer(odds_app)
add_ruleset_commands("odds", odds_app, all_rulesets(), per_ruleset=True)
