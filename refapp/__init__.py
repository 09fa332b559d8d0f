"""refapp: the referee and score sheet for Dalmuti, Mighty and Dixit tables."""

import gc
import mimetypes
import os
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask, Response, render_template, request
from flask.typing import ResponseReturnValue
from sqlalchemy import QueuePool, make_url
from sqlalchemy.engine.default import DefaultDialect
from werkzeug.exceptions import BadHost, HTTPException, InternalServerError, default_exceptions

from . import club, heaps, hosting, signed_cookies
from .bodies import MAX_BODY as MAX_BODY  # the app-wide body limit, named here too
from .extensions import csrf, db, migrate
from .services import prepared
from .stored_json import Answers

# the web app manifest's own type, which not every system's mime.types knows
mimetypes.add_type("application/manifest+json", ".webmanifest")


def database_url(raw: str | None, instance_path: str) -> str:
    """Return the SQLAlchemy URL: DATABASE_URL (PostgreSQL via psycopg 3) or SQLite in instance/."""
    if not raw:
        return "sqlite:///" + os.path.join(instance_path, "refapp.sqlite")
    for prefix in ("postgres://", "postgresql://"):
        if raw.startswith(prefix):
            return "postgresql+psycopg://" + raw[len(prefix) :]
    return raw


def unbounded_sqlite_pool(app: Flask) -> None:
    """Let an SQLite file's pool open a connection whenever every pooled one is checked out.

    Each server thread keeps one for its hot writes (services/prepared.py ``kept``) and takes
    another for a page or a poll, so a pool of 5 + 10 could make a thread wait for one; the
    connections stay bounded by the threads. PostgreSQL's pool keeps its limits (the server's).
    """
    url = make_url(app.config["SQLALCHEMY_DATABASE_URI"])
    options = dict(app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
    chosen = {"poolclass", "pool", "creator"} & set(options)  # a pool of the config's own
    if url.get_backend_name() != "sqlite" or chosen:
        return
    dialect = url.get_dialect()
    if issubclass(dialect, DefaultDialect) and dialect.get_pool_class(url) is QueuePool:  # a file
        options.setdefault("max_overflow", -1)
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: config, extensions, blueprints, error handlers, commands."""
    app = Flask(__name__, instance_relative_config=True)
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=database_url(os.environ.get("DATABASE_URL"), app.instance_path),
        MAX_CONTENT_LENGTH=MAX_BODY,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        # a sign-in ends 12 hours after it was made (access.signed_in checks its time too),
        # however busy the table: the cookie is not renewed by each request
        PERMANENT_SESSION_LIFETIME=timedelta(hours=12),
        SESSION_REFRESH_EACH_REQUEST=False,
        WTF_CSRF_TIME_LIMIT=None,
        # phones at the table start fast: the style sheets, scripts and icons are kept a day (their
        # addresses carry a hash of their content, so a changed file is fetched at once)
        SEND_FILE_MAX_AGE_DEFAULT=timedelta(days=1),
        # the pages' timers (base.html hands them to the scripts): a session page asks for the
        # session's version every POLL_MS; a round kept on the phone is sent again every RETRY_MS
        POLL_MS=2000,
        RETRY_MS=4000,
        # set when refapp's own server holds sessions' event streams (refapp/serving/stream.py):
        # the session page then follows its stream, and polls only when the stream fails
        STREAM_EVENTS=False,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    # one secret for every host of the database (refapp/hosting.py), or a start refused
    hosting.init_app(app)
    signed_cookies.init_app(app)  # Flask's cookie sessions, the serializer made once
    club.serve_prefix(app)  # innermost: /g/<slug>/ moved out of the path, just before Flask
    app.json = Answers(app)  # Flask's provider, orjson writing and reading (stored_json)
    app.json.sort_keys = False

    unbounded_sqlite_pool(app)
    db.init_app(app)
    app.teardown_appcontext(prepared.let_go_at_teardown)  # a hot write's own connection
    migrate.init_app(
        app, db, directory=str(Path(__file__).parent.parent / "migrations"), render_as_batch=True
    )
    csrf.init_app(app)
    from .serving import hosts

    hosts.init_app(app)  # a Host that is not a host is answered 400 before any page is built
    from . import access, bodies, cli, group_models, i18n, models, static_files  # noqa: F401

    club.init_app(app)  # the group a request addresses, found before its password is asked
    access.init_app(app)
    bodies.init_app(app)  # each route's body limit, checked from the headers
    i18n.init_app(app)
    static_files.init_app(app)
    from .api import bp as api_bp
    from .web import bp as web_bp

    csrf.exempt(api_bp)
    app.register_blueprint(api_bp)
    app.register_blueprint(web_bp)
    from .web import game_pages

    game_pages.init_app(app)  # each game's own pages and API, registered by it
    app.extensions[access.OPEN_API_PATHS] = lambda: {
        path for pages in game_pages.PAGES.values() for path in pages.open_api_paths
    }  # what the password guard lets by, as the games declare it
    register_error_handlers(app)
    cli.register(app)
    from .serving import fast_reads

    fast_reads.init_app(app)  # outermost: a session read answered without a request context
    return app


def wants_json() -> bool:
    """Return True when the request is for the API (or asks for JSON)."""
    return request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json"


def register_error_handlers(app: Flask) -> None:
    """Answer errors as the API's JSON body on /api, as a page elsewhere; never a bare 500.

    Every status and code comes from the error registry (``games/codes.py``): a refusal by its
    code, an HTTP error by ``api.errors.http_code``. A write that could not get the database's
    lock in time is ``503 busy`` with ``Retry-After`` wherever it surfaced (starting the write,
    a flush, the commit): nothing of it was stored.
    """
    from .api.errors import error_response, http_code, retry_headers, rule_violation
    from .extensions import db
    from .games.codes import status_of
    from .games.errors import Refusal
    from .services.writes import Busy, is_busy

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> ResponseReturnValue:
        """Show an HTTP error in the shape the client reads."""
        if isinstance(error, BadHost):
            # no page can be drawn for a Host that cannot be read: its links need that host
            return Response("400 Bad Request: the Host header is not a host name.", 400)
        if wants_json():
            response = error_response(http_code(error.code or 500), error.description or error.name)
            response.status_code = error.code or 500
        else:
            response = app.make_response(render_template("error.html", error=error))
            if error.code is not None:
                response.status_code = error.code
        for name, value in error.get_headers():
            if name == "Retry-After":
                response.headers[name] = value
        return response

    @app.errorhandler(Refusal)
    def refused(error: Refusal) -> ResponseReturnValue:
        """Answer a refusal no view answered (a page keeps its own per-field display): the API's
        error body, or the error page of the code's status; what the request began is undone."""
        if wants_json():
            return rule_violation(error)
        db.session.rollback()
        page = default_exceptions.get(status_of(error.code), InternalServerError)
        response = app.make_response(http_error(page(error.message)))
        response.headers.extend(retry_headers(error))
        return response

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> ResponseReturnValue:
        """Log an unexpected failure and answer it plainly, after undoing any half-done write."""
        if isinstance(error, HTTPException):
            return http_error(error)
        db.session.rollback()
        if is_busy(error):  # the lock stayed taken past the busy timeout: not a server fault
            return refused(Busy())
        app.logger.exception("unexpected error")
        if wants_json():
            return error_response("server_error", "Something went wrong on the server.")
        return render_template("error.html", error=None), 500


def served_app() -> Flask:
    """Build the app for a server process and freeze what it built out of the collector's way.

    Everything made at start (the app, the games' rules, the templates, the catalogs) lives as
    long as the process; ``gc.freeze`` moves it to a generation the collector never walks, so a
    full collection during a request walks only what requests made. Every server calls this:
    ``python -m refapp.serving.serve`` (``make run``) and gunicorn (``refapp:served_app()``).
    Its threads, made after this, share two heaps (``heaps.few_arenas``).
    """
    heaps.few_arenas()
    app = create_app()
    gc.collect()
    gc.freeze()
    return app
