"""session standings: round times, playing time, counted sessions, places, streaks, head-to-head

Revision ID: a4e8c2f6b9d1
Revises: d5a9c1e7b3f2
Create Date: 2026-12-06 19:00:00

A session now keeps when its first and last rounds were recorded, its playing time (gaps of
more than 30 minutes left out) and whether it counts (finished, or no round for 12 hours); each
seat its place once counted and the playing time last added; each player's figures their win
streaks; and ``pair_figures`` each pair's head-to-head. The upgrade counts them from the stored
rounds with the rule as it was when this step was frozen (copied below), moving each player's
figures by the difference between the old part of a session (played, won when finished) and
the new one; ``flask rebuild-figures`` counts everything with the rules of the day at any time.
"""

from collections import defaultdict
from datetime import UTC, datetime, timedelta
from itertools import pairwise

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "a4e8c2f6b9d1"
down_revision = "d5a9c1e7b3f2"
branch_labels = None
depends_on = None

#: rows read at a time
CHUNK = 500
IDLE = timedelta(hours=12)
GAP = timedelta(minutes=30)
Moment = sa.DateTime(timezone=True)


def upgrade():
    with op.batch_alter_table("game_session", schema=None) as batch_op:
        batch_op.add_column(sa.Column("first_round_at", Moment, nullable=True))
        batch_op.add_column(sa.Column("last_round_at", Moment, nullable=True))
        batch_op.add_column(
            sa.Column("played_seconds", sa.Integer(), server_default="0", nullable=False)
        )
        batch_op.add_column(
            sa.Column("counted", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch_op.create_index("ix_game_session_last_round_at", ["last_round_at"], unique=False)
        batch_op.create_index("ix_game_session_counted", ["counted"], unique=False)
    with op.batch_alter_table("session_player", schema=None) as batch_op:
        batch_op.add_column(sa.Column("place", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("seconds", sa.Integer(), server_default="0", nullable=False))
    with op.batch_alter_table("player_figures", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("streak_current", sa.Integer(), server_default="0", nullable=False)
        )
        batch_op.add_column(
            sa.Column("streak_longest", sa.Integer(), server_default="0", nullable=False)
        )
        batch_op.add_column(sa.Column("streak_longest_session", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("last_counted_at", Moment, nullable=True))
        batch_op.add_column(sa.Column("last_counted_session", sa.Integer(), nullable=True))
        batch_op.create_index(
            "ix_player_figures_streak_longest", ["streak_longest"], unique=False
        )
    op.create_table(
        "pair_figures",
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("first_id", sa.Integer(), nullable=False),
        sa.Column("second_id", sa.Integer(), nullable=False),
        sa.Column("tally", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("game", "first_id", "second_id"),
    )
    with op.batch_alter_table("pair_figures", schema=None) as batch_op:
        batch_op.create_index("ix_pair_figures_second_id", ["second_id"], unique=False)
    op.create_table(
        "mark",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("key", sa.String(length=40), nullable=False),
        sa.Column("value", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=True),
        sa.Column("at", Moment, nullable=False),
        sa.ForeignKeyConstraint(["session_id"], ["game_session.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("mark", schema=None) as batch_op:
        batch_op.create_index("ix_mark_player_id", ["player_id"], unique=False)
        batch_op.create_index(
            "ix_mark_record", ["game", "key", "rank", "at", "session_id", "number"], unique=False
        )
        batch_op.create_index("ix_mark_session_id", ["session_id"], unique=False)
    backfill()


def aware(moment):
    """Return a stored time with its zone (SQLite gives UTC times back without one)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def added(tally, more, sign=1):
    """Return tally plus (or minus) more, as a new tally without zeros."""
    total = dict(tally)
    for key, value in more.items():
        total[key] = total.get(key, 0) + sign * value
    return {key: value for key, value in total.items() if value}


def backfill():
    """Count each session's times and places, and move its seats' parts, pairs and streaks."""
    sessions = sa.table(
        "game_session", sa.column("id", sa.Integer), sa.column("game", sa.String),
        sa.column("finished", sa.Boolean), sa.column("totals", sa.JSON),
        sa.column("first_round_at", Moment), sa.column("last_round_at", Moment),
        sa.column("played_seconds", sa.Integer), sa.column("counted", sa.Boolean),
    )  # fmt: skip
    seats = sa.table(
        "session_player", sa.column("id", sa.Integer), sa.column("session_id", sa.Integer),
        sa.column("player_id", sa.Integer), sa.column("won", sa.Boolean), sa.column("seat", sa.Integer),
        sa.column("place", sa.Integer), sa.column("seconds", sa.Integer),
    )  # fmt: skip
    players = sa.table("player", sa.column("id", sa.Integer), sa.column("name", sa.String))
    rounds = sa.table(
        "round", sa.column("session_id", sa.Integer), sa.column("number", sa.Integer),
        sa.column("recorded_at", Moment), sa.column("result", sa.JSON),
    )  # fmt: skip
    mark_table = sa.table(
        "mark", sa.column("session_id", sa.Integer), sa.column("game", sa.String),
        sa.column("key", sa.String), sa.column("value", sa.Integer), sa.column("rank", sa.Integer),
        sa.column("player_id", sa.Integer), sa.column("number", sa.Integer),
        sa.column("at", Moment),
    )  # fmt: skip
    figures = sa.table(
        "player_figures", sa.column("player_id", sa.Integer), sa.column("game", sa.String),
        sa.column("tally", sa.JSON), sa.column("streak_current", sa.Integer),
        sa.column("streak_longest", sa.Integer), sa.column("last_counted_at", Moment),
        sa.column("streak_longest_session", sa.Integer),
        sa.column("last_counted_session", sa.Integer),
    )  # fmt: skip
    pairs_table = sa.table(
        "pair_figures", sa.column("game", sa.String), sa.column("first_id", sa.Integer),
        sa.column("second_id", sa.Integer), sa.column("tally", sa.JSON),
    )  # fmt: skip
    connection = op.get_bind()
    now = datetime.now(UTC)
    changes = defaultdict(dict)
    counted_seats = defaultdict(list)
    pairs = defaultdict(dict)
    ids = connection.execute(sa.select(sessions.c.id).order_by(sessions.c.id)).scalars().all()
    for session_id in ids:
        session = connection.execute(sa.select(sessions).where(sessions.c.id == session_id)).one()
        played = list(round_times(connection, rounds, session_id))
        times = [at for _, at, _ in played]
        seconds = sum(gap(before, after) for before, after in pairwise(times))
        last = times[-1] if times else None
        counted = bool(times) and (session.finished or now - last >= IDLE)
        connection.execute(
            sessions.update().where(sessions.c.id == session_id).values(
                first_round_at=times[0] if times else None, last_round_at=last,
                played_seconds=seconds, counted=counted,
            )
        )  # fmt: skip
        seated = connection.execute(
            sa.select(seats.c.id, seats.c.player_id, seats.c.won, players.c.name)
            .join(players, players.c.id == seats.c.player_id)
            .where(seats.c.session_id == session_id)
            .order_by(seats.c.seat)
        ).all()
        ids = {seat.name: seat.player_id for seat in seated}
        marked = []
        for number, at, result in played:
            for key, value, player in round_marks(session.game, result):
                if player in ids:
                    marked.append(mark_row(session, key, value, ids[player], number, at))
        scores = {seat.name: (session.totals or {}).get(seat.name, 0) for seat in seated}
        placed = {}
        if counted:
            placed = {
                seat.player_id: 1 + sum(1 for other in scores.values() if other > scores[seat.name])
                for seat in seated
            }
        for seat in seated:
            place = placed.get(seat.player_id)
            connection.execute(
                seats.update().where(seats.c.id == seat.id)
                .values(place=place, won=place == 1, seconds=seconds)
            )  # fmt: skip
            new = {"sessions_won": int(place == 1), "played_seconds": seconds}
            if place is not None:
                new.update(sessions_counted=1, session_place_sum=place)
                counted_seats[(seat.player_id, session.game)].append(
                    (last, session_id, place == 1)
                )
            change = added(new, {"sessions_won": int(bool(seat.won))}, -1)
            key = (seat.player_id, session.game)
            changes[key] = added(changes[key], change)
        if counted and seated:
            top = max(scores.values())
            first = next(seat for seat in seated if scores[seat.name] == top)
            marked.append(mark_row(session, "highest_total", top, first.player_id, None, last))
        if marked:
            connection.execute(mark_table.insert(), marked)
        order = sorted(placed)
        for index, first in enumerate(order):
            for second in order[index + 1 :]:
                one, two = placed[first], placed[second]
                part = {"sessions": 1}
                part["a_ahead" if one < two else "b_ahead" if two < one else "tied"] = 1
                key = (session.game, first, second)
                pairs[key] = added(pairs[key], part)
    for (player_id, game), change in changes.items():
        where = (figures.c.player_id == player_id) & (figures.c.game == game)
        row = connection.execute(sa.select(figures.c.tally).where(where)).one_or_none()
        if row is None:
            continue
        values = {"tally": added(without_new(row.tally), change)}
        ordered = sorted(counted_seats.get((player_id, game), []))
        current = longest = 0
        longest_session = None
        for _, session_id, won in ordered:
            current = current + 1 if won else 0
            if current > longest:
                longest, longest_session = current, session_id
        values.update(
            streak_current=current, streak_longest=longest, streak_longest_session=longest_session
        )
        if ordered:
            values.update(last_counted_at=ordered[-1][0], last_counted_session=ordered[-1][1])
        connection.execute(figures.update().where(where).values(**values))
    rows = [
        {"game": game, "first_id": first, "second_id": second, "tally": tally}
        for (game, first, second), tally in sorted(pairs.items())
    ]
    for start in range(0, len(rows), CHUNK):
        connection.execute(pairs_table.insert(), rows[start : start + CHUNK])


def mark_row(session, key, value, player_id, number, at):
    """Return a mark's row (its rank: lowest first, -value for a record the highest holds)."""
    rank = value if key == "worst_round" else -value
    return {"session_id": session.id, "game": session.game, "key": key, "value": value,
            "rank": rank, "player_id": player_id, "number": number, "at": at}  # fmt: skip


def round_marks(game, result):
    """Return (key, value, player) of the marks one round set, as refapp counted them then."""
    deltas = result.get("deltas") or {}
    found = []
    if deltas:
        best = max(deltas.values())
        worst = min(deltas.values())
        found.append(("best_round", best, next(n for n, d in deltas.items() if d == best)))
        found.append(("worst_round", worst, next(n for n, d in deltas.items() if d == worst)))
        if game == "dixit":
            found.append(("best_turn", best, found[0][2]))
    outcome = result.get("outcome")
    made = outcome == "ruling_win" or (outcome == "critic" and result.get("m", 0) > 0)
    if game == "mighty" and made and result.get("boss"):
        found.append(("highest_contract_made", result["contract"]["bid"], result["boss"]))
    return found


#: the counters this revision adds to a player's figures (a downgrade takes them out again)
NEW_COUNTERS = ("played_seconds", "sessions_counted", "session_place_sum")


def without_new(tally):
    """Return a figures row's tally without this revision's counters."""
    return {key: value for key, value in (tally or {}).items() if key not in NEW_COUNTERS}


def gap(before, after):
    """Return the playing time between two rounds in whole seconds (0 for a break)."""
    between = after - before
    return int(between.total_seconds()) if timedelta(0) <= between <= GAP else 0


def round_times(connection, rounds, session_id):
    """Yield (number, time, result) of a session's rounds in order, CHUNK rows read at a time."""
    after = 0
    while True:
        chunk = connection.execute(
            sa.select(rounds.c.number, rounds.c.recorded_at, rounds.c.result)
            .where(rounds.c.session_id == session_id, rounds.c.number > after)
            .order_by(rounds.c.number)
            .limit(CHUNK)
        ).all()
        for row in chunk:
            yield row.number, aware(row.recorded_at), row.result or {}
        if len(chunk) < CHUNK:
            return
        after = chunk[-1].number


def downgrade():
    with op.batch_alter_table("mark", schema=None) as batch_op:
        batch_op.drop_index("ix_mark_session_id")
        batch_op.drop_index("ix_mark_record")
        batch_op.drop_index("ix_mark_player_id")
    op.drop_table("mark")
    figures = sa.table(
        "player_figures", sa.column("player_id", sa.Integer), sa.column("game", sa.String),
        sa.column("tally", sa.JSON),
    )  # fmt: skip
    connection = op.get_bind()
    for row in connection.execute(sa.select(figures)).all():
        where = (figures.c.player_id == row.player_id) & (figures.c.game == row.game)
        connection.execute(figures.update().where(where).values(tally=without_new(row.tally)))
    with op.batch_alter_table("pair_figures", schema=None) as batch_op:
        batch_op.drop_index("ix_pair_figures_second_id")
    op.drop_table("pair_figures")
    with op.batch_alter_table("player_figures", schema=None) as batch_op:
        batch_op.drop_index("ix_player_figures_streak_longest")
        batch_op.drop_column("last_counted_session")
        batch_op.drop_column("last_counted_at")
        batch_op.drop_column("streak_longest_session")
        batch_op.drop_column("streak_longest")
        batch_op.drop_column("streak_current")
    with op.batch_alter_table("session_player", schema=None) as batch_op:
        batch_op.drop_column("seconds")
        batch_op.drop_column("place")
    with op.batch_alter_table("game_session", schema=None) as batch_op:
        batch_op.drop_index("ix_game_session_counted")
        batch_op.drop_index("ix_game_session_last_round_at")
        batch_op.drop_column("counted")
        batch_op.drop_column("played_seconds")
        batch_op.drop_column("last_round_at")
        batch_op.drop_column("first_round_at")
