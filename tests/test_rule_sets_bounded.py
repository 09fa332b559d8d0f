"""Saved rule sets are bounded: at most MAX_RULE_SETS of them (``too_many_rule_sets``), each set's
rules at most RULES_MAX_CHARS of JSON (``invalid_rules``); saving one more through the API or the
page, or restoring a backup that would go past the maximum, is refused and changes nothing."""

from __future__ import annotations

import pytest

from refapp.extensions import db
from refapp.models import RuleSet
from refapp.services import rule_sets
from refapp.services.archive import backups

from .conftest import shown
from .test_web_presets import MIGHTY, browser_post

#: a small maximum, so that filling the table takes a few requests (lowered in one place)
FEW = 3


@pytest.fixture
def few(monkeypatch) -> int:
    """Lower the maximum count of saved sets to FEW for one test."""
    monkeypatch.setattr(rule_sets, "MAX_RULE_SETS", FEW)
    return FEW


def save(client, name: str, **body):
    """Save a Dixit set through the API and return the response."""
    return client.put(f"/api/rule-sets/{name}", json={"game": "dixit", **body})


def names(client) -> list[str]:
    """Return the saved sets' names, as the API lists them."""
    return [saved["name"] for saved in client.get("/api/rule-sets").get_json()["rule_sets"]]


def fill(client, count: int) -> list[str]:
    """Save count sets named Set 1, Set 2, ... and return their names."""
    made = [f"Set {n}" for n in range(1, count + 1)]
    for name in made:
        assert save(client, name, rules={"target_score": 20}).status_code == 200
    return made


def test_one_more_than_the_maximum_is_refused_and_saves_nothing(client, few):
    made = fill(client, few)
    response = save(client, "One more")
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert (error["code"], error["field"]) == ("too_many_rule_sets", "name")
    assert "'One more'" in error["message"] and f"at most {few}" in error["message"]
    assert names(client) == made


def test_a_full_table_may_still_replace_rename_and_delete(client, few):
    fill(client, few)
    replaced = save(client, "Set 1", rules={"target_score": 25})
    assert replaced.status_code == 200 and replaced.get_json()["rules"] == {"target_score": 25}
    assert client.delete("/api/rule-sets/Set 2").status_code == 200
    assert save(client, "Newcomer").status_code == 200
    assert sorted(names(client)) == ["Newcomer", "Set 1", "Set 3"]


def test_the_page_refuses_one_more_by_the_name_field(client, few):
    fill(client, few)
    page = shown(client.get(MIGHTY))
    response = client.post(
        "/rule-sets/save?game=mighty", data=browser_post(page, players="", set_name="Club")
    )
    assert response.status_code == 422
    refused = shown(response)
    assert "The table keeps at most 3 saved house rules" in refused
    assert refused.index('name="set_name"') < refused.index("keeps at most 3")
    assert "Club" not in names(client)


def test_the_page_renames_a_set_of_a_full_table_in_place(client, app, few):
    fill(client, few)
    assert "3 of at most 3 saved." in shown(client.get("/rule-sets"))
    renamed = client.post("/rule-sets/rename", data={"name": "Set 1", "new_name": "Friday"})
    assert renamed.status_code == 302
    assert sorted(names(client)) == ["Friday", "Set 2", "Set 3"]
    with app.app_context():
        assert db.session.query(RuleSet).filter_by(name="Friday").one().rules == {
            "target_score": 20
        }


def test_rules_past_the_size_limit_are_refused(client):
    huge = 10 ** (rule_sets.RULES_MAX_CHARS + 10)
    response = client.put(
        "/api/rule-sets/Huge",
        data=f'{{"game": "dixit", "rules": {{"target_score": {huge}}}}}',
        content_type="application/json",
    )
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert (error["code"], error["field"]) == ("invalid_rules", "rules")
    assert names(client) == []


def test_every_option_of_the_largest_game_fits_the_size_limit(client):
    from refapp.games import GAMES

    for slug, game in GAMES.items():
        every = {option.key: option.default for option in game.options}
        assert (
            client.put(f"/api/rule-sets/{slug}", json={"game": slug, "rules": every}).status_code
            == 200
        )
    assert sorted(names(client)) == sorted(GAMES)


def test_a_set_name_that_shows_nothing_is_refused(client):
    response = save(client, "Club\u3164")
    assert response.status_code == 422
    assert response.get_json()["error"]["code"] == "invalid_value"
    assert names(client) == []


# -- a backup restore ------------------------------------------------------------------------


def backup_with(app, client, sets: list[str]) -> dict:
    """Return a backup of the database whose rule_sets are these Dixit sets."""
    with app.app_context():
        data = backups.backup()
    data["rule_sets"] = [{"name": name, "game": "dixit", "rules": {}} for name in sets]
    return data


def refusal(app, data: dict):
    """Restore data, expecting a refusal, and return its error."""
    with app.app_context():
        with pytest.raises(backups.RestoreRefused) as caught:
            backups.restore(data)
        db.session.rollback()
    return caught.value.error


def test_a_restore_past_the_maximum_is_refused_and_adds_nothing(app, client, few):
    made = fill(client, 2)
    data = backup_with(app, client, ["Set 1", "New A", "New B"])  # two new: 2 + 2 > 3
    error = refusal(app, data)
    assert (error.code, error.field) == ("too_many_rule_sets", "rule_sets")
    assert names(client) == made


def test_a_backup_holding_more_than_the_maximum_is_refused(app, client, few):
    data = backup_with(app, client, [f"S{n}" for n in range(few + 1)])
    error = refusal(app, data)
    assert (error.code, error.field) == ("too_many_rule_sets", "rule_sets")
    assert names(client) == []


def test_a_restore_up_to_the_maximum_adds_the_missing_sets(app, client, few):
    fill(client, 2)
    data = backup_with(app, client, ["Set 1", "Set 2", "New A"])
    with app.app_context():
        backups.restore(data)
    assert sorted(names(client)) == ["New A", "Set 1", "Set 2"]


def test_the_real_maximum_holds(client):
    fill(client, rule_sets.MAX_RULE_SETS)
    assert save(client, "One more").get_json()["error"]["code"] == "too_many_rule_sets"
    assert len(names(client)) == rule_sets.MAX_RULE_SETS == 100
