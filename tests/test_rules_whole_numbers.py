"""A whole number written N.0 counts as N in every house rule, as it does in round inputs."""

from __future__ import annotations

import pytest

from refapp.games import GAMES

from .test_how_we_score import PLAYERS

WHOLE = [
    (slug, option)
    for slug in sorted(PLAYERS)
    for option in GAMES[slug].options
    if option.kind in ("int", "int_list")
]


def a_value(option) -> int:
    """Return an allowed whole number for the option (its minimum, else its default, else 1)."""
    if option.minimum is not None:
        return option.minimum
    return option.default if isinstance(option.default, int) else 1


@pytest.mark.parametrize(("slug", "option"), WHOLE, ids=[f"{s}-{o.key}" for s, o in WHOLE])
def test_a_whole_number_written_with_point_zero_is_that_number(api, slug, option):
    """14.0 is accepted and stored as 14 (a list's items likewise)."""
    number = a_value(option)
    written = [float(number)] if option.kind == "int_list" else float(number)
    created = api.create(PLAYERS[slug], game=slug, rules={option.key: written})
    stored = created["rules"][option.key]
    assert stored == ([number] if option.kind == "int_list" else number)
    assert type(stored[0] if option.kind == "int_list" else stored) is int


@pytest.mark.parametrize("written", [14.5, "14", float("inf"), True])
def test_a_number_that_is_not_whole_is_still_refused(client, written):
    """14.5, a string, infinity and true are not whole numbers: invalid_rules naming the rule."""
    response = client.post(
        "/api/sessions",
        json={"game": "mighty", "players": PLAYERS["mighty"], "rules": {"min_bid": written}},
    )
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert (error["code"], error["field"]) == ("invalid_rules", "rules.min_bid")
    assert "min_bid" not in error["message"]
