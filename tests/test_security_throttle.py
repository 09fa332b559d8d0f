"""Password guesses are slowed per address and for the table, yet never lock the table out."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from refapp.extensions import db
from refapp.throttle import Throttle
from refapp.throttle_entries import ThrottleEntry

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


def test_wrong_api_passwords_back_off_doubling_to_five_seconds(table, clock):
    client = table.test_client()
    for _ in range(2):
        assert create(client, WRONG).status_code == 401  # two mistypes cost nothing
    assert create(client, RIGHT).status_code == 201
    for _ in range(3):
        assert create(client, WRONG).status_code == 401
    refused = create(client, RIGHT)  # even the right password waits now, one second
    assert held_back(refused) and refused.headers["Retry-After"] == "1"
    clock.now += 1
    assert create(client, WRONG).status_code == 401  # the fourth failure: two seconds
    clock.now += 1
    assert held_back(create(client, RIGHT))
    clock.now += 1
    assert create(client, WRONG).status_code == 401  # the fifth: four seconds
    clock.now += 3
    assert held_back(create(client, RIGHT))
    assert create(client, RIGHT).headers.get("Retry-After") == "1"
    clock.now += 1
    assert create(client, WRONG).status_code == 401  # the sixth and every later one: five
    assert create(client, RIGHT).headers.get("Retry-After") == "5"
    clock.now += 5
    assert create(client, RIGHT).status_code == 201  # a success starts afresh
    for _ in range(3):
        assert create(client, WRONG).status_code == 401
    assert held_back(create(client, WRONG))


def test_the_right_password_waits_at_most_five_seconds_however_long_the_guessing(table, clock):
    client = table.test_client()
    tried = 0
    for _ in range(3600):  # an hour of one guess a second from one address
        tried += create(client, WRONG).status_code == 401
        clock.now += 1
    # one guess per five seconds got through, after three free ones and the 1 and 2 s waits
    assert 3600 // 5 <= tried <= 3600 // 5 + 5
    clock.now += 5
    assert create(client, WRONG).status_code == 401
    refused = create(client, RIGHT)
    assert held_back(refused) and refused.headers["Retry-After"] == "5"
    clock.now += 5
    assert create(client, RIGHT).status_code == 201


def test_many_addresses_guessing_hold_back_new_ones_but_not_the_tables_phones(table, clock):
    phone = table.test_client()
    phone.environ_base["REMOTE_ADDR"] = "192.168.1.23"
    assert create(phone, RIGHT).status_code == 201  # the table's phone gave the password
    guessers = [table.test_client() for _ in range(61)]
    for number, guesser in enumerate(guessers):
        guesser.environ_base["REMOTE_ADDR"] = f"10.9.0.{number}"
    answers = [create(guesser, WRONG).status_code for guesser in guessers]
    assert answers[:60] == [401] * 60  # the table's burst of sixty tries, spent
    assert answers[60] == 429
    newcomer = table.test_client()
    newcomer.environ_base["REMOTE_ADDR"] = "192.168.1.40"
    refused = create(newcomer, RIGHT)
    assert held_back(refused) and refused.headers["Retry-After"] == "1"
    assert create(phone, RIGHT).status_code == 201  # trusted: not held back by the others
    clock.now += 1  # one try a second comes back to the table
    again = create(guessers[0], WRONG)  # a guesser waits a second more than a newcomer
    assert held_back(again) and again.headers["Retry-After"] == "1"
    assert create(newcomer, RIGHT).status_code == 201
    clock.now += 1
    assert create(guessers[0], WRONG).status_code == 401  # spends a try that came back
    assert held_back(create(guessers[1], WRONG))
    assert (table_tries(table, clock.now), guessed(table)) == (1.0, 61)  # one a second, as before


def table_tries(app, moment: float) -> float:
    """Return the table's tries left at ``moment``, as the database keeps them for every host."""
    with app.test_request_context():
        return app.extensions["refapp_throttle"].tries(moment)


