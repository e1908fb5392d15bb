"""The built-in rulesets.

Each is registered through the `dogfight.rulesets` entry point (see pyproject);
importing this package also registers them, for source trees never installed.
"""

from dogfight.core.registry import register
from dogfight.rulesets.acta.ruleset import ActaRuleset
from dogfight.rulesets.evo.ruleset import EvoRuleset
from dogfight.rulesets.sfa.ruleset import SfaRuleset

register(ActaRuleset())
register(EvoRuleset())
register(SfaRuleset())
