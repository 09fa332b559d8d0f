"""Random and malformed bodies on every write endpoint: never a 500, always the error shape."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from refapp.extensions import db
from refapp.models import Round

from .conftest import SEED_TURN

FUZZ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=20,
)
names = st.sampled_from(["Ann", "Ben", "Cy", "Dee", "Zed", "", " Ann", "\x00"])


def assert_answered(response) -> None:
    """The answer is a success or the documented error shape with a 4xx status."""
    assert response.status_code < 500, response.get_data(as_text=True)[:300]
    if response.status_code >= 400:
        error = response.get_json()["error"]
        assert isinstance(error["code"], str) and isinstance(error["message"], str)
        assert "field" in error


@FUZZ
@given(body=json_values)
def test_any_json_creating_a_session(client, body):
    assert_answered(client.post("/api/sessions", json=body))


@FUZZ
@given(
    game=st.sampled_from(["dixit", "mighty", "dalmuti", "chess"]) | scalars,
    players=st.lists(names | scalars, max_size=10) | json_values,
    rules=st.dictionaries(
        st.sampled_from(
            [
                "target_score",
                "bonus_cap",
                "two_votes_large_game",
                "deck_exhausted",
                "end_after_rounds",
                "large_table",
                "min_bid",
                "misdeal_at_most",
                "lesser_tax_min_players",
                "draw_ties",
                "scoring",
                "x",
            ]
        ),
        json_values,
    )
    | json_values,
)
def test_session_shaped_bodies(client, game, players, rules):
    body = {"game": game, "players": players, "rules": rules}
    assert_answered(client.post("/api/sessions", json=body))


@FUZZ
@given(
    storyteller=names | scalars,
    positions=st.lists(names | scalars, max_size=6) | json_values,
    votes=st.dictionaries(names | st.text(max_size=4), st.integers(-2, 6) | json_values, max_size=5)
    | json_values,
    dry_run=st.booleans(),
)
def test_round_shaped_bodies_store_nothing_when_refused(
    api, app, storyteller, positions, votes, dry_run
):
    sid = api.create(rules={"target_score": 10**6})["id"]
    with app.app_context():
        before = db.session.query(Round).count()
    body = {"storyteller": storyteller, "positions": positions, "votes": votes}
    response = api.record(sid, body, dry_run=dry_run)
    assert_answered(response)
    with app.app_context():
        after = db.session.query(Round).count()
    assert after == before + (1 if response.status_code == 201 else 0)


@FUZZ
@given(body=json_values, number=st.integers(-1, 3))
def test_corrections_and_undo_with_any_body(api, body, number):
    sid = api.create()["id"]
    api.record(sid, SEED_TURN)
    assert_answered(api.client.put(f"/api/sessions/{sid}/rounds/{number}", json=body))
    assert_answered(api.client.delete(f"/api/sessions/{sid}/rounds/{number}"))
    assert_answered(api.client.post(f"/api/sessions/{sid}/rounds?dry_run=1", json=body))


def test_a_host_header_that_is_no_host_name_is_400_not_500(client):
    """A Host label past 63 characters makes werkzeug refuse the host: a 400, never a 500."""
    response = client.get("/", headers={"Host": "x" * 70})
    assert response.status_code == 400
    response = client.get("/api/sessions", headers={"Host": "y" * 5000})
    assert response.status_code == 400
