"""Names that show as nothing are refused, and names that read the same are one name at a table.

Default-ignorable characters (Hangul fillers, the grapheme joiner, variation selectors...) and
blank-looking ones (the braille blank) are refused wherever a player's name comes in: a new
session (API and page), an import, a backup restore, a rename. Two names equal after NFKC are
``duplicate_player`` at one table; the name is stored as typed (trimmed, NFC).
"""

from __future__ import annotations

import copy
import json
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refapp.extensions import db
from refapp.games.errors import Refusal
from refapp.models import GameSession, Player
from refapp.services import values

from .conftest import SEED_TURN, shown
from .test_archive import MINIMAL, fresh_database, rows

#: names that look empty, or like "Ann", but hold a character drawn as nothing
BLANK_NAMES = [
    "\u3164",  # Hangul filler
    "\u115f",  # Hangul choseong filler
    "\u1160",  # Hangul jungseong filler
    "\uffa0",  # halfwidth Hangul filler
    "\u2800",  # braille pattern blank
    "Ann\u3164",
    "Ann\u034f",  # combining grapheme joiner
    "Ann\ufe0f",  # a variation selector after a letter
    "A\ufe00nn",
    "Ann\U000e0100",  # variation selector 17
    "Ann\U000e0041",  # a tag letter
    "\u2800Ann",
    "\u0301",  # a lone accent: nothing to show it on
]
#: names a table writes: spaces between words, accents, Hangul, emoji (a phone's red heart
#: carries its emoji selector), an ideographic space between family and given names
GOOD_NAMES = ["Ann Lee", "Jos\u00e9", "\ud55c\uad6d\uc5b4", "\U0001f0cf Joker", "Ann \u2764\ufe0f"]
#: pairs that read as one name at a table: fullwidth, another space, the emoji selector
SAME_NAMES = [
    ("Ann", "\uff21\uff4e\uff4e"),
    ("Ann Lee", "Ann\u3000Lee"),
    ("Ann Lee", "Ann  Lee"),
    ("\u2764\ufe0f", "\u2764"),
    ("\u2460", "1"),  # a circled digit one
]
OTHERS = ["Ben", "Cy", "Dee"]


def create(client, players: list[str]):
    """Post a new Dixit session with these players."""
    return client.post("/api/sessions", json={"game": "dixit", "players": players})


def sessions(app) -> int:
    """Return how many sessions are stored."""
    with app.app_context():
        return db.session.query(GameSession).count()


@pytest.mark.parametrize("name", BLANK_NAMES)
@pytest.mark.parametrize("seat", [0, 2])
def test_a_name_that_shows_nothing_is_refused_by_the_api(client, app, name, seat):
    players = [*OTHERS]
    players.insert(seat, name)
    response = create(client, players)
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert error["code"] == "invalid_value"
    assert error["field"] == f"players.{seat}"
    assert repr(name) in error["message"]
    assert sessions(app) == 0


def test_the_message_names_the_hidden_character(client):
    error = create(client, ["Ann\u3164", *OTHERS]).get_json()["error"]
    assert "U+3164 HANGUL FILLER" in error["message"]


@pytest.mark.parametrize("name", GOOD_NAMES)
def test_names_a_table_writes_are_kept_as_typed(client, name):
    response = create(client, [f"  {name} ", *OTHERS])
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["players"][0] == unicodedata.normalize("NFC", name)


def test_an_ideographic_space_between_names_is_kept():
    assert values.player_name("\u5c71\u7530\u3000\u592a\u90ce", "players.0") == (
        "\u5c71\u7530\u3000\u592a\u90ce"
    )
    with pytest.raises(Refusal) as caught:
        values.player_name("\u3000", "players.0")
    assert caught.value.code == "invalid_value"


@pytest.mark.parametrize(("first", "second"), SAME_NAMES)
def test_names_that_read_the_same_are_one_name_at_a_table(client, app, first, second):
    response = create(client, [first, "Ben", second])
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert (error["code"], error["field"]) == ("duplicate_player", "players.2")
    assert repr(second) in error["message"] and repr(first) in error["message"]
    assert sessions(app) == 0


def test_case_still_tells_names_apart(client):
    assert create(client, ["Ann", "ann", "Cy"]).status_code == 201


def test_a_roster_from_many_tables_may_hold_names_that_read_the_same():
    assert values.player_names(["Ann", "\uff21\uff4e\uff4e"], at_one_table=False) == [
        "Ann",
        "\uff21\uff4e\uff4e",
    ]
    with pytest.raises(Refusal) as caught:
        values.player_names(["Ann", "Ann"], at_one_table=False)
    assert caught.value.code == "duplicate_player"


def test_the_new_session_page_shows_the_refusal_by_the_players_field(client, app):
    data = {"game": "dixit", "players": "Ann\u3164\nBen\nCy", "rule_target_score": "30"}
    response = client.post("/sessions/new?game=dixit", data=data)
    assert response.status_code == 422
    page = shown(response)
    players_field = page.index('name="players"')
    message = page.index("which shows as nothing")
    # the message stands with the players field: after it, before the next field's label
    assert players_field < message < page.index('name="rule_target_score"')
    assert sessions(app) == 0


