"""The optional table password, CSRF on forms, security headers and the session cookie."""

from __future__ import annotations

from refapp import create_app
from refapp.extensions import db
from refapp.models import GameSession, Round

from .conftest import SEED_TURN


def csrf_token(client, path: str) -> str:
    """Return the CSRF token a page's form carries."""
    page = client.get(path).get_data(as_text=True)
    return page.split('name="csrf_token" type="hidden" value="')[1].split('"')[0]


def sign_in(client, password: str = "owl"):
    """Post the sign-in form and return the response."""
    token = csrf_token(client, "/signin")
    return client.post("/signin", data={"password": password, "csrf_token": token})


def test_reading_is_open_but_the_api_refuses_writes_without_the_password(guarded):
    client = guarded.test_client()
    assert client.get("/").status_code == 200
    assert client.get("/api/sessions").status_code == 200
    refused = client.post("/api/sessions", json={"game": "dixit", "players": ["A", "B", "C"]})
    assert refused.status_code == 401
    assert refused.get_json()["error"]["code"] == "sign_in_required"
    with guarded.app_context():
        assert db.session.query(GameSession).count() == 0
    allowed = client.post(
        "/api/sessions",
        json={"game": "dixit", "players": ["A", "B", "C"]},
        headers={"X-Table-Password": "owl"},
    )
    assert allowed.status_code == 201
    wrong = client.post(
        "/api/sessions",
        json={"game": "dixit", "players": ["A", "B", "C"]},
        headers={"X-Table-Password": "cat"},
    )
    assert wrong.status_code == 401


def test_pages_ask_to_sign_in_before_writing(guarded):
    client = guarded.test_client()
    created = client.post(
        "/api/sessions",
        json={"game": "dixit", "players": ["Ann", "Ben", "Cy", "Dee"]},
        headers={"X-Table-Password": "owl"},
    ).get_json()
    page = client.get(f"/sessions/{created['id']}").get_data(as_text=True)
    assert "Sign in</a> to record rounds" in page and 'name="pos_1"' not in page
    to_form = client.get("/sessions/new?game=dixit")
    assert to_form.status_code == 302 and "/signin?next=" in to_form.headers["Location"]
    token = csrf_token(client, "/signin")
    posted = client.post(
        f"/sessions/{created['id']}/rounds", data={"storyteller": "Ann", "csrf_token": token}
    )
    assert posted.status_code == 302 and "/signin" in posted.headers["Location"]
    assert sign_in(client, "cat").status_code == 401
    assert sign_in(client).status_code == 302
    page = client.get(f"/sessions/{created['id']}").get_data(as_text=True)
    assert 'name="pos_1"' in page and "Sign out" in page
    # the API never takes the pages' cookie (it has no CSRF token): only the header writes
    cookie_only = client.post(f"/api/sessions/{created['id']}/rounds", json=SEED_TURN)
    assert cookie_only.status_code == 401
    recorded = client.post(
        f"/api/sessions/{created['id']}/rounds", json=SEED_TURN, headers={"X-Table-Password": "owl"}
    )
    assert recorded.status_code == 201
    with guarded.app_context():
        assert db.session.query(Round).count() == 1


def test_sign_in_goes_back_only_to_this_site(guarded):
    client = guarded.test_client()
    token = csrf_token(client, "/signin")
    away = client.post(
        "/signin", data={"password": "owl", "csrf_token": token, "next": "https://evil.example/"}
    )
    assert away.headers["Location"] == "/"
    token = csrf_token(client, "/signin")
    back = client.post(
        "/signin", data={"password": "owl", "csrf_token": token, "next": "/sessions/new?game=dixit"}
    )
    assert back.headers["Location"] == "/sessions/new?game=dixit"


def test_sign_in_form_needs_its_csrf_token(guarded):
    client = guarded.test_client()
    assert client.post("/signin", data={"password": "owl"}).status_code == 400


def test_password_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("REFAPP_PASSWORD", "moon")
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "k",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'e.sqlite'}",
        }
    )
    assert app.config["PASSWORD"] == "moon"


def test_no_password_means_an_open_table(client):
    assert client.get("/signin").status_code == 302
    assert (
        client.post("/api/sessions", json={"game": "dixit", "players": ["A", "B", "C"]}).status_code
        == 201
    )


def test_security_headers_and_cookie_flags(guarded):
    client = guarded.test_client()
    response = client.get("/")
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    sign_in(client)
    cookie = client.get_cookie("session")
    assert cookie is not None and cookie.http_only and cookie.same_site == "Lax"
