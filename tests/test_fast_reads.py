"""The session read served below Flask answers exactly what Flask answers, and only that."""

from __future__ import annotations

import pytest
from werkzeug.test import Client

from refapp.serving.fast_reads import FastReads

from .conftest import turn


def flask_only(app) -> Client:
    """Return a client of the app without the fast path in front."""
    assert isinstance(app.wsgi_app, FastReads)
    return Client(app.wsgi_app.wrapped)


def compared(response) -> tuple:
    """Return what must be equal: status, headers (but the date) and body."""
    headers = sorted((k, v) for k, v in response.headers.items() if k != "Date")
    return response.status_code, headers, response.get_json(silent=True), response.data[:0]


@pytest.mark.parametrize(
    "query",
    ["", "?rounds=none", "?rounds=all", "?rounds=last:2", "?rounds=LAST:1", "?rounds=last:0"],
)
def test_fast_path_answers_as_flask_does(app, api, client, query):
    sid = api.create(rules={"target_score": 10**6})["id"]
    for name in ("Ann", "Ben", "Cy"):
        assert api.record(sid, turn(name)).status_code == 201
    path = f"/api/sessions/{sid}{query}"
    slow = flask_only(app).get(path)
    first, second = client.get(path), client.get(path)  # the second one is served fast
    assert compared(first) == compared(slow) == compared(second)
    tag = second.headers["ETag"]
    for header in (tag, f"W/{tag}", f'"1", {tag}', "*"):
        fast = client.get(path, headers={"If-None-Match": header})
        assert compared(fast) == compared(
            flask_only(app).get(path, headers={"If-None-Match": header})
        )
        assert fast.status_code == 304
    assert client.get(path, headers={"If-None-Match": '"1"'}).status_code == 200


def test_a_write_moves_the_kept_part_on(app, api, client, monkeypatch):
    sid = api.create(rules={"target_score": 10**6})["id"]
    client.get(f"/api/sessions/{sid}")
    served = []
    middleware = app.wsgi_app
    original = middleware.answer
    monkeypatch.setattr(
        middleware, "answer", lambda environ: served.append(original(environ)) or served[-1]
    )
    assert client.get(f"/api/sessions/{sid}").get_json()["rounds_total"] == 0
    assert served[-1] is not None and served[-1][0] == "200 OK"
    assert api.record(sid, turn("Ann")).status_code == 201
    after = client.get(f"/api/sessions/{sid}")
    assert served[-1] is not None  # a new version: its part built once, here
    assert after.get_json()["rounds_total"] == 1 and after.headers["ETag"] == '"2"'
    assert after.get_json() == flask_only(app).get(f"/api/sessions/{sid}").get_json()
    again = client.get(f"/api/sessions/{sid}")
    assert served[-1] is not None and again.get_json() == after.get_json()


@pytest.mark.parametrize(
    "path",
    [
        "/api/sessions/1?rounds=bad",
        "/api/sessions/1?rounds=none&x=1",
        "/api/sessions/99999999999",
        "/api/sessions/404",
        "/api/sessions/1/audit",
    ],
)
def test_what_the_fast_path_leaves_to_flask(app, api, client, path):
    api.create()
    assert app.wsgi_app.answer({"REQUEST_METHOD": "GET", "PATH_INFO": path.split("?")[0],
                                "QUERY_STRING": path.partition("?")[2]}) is None  # fmt: skip
    assert compared(client.get(path)) == compared(flask_only(app).get(path))


def test_a_served_app_freezes_what_it_built(tmp_path, monkeypatch):
    import gc

    from refapp import served_app

    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'served.sqlite'}")
    gc.unfreeze()
    try:
        app = served_app()
        assert app.name == "refapp" and gc.get_freeze_count() > 10_000
    finally:
        gc.unfreeze()


def test_a_failing_read_is_left_to_flask(app, api, client, monkeypatch):
    sid = api.create()["id"]
    middleware = app.wsgi_app

    def broken(sql, session_id):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(middleware, "fetch", broken)
    answer = client.get(f"/api/sessions/{sid}")
    assert answer.status_code == 200 and answer.get_json()["id"] == sid
