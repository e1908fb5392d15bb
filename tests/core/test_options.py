"""Rule options: parsing values, layering defaults < scenario < --rule, --rule syntax."""

from __future__ import annotations

import pytest

from dogfight.core import Option, OptionError, parse_rule_args, resolve_options
from dogfight.core.options import options_as_dict

FLAG = Option(name="escorts", default=True, doc="Escorts may intercept.")
COUNT = Option(name="turns", default=6, doc="Turn limit.")
RATIO = Option(name="scale", default=1.0, doc="Table scale.")
MODE = Option(name="arcs", default="strict", doc="Arc rule.", choices=("strict", "loose"))
FREE = Option(name="label", default="", doc="Any text.")

DECLARED = [FLAG, COUNT, RATIO, MODE, FREE]


@pytest.mark.parametrize("raw", ["true", "True", " yes ", "on", "1", True])
def test_bool_true(raw: object) -> None:
    assert FLAG.parse(raw) is True


@pytest.mark.parametrize("raw", ["false", "NO", "off", "0", False])
def test_bool_false(raw: object) -> None:
    assert FLAG.parse(raw) is False


@pytest.mark.parametrize("raw", ["maybe", "", "2"])
def test_bool_refuses_other_text(raw: str) -> None:
    with pytest.raises(OptionError, match="option 'escorts' takes true or false"):
        FLAG.parse(raw)


@pytest.mark.parametrize("raw", [1, 0, 1.0])
def test_bool_refuses_numbers(raw: object) -> None:
    with pytest.raises(OptionError, match="'escorts' does not take a number"):
        FLAG.parse(raw)


def test_int_from_text_and_native() -> None:
    assert COUNT.parse("8") == 8
    assert COUNT.parse(" -3 ") == -3
    assert COUNT.parse(9) == 9
    value = COUNT.parse(4.0)
    assert value == 4
    assert type(value) is int


@pytest.mark.parametrize("raw", ["eight", "2.5", 2.5])
def test_int_refuses_non_whole(raw: object) -> None:
    with pytest.raises(OptionError, match="'turns' takes a whole number"):
        COUNT.parse(raw)


def test_int_refuses_bool() -> None:
    with pytest.raises(OptionError, match="'turns' does not take true/false"):
        COUNT.parse(True)


def test_float_from_text_and_native() -> None:
    assert RATIO.parse("0.5") == 0.5
    value = RATIO.parse(2)
    assert value == 2.0
    assert type(value) is float
    assert RATIO.parse(1.25) == 1.25


def test_float_refuses_text() -> None:
    with pytest.raises(OptionError, match="'scale' takes a number, not 'big'"):
        RATIO.parse("big")


def test_str_and_choices() -> None:
    assert MODE.parse("loose") == "loose"
    assert MODE.parse("  strict ") == "strict"
    assert FREE.parse("anything at all") == "anything at all"
    with pytest.raises(OptionError, match="'arcs' must be one of strict, loose, not 'wild'"):
        MODE.parse("wild")


def test_str_refuses_numbers_and_other_types() -> None:
    with pytest.raises(OptionError, match="'label' does not take a number"):
        FREE.parse(3)
    with pytest.raises(OptionError, match="'label' cannot take"):
        FREE.parse(["a"])
    with pytest.raises(OptionError, match="'turns' cannot take None"):
        COUNT.parse(None)


def test_error_names_where() -> None:
    with pytest.raises(OptionError) as err:
        COUNT.parse("x", where="scenarios/duel.yaml")
    assert str(err.value).startswith("scenarios/duel.yaml: option 'turns'")


def test_resolve_defaults_only() -> None:
    assert resolve_options(DECLARED) == {
        "escorts": True,
        "turns": 6,
        "scale": 1.0,
        "arcs": "strict",
        "label": "",
    }


def test_resolve_layers_override_in_order() -> None:
    scenario = {"turns": 10, "arcs": "loose", "escorts": False}
    rules = {"turns": "12", "escorts": "yes"}
    values = resolve_options(DECLARED, (scenario, "duel.yaml"), (rules, "--rule"))
    assert values["turns"] == 12  # --rule beats the scenario
    assert values["escorts"] is True
    assert values["arcs"] == "loose"  # scenario beats the default
    assert values["scale"] == 1.0  # untouched default


def test_resolve_unknown_option_lists_known() -> None:
    with pytest.raises(OptionError) as err:
        resolve_options(DECLARED, ({"turnz": 3}, "duel.yaml"))
    message = str(err.value)
    assert message.startswith("duel.yaml: unknown rule option 'turnz'")
    assert "arcs, escorts, label, scale, turns" in message


def test_resolve_unknown_with_no_options() -> None:
    with pytest.raises(OptionError, match=r"known options: \(none\)"):
        resolve_options([], ({"x": 1}, ""))


def test_resolve_bad_value_names_layer() -> None:
    with pytest.raises(OptionError, match=r"^--rule: option 'scale' takes a number"):
        resolve_options(DECLARED, ({"scale": "wide"}, "--rule"))


def test_parse_rule_args() -> None:
    assert parse_rule_args(["a=b", " turns = 8 ", "label=x=y", "empty="]) == {
        "a": "b",
        "turns": "8",
        "label": "x=y",
        "empty": "",
    }
    assert parse_rule_args([]) == {}


@pytest.mark.parametrize("arg", ["ab", "=b", " =b"])
def test_parse_rule_args_refuses(arg: str) -> None:
    with pytest.raises(OptionError, match="--rule takes KEY=VALUE"):
        parse_rule_args([arg])


def test_options_as_dict_is_sorted_copy() -> None:
    values = {"b": 1, "a": 2}
    out = options_as_dict(values)
    assert list(out) == ["a", "b"]
    out["c"] = 3
    assert "c" not in values
