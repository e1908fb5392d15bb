"""Names as people type them (core/names.py): any case, diacritics and apostrophes
optional, full, short and parenthesised names, unique prefixes; ambiguity refused with
the candidates; "did you mean" for near misses."""

from __future__ import annotations

import pytest

from dogfight.core.errors import UnknownName
from dogfight.core.names import fold, resolve, short_names, suggest
from dogfight.core.registry import all_rulesets

UNITS = {
    "hornet": "Mǎfēng (Hornet) Assault Fighter",
    "zaresh": "Zaresh Superiority Fighter",
    "zketh": "Z'keth Assault Fighter",
    "zul": "Zul Space Superiority Fighter",
    "sky-dragon": "Sky Dragon Fleet Carrier",
}


def test_fold_drops_case_diacritics_and_apostrophes() -> None:
    assert fold("Mǎfēng (Hornet)") == "mafeng hornet"
    assert fold("Z'keth") == "zketh"
    assert fold("Z’KETH") == "zketh"
    assert fold("sky-dragon") == "sky dragon"


def test_short_names_of_a_printed_name() -> None:
    assert short_names("Mǎfēng (Hornet) Assault Fighter") == [
        "Hornet",
        "Mǎfēng Assault Fighter",
        "Mǎfēng",
    ]
    assert short_names("Zaresh Superiority Fighter") == ["Zaresh"]
    assert short_names("Zaresh") == []


@pytest.mark.parametrize(
    ("query", "ident"),
    [
        ("zaresh", "zaresh"),
        ("Zaresh", "zaresh"),
        ("ZARESH", "zaresh"),
        ("Zaresh Superiority Fighter", "zaresh"),
        ("zaresh superiority fighter", "zaresh"),
        ("Z'keth", "zketh"),
        ("zketh", "zketh"),
        ("Hornet", "hornet"),
        ("Mǎfēng (Hornet) Assault Fighter", "hornet"),
        ("Mafeng (Hornet) Assault Fighter", "hornet"),
        ("mafeng", "hornet"),
        ("Mǎfēng Assault Fighter", "hornet"),
        ("sky dragon", "sky-dragon"),
        ("skydragon", "sky-dragon"),
        ("Sky Dragon Fleet Carrier", "sky-dragon"),
        ("carrier", "sky-dragon"),  # one word of one name
        ("zar", "zaresh"),  # a unique prefix
        ("Space", "zul"),
    ],
)
def test_resolve_accepts_the_names_people_type(query: str, ident: str) -> None:
    assert resolve(query, UNITS, "acta unit") == ident


def test_an_ambiguous_name_is_refused_listing_the_candidates() -> None:
    with pytest.raises(UnknownName) as info:
        resolve("z", UNITS, "acta unit")
    message = str(info.value)
    assert "'z' could be more than one acta unit: " in message
    assert "zaresh (Zaresh Superiority Fighter)" in message
    assert "zketh (Z'keth Assault Fighter)" in message
    assert "hornet" not in message
    with pytest.raises(UnknownName, match="could be more than one acta unit"):
        resolve("fighter", UNITS, "acta unit")


def test_an_unknown_name_gets_did_you_mean_and_the_known_ids() -> None:
    with pytest.raises(UnknownName) as info:
        resolve("zaresj", UNITS, "acta unit")
    assert str(info.value) == (
        "no acta unit 'zaresj' (did you mean 'zaresh'?); "
        "known: hornet, zaresh, zketh, zul, sky-dragon"
    )
    with pytest.raises(UnknownName, match=r"^no acta unit 'qqq'; known: hornet"):
        resolve("qqq", UNITS, "acta unit")
    with pytest.raises(UnknownName, match="empty name"):
        resolve(" '' ", UNITS, "acta unit")


def test_suggest_names_the_near_misses_only() -> None:
    assert suggest("furbal", ["furball", "skirmish"]) == " (did you mean 'furball'?)"
    assert suggest("TurnLimit", ["turn_limit", "year"]) == " (did you mean 'turn_limit'?)"
    assert suggest("zzz", ["furball"]) == ""
    # A mapping suggests what each name stands for, once.
    assert suggest(
        "Zaresh Superiority", {"zaresh": "zaresh", "Zaresh Superiority Fighter": "zaresh"}
    ) == (" (did you mean 'zaresh'?)")


@pytest.mark.parametrize("rules", all_rulesets(), ids=lambda r: r.name)
def test_every_unit_of_every_ruleset_is_found_by_its_printed_names(rules: object) -> None:
    from dogfight.core.ruleset import Ruleset

    assert isinstance(rules, Ruleset)
    for ident in rules.unit_names():
        printed = rules.describe_unit(ident)["name"]
        for query in (ident, ident.upper(), printed, printed.upper(), fold(printed)):
            assert rules.unit_id(query) == ident, query
            assert rules.describe_unit(query)["name"] == printed, query
