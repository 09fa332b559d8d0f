"""The pages: post the forms as a phone would, then check what is stored and what is shown."""

from __future__ import annotations

import re

import pytest

from refapp import create_app
from refapp.extensions import db
from refapp.models import AuditEntry, GameSession, Round

from .conftest import SEED_TURN, shown


def turn_form(storyteller="Ann", positions=("Dee", "Ann", "Ben", "Cy"), votes=None, **extra):
    """Return the Dixit turn form's fields for a four-player table (seats Ann, Ben, Cy, Dee)."""
    votes = votes if votes is not None else {"Ben": "2", "Cy": "2", "Dee": "3"}
    seats = ["Ann", "Ben", "Cy", "Dee"]
    data = {"storyteller": storyteller, **extra}
    data.update({f"pos_{n}": owner for n, owner in enumerate(positions, 1)})
    data.update({f"vote_{seats.index(name)}": value for name, value in votes.items()})
    return data


def new_session(client, players="Ann\nBen\nCy\nDee", **rules) -> int:
    """Start a Dixit session through the form and return its id."""
    data = {
        "game": "dixit",
        "name": "Friday",
        "players": players,
        "rule_target_score": "30",
        "rule_bonus_cap": "",
        "rule_deck_exhausted": "reshuffle",
        **rules,
    }
    response = client.post("/sessions/new?game=dixit", data=data)
    assert response.status_code == 302, shown(response)
    return int(response.headers["Location"].rsplit("/", 1)[1])


def count(app, model) -> int:
    """Count stored rows of a model."""
    with app.app_context():
        return db.session.query(model).count()


def test_home_lists_sessions_and_offers_each_game(client, api):
    api.create(name="Friday table")
    page = shown(client.get("/"))
    assert "Friday table" in page and "Ann, Ben, Cy, Dee" in page
    assert 'href="/sessions/new?game=dixit"' in page


def test_new_session_form_shows_the_house_rules_with_defaults(client):
    page = shown(client.get("/sessions/new?game=dixit"))
    assert 'name="rule_target_score"' in page and 'value="30"' in page
    assert 'name="rule_two_votes_large_game"' in page
    assert '<option selected value="reshuffle">' in page


def test_new_session_form_stores_players_in_seat_order_and_rules(client, app):
    sid = new_session(
        client, players="Ann\n Ben \n\nCy", rule_target_score="15", rule_bonus_cap="3"
    )
    with app.app_context():
        stored = db.session.get(GameSession, sid)
        assert stored.players == ["Ann", "Ben", "Cy"]
        assert stored.rules["target_score"] == 15 and stored.rules["bonus_cap"] == 3
        assert stored.name == "Friday"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"players": "Ann\nBen"}, "Dixit is played by 3 to 8 players, not 2."),
        ({"players": "Ann\nBen\nAnn"}, "&#39;Ann&#39; is seated twice"),
        (
            {"rule_target_score": "lots"},
            "The house rule “Target score” must be a whole number, not &#39;lots&#39;.",
        ),
        ({"rule_deck_exhausted": "stop"}, "When the draw pile runs out: pick one of the choices."),
    ],
)
def test_refused_session_shows_the_message_next_to_the_field(client, app, fields, message):
    data = {
        "game": "dixit",
        "players": "Ann\nBen\nCy",
        "rule_target_score": "30",
        "rule_deck_exhausted": "reshuffle",
        **fields,
    }
    response = client.post("/sessions/new?game=dixit", data=data)
    assert response.status_code == 422
    assert message in shown(response)
    assert count(app, GameSession) == 0


def test_session_page_shows_standings_next_storyteller_and_the_form(client):
    sid = new_session(client)
    page = shown(client.get(f"/sessions/{sid}"))
    assert "Next storyteller" in page and "anyone" in page
    assert 'name="pos_4"' in page and 'name="vote_3"' in page
    assert "Record round 1" in page and "draw pile 60" in page
    assert "Target score: <strong>30</strong>" in page


