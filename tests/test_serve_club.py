"""The club server (``make serve-club``, gunicorn) alone and behind nginx (docs/nginx-refapp.conf).

gunicorn's threads read a request's headers themselves, so a few clients trickling bytes hold
every thread; nginx in front holds them instead and hands gunicorn whole requests. nginx is
/usr/sbin/nginx (or $REFAPP_NGINX); without it these tests are skipped, unless
REFAPP_REQUIRE_NGINX=1 (CI), which makes its absence a failure.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from contextlib import suppress
from pathlib import Path

import pytest

from refapp import MAX_BODY
from refapp.services.archive import imports

from .test_serve_front import (
    PASSWORD,
    api_error,
    connect,
    create_session,
    head,
    poll,
    raise_open_files,
    read_answer,
    trickling,
)

ROOT = Path(__file__).resolve().parent.parent
CONF = ROOT / "docs" / "nginx-refapp.conf"
NGINX = os.environ.get("REFAPP_NGINX") or shutil.which("nginx") or "/usr/sbin/nginx"
REQUIRED = os.environ.get("REFAPP_REQUIRE_NGINX") == "1"
#: gunicorn as ``make serve-club`` starts it (test_the_makefile_serves_the_club_so checks this)
GUNICORN = ["--workers=4", "--worker-class=gthread", "--threads=4", "--keep-alive=5"]
#: nginx's own settings around the documented file: paths of its own in a temporary folder
MAIN = """
{user}
pid {prefix}/nginx.pid;
worker_processes 1;
worker_rlimit_nofile 8192;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
{site}
}}
"""


def free_port() -> int:
    """Return a port free on 127.0.0.1 now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def nginx_config(listen: str, upstream: str, prefix: str) -> str:
    """Return a whole nginx.conf around docs/nginx-refapp.conf, listening and passing as told."""
    site = CONF.read_text()
    assert "listen 80;" in site and "server 127.0.0.1:8000;" in site
    site = site.replace("listen 80;", f"listen {listen};")
    site = site.replace("server 127.0.0.1:8000;", f"server {upstream};")
    user = "user root;" if os.geteuid() == 0 else ""  # its workers must reach the temp folder
    return MAIN.format(user=user, prefix=prefix, site=site)


def wait_for(port: int, seconds: float = 20) -> None:
    """Wait until something listens on the port."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with suppress(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        time.sleep(0.1)
    raise AssertionError(f"nothing listens on port {port}")


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    """Run gunicorn as make serve-club does, and nginx in front; yield their two ports."""
    if not os.path.exists(NGINX):
        message = f"the club tests need nginx at {NGINX} (apt-get install nginx-light)"
        if REQUIRED:
            pytest.fail(message)
        pytest.skip(message)
    folder = tmp_path_factory.mktemp("club")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REFAPP_PASSWORD": PASSWORD}
    env["DATABASE_URL"] = f"sqlite:///{folder / 'club.sqlite'}"
    make_tables = "from refapp import create_app\nfrom refapp.extensions import db\n"
    make_tables += "app = create_app()\nwith app.app_context():\n    db.create_all()\n"
    subprocess.run([sys.executable, "-c", make_tables], env=env, cwd=ROOT, check=True)
    gunicorn_port, nginx_port = free_port(), free_port()
    (folder / "nginx.conf").write_text(
        nginx_config(f"127.0.0.1:{nginx_port}", f"127.0.0.1:{gunicorn_port}", str(folder))
    )
    children = []
    with (folder / "gunicorn.log").open("w") as log:
        children.append(
            subprocess.Popen(
                [
                    str(Path(sys.executable).with_name("gunicorn")),
                    *GUNICORN,
                    f"--bind=127.0.0.1:{gunicorn_port}",
                    "refapp:served_app()",
                ],
                env=env,
                cwd=ROOT,
                stderr=log,
            )
        )
    nginx = [NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf")]
    nginx += ["-e", str(folder / "error.log"), "-g", "daemon off;"]
    with (folder / "nginx.log").open("w") as log:
        children.append(subprocess.Popen(nginx, stderr=log))
    try:
        wait_for(gunicorn_port)
        wait_for(nginx_port)
        yield gunicorn_port, nginx_port
    finally:
        for child in children:
            child.terminate()
        for child in children:
            child.wait(timeout=15)


def test_the_makefile_serves_the_club_so():
    """make serve-club starts gunicorn with the settings these tests measure."""
    makefile = (ROOT / "Makefile").read_text()
    target = makefile[makefile.index("\nserve-club:") :]
    for flag in GUNICORN[1:]:
        assert flag in target, flag
    assert "--workers=$(WORKERS)" in target and re.search(r"WORKERS \?= 4\b", makefile)


def test_the_documented_limits_fit_refapps():
    """nginx takes every body the app takes (the import's), and refuses far larger ones."""
    site = CONF.read_text()
    sizes = dict(re.findall(r"client_max_body_size (\d+)([km]);", site)[:1])
    assert sizes == {"256": "k"} and MAX_BODY == 256 * 1024
    import_limit = int(re.findall(r"client_max_body_size (\d+)m;", site)[0]) * 1024 * 1024
    assert imports.IMPORT_MAX_BYTES <= import_limit < 300_000_000


def test_behind_nginx_a_phone_is_answered_beside_1000_trickling_connections(club):
    """Through nginx, 1,000 trickling connections leave a phone's poll under 2 s."""
    if raise_open_files(1200) < 1200:
        pytest.skip("this machine allows too few open files (ulimit -n) for 1,000 connections")
    _, nginx_port = club
    session_id, etag = create_session(nginx_port)
    stop = threading.Event()
    crowd = trickling(nginx_port, 1000, stop)
    try:
        time.sleep(1.5)
        timings = [poll(nginx_port, session_id, etag, source="127.0.0.2") for _ in range(5)]
    finally:
        stop.set()
        for sock in crowd:
            sock.close()
    assert all(status == 304 and took < 2 for status, took in timings), timings


def test_behind_nginx_refusals_are_the_apis(club):
    """Through nginx: a body past 256 KiB is a JSON 413; an import needs the password first."""
    _, nginx_port = club
    sock = connect(nginx_port)
    try:
        sock.sendall(head("POST", "/api/sessions", f"Content-Length: {MAX_BODY + 1}"))
        status, headers, body = read_answer(sock)
    finally:
        sock.close()
    assert status == 413
    assert headers["content-type"] == "application/json"
    assert api_error(body)["code"] == "too_large"
    sock = connect(nginx_port)
    try:
        start = time.monotonic()
        sock.sendall(
            head(
                "POST",
                "/api/sessions/import",
                "Content-Type: application/json",
                "Content-Length: 200000000",
            )
            + b"{"
        )
        status, headers, body = read_answer(sock)
        took = time.monotonic() - start
    finally:
        sock.close()
    assert status == 401, body  # from the headers: 200 MB were never sent
    assert api_error(body)["code"] == "sign_in_required"
    assert took < 3
