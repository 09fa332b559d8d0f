"""The statistics answers and pages read a bounded number of rows whatever the history: the same
statements, the same rows and the same work in the database at 10 sessions as at 10,000, and for
a player of 35,000 rounds as for one of 100.

Each history is stored as refapp stores it: a session of each game recorded through the API
gives the rounds (input, result, state, answer, running totals); copies of them are inserted in
bulk, each session an hour after the last, finished; then ``recount.rebuild`` (``flask
rebuild-figures``) counts every row the writes would keep - figures, places, pairs, streaks,
marks and ratings (10,000 sessions: about 35 s of CPU, most of the test's time). Five players
sit at every session, so every history has the same players and pairs: only the sessions (10,
and 10,000 of a round each) or the rounds (100, and 35,000 in four sessions) grow.

Each answer is asked twice (the first fills the caches and counts any idle session), then
counted: the statements sent and the rows each returns (tests/conftest.py ``QueryCounter``), and
SQLite's virtual machine steps, the work in the database itself - a scan, a count or a sort of
the history returns few rows but takes steps per row it goes over.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from itertools import cycle, islice
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, insert, select

from refapp.extensions import db
from refapp.models import GameSession, Player, Round, SessionPlayer
from refapp.services import recount, stored_rounds

from .conftest import Api, QueryCounter, make_test_app
from .test_stats import DALMUTI_HANDS, FIVE, MIGHTY_HANDS, NO_TAX

#: the sessions of the long history (1,000 in the quick loop, ``make test-fast``)
SESSIONS = 10_000
QUICK_SESSIONS = 1_000
#: the rounds of the player with the longest history, and of the short one
LONG_ROUNDS = 35_000
SHORT_ROUNDS = 100
#: SQLite calls the progress handler every this many virtual machine steps
STEP = 100
#: the most rows an answer reads: figures rows per player and game, a row per pair and per
#: record, and lists kept short whatever the history (a rating's history: 200 points a game)
ROWS_MOST = 1_000
#: the steps a row returned may cost SQLite at most, and the steps any read may vary by
ROW_STEPS = 100  # a session's row with its JSON columns and seats: about 90
SLACK = 500
#: the statistics' answers and pages, as asked (a name: "Ann")
PATHS = (
    "/api/stats",
    "/api/stats?game=mighty",
    "/api/stats?game=dixit",
    "/api/players/Ann/stats",
    "/api/players/Ann/stats?game=mighty",
    "/players/Ann",
)
#: the same over a period: the first evening, the same six sessions in the short and the long
#: history (a period's answer grows with the sessions in it, never with the rest of the history)
PERIOD = (
    "/api/stats?from=2024-06-01&to=2024-06-01",
    "/api/players/Ann/stats?from=2024-06-01&to=2024-06-01",
    "/stats?from=2024-06-01&to=2024-06-01",
)
#: a period none of the histories reaches: the same whatever the history around it
AFTER = ("/api/stats?from=2030-01-01", "/api/players/Ann/stats?game=dixit&from=2030-01-01")
#: the same for the players of one table: the sessions they all sat at (every one, here)
TABLE = (
    "/api/stats?players=Ann,Ben",
    "/api/players/Ann/stats?players=Ann,Ben,Cy",
    "/stats?players=Ann,Ben",
)
#: the statistics page and its queries (once it exists)
PAGES = ("/stats", "/stats?game=mighty")


def dixit_turn(number: int) -> dict[str, Any]:
    """Return a five-player Dixit turn: the storyteller moves on; two find the card, the other
    two vote for each other's cards (some found)."""
    teller = FIVE[number % 5]
    others = [name for name in FIVE if name != teller]
    votes = {others[0]: 1, others[1]: 1, others[2]: 3, others[3]: 2}
    return {"storyteller": teller, "positions": [teller, *others], "votes": votes}


#: what each game's template session plays: (house rules, the rounds recorded through the API)
PLAYED = {
    "dixit": ({"target_score": None, "end_after_rounds": 10**6}, [dixit_turn(n) for n in range(5)]),
    "mighty": ({}, MIGHTY_HANDS),
    "dalmuti": (NO_TAX, DALMUTI_HANDS),
}
GAMES = tuple(PLAYED)


@dataclass(frozen=True)
class Template:
    """A session recorded through the API: its row's columns and its rounds' stored columns."""

    session: dict[str, Any]
    rounds: list[dict[str, Any]]