def test_record_a_turn_through_the_form(client, app):
    sid = new_session(client)
    response = client.post(f"/sessions/{sid}/rounds", data=turn_form(expected_round="1"))
    assert response.status_code == 302
    page = shown(client.get(f"/sessions/{sid}"))
    assert "Round 1 recorded." in page
    assert "Dee voted for Ben&#39;s card (position 3): +1 to Ben." in page
    assert re.search(r"Ben <b>\+4</b>", page)
    assert "Record round 2" in page
    with app.app_context():
        stored = db.session.query(Round).one()
        assert stored.input == SEED_TURN
        assert stored.result["deltas"] == {"Ann": 3, "Ben": 4, "Cy": 3, "Dee": 0}


@pytest.mark.parametrize(
    ("form", "message", "field"),
    [
        (
            turn_form(votes={"Ben": "3", "Cy": "2", "Dee": "2"}),
            "Ben voted for position 3, which is Ben&#39;s own card.",
            "vote_1",
        ),
        (turn_form(votes={"Ben": "2", "Cy": "2"}), "Dee has not voted", "vote_3"),
        (
            turn_form(votes={"Ann": "1", "Ben": "2", "Cy": "2", "Dee": "3"}),
            "Ann is the storyteller and does not vote",
            "vote_0",
        ),
        (turn_form(positions=("Ben", "Ann", "Ben", "Cy")), "Cards laid by Ben: 2", "positions"),
        (turn_form(positions=("Dee", "Ann", "", "Cy")), "Choose who laid card 3.", "pos_3"),
    ],
)
def test_refused_turn_shows_its_message_next_to_the_field(client, app, form, message, field):
    sid = new_session(client)
    response = client.post(f"/sessions/{sid}/rounds", data=form)
    assert response.status_code == 422
    page = shown(response)
    assert message in page
    if field == "positions":
        block = page.split("<legend>Who laid each card?")[1].split("</fieldset>")[0]
    else:
        block = page.split(f'name="{field}"')[1].split("</div>")[0]
    assert message in block, f"the message should stand next to {field}"
    assert count(app, Round) == 0


def test_wrong_storyteller_is_refused_at_the_storyteller_field(client):
    sid = new_session(client)
    client.post(f"/sessions/{sid}/rounds", data=turn_form())
    response = client.post(f"/sessions/{sid}/rounds", data=turn_form())
    assert response.status_code == 422
    page = shown(response)
    block = page.split('name="storyteller"')[1].split("</fieldset>")[0]
    assert "It is Ben&#39;s turn to be the storyteller" in block


def test_stale_form_from_a_second_phone_is_refused(client, app):
    sid = new_session(client)
    client.post(f"/sessions/{sid}/rounds", data=turn_form(expected_round="1"))
    response = client.post(
        f"/sessions/{sid}/rounds", data=turn_form(storyteller="Ben", expected_round="1")
    )
    assert response.status_code == 422
    page = shown(response)
    assert "Another phone recorded round 1 while you were entering this one." in page
    assert "record it as round 2" in page
    assert 'name="expected_round" type="hidden" value="2"' in page  # one tap records it next
    assert '<option selected value="Ben">Ben</option>' in page  # the entry is kept
    assert count(app, Round) == 1
    votes = {"Ann": "3", "Cy": "3", "Dee": "2"}
    again = client.post(
        f"/sessions/{sid}/rounds",
        data=turn_form(storyteller="Ben", votes=votes, expected_round="2"),
    )
    assert again.status_code == 302 and count(app, Round) == 2


def test_correct_a_past_round_through_the_form(client, app):
    sid = new_session(client)
    client.post(f"/sessions/{sid}/rounds", data=turn_form())
    edit = shown(client.get(f"/sessions/{sid}/rounds/1/edit"))
    assert '<option selected value="Dee">Dee</option>' in edit
    response = client.post(
        f"/sessions/{sid}/rounds/1/edit", data=turn_form(votes={"Ben": "2", "Cy": "2", "Dee": "2"})
    )
    assert response.status_code == 302
    page = shown(client.get(f"/sessions/{sid}"))
    assert "Round 1 corrected" in page and "corrected</span>" in page
    with app.app_context():
        assert db.session.query(Round).one().result["deltas"]["Ann"] == 0
        entry = db.session.query(AuditEntry).order_by(AuditEntry.id.desc()).first()
        assert entry.action == "replace_round"
        assert entry.before["votes"]["Dee"] == 3 and entry.after["votes"]["Dee"] == 2


