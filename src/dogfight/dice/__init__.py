"""Dice: seeded and scripted sources, rolls recorded for the event log."""

from dogfight.dice.roller import (
    Dice,
    DiceSource,
    Roll,
    ScriptedSource,
    ScriptExhausted,
    SeededSource,
    derive_seed,
    scripted,
    seeded,
)

__all__ = [
    "Dice",
    "DiceSource",
    "Roll",
    "ScriptExhausted",
    "ScriptedSource",
    "SeededSource",
    "derive_seed",
    "scripted",
    "seeded",
]
