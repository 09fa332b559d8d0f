"""Behind TRUSTED_PROXIES reverse proxies each phone counts by its own address; with none, alone."""

from __future__ import annotations

import pytest
from flask import request
from werkzeug.middleware.proxy_fix import ProxyFix

from refapp import create_app
from refapp.extensions import db

from .conftest import make_test_app

BODY = {"game": "dixit", "players": ["Ann", "Ben", "Cy"]}
PROXY = "10.0.0.1"


def create(client, password: str, forwarded: str):
    """Try to create a session through the proxy at PROXY and return the response."""
    headers = {"X-Table-Password": password, "X-Forwarded-For": forwarded}
    client.environ_base["REMOTE_ADDR"] = PROXY
    return client.post("/api/sessions", json=BODY, headers=headers)


def probe_scheme(app) -> None:
    """Add a page that answers the request's scheme and client address (before any request)."""
    app.add_url_rule("/probe", "probe", lambda: f"{request.scheme} {request.remote_addr}")


def test_without_trusted_proxies_a_client_cannot_pick_its_throttle_address(app):
    app.config.update(PASSWORD="owl")
    probe_scheme(app)
    client = app.test_client()
    assert app.config["TRUSTED_PROXIES"] == 0
    for number in range(3):
        assert create(client, "cat", forwarded=f"172.16.0.{number}").status_code == 401
    held = create(client, "owl", forwarded="172.16.0.99")
    assert held.status_code == 429 and held.get_json()["error"]["code"] == "too_many_attempts"
    shown = client.get(
        "/probe", headers={"X-Forwarded-For": "1.2.3.4", "X-Forwarded-Proto": "https"}
    )
    assert shown.get_data(as_text=True) == f"http {PROXY}"


def proxied_app(url: str, proxies: int):
    """Return an app on this database behind ``proxies`` trusted proxies, password 'owl'."""
    proxied = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": url,
            "PASSWORD": "owl",
            "TRUSTED_PROXIES": proxies,
        }
    )
    probe_scheme(proxied)
    return proxied


def test_behind_one_proxy_each_phone_counts_by_its_own_address(app):
    proxied = proxied_app(app.config["SQLALCHEMY_DATABASE_URI"], 1)
    try:
        guesser, player = proxied.test_client(), proxied.test_client()
        for _ in range(3):
            assert create(guesser, "cat", forwarded="192.168.1.66").status_code == 401
        assert create(guesser, "owl", forwarded="192.168.1.66").status_code == 429
        # a forged first hop is not believed: the proxy's own last entry counts
        assert create(guesser, "owl", forwarded="192.168.1.7, 192.168.1.66").status_code == 429
        assert create(player, "owl", forwarded="192.168.1.7").status_code == 201
        shown = player.get(
            "/probe", headers={"X-Forwarded-For": "192.168.1.7", "X-Forwarded-Proto": "https"}
        )
        assert shown.get_data(as_text=True) == "https 192.168.1.7"
    finally:
        with proxied.app_context():
            db.engine.dispose()


def test_the_setting_comes_from_the_environment_first(app, monkeypatch):
    monkeypatch.setenv("REFAPP_TRUSTED_PROXIES", "2")
    proxied = proxied_app(app.config["SQLALCHEMY_DATABASE_URI"], 0)
    try:
        assert proxied.config["TRUSTED_PROXIES"] == 2
        behind = proxied.wsgi_app.wrapped  # behind the session reads' fast path (fast_reads)
        assert isinstance(behind, ProxyFix) and behind.x_for == 2
        client = proxied.test_client()
        client.environ_base["REMOTE_ADDR"] = PROXY
        shown = client.get("/probe", headers={"X-Forwarded-For": "8.8.8.8, 192.168.1.9, 10.0.0.2"})
        assert shown.get_data(as_text=True) == "http 192.168.1.9"
    finally:
        with proxied.app_context():
            db.engine.dispose()


@pytest.mark.parametrize("raw", ["two", "-1", "1.5", "11"])
def test_a_bad_proxy_count_stops_the_start_with_a_clear_message(tmp_path, monkeypatch, raw):
    monkeypatch.setenv("REFAPP_TRUSTED_PROXIES", raw)
    with pytest.raises(ValueError, match="REFAPP_TRUSTED_PROXIES") as refused:
        make_test_app(f"sqlite:///{tmp_path / 'p.sqlite'}")
    assert repr(raw) in str(refused.value)
