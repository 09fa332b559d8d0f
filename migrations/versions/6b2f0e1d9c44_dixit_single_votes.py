"""dixit single votes: a one-vote list below 7 players becomes the vote it holds

Revision ID: 6b2f0e1d9c44
Revises: 5c1e9a7d3b20
Create Date: 2026-12-01 16:20:00.000000

Before this revision the Dixit turn form sent every vote as a list when the table played with
two_votes_large_game, also below 7 players, where the rules now give one vote each and refuse a
list (docs/API.md, Dixit). Such a session could no longer be corrected, renamed or imported. Each
vote ``[n]`` of such a session becomes ``n``, the session is replayed through the rules (the
lone-vote +1, which the option gives only from 7 players, goes) and each changed round gets a
``replace_round`` audit entry, so its history still replays to its rounds. A session that does
not replay (a two-vote list below 7 players) is left as it was and named in the log.
"""
import logging
from datetime import UTC, datetime

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '6b2f0e1d9c44'
down_revision = '5c1e9a7d3b20'
branch_labels = None
depends_on = None

log = logging.getLogger('alembic.runtime.migration')
#: the smallest table at which two_votes_large_game gives a second vote (games/dixit)
TWO_VOTES_FROM = 7

sessions = sa.table(
    'game_session', sa.column('id', sa.Integer), sa.column('game', sa.String),
    sa.column('rules', sa.JSON), sa.column('initial_state', sa.JSON),
    sa.column('totals', sa.JSON), sa.column('version', sa.Integer),
)
seats = sa.table('session_player', sa.column('session_id', sa.Integer),
                 sa.column('player_id', sa.Integer), sa.column('seat', sa.Integer))
players = sa.table('player', sa.column('id', sa.Integer), sa.column('name', sa.String))
rounds = sa.table('round', sa.column('session_id', sa.Integer), sa.column('number', sa.Integer),
                  sa.column('input', sa.JSON), sa.column('result', sa.JSON),
                  sa.column('state', sa.JSON))
entries = sa.table('audit_entry', sa.column('session_id', sa.Integer),
                   sa.column('at', sa.DateTime(timezone=True)), sa.column('action', sa.String),
                   sa.column('round_number', sa.Integer), sa.column('before', sa.JSON),
                   sa.column('after', sa.JSON))


def single_votes(entered):
    """Return a turn's input with each one-vote list made the vote it holds (None: unchanged)."""
    votes = entered.get('votes') if isinstance(entered, dict) else None
    if not isinstance(votes, dict):
        return None
    fixed = {voter: vote[0] if isinstance(vote, list) and len(vote) == 1 else vote
             for voter, vote in votes.items()}
    return {**entered, 'votes': fixed} if fixed != votes else None


def upgrade():
    connection = op.get_bind()
    candidates = connection.execute(
        sa.select(sessions.c.id, sessions.c.rules, sessions.c.initial_state, sessions.c.version)
        .where(sessions.c.game == 'dixit')
    ).all()
    for session_id, rules, initial, version in candidates:
        if not (rules or {}).get('two_votes_large_game'):
            continue
        names = connection.execute(
            sa.select(players.c.name).join(seats, seats.c.player_id == players.c.id)
            .where(seats.c.session_id == session_id).order_by(seats.c.seat)
        ).scalars().all()
        if len(names) < TWO_VOTES_FROM:
            fix_session(connection, session_id, list(names), rules, initial, version)


def fix_session(connection, session_id, names, rules, initial, version):
    """Replay one session with single votes as numbers; store it with its corrections."""
    from refapp.games import get_game
    from refapp.games.errors import Refusal
    from refapp.games.game import Table, replay

    stored = connection.execute(
        sa.select(rounds.c.number, rounds.c.input, rounds.c.result)
        .where(rounds.c.session_id == session_id).order_by(rounds.c.number)
    ).all()
    inputs = [single_votes(entered) or entered for _, entered, _ in stored]
    if inputs == [entered for _, entered, _ in stored]:
        return
    game = get_game('dixit')
    try:
        table = game.with_house_rules(Table(tuple(names), dict(rules)))
        outcomes = list(replay(game, table, initial, inputs))
    except Refusal as error:
        log.warning('Dixit session %s keeps its votes: it does not replay with single votes '
                    '(round %s: %s); correct it by hand.', session_id, error.round, error)
        return
    now = datetime.now(UTC)
    totals = dict.fromkeys(names, 0)
    for (number, entered, result), outcome in zip(stored, outcomes, strict=True):
        for name, delta in outcome.result['deltas'].items():
            totals[name] = totals.get(name, 0) + delta
        connection.execute(
            rounds.update()
            .where(rounds.c.session_id == session_id, rounds.c.number == number)
            .values(input=outcome.input, result=outcome.result, state=outcome.state)
        )
        if outcome.input != entered:
            connection.execute(entries.insert().values(
                session_id=session_id, at=now, action='replace_round', round_number=number,
                before=entered, after=outcome.input,
            ))
    connection.execute(
        sessions.update().where(sessions.c.id == session_id)
        .values(totals=totals, version=(version or 0) + 1)
    )
    log.info('Dixit session %s: single votes stored as numbers and the session replayed.',
             session_id)


def downgrade():
    pass  # the votes as the rules read them stay: a list below 7 players is refused now