def test_refused_correction_shows_the_error_and_changes_nothing(client, app):
    sid = new_session(client)
    client.post(f"/sessions/{sid}/rounds", data=turn_form())
    response = client.post(
        f"/sessions/{sid}/rounds/1/edit", data=turn_form(votes={"Ben": "3", "Cy": "2", "Dee": "2"})
    )
    assert response.status_code == 422
    assert "own card" in shown(response)
    with app.app_context():
        assert db.session.query(Round).one().input == SEED_TURN


def test_undo_and_finish_buttons(client, app):
    sid = new_session(client)
    client.post(f"/sessions/{sid}/rounds", data=turn_form())
    assert client.post(f"/sessions/{sid}/rounds/1/delete").status_code == 302
    assert count(app, Round) == 0
    client.post(f"/sessions/{sid}/rounds", data=turn_form())
    assert client.post(f"/sessions/{sid}/finish").status_code == 302
    page = shown(client.get(f"/sessions/{sid}"))
    assert "Winner: <strong>Ben</strong>" in page
    assert "Record round" not in page
    with app.app_context():
        actions = [e.action for e in db.session.query(AuditEntry).order_by(AuditEntry.id)]
    assert actions == [
        "create_session",
        "record_round",
        "delete_round",
        "record_round",
        "finish_session",
    ]


def test_missing_pages_answer_404(client):
    assert client.get("/sessions/999").status_code == 404
    assert client.get("/sessions/new?game=chess").status_code == 404
    assert client.get("/sessions/999/rounds/1/edit").status_code == 404


def test_forms_require_the_csrf_token(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "x",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'csrf.sqlite'}",
        }
    )
    with app.app_context():
        db.create_all()
    client = app.test_client()
    refused = client.post("/sessions/new?game=dixit", data={"game": "dixit", "players": "A\nB\nC"})
    assert refused.status_code == 400
    page = shown(client.get("/sessions/new?game=dixit"))
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    accepted = client.post(
        "/sessions/new?game=dixit",
        data={
            "game": "dixit",
            "players": "A\nB\nC",
            "csrf_token": token,
            "rule_target_score": "30",
            "rule_deck_exhausted": "reshuffle",
        },
    )
    assert accepted.status_code == 302
    api = client.post("/api/sessions", json={"game": "dixit", "players": ["X", "Y", "Z"]})
    assert api.status_code == 201
    with app.app_context():
        db.engine.dispose()


def test_names_are_shown_escaped(client, api):
    sid = api.create(players=["<b>Ann</b>", "Ben", "Cy"])["id"]
    page = shown(client.get(f"/sessions/{sid}"))
    assert "<b>Ann</b>" not in page and "&lt;b&gt;Ann&lt;/b&gt;" in page


def test_check_only_scores_without_storing(client, app):
    sid = new_session(client)
    response = client.post(f"/sessions/{sid}/rounds", data={**turn_form(), "action": "check"})
    assert response.status_code == 200
    page = shown(response)
    assert "Checked: nothing wrong." in page and "Ben <b>+4</b>" in page
    assert count(app, Round) == 0
    refused = client.post(
        f"/sessions/{sid}/rounds",
        data={**turn_form(votes={"Ben": "3", "Cy": "2", "Dee": "2"}), "action": "check"},
    )
    assert refused.status_code == 422 and "own card" in shown(refused)


def test_check_a_correction_against_the_state_before_it(client, app):
    sid = new_session(client)
    client.post(f"/sessions/{sid}/rounds", data=turn_form())
    client.post(
        f"/sessions/{sid}/rounds",
        data=turn_form(
            storyteller="Ben",
            positions=("Ben", "Ann", "Cy", "Dee"),
            votes={"Ann": "1", "Cy": "1", "Dee": "2"},
        ),
    )
    response = client.post(
        f"/sessions/{sid}/rounds/1/edit",
        data={**turn_form(votes={"Ben": "2", "Cy": "2", "Dee": "2"}), "action": "check"},
    )
    assert response.status_code == 200
    assert "Checked: nothing wrong." in shown(response)
    with app.app_context():
        assert db.session.query(Round).filter_by(number=1).one().input == SEED_TURN