def test_the_new_session_page_refuses_names_that_read_the_same(client, app):
    data = {"game": "dixit", "players": "Ann\nBen\n\uff21\uff4e\uff4e", "rule_target_score": "30"}
    response = client.post("/sessions/new?game=dixit", data=data)
    assert response.status_code == 422
    assert "reads as" in shown(response)
    assert sessions(app) == 0


@pytest.mark.parametrize("name", ["\u2800", "Ann\u3164"])
def test_an_import_refuses_a_blank_name(client, app, name):
    body = copy.deepcopy(MINIMAL)
    body["players"][0] = name
    stored = rows(app)
    response = client.post("/api/sessions/import", json=body)
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert (error["code"], error["field"]) == ("invalid_value", "players.0")
    assert rows(app) == stored


def test_an_import_refuses_names_that_read_the_same(client, app):
    body = copy.deepcopy(MINIMAL)
    body["players"][1] = "\uff21\uff4e\uff4e"
    response = client.post("/api/sessions/import", json=body)
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert (error["code"], error["field"]) == ("duplicate_player", "players.1")


def test_a_restore_refuses_a_blank_name_and_adds_nothing(api, app, tmp_path):
    api.create()
    path = tmp_path / "backup.json"
    assert app.test_cli_runner().invoke(args=["backup", str(path)]).exit_code == 0
    data = json.loads(path.read_text(encoding="utf-8"))
    data["players"].append({"name": "\u3164"})
    data["sessions"][0]["players"][0] = "Ann\u3164"
    path.write_text(json.dumps(data), encoding="utf-8")
    stored = rows(app)
    result = app.test_cli_runner().invoke(args=["restore", "--force", str(path)])
    assert result.exit_code != 0
    assert "shows as nothing" in result.output
    assert rows(app) == stored
    with app.app_context():
        assert db.session.query(Player).filter(Player.name.contains("\u3164")).count() == 0


@pytest.mark.parametrize("name", ["\u3164", "Ben\u034f", "\u2800"])
def test_a_rename_to_a_blank_name_is_refused(api, client, name):
    sid = api.create()["id"]
    assert api.record(sid, SEED_TURN).status_code == 201
    response = client.post("/api/players/Ben/rename", json={"name": name})
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert (error["code"], error["field"]) == ("invalid_value", "name")
    assert api.session(sid)["players"] == ["Ann", "Ben", "Cy", "Dee"]


# -- properties over any text --------------------------------------------------------------------

#: every character the rules hold to be drawn as nothing (the default-ignorable ones, the blanks)
HIDDEN = st.one_of(
    st.sampled_from(sorted(values.BLANK)),
    st.sampled_from(values.DEFAULT_IGNORABLE).flatmap(lambda bounds: st.integers(*bounds).map(chr)),
)


@given(name=st.text(min_size=1, max_size=20), hidden=HIDDEN, at=st.integers(0, 20))
def test_a_hidden_character_never_makes_a_second_name(name, hidden, at):
    """Whatever the name, putting a hidden character in it never seats a second player."""
    try:
        first = values.player_name(name, "players.0")
    except Refusal:
        return
    spot = min(at, len(first))
    second = first[:spot] + hidden + first[spot:]
    with pytest.raises(Refusal) as caught:
        values.player_names([first, second])
    assert caught.value.code in ("invalid_value", "duplicate_player")
    assert caught.value.field == "players.1"


@given(st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=20))
def test_a_fullwidth_name_is_the_same_name(name):
    """Typed in fullwidth forms (U+FF01..U+FF5E), an ASCII name is the same name."""
    wide = "".join(chr(ord(char) + 0xFEE0) for char in name)
    with pytest.raises(Refusal) as caught:
        values.player_names([name, wide])
    assert caught.value.code == "duplicate_player"


@given(st.text(max_size=30))
def test_an_accepted_name_has_something_to_show(raw):
    """An accepted name keeps a character a font draws, and reads as non-empty text."""
    try:
        name = values.player_name(raw, "players.0")
    except Refusal as error:
        assert error.code in ("invalid_value", "missing_field")
        return
    assert name == unicodedata.normalize("NFC", raw.strip())
    assert values.name_key(name).strip()
    assert not any(char in values.BLANK for char in name)


# -- need a change outside this helper's files (see the report): rename and backup roster --------


def test_a_rename_to_a_name_that_reads_as_a_tablemate_is_refused(api, client):
    sid = api.create()["id"]
    assert api.record(sid, SEED_TURN).status_code == 201
    response = client.post("/api/players/Ben/rename", json={"name": "\uff21\uff4e\uff4e"})
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert (error["code"], error["field"]) == ("duplicate_player", "name")
    assert api.session(sid)["players"] == ["Ann", "Ben", "Cy", "Dee"]


def test_a_backup_roster_may_hold_names_that_read_the_same_at_different_tables(api, app, tmp_path):
    api.create(players=["Ann", "Ben", "Cy"])
    api.create(players=["\uff21\uff4e\uff4e", "Ben", "Cy"])
    path = tmp_path / "backup.json"
    runner = app.test_cli_runner()
    assert runner.invoke(args=["backup", str(path)]).exit_code == 0
    fresh_database(app)
    result = runner.invoke(args=["restore", str(path)])
    assert result.exit_code == 0, result.output
    with app.app_context():
        kept = sorted(player.name for player in db.session.query(Player))
    assert kept == sorted(["Ann", "\uff21\uff4e\uff4e", "Ben", "Cy"])
