"""Plain `--help`: every option shows a short word for the value it takes (N, X, TEXT,
PATH) or nothing for a flag, and every argument its name, instead of what the installed
typer would print by itself (`<bool>` beside every flag, `<int range>`, a 64-bit range).

`tidy` sets the metavars once, when the command tree is built (`cli.common._Group`),
so the help reads the same whatever typer release renders it; a metavar a command sets
itself (SIDE=KIND, FILE) is kept.
"""

from __future__ import annotations

import re
from typing import Any

from typer.core import TyperArgument


class _NamedArgument(TyperArgument):
    """An argument whose help row shows its name only (the name says what it takes)."""

    def display_type_rich(self, ctx: Any) -> str | None:
        """No type column: 'SCENARIO', not 'SCENARIO <str>'."""
        return None

    def _rich_display_name(self) -> str:
        """'UNITS...' for an argument that takes several values."""
        return f"{self.display_name_raw}..." if self.nargs != 1 else self.display_name_raw

    def _usage_display_name(self) -> str:
        """The usage line's 'SCENARIO' or '[UNITS]...' (the common convention)."""
        name = self.display_name_raw if self.required else f"[{self.display_name_raw}]"
        return f"{name}..." if self.nargs != 1 else name


def value_word(param: Any) -> str | None:
    """The metavar of an option or argument that has none of its own: '' for a flag,
    'a|b' for a choice, N, X, PATH or TEXT; None to leave what typer prints.

    Read by duck typing: typer releases describe a parameter's type differently (click's
    `type`, or typer's own `type_descriptor`)."""
    if getattr(param, "is_flag", False):
        return ""
    described = getattr(param, "type_descriptor", None)
    if described is not None:
        if described.is_choice:
            return _choices(described.choices)
        if described.is_path or described.is_file:
            return "PATH"
        kind: Any = described.annotation
        name = getattr(kind, "__name__", "")
    else:
        name = type(getattr(param, "type", None)).__name__
        if name == "Choice":
            return _choices(getattr(param.type, "choices", None))
        name = {"IntParamType": "int", "IntRange": "int", "FloatParamType": "float"}.get(
            name, "path" if name in ("Path", "File") else name
        )
        if name == "path":
            return "PATH"
    return {"int": "N", "float": "X"}.get(name, "TEXT")


def _choices(choices: Any) -> str | None:
    """'group|weapon' for a choice (an Enum's values), or None to leave typer's."""
    values = [str(getattr(c, "value", c)) for c in choices or ()]
    return "|".join(values) if values else None


def tidy(command: Any) -> None:
    """Give every parameter of `command` and of its subcommands (all levels) a plain
    metavar (`value_word`), arguments their upper-case name."""
    for param in command.params:
        if param.metavar is not None:
            continue
        if param.param_type_name == "argument":
            if type(param) is TyperArgument:
                param.metavar = (param.name or "value").upper()
                param.__class__ = _NamedArgument
            continue
        word = value_word(param)
        if word is not None:
            param.metavar = word
    if isinstance(getattr(command, "help", None), str):
        command.help = reflow(command.help)
    _tidy_help_option(command)
    commands: dict[str, Any] = getattr(command, "commands", None) or {}
    for sub in commands.values():
        tidy(sub)


_LIST_ITEM = re.compile(r"\s|[-*] |\d+[.)] ")


def reflow(text: str) -> str:
    """A docstring's paragraphs each on one line, so the help wraps at the terminal's
    width instead of at the source's line ends (which left ragged half-lines in a
    narrower terminal); a paragraph holding a list or indented lines is kept as written."""
    paragraphs = []
    for paragraph in text.strip().split("\n\n"):
        lines = paragraph.split("\n")
        if any(_LIST_ITEM.match(line) for line in lines[1:]):
            paragraphs.append(paragraph)
        else:
            paragraphs.append(" ".join(line.strip() for line in lines))
    return "\n\n".join(paragraphs)


def _tidy_help_option(command: Any) -> None:
    """`--help` is made by click per command when asked for: wrap the method that makes
    it, so that flag too shows no value word."""
    make = getattr(command, "get_help_option", None)
    if make is None or getattr(make, "_tidied", False):
        return

    def get_help_option(ctx: Any) -> Any:
        option = make(ctx)
        if option is not None and option.metavar is None:
            option.metavar = ""
        return option

    get_help_option._tidied = True  # type: ignore[attr-defined]
    command.get_help_option = get_help_option