def guessed(app) -> int:
    """Return the wrong passwords the database counts from the client addresses."""
    with app.app_context():
        failures = select(func.sum(ThrottleEntry.failures))
        return db.session.scalar(failures.where(ThrottleEntry.kind == "address")) or 0


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
    for _ in range(2):
        assert post_sign_in(client, "cat").status_code == 401
    assert create(client, WRONG).status_code == 401
    refused = post_sign_in(client, "owl")
    assert refused.status_code == 401 and refused.headers["Retry-After"] == "1"
    assert "Too many wrong passwords" in refused.get_data(as_text=True)
    assert client.get("/sessions/new?game=dixit").status_code == 302  # not signed in
    assert held_back(create(client, RIGHT))
    clock.now += 1
    assert post_sign_in(client, "owl").status_code == 302
    assert client.get("/sessions/new?game=dixit").status_code == 200
    assert create(client, RIGHT).status_code == 201


def test_another_device_is_not_held_back(table):
    guesser = table.test_client()
    for _ in range(4):
        create(guesser, WRONG)
    assert held_back(create(guesser, RIGHT))
    player = table.test_client()
    player.environ_base["REMOTE_ADDR"] = "192.168.1.23"
    assert create(player, RIGHT).status_code == 201


def test_the_throttle_remembers_a_bounded_number_of_clients():
    throttle = Throttle(size=3, burst=10_000)
    for number in range(100):
        throttle.succeeded(f"10.1.0.{number}", 0.0)
        for _ in range(6):
            throttle.failed(f"10.0.0.{number}", 0.0)
    assert len(throttle.clients) <= 3 and len(throttle.trusted) <= 3
    assert throttle.wait("10.0.0.99", 0.0) == 5.0
    assert throttle.is_trusted("10.1.0.99", 0.0) and not throttle.is_trusted("10.1.0.0", 0.0)


def test_the_throttle_forgets_old_failures():
    throttle = Throttle()
    for _ in range(4):
        throttle.failed("10.0.0.1", 0.0)
    assert throttle.wait("10.0.0.1", 0.0) == 2.0
    throttle.failed("10.0.0.1", 24 * 3600.0)  # a day later: the first failure again
    assert throttle.wait("10.0.0.1", 24 * 3600.0) == 0


def test_the_tables_tries_come_back_one_a_second_up_to_the_burst():
    throttle = Throttle(burst=5, rate=1.0)
    for number in range(5):
        throttle.failed(f"10.0.0.{number}", 0.0)
    assert throttle.wait("10.0.0.50", 0.0) == 1.0
    assert throttle.wait("10.0.0.50", 0.5) == 0.5
    assert throttle.wait("10.0.0.50", 1.0) == 0.0
    throttle.succeeded("10.0.0.60", 1.0)
    for number in range(5, 20):
        throttle.failed(f"10.0.0.{number}", 1.0)
    assert throttle.tries == 0.0  # spent, never below nothing
    assert throttle.wait("10.0.0.60", 1.0) == 0.0  # the trusted address still tries
    assert throttle.wait("10.0.0.60", 1.0 + 12 * 3600.0 + 1) == 0.0  # tries came back
    throttle.failed("10.0.0.70", 100_000.0)
    assert throttle.tries == 4.0  # refilled to the burst, not past it, then one spent


def test_an_address_without_failures_gets_the_tables_next_try_before_the_guessers():
    throttle = Throttle(burst=3, rate=1.0, grace=1.0)
    for number in range(3):
        throttle.failed(f"10.0.0.{number}", 0.0)
    assert throttle.wait("10.0.0.0", 0.0) == 2.0 and throttle.wait("10.0.0.9", 0.0) == 1.0
    assert throttle.wait("10.0.0.0", 1.0) == 1.0 and throttle.wait("10.0.0.9", 1.0) == 0.0
    throttle.failed("10.0.0.9", 1.0)  # a newcomer's try is a table's try too
    assert throttle.tries == 0.0 and throttle.wait("10.0.0.9", 1.0) == 2.0
    assert throttle.wait("10.0.0.1", 3.0) == 0.0  # two seconds on, a guesser tries again
    for number in range(3):
        throttle.failed(f"10.0.1.{number}", 4000.0)
    assert throttle.wait("10.0.1.0", 4000.0) == 2.0
    assert throttle.wait("10.0.0.1", 4000.0) == 1.0  # its failures an hour old: forgotten
