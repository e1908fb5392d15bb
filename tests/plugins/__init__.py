"""Rulesets from outside the built-in ones, as a plugin package would ship them.

`toy` is a whole ruleset of its own (its data beside it, its own player and lab set-up);
`acta_variant` subclasses the built-in acta under a new name and changes nothing.
"""