def templates(folder: Path, empty: Path) -> dict[str, Template]:
    """Record a session of each game through the API and return its stored rows."""
    path = folder / "templates.sqlite"
    shutil.copyfile(empty, path)
    app = make_test_app(f"sqlite:///{path}")
    api = Api(app.test_client())
    made = {}
    for game, (rules, bodies) in PLAYED.items():
        sid = api.create(players=FIVE, game=game, rules=rules)["id"]
        for body in bodies:
            response = api.record(sid, body)
            assert response.status_code == 201, response.get_json()
        made[game] = sid
    found = {}
    with app.app_context():
        for game, sid in made.items():
            row = db.session.get(GameSession, sid)
            assert row is not None
            kept = ("game", "name", "rules", "setup", "initial_state", "preset")
            rounds = db.session.execute(
                select(Round.input, Round.result, Round.state)
                .where(Round.session_id == sid)
                .order_by(Round.number)
            ).all()
            found[game] = Template(
                {column: getattr(row, column) for column in kept},
                [played._asdict() for played in rounds],
            )
        db.session.remove()
        db.engine.dispose()
    return found


#: the first session's first round; session k starts k hours later (10,000: over a year)
START = datetime(2024, 6, 1, 18, 0, tzinfo=UTC)


def stored_session(
    sid: int, made: Template, count: int, start: datetime, first: int
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Return a finished session's row and its ``count`` rounds (the template's in turn from its
    round ``first``, a minute apart from ``start``), with the totals, answers and running
    totals a write keeps."""
    totals = dict.fromkeys(FIVE, 0)
    rounds = []
    played_from = islice(cycle(made.rounds), first % len(made.rounds), None)
    for number, played in enumerate(islice(played_from, count), 1):
        at = start + timedelta(minutes=number)
        totals = stored_rounds.running_after(totals, played["result"]["deltas"])
        answer = stored_rounds.answer_text(number, played["input"], played["result"], at, None)
        rounds.append({"session_id": sid, "number": number, **played, "recorded_at": at,
                       "answer": answer, "running": totals})  # fmt: skip
    last = start + timedelta(minutes=count)
    session = {"id": sid, **made.session, "created_at": start, "updated_at": last,
               "finished": True, "finished_by": "table", "finished_at": last,
               "round_count": count, "totals": totals}  # fmt: skip
    return session, rounds


def grown(url: str, made: dict[str, Template], lengths: list[int]) -> None:
    """Store sessions of these lengths (games in turn, an hour apart, all five seated), then
    count every kept row with ``recount.rebuild``."""
    app = make_test_app(url)
    with app.app_context():
        db.session.execute(
            insert(Player), [{"id": n, "name": name, "created_at": START} for n, name in
                             enumerate(FIVE, 1)]
        )  # fmt: skip
        sessions: list[dict[str, Any]] = []
        rounds: list[dict[str, Any]] = []
        for index, count in enumerate(lengths):
            game = GAMES[index % len(GAMES)]
            start = START + timedelta(hours=index)
            first = index // len(GAMES)  # the next session of a game starts a round on
            session, played = stored_session(index + 1, made[game], count, start, first)
            sessions.append(session)
            rounds.extend(played)
        seats = [
            {"session_id": session["id"], "player_id": n, "seat": n - 1}
            for session in sessions
            for n in range(1, len(FIVE) + 1)
        ]
        for model, rows in ((GameSession, sessions), (SessionPlayer, seats), (Round, rounds)):
            for at in range(0, len(rows), 5000):
                db.session.execute(insert(model), rows[at : at + 5000])
        db.session.commit()
        recount.rebuild()
        db.session.remove()
        db.engine.dispose()


@dataclass
class Histories:
    """The apps on each history: 10 sessions, the long one, and a player of 35,000 rounds."""

    short: Any
    long: Any
    rounds: Any
    sessions: int


@pytest.fixture(scope="module")
def histories(request, tmp_path_factory, sqlite_template) -> Iterator[Histories]:
    """Build the three histories once for the module (SQLite files of their own)."""
    folder = tmp_path_factory.mktemp("bounded")
    made = templates(folder, sqlite_template)
    many = QUICK_SESSIONS if request.config.getoption("quick") else SESSIONS
    plans = {
        # 10 sessions of 10 rounds: a player of 100 rounds
        "short": [SHORT_ROUNDS // 10] * 10,
        # sessions of a round each: what grows is the sessions (the rounds grow below)
        "long": [1] * many,
        # a session of each game, and a fourth: 35,000 rounds in four sessions
        "rounds": [LONG_ROUNDS // 4] * 4,
    }
    apps = {}
    for name, lengths in plans.items():
        path = folder / f"{name}.sqlite"
        shutil.copyfile(sqlite_template, path)
        grown(f"sqlite:///{path}", made, lengths)
        apps[name] = make_test_app(f"sqlite:///{path}")
    yield Histories(apps["short"], apps["long"], apps["rounds"], many)
    for app in apps.values():
        with app.app_context():
            db.engine.dispose()


@dataclass(frozen=True)
class Cost:
    """What one GET cost: statements sent, rows they returned, SQLite's VM steps (by STEP)."""

    statements: int
    rows: int
    steps: int


