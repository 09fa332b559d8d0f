"""The saved rule sets' listing at the maximum count: ``GET /api/rule-sets`` and ``/rule-sets``.

Usage: python bench/rule_sets_listing.py

Saves MAX_RULE_SETS sets through the API, each as large as a set can be made (a 60-character
name, Mighty - the game with the most options - with every option given), then times each
listing and the new-session form that offers them (median and slowest of 20 requests,
in-process through Flask's test client) and prints its size. On a temporary SQLite file, and
on BENCH_DATABASE_URL too when it names a PostgreSQL database (that database is EMPTIED and
rebuilt by the migrations).
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time

import sqlalchemy as sa
from flask_migrate import upgrade

from refapp import create_app
from refapp.extensions import db
from refapp.games import get_game
from refapp.services import rule_sets

REQUESTS = 20


def app_on(url: str):
    """Return an app on an empty database at url, built by the migrations."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench", "TESTING": True})
    with app.app_context():
        db.drop_all()
        db.session.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))
        db.session.commit()
        upgrade()
    return app


def largest_set() -> dict:
    """Return the largest saved set a table can make: Mighty with every option given."""
    game = get_game("mighty")
    return {"game": "mighty", "rules": {option.key: option.default for option in game.options}}


def timed(client, url: str) -> tuple[float, float, int]:
    """Return the median and slowest time (s) of REQUESTS gets of url, and the body's size."""
    times, size = [], 0
    for _ in range(REQUESTS):
        start = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - start)
        assert response.status_code == 200, response.status_code
        size = len(response.get_data())
    return statistics.median(times), max(times), size


def run(label: str, url: str) -> None:
    """Fill the table to the maximum and print the listings' figures."""
    app = app_on(url)
    client = app.test_client()
    body = largest_set()
    for number in range(rule_sets.MAX_RULE_SETS):
        name = f"{number:03d} " + "x" * (rule_sets.RULE_SET_NAME_MAX - 4)
        assert client.put(f"/api/rule-sets/{name}", json=body).status_code == 200
    refused = client.put("/api/rule-sets/one more", json=body)
    assert refused.get_json()["error"]["code"] == "too_many_rule_sets"
    for listing in ("/api/rule-sets", "/rule-sets", "/sessions/new?game=mighty"):
        median, slowest, size = timed(client, listing)
        print(
            f"{label:10} {listing:26} {rule_sets.MAX_RULE_SETS} sets: {size / 1024:7.1f} KiB, "
            f"median {median * 1000:6.1f} ms, slowest {slowest * 1000:6.1f} ms"
        )
    with app.app_context():
        db.engine.dispose()


def main() -> None:
    """Run on SQLite, then on PostgreSQL when BENCH_DATABASE_URL is set."""
    with tempfile.TemporaryDirectory() as folder:
        run("sqlite", f"sqlite:///{folder}/bench.sqlite")
    if os.environ.get("BENCH_DATABASE_URL"):
        run("postgresql", os.environ["BENCH_DATABASE_URL"])


if __name__ == "__main__":
    main()
