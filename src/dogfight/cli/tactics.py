"""The `tactics` group: figures of how a computer player plays a ruleset's tactics,
counted over seeded battles. Each ruleset declares its command (`Ruleset.commands()`,
group "tactics"), built into `dogfight tactics NAME` by cli/ruleset_commands.py.

Registered on the shared app when `dogfight.cli.main` imports this module.
"""

from __future__ import annotations

from dogfight.cli.common import app
from dogfight.cli.ruleset_commands import add_ruleset_commands, new_group
from dogfight.core.registry import all_rulesets

tactics_app = new_group("tactics")
app.add_typer(tactics_app)
add_ruleset_commands("tactics", tactics_app, all_rulesets())
