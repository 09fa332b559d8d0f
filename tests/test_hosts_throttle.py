"""The password throttle counts in the database: two hosts on one database count one guesser.

Each app here is a host of its own (its own process memory, ``SharedThrottle``) on the same
database; a guesser alternating between them is held back as one host would hold it back. The
counts stay bounded, and cost nothing on reads.
"""

from __future__ import annotations

import pytest

from refapp.extensions import db
from refapp.shared_throttle import SharedThrottle
from refapp.throttle import Throttle

from .conftest import make_test_app
from .test_security_sign_in import Clock

BODY = {"game": "dixit", "players": ["Ann", "Ben", "Cy"]}
RIGHT = {"X-Table-Password": "owl"}
WRONG = {"X-Table-Password": "cat"}


@pytest.fixture
def hosts(app):
    """Return two hosts on the test's database, one hand-moved clock, the table password 'owl'."""
    clock = Clock()
    second = make_test_app(app.config["SQLALCHEMY_DATABASE_URI"])
    for host in (app, second):
        host.config.update(PASSWORD="owl", ACCESS_CLOCK=clock)
    yield app, second, clock
    with second.app_context():
        db.engine.dispose()


def create(client, headers):
    """Try to create a session through the API and return the status."""
    return client.post("/api/sessions", json=BODY, headers=headers).status_code


def test_a_guesser_alternating_between_two_hosts_waits_as_on_one(hosts):
    first, second, clock = hosts
    guesser = [first.test_client(), second.test_client()]
    answers = [create(guesser[number % 2], WRONG) for number in range(4)]
    # two free mistypes, the third sets a one-second wait that the other host keeps
    assert answers == [401, 401, 401, 429]
    assert create(guesser[0], RIGHT) == 429 and create(guesser[1], RIGHT) == 429
    clock.now += 1
    assert create(guesser[1], RIGHT) == 201  # the right password, on either host, clears it
    assert [create(guesser[number % 2], WRONG) for number in range(3)] == [401, 401, 401]


def test_the_tables_tries_are_one_count_for_every_host(hosts):
    first, second, _clock = hosts
    for number in range(60):
        guesser = (first if number % 2 else second).test_client()
        guesser.environ_base["REMOTE_ADDR"] = f"10.9.0.{number}"
        assert create(guesser, WRONG) == 401
    newcomer = first.test_client()
    newcomer.environ_base["REMOTE_ADDR"] = "10.9.1.1"
    assert create(newcomer, RIGHT) == 429  # sixty tries spent across both hosts


def test_the_entries_are_bounded_and_forgotten(app):
    throttle = SharedThrottle(Throttle(size=3, burst=10_000), prune_every=8)
    with app.test_request_context():
        for number in range(100):
            throttle.succeeded(f"10.1.0.{number}", float(number))
            for _ in range(3):
                throttle.failed(f"10.0.0.{number}", float(number))
        assert throttle.entries() <= 3 * 3 + 8
        assert throttle.wait("10.0.0.99", 99.0) == 1.0  # the newest are kept
        throttle.failed("10.0.0.99", 12.5 * 3600)  # its first again: the old ones forgotten
        assert throttle.wait("10.0.0.99", 12.5 * 3600) == 0.0
        throttle.prune(13 * 3600.0)  # failures an hour old and trust 12 hours old are dropped
        assert throttle.entries() == 1


def throttle_statements(statements: list[str]) -> list[str]:
    """Return the statements that read or write the throttle's table."""
    return [statement.split()[0] for statement in statements if "throttle_entry" in statement]


def test_reads_cost_nothing_and_a_right_password_one_read(app, count_queries):
    app.config.update(PASSWORD="owl")
    phone = app.test_client()
    with count_queries() as counted:
        assert phone.get("/api/sessions").status_code == 200
        assert phone.get("/").status_code == 200
    assert throttle_statements(counted.statements) == []
    with count_queries() as counted:
        assert create(phone, RIGHT) == 201  # its first: read, its address trusted (and a pass)
        assert create(phone, RIGHT) == 201  # with its pass: read, nothing to forget
    assert throttle_statements(counted.statements) == ["SELECT", "INSERT", "SELECT"]
    api = app.test_client(use_cookies=False)  # keeps no pass
    api.environ_base["REMOTE_ADDR"] = "10.2.0.1"
    with count_queries() as counted:
        assert create(api, RIGHT) == 201
        assert create(api, RIGHT) == 201  # trusted within the minute: read only
    assert throttle_statements(counted.statements) == ["SELECT", "INSERT", "SELECT"]
