"""Every route of the app, walked under one group's prefix with another group's ids and names:
each answers as for an id that does not exist (404 where the id is in the path), and with the
group's own ids it answers something else (the route found what it was asked for).

The walk iterates ``app.url_map``: a new route is walked as soon as it exists, and a route
whose arguments the walk cannot fill fails the test until it is taught them here.
"""

from __future__ import annotations

import base64
import itertools
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import pytest

from .groups_support import Group, two_groups

#: routes that take no session, player or saved rules, with why
NO_ID = {
    "static": "a file (a game's files too: <game>.static)",
    "pick_language": "a language",
    "web.join_group": "a group's join code: the link that sends a device to its group",
    "web.groups_page": "the server's groups (the server password)",
    "api.create_group": "the server's groups (the server password)",
    "api.list_groups": "the server's groups (the server password)",
    "api.show_group": "the group itself",
    "web.group_page": "the group itself",
    "web.change_group_password": "the group itself",
    "api.change_group_password": "the group itself",
    "mighty.mighty_trick": "one trick alone, no session",
    "mighty_api.mighty_trick": "one trick alone, no session",
    "web.sign_in": "the group's sign-in",
    "web.sign_out": "the group's sign-out",
    "api.group_backup": "the group itself (its organizer's backup)",
    "web.group_backup": "the group itself (its organizer's backup)",
}
#: routes that take a session, player or saved rules in the query or the body, not the path:
#: (query, form or JSON body) with ``{player}``, ``{rule_set}`` or ``{session}`` filled in
GIVEN: dict[str, tuple[dict[str, str], dict[str, Any]]] = {
    "web.index": ({"player": "{player}"}, {}),
    "api.list_sessions": ({"player": "{player}"}, {}),
    "api.get_player_by_query": ({"name": "{player}"}, {}),
    "api.player_stats_by_query": ({"name": "{player}"}, {}),
    "api.rename_player_by_query": ({"name": "{player}"}, {"name": "Zed"}),
    "web.players": ({}, {}),
    "api.list_players": ({}, {}),
    "web.stats": ({"players": "{player}"}, {}),
    "api.group_stats": ({"players": "{player}"}, {}),
    "web.review": ({"players": "{player}"}, {}),
    "web.rule_sets": ({}, {}),
    "api.list_rule_sets": ({}, {}),
    "web.delete_rule_set": ({}, {"name": "{rule_set}"}),
    "web.rename_rule_set": ({}, {"name": "{rule_set}", "new_name": "Renamed"}),
    "web.save_rules": ({"game": "dixit"}, {"rule_set_name": "{rule_set}", "game": "dixit"}),
    "web.new_session": ({"game": "dixit", "preset": "saved:{rule_set}"}, {}),
    "api.create_session": ({}, {"game": "dixit", "players": ["Kai", "Lu", "Mo", "Ned"]}),
    "api.import_session": ({}, {}),
    # routes with the id in the path, given a body they take (so only the id can refuse them)
    "api.set_location": ({}, {"location": "Cafe"}),
    "web.set_location": ({}, {"location": "Cafe"}),
    "api.archive_session": ({}, {"archived": False}),
    # seasons and public views: the group's own lists, and what names or makes one in it
    "api.list_seasons": ({}, {}),
    "web.list_seasons": ({}, {}),
    "web.save_season": ({}, {"name": "New", "first": "2026-01-01", "last": "2026-02-01"}),
    "web.forget_season": ({}, {"name": "{season}"}),
    "api.list_views": ({}, {}),
    "api.make_group_view": ({}, {}),
    "web.list_public_views": ({"session": "{session}"}, {}),
    "web.make_public_view": ({}, {"session": "{session}"}),
}
#: routes whose name in the path makes a new one in the group (names are the group's own)
MAKES = {
    "api.save_rule_set": "PUT saves a set of that name in the group",
    "api.put_season": "PUT names a season of that name in the group",
}
#: routes that take what they are given out of the group: walked last, and with the group's
#: own ids each given a fresh one (two routes revoke a view: the second would find it gone)
DESTROYS = {
    "web.delete_rule_set": "rule_set",
    "api.delete_rule_set": "rule_set",
    "api.revoke_view": "view",
    "web.revoke_public_view": "view",
    "api.delete_season": "season",
    "web.forget_season": "season",
}
MISSING_SESSION = 987654
MISSING_NAME = "Nobody At All"
MISSING_VIEW = 987654
MISSING_TOKEN = "no-such-token"
#: the route arguments that name a session, player, saved rules, season or public view
ID_ARGUMENTS = {"session_id", "name", "segment", "view_id", "token"}


