"""The built-in acta ruleset under a new name, changing nothing: a plugin's subclass.

Everything it has (units, scenarios, players, odds, board, lab set-up) it inherits."""

from __future__ import annotations

from dogfight.rulesets.acta.ruleset import ActaRuleset


class ActaVariant(ActaRuleset):
    """acta, registered as 'acta-variant' (its parent's aliases stay the parent's)."""

    name = "acta-variant"
    title = "acta under another name (a test plugin)"
