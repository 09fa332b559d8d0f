"""Floor B: bare Flask and sqlite3 on a copy of refapp's own database, the least each request needs.

One query per read, one transaction per write with the same SQLite settings refapp uses (WAL,
the default full fsync, reads through a memory map), and the same bodies: a read joins the
session's version with its rounds' stored answers and sends them; a poll compares the version; a
record stores the round, moves the session's summary on and adds the audit entry; a correction
rewrites one round and adds its entry; an export sends the stored answers; an import inserts the
rows in one executemany.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from flask import Flask, Response, request

from refapp.extensions import MMAP_BYTES


def connect(path: Path) -> sqlite3.Connection:
    """Open the database file as refapp's engine does (WAL; autocommit, transactions explicit)."""
    connection = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA busy_timeout=5000")
    connection.execute(f"PRAGMA mmap_size={MMAP_BYTES}")  # reads mapped, as refapp's
    return connection


def floor_b(path: Path, page_html: bytes) -> Flask:
    """Return the floor app on the database file at path (a copy of refapp's)."""
    app = Flask("floor_b")
    db = connect(path)
    kept: dict[int, tuple[str, str, str, str]] = {}

    @app.get("/api/sessions/<int:sid>")
    def read(sid: int):
        wanted = request.headers.get("If-None-Match")
        if wanted:
            (version,) = db.execute(
                "SELECT version FROM game_session WHERE id = ?", (sid,)
            ).fetchone()
            if wanted == f'"{version}"':
                return Response(status=304, headers={"ETag": wanted})
        rows = db.execute(
            "SELECT s.version, r.answer FROM game_session s LEFT JOIN round r "
            "ON r.session_id = s.id WHERE s.id = ? ORDER BY r.number",
            (sid,),
        ).fetchall()
        body = f'{{"id":{sid},"rounds":[{",".join(a for _, a in rows if a)}]}}'
        return Response(body, mimetype="application/json", headers={"ETag": f'"{rows[0][0]}"'})

    @app.get("/sessions/<int:sid>")
    def page(sid: int):
        db.execute(
            "SELECT answer FROM round WHERE session_id = ? ORDER BY number DESC LIMIT 30", (sid,)
        ).fetchall()
        return Response(page_html, mimetype="text/html")

    @app.post("/api/sessions/<int:sid>/rounds")
    def record(sid: int):
        body = request.get_json()
        with_round = kept.get(sid) or kept.setdefault(sid, stored_round(db, sid))
        db.execute("BEGIN IMMEDIATE")
        (count,) = db.execute(
            "SELECT round_count FROM game_session WHERE id = ?", (sid,)
        ).fetchone()
        db.execute(
            "INSERT INTO round (session_id, number, input, result, state, recorded_at, answer, "
            "running) VALUES (?, ?, ?, ?, ?, datetime('now'), ?, ?)",
            (sid, count + 1, json.dumps(body), *with_round),
        )
        db.execute(
            "UPDATE game_session SET version = version + 1, round_count = ? WHERE id = ?",
            (count + 1, sid),
        )
        db.execute(
            "INSERT INTO audit_entry (session_id, at, action, round_number, after) "
            "VALUES (?, datetime('now'), 'record_round', ?, ?)",
            (sid, count + 1, json.dumps(body)),
        )
        db.execute("COMMIT")
        return Response(with_round[3], status=201, mimetype="application/json")

    @app.delete("/api/sessions/<int:sid>/rounds/<int:number>")
    def undo(sid: int, number: int):
        db.execute("BEGIN IMMEDIATE")
        db.execute("DELETE FROM round WHERE session_id = ? AND number = ?", (sid, number))
        db.execute(
            "UPDATE game_session SET version = version + 1, round_count = ? WHERE id = ?",
            (number - 1, sid),
        )
        db.execute("COMMIT")
        return Response("{}", mimetype="application/json")

    @app.put("/api/sessions/<int:sid>/rounds/<int:number>")
    def correct(sid: int, number: int):
        body = request.get_json()
        db.execute("BEGIN IMMEDIATE")
        db.execute(
            "UPDATE round SET input = ? WHERE session_id = ? AND number = ?",
            (json.dumps(body), sid, number),
        )
        db.execute("UPDATE game_session SET version = version + 1 WHERE id = ?", (sid,))
        db.execute(
            "INSERT INTO audit_entry (session_id, at, action, round_number, after) "
            "VALUES (?, datetime('now'), 'replace_round', ?, ?)",
            (sid, number, json.dumps(body)),
        )
        db.execute("COMMIT")
        return Response("{}", mimetype="application/json")

    @app.get("/api/sessions/<int:sid>/export")
    def export(sid: int):
        rows = db.execute(
            "SELECT input, result FROM round WHERE session_id = ? ORDER BY number", (sid,)
        ).fetchall()
        parts = (f'{{"input":{i},"result":{r}}}' for i, r in rows)
        return Response(f'{{"rounds":[{",".join(parts)}]}}', mimetype="application/json")

    @app.post("/api/sessions/import")
    def import_(sid: int = 0):
        body: Any = request.get_json()
        (new,) = db.execute("SELECT max(id) + 1000 FROM game_session").fetchone()
        rows = [
            (new, n, json.dumps(r["input"]), json.dumps(r["result"]), "{}", json.dumps(r), "{}")
            for n, r in enumerate(body["rounds"], 1)
        ]
        db.execute("BEGIN IMMEDIATE")
        db.executemany(
            "INSERT INTO round (session_id, number, input, result, state, recorded_at, answer, "
            "running) VALUES (?, ?, ?, ?, ?, datetime('now'), ?, ?)",
            rows,
        )
        db.execute("DELETE FROM round WHERE session_id = ?", (new,))
        db.execute("COMMIT")
        return Response("{}", status=201, mimetype="application/json")

    return app


def stored_round(db: sqlite3.Connection, sid: int) -> tuple[str, str, str, str]:
    """Return a stored round's result, state, answer and running (the sizes a record writes)."""
    row = db.execute(
        "SELECT result, state, answer, running FROM round WHERE session_id = ? "
        "ORDER BY number DESC LIMIT 1",
        (sid,),
    ).fetchone()
    return tuple(value or "{}" for value in row)  # type: ignore[return-value]
