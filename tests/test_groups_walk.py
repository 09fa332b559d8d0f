"""Every route of the app, walked under one group's prefix with another group's ids and names:
each answers as for an id that does not exist (404 where the id is in the path), and with the
group's own ids it answers something else (the route found what it was asked for).

The walk iterates ``app.url_map``: a new route is walked as soon as it exists, and a route
whose arguments the walk cannot fill fails the test until it is taught them here.
"""

from __future__ import annotations

import base64
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
}
#: routes whose name in the path makes a new one in the group (names are the group's own)
MAKES = {"api.save_rule_set": "PUT saves a set of that name in the group"}
MISSING_SESSION = 987654
MISSING_NAME = "Nobody At All"


def game_of(endpoint: str) -> str:
    """Return the game whose session a route needs (a game's own routes: that game's)."""
    blueprint = endpoint.split(".")[0].removesuffix("_api")
    return blueprint if blueprint in ("mighty", "dalmuti") else "dixit"


def token(name: str) -> str:
    """Return a player's name as the by-token routes take it."""
    return base64.urlsafe_b64encode(name.encode()).rstrip(b"=").decode()


def path_of(rule: Any, session: int, player: str, rule_set: str) -> str:
    """Return the rule's path with these ids and names (a rule the walk cannot fill fails)."""
    values: dict[str, Any] = {}
    for argument in rule.arguments:
        if argument == "session_id":
            values[argument] = session
        elif argument == "number":
            values[argument] = 1
        elif argument == "name":
            values[argument] = rule_set if "rule_set" in rule.endpoint else player
        elif argument == "segment":
            values[argument] = token(player)
        else:
            pytest.fail(f"{rule.endpoint}: the walk cannot fill <{argument}>: teach it here")
    path = rule.rule
    for key, value in values.items():
        for converter in ("int:", "path:", "player_name:", ""):
            path = path.replace(f"<{converter}{key}>", str(value))
    return path


def filled(given: Any, player: str, rule_set: str) -> Any:
    """Return a query or body with the player's and the saved rules' names put in."""
    if isinstance(given, dict):
        return {key: filled(value, player, rule_set) for key, value in given.items()}
    if isinstance(given, list):
        return [filled(value, player, rule_set) for value in given]
    if isinstance(given, str):
        return given.replace("{player}", player).replace("{rule_set}", rule_set)
    return given


def ask(client, method: str, url: str, rule: Any, body: dict[str, Any], headers: dict[str, str]):
    """Send one request as its route takes it: JSON to the API, a form to the pages."""
    if rule.rule.startswith("/api/"):
        return client.open(url, method=method, json=body, headers=headers)
    return client.open(url, method=method, data=body, headers=headers)


def answer(client, group: Group, rule: Any, method: str, ids: tuple[int, str, str]):
    """Ask one route under the group's prefix with these ids, with the group's organizer."""
    session, player, rule_set = ids
    path = path_of(rule, session, player, rule_set)
    query, body = GIVEN.get(rule.endpoint, ({}, {}))
    query, body = filled(query, player, rule_set), filled(body, player, rule_set)
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
    return sorted(found, key=lambda pair: pair[1] == "DELETE" or "delete" in pair[0].endpoint)


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
        takes_id = bool(set(rule.arguments) & {"session_id", "name", "segment"})
        assert takes_id or rule.endpoint in GIVEN, f"{rule.endpoint}: walk it here (GIVEN/NO_ID)"
        game = game_of(rule.endpoint)
        ids = (foreign.sessions[game], foreign.players[0], foreign.rule_set)
        theirs = answer(client, group, rule, method, ids)
        nobody = answer(client, group, rule, method, (MISSING_SESSION, MISSING_NAME, MISSING_NAME))
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
    wrong = []
    for rule, method in routes(app):
        if rule.endpoint in NO_ID or not set(rule.arguments) & {"session_id", "name", "segment"}:
            continue
        game = game_of(rule.endpoint)
        own = (alpha.sessions[game], alpha.players[1], alpha.rule_set)
        response = answer(client, alpha, rule, method, own)
        if response.status_code == 404:
            wrong.append(f"{method} {rule.rule} ({rule.endpoint})")
    assert wrong == [], "\n".join(wrong)


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
