"""Password guesses back off per client: after five failures each try waits twice as long."""

from __future__ import annotations

import pytest

from refapp.access import Throttle

from .test_access import csrf_token
from .test_security_sign_in import Clock

BODY = {"game": "dixit", "players": ["Ann", "Ben", "Cy"]}
RIGHT = {"X-Table-Password": "owl"}
WRONG = {"X-Table-Password": "cat"}


@pytest.fixture
def clock() -> Clock:
    """Return a hand-moved clock."""
    return Clock()


@pytest.fixture
def table(app, clock):
    """Return the test app with the table password 'owl', CSRF on and the hand-moved clock."""
    app.config.update(PASSWORD="owl", WTF_CSRF_ENABLED=True, ACCESS_CLOCK=clock)
    return app


def create(client, headers):
    """Try to create a session with these headers and return the response."""
    return client.post("/api/sessions", json=BODY, headers=headers)


def held_back(response) -> bool:
    """Return True for the API's 429 too_many_attempts."""
    body = response.get_json() or {}
    return response.status_code == 429 and body["error"]["code"] == "too_many_attempts"


def test_wrong_api_passwords_back_off_doubling(table, clock):
    client = table.test_client()
    for _ in range(5):
        assert create(client, WRONG).status_code == 401
    refused = create(client, RIGHT)  # even the right password waits now
    assert held_back(refused) and refused.headers["Retry-After"] == "1"
    clock.now += 1
    assert create(client, WRONG).status_code == 401  # the sixth failure: two seconds
    clock.now += 1
    assert held_back(create(client, RIGHT))
    clock.now += 1
    assert create(client, WRONG).status_code == 401  # the seventh: four seconds
    clock.now += 3
    assert held_back(create(client, RIGHT))
    assert create(client, RIGHT).headers.get("Retry-After") == "1"
    clock.now += 1
    assert create(client, RIGHT).status_code == 201  # a success starts afresh
    for _ in range(5):
        assert create(client, WRONG).status_code == 401
    assert held_back(create(client, WRONG))


def test_the_wait_stops_at_five_minutes(table, clock):
    client = table.test_client()
    for _ in range(30):
        create(client, WRONG)
        clock.now += 300
    assert create(client, WRONG).status_code == 401
    refused = create(client, RIGHT)
    assert held_back(refused) and refused.headers["Retry-After"] == "300"
    clock.now += 300
    assert create(client, RIGHT).status_code == 201


def test_no_header_and_reads_are_not_guesses(table):
    client = table.test_client()
    for _ in range(10):
        assert create(client, {}).status_code == 401
        assert client.get("/api/sessions", headers=WRONG).status_code == 200
    assert create(client, RIGHT).status_code == 201


def post_sign_in(client, password: str):
    """Post the sign-in form with a fresh CSRF token."""
    token = csrf_token(client, "/signin")
    return client.post("/signin", data={"password": password, "csrf_token": token})


def test_sign_in_form_failures_count_with_the_api_ones(table, clock):
    client = table.test_client()
    for _ in range(3):
        assert post_sign_in(client, "cat").status_code == 401
    for _ in range(2):
        assert create(client, WRONG).status_code == 401
    refused = post_sign_in(client, "owl")
    assert refused.status_code == 401 and refused.headers["Retry-After"] == "1"
    assert "Too many wrong passwords" in refused.get_data(as_text=True)
    assert client.get("/sessions/new?game=dixit").status_code == 302  # not signed in
    assert held_back(create(client, RIGHT))
    clock.now += 1
    assert post_sign_in(client, "owl").status_code == 302
    assert create(client, RIGHT).status_code == 201


def test_another_device_is_not_held_back(table):
    guesser = table.test_client()
    for _ in range(6):
        create(guesser, WRONG)
    assert held_back(create(guesser, RIGHT))
    player = table.test_client()
    player.environ_base["REMOTE_ADDR"] = "192.168.1.23"
    assert create(player, RIGHT).status_code == 201


def test_the_throttle_remembers_a_bounded_number_of_clients():
    throttle = Throttle(size=3)
    for number in range(100):
        for _ in range(6):
            throttle.failed(f"10.0.0.{number}", 0.0)
    assert len(throttle) <= 3
    assert throttle.wait("10.0.0.99", 0.0) > 0


def test_the_throttle_forgets_old_failures():
    throttle = Throttle()
    for _ in range(4):
        throttle.failed("10.0.0.1", 0.0)
    throttle.failed("10.0.0.1", 24 * 3600.0)  # a day later: the first failure again
    assert throttle.wait("10.0.0.1", 24 * 3600.0) == 0