@dataclass(frozen=True)
class Ids:
    """What a walk fills routes with: a session, a player, saved rules, a season, a view."""

    session: int
    player: str
    rule_set: str
    season: str
    view_id: int
    view_token: str


def ids_of(group: Group, game: str, player: int = 0) -> Ids:
    """Return a group's ids and names for a route of ``game``."""
    return Ids(
        group.sessions[game],
        group.players[player],
        group.rule_set,
        group.season,
        group.view_id,
        group.view_token,
    )


MISSING = Ids(
    MISSING_SESSION, MISSING_NAME, MISSING_NAME, MISSING_NAME, MISSING_VIEW, MISSING_TOKEN
)


def game_of(endpoint: str) -> str:
    """Return the game whose session a route needs (a game's own routes: that game's)."""
    blueprint = endpoint.split(".")[0].removesuffix("_api")
    return blueprint if blueprint in ("mighty", "dalmuti") else "dixit"


def token(name: str) -> str:
    """Return a player's name as the by-token routes take it."""
    return base64.urlsafe_b64encode(name.encode()).rstrip(b"=").decode()


def path_of(rule: Any, ids: Ids) -> str:
    """Return the rule's path with these ids and names (a rule the walk cannot fill fails)."""
    values: dict[str, Any] = {}
    for argument in rule.arguments:
        if argument == "session_id":
            values[argument] = ids.session
        elif argument == "number":
            values[argument] = 1
        elif argument == "name" and "rule_set" in rule.endpoint:
            values[argument] = ids.rule_set
        elif argument == "name" and "season" in rule.endpoint:
            values[argument] = ids.season
        elif argument == "name":
            values[argument] = ids.player
        elif argument == "segment":
            values[argument] = token(ids.player)
        elif argument == "view_id":
            values[argument] = ids.view_id
        elif argument == "token":
            values[argument] = ids.view_token
        else:
            pytest.fail(f"{rule.endpoint}: the walk cannot fill <{argument}>: teach it here")
    path = rule.rule
    for key, value in values.items():
        for converter in ("int:", "path:", "player_name:", ""):
            path = path.replace(f"<{converter}{key}>", str(value))
    return path


def filled(given: Any, ids: Ids) -> Any:
    """Return a query or body with the ids and names put in."""
    if isinstance(given, dict):
        return {key: filled(value, ids) for key, value in given.items()}
    if isinstance(given, list):
        return [filled(value, ids) for value in given]
    if isinstance(given, str):
        return (
            given.replace("{player}", ids.player)
            .replace("{rule_set}", ids.rule_set)
            .replace("{season}", ids.season)
            .replace("{session}", str(ids.session))
        )
    return given


def ask(client, method: str, url: str, rule: Any, body: dict[str, Any], headers: dict[str, str]):
    """Send one request as its route takes it: JSON to the API, a form to the pages."""
    if rule.rule.startswith("/api/"):
        return client.open(url, method=method, json=body, headers=headers)
    return client.open(url, method=method, data=body, headers=headers)


def answer(client, group: Group, rule: Any, method: str, ids: Ids):
    """Ask one route under the group's prefix with these ids, with the group's organizer."""
    path = path_of(rule, ids)
    query, body = GIVEN.get(rule.endpoint, ({}, {}))
    query, body = filled(query, ids), filled(body, ids)
    url = group.prefix + path + ("?" + urlencode(query) if query else "")
    return ask(client, method, url, rule, body, group.headers())


def routes(app) -> list[tuple[Any, str]]:
    """Return every (rule, method) of the app but its files: deletions last, so the walk with
    the group's own ids finds everything it asks for."""
    found = []
    for rule in sorted(app.url_map.iter_rules(), key=lambda rule: (rule.rule, rule.endpoint)):
        if rule.endpoint == "static" or rule.endpoint.endswith(".static"):
            continue
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            found.append((rule, method))
    return sorted(found, key=lambda pair: pair[1] == "DELETE" or pair[0].endpoint in DESTROYS)