class StepCounter:
    """Counts the virtual machine steps SQLite takes while active (in STEPs): the work each
    statement does in the database, rows scanned and sorted included, not only rows returned."""

    def __init__(self, engine) -> None:
        self.engine = engine
        self.steps = 0
        self.connections: list[Any] = []

    def _tick(self) -> int:
        self.steps += 1
        return 0

    def _watch(self, conn, *args: Any) -> None:
        raw = conn.connection.dbapi_connection
        if raw not in self.connections:
            raw.set_progress_handler(self._tick, STEP)
            self.connections.append(raw)

    def __enter__(self) -> StepCounter:
        event.listen(self.engine, "before_cursor_execute", self._watch)
        return self

    def __exit__(self, *exc: Any) -> None:
        event.remove(self.engine, "before_cursor_execute", self._watch)
        for raw in self.connections:
            raw.set_progress_handler(None, 0)


def cost(app, path: str) -> Cost:
    """Return what a GET of path costs once warm (asserting each answers 200, its body read)."""
    client = app.test_client()
    first = client.get(path)  # templates compiled, caches filled, idle sessions counted
    assert first.status_code == 200, first.get_data()[:300]
    with app.app_context():
        engine = db.engine
    with QueryCounter(engine) as counted:
        response = client.get(path)
        assert len(response.get_data()) > 0
    assert response.status_code == 200
    with StepCounter(engine) as stepped:
        response = client.get(path)
        assert len(response.get_data()) > 0
    assert response.status_code == 200
    return Cost(counted.count, counted.rows, stepped.steps)


def assert_bounded(histories: Histories, path: str) -> None:
    """Assert a path costs the same statements at 10 sessions as at many, and for 35,000 rounds
    as for 100; rows within a small constant; the database's own work growing only with them."""
    short = cost(histories.short, path)
    long = cost(histories.long, path)
    rounds = cost(histories.rounds, path)
    assert long.statements == short.statements == rounds.statements, (path, short, long, rounds)
    for more in (short, long, rounds):
        assert more.rows <= ROWS_MOST, (path, short, long, rounds)
        # a scan, a count or a sort of the history would take a few steps per row it goes over
        # (10,000 sessions, 35,000 rounds): only the rows returned may add to the work
        allowed = 1.1 * short.steps * STEP + ROW_STEPS * max(0, more.rows - short.rows) + SLACK
        assert more.steps * STEP <= allowed, (path, short, long, rounds)


@pytest.mark.parametrize("path", PATHS)
def test_the_statistics_cost_the_same_whatever_the_history(histories, path):
    assert_bounded(histories, path)


@pytest.mark.parametrize("path", PERIOD)
def test_a_periods_statistics_cost_the_same_whatever_the_history_around_it(histories, path):
    short = cost(histories.short, path)
    long = cost(histories.long, path)
    assert long.statements == short.statements, (path, short, long)
    # the player's rating history (the whole history's, up to 200 points a game) is the one
    # list that grows with the sessions outside the period: only its rows may add to the work
    allowed = 1.1 * short.steps * STEP + ROW_STEPS * max(0, long.rows - short.rows) + SLACK
    assert long.rows <= ROWS_MOST and long.steps * STEP <= allowed, (path, short, long)


@pytest.mark.parametrize("path", AFTER)
def test_a_period_after_every_session_costs_the_same_whatever_the_history(histories, path):
    assert_bounded(histories, path)


@pytest.mark.parametrize("path", TABLE)
def test_a_tables_statistics_read_the_same_statements_and_a_row_per_player_pair_or_record(
    histories, path
):
    """The sessions a table sat at together are summed in the database (every one of them:
    their count grows with the history): the statements and the rows returned do not."""
    costs = [cost(app, path) for app in (histories.short, histories.long, histories.rounds)]
    assert len({one.statements for one in costs}) == 1, (path, costs)
    assert all(one.rows <= ROWS_MOST for one in costs), (path, costs)


@pytest.mark.parametrize("path", PAGES)
def test_the_statistics_page_costs_the_same_whatever_the_history(histories, path):
    rules = {rule.rule for rule in histories.short.url_map.iter_rules()}
    if "/stats" not in rules:
        pytest.skip("refapp has no /stats page yet")
    assert_bounded(histories, path)


def test_the_histories_are_what_they_say(histories):
    """Every session counts, in the player's figures and the standings, every round too."""
    for app, sessions, rounds in (
        (histories.short, 10, SHORT_ROUNDS),
        (histories.long, histories.sessions, None),
        (histories.rounds, 4, LONG_ROUNDS),
    ):
        client = app.test_client()
        ann = client.get("/api/players/Ann/stats").get_json()["games"]
        assert sum(game["sessions_counted"] for game in ann.values()) == sessions
        if rounds is not None:
            assert sum(game["rounds_played"] for game in ann.values()) == rounds
        standings = client.get("/api/stats").get_json()["players"]
        assert [line["sessions"] for line in standings] == [sessions] * len(FIVE)
