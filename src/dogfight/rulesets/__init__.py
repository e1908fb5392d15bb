"""The built-in rulesets; importing this package registers them."""

from dogfight.core.registry import register
from dogfight.rulesets.acta.ruleset import ActaRuleset

register(ActaRuleset())