@pytest.fixture
def walk(app, client):
    """Two groups, and a client signed in to alpha's pages as its organizer."""
    alpha, beta = two_groups(app, client)
    signed = client.post(f"{alpha.prefix}/signin", data={"password": alpha.organizer})
    assert signed.status_code == 302
    return alpha, beta


def walked_with(app, client, group: Group, foreign: Group) -> list[str]:
    """Walk every route under ``group``'s prefix with ``foreign``'s ids; return what answered
    otherwise than for a missing id (404 where the id is in the path)."""
    walked, wrong = 0, []
    for rule, method in routes(app):
        if rule.endpoint in NO_ID:
            continue
        takes_id = bool(set(rule.arguments) & ID_ARGUMENTS)
        assert takes_id or rule.endpoint in GIVEN, f"{rule.endpoint}: walk it here (GIVEN/NO_ID)"
        theirs = answer(client, group, rule, method, ids_of(foreign, game_of(rule.endpoint)))
        nobody = answer(client, group, rule, method, MISSING)
        where = f"{method} {rule.rule} ({rule.endpoint})"
        if theirs.status_code != nobody.status_code:
            wrong.append(f"{where}: {theirs.status_code}, a missing id {nobody.status_code}")
        elif takes_id and rule.endpoint not in MAKES and theirs.status_code != 404:
            wrong.append(f"{where}: {theirs.status_code}")
        walked += 1
    assert walked > 60
    return wrong


def test_every_route_answers_another_groups_ids_as_missing_ones(app, client, walk):
    alpha, beta = walk
    wrong = walked_with(app, client, alpha, beta)
    assert wrong == [], "\n".join(wrong)


def test_the_default_group_answers_a_groups_ids_as_missing_ones(app, client, walk):
    """The routes without a prefix (the default group, no password here) see no group's ids."""
    _alpha, beta = walk
    default = Group("default", "", "", prefix_path="")
    wrong = walked_with(app, client, default, beta)
    assert wrong == [], "\n".join(wrong)


def test_every_route_finds_the_groups_own_ids(app, client, walk):
    alpha, _beta = walk
    wrong, serials = [], itertools.count()
    for rule, method in routes(app):
        if rule.endpoint in NO_ID or not set(rule.arguments) & ID_ARGUMENTS:
            continue
        ids = ids_of(alpha, game_of(rule.endpoint), 1)
        if DESTROYS.get(rule.endpoint) in ("view", "season"):
            ids = fresh(client, alpha, ids, next(serials))
        response = answer(client, alpha, rule, method, ids)
        if response.status_code == 404:
            wrong.append(f"{method} {rule.rule} ({rule.endpoint})")
    assert wrong == [], "\n".join(wrong)


def fresh(client, group: Group, ids: Ids, serial: int) -> Ids:
    """Return the ids with a new public view of the group's and a new season of its own."""
    made = client.post(f"{group.prefix}/api/public-views", headers=group.headers())
    assert made.status_code == 201, made.get_json()
    view = made.get_json()["public_view"]
    season = f"Fresh {serial}"
    named = client.put(
        f"{group.prefix}/api/seasons/{season}",
        json={"from": "2026-01-01", "to": "2026-02-01"},
        headers=group.headers(),
    )
    assert named.status_code in (200, 201), named.get_json()
    token = view["url"].rstrip("/").rsplit("/", 1)[-1]
    return Ids(ids.session, ids.player, ids.rule_set, season, view["id"], token)


def test_beta_sees_none_of_alpha_in_its_lists(client, walk):
    _alpha, beta = walk
    listed = client.get(f"{beta.prefix}/api/sessions").get_json()["sessions"]
    assert {item["id"] for item in listed} == set(beta.sessions.values())
    players = {
        item["name"] for item in client.get(f"{beta.prefix}/api/players").get_json()["players"]
    }
    assert players == set(beta.players)
    sets = client.get(f"{beta.prefix}/api/rule-sets").get_json()["rule_sets"]
    assert [item["name"] for item in sets] == [beta.rule_set]
    page = client.get(f"{beta.prefix}/players").get_data(as_text=True)
    assert "Ann" not in page and "Fay" in page
