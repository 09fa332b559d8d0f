"""player figures: a seat's tally and win, and each player's summed figures per game

Revision ID: e1f7c2a9b4d6
Revises: c4d2e8a1f7b3
Create Date: 2026-12-02 07:10:00.000000

A player's page read every round of every session they sat at. Each seat now keeps the counters
its session's rounds add to the player's figures (``tally``) and whether the player won it
(``won``), and ``player_figures`` keeps their sums per player and game, so the page reads a row
per game. The upgrade counts them from the stored rounds a session at a time, with the rules'
own counting as it was when this step was frozen (refapp/games/stats.py, tally.py and each game's
stats.py, copied below), so a later change of the rules leaves this step as it ran; ``flask
rebuild-figures`` counts with the rules of the day at any time.
"""
from collections import defaultdict

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e1f7c2a9b4d6'
down_revision = 'c4d2e8a1f7b3'
branch_labels = None
depends_on = None

#: round results read from the database at a time
CHUNK = 500
#: Mighty's point cards (the ruling side took every one: a run)
POINT_CARDS = 20
#: the outcomes of a Mighty round in which a hand was played (not a misdeal, not all passed)
PLAYED_HANDS = ('ruling_win', 'critic', 'opposition_win')


def added(tally, more):
    """Return tally plus more, as a new tally without zeros."""
    total = dict(tally)
    for key, value in more.items():
        total[key] = total.get(key, 0) + value
    return {key: value for key, value in total.items() if value}


def winners(players, scores, finished):
    """Return the seated players on the highest total of a finished session (none while it runs)."""
    if not finished:
        return []
    totals = {name: scores.get(name, 0) for name in players}
    best = max(totals.values(), default=None)
    return [name for name, total in totals.items() if total == best]


def session_part(tally, won):
    """Return a session's part in a player's figures: played, won or not, and its rounds' tally."""
    return added(tally, {'sessions_played': 1, 'sessions_won': int(won)})


def mighty_tally(name, result):
    """Return what a Mighty hand adds: played, as boss (made, the bid), as friend, runs; or a
    hand the player was killed in or rested."""
    if name in result.get('killed', ()):
        return {'hands_killed': 1}
    if name in result.get('resting', ()):
        return {'hands_rested': 1}
    if result.get('outcome') not in PLAYED_HANDS:
        return {}
    counted = {'hands_played': 1}
    boss = result.get('boss') == name
    if boss:
        outcome = result.get('outcome')
        made = outcome == 'ruling_win' or (outcome == 'critic' and result.get('m', 0) > 0)
        counted.update(hands_as_boss=1, contracts_made=int(made), bid_sum=result['contract']['bid'])
    if result.get('friend') == name:
        counted['times_as_friend'] = 1
    if boss or result.get('friend') == name:
        counted['runs'] = int(result.get('ruling_points') == POINT_CARDS)
        counted['back_runs'] = int(bool(result.get('back_run')))
    return counted


def dixit_tally(name, result):
    """Return what a Dixit turn adds: a storyteller turn (some found it or not), the vote bonus."""
    counted = {}
    if result.get('storyteller') == name:
        counted['storyteller_turns'] = 1
        counted['some_found'] = int(result.get('outcome') == 'some_found')
    bonus = result.get('vote_bonus') or {}
    if name in bonus:
        counted['bonus_sum'] = bonus[name]
        counted['bonus_count'] = 1
    return counted


def dalmuti_tally(name, result):
    """Return what a Dalmuti hand adds: played, the place, either end of the ranks, a revolution."""
    ranks = result.get('ranks_after') or ()
    if name not in ranks:
        return {}
    during = result.get('ranks_during') or []
    return {
        'hands_played': 1,
        'place_sum': list(ranks).index(name) + 1,
        'hands_as_greater_dalmuti': int(during[:1] == [name]),
        'hands_as_greater_peasant': int(during[-1:] == [name]),
        'revolutions': int(result.get('revolution_by') == name),
    }


#: each game's own counters, by the game's key
GAME_TALLIES = {'mighty': mighty_tally, 'dixit': dixit_tally, 'dalmuti': dalmuti_tally}


def round_tally(game, name, result):
    """Return what one round adds for a seated player: a round played, its points, the game's own."""
    deltas = result.get('deltas')
    points = deltas.get(name, 0) if isinstance(deltas, dict) else 0
    own = GAME_TALLIES.get(game)
    return added({'rounds_played': 1, 'points': points}, own(name, result) if own else {})


def seat_tallies(game, players, results):
    """Return each seated player's tally of a session's rounds, reading each result once."""
    tallies = {name: {} for name in players}
    for result in results:
        for name in players:
            tallies[name] = added(tallies[name], round_tally(game, name, result))
    return tallies


def upgrade():
    with op.batch_alter_table('session_player', schema=None) as batch_op:
        batch_op.add_column(sa.Column('tally', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('won', sa.Boolean(), server_default=sa.false(),
                                      nullable=False))
    op.create_table(
        'player_figures',
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('game', sa.String(length=20), nullable=False),
        sa.Column('tally', sa.JSON(), nullable=False),
        sa.Column('last_played', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['player_id'], ['player.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('player_id', 'game'),
    )
    backfill()


def backfill():
    """Count every seat's tally and win, and each player's sums, from the stored rounds."""
    sessions = sa.table('game_session', sa.column('id', sa.Integer), sa.column('game', sa.String),
                        sa.column('finished', sa.Boolean), sa.column('totals', sa.JSON),
                        sa.column('created_at', sa.DateTime(timezone=True)))
    seats = sa.table('session_player', sa.column('id', sa.Integer),
                     sa.column('session_id', sa.Integer), sa.column('player_id', sa.Integer),
                     sa.column('seat', sa.Integer), sa.column('tally', sa.JSON),
                     sa.column('won', sa.Boolean))
    players = sa.table('player', sa.column('id', sa.Integer), sa.column('name', sa.String))
    rounds = sa.table('round', sa.column('session_id', sa.Integer),
                      sa.column('number', sa.Integer), sa.column('result', sa.JSON))
    figures = sa.table('player_figures', sa.column('player_id', sa.Integer),
                       sa.column('game', sa.String), sa.column('tally', sa.JSON),
                       sa.column('last_played', sa.DateTime(timezone=True)))
    connection = op.get_bind()
    sums = defaultdict(dict)
    latest = {}
    ids = connection.execute(sa.select(sessions.c.id).order_by(sessions.c.id)).scalars().all()
    for session_id in ids:
        session = connection.execute(
            sa.select(sessions).where(sessions.c.id == session_id)).one()
        seated = connection.execute(
            sa.select(seats.c.id, seats.c.player_id, players.c.name)
            .join(players, players.c.id == seats.c.player_id)
            .where(seats.c.session_id == session_id).order_by(seats.c.seat)
        ).all()
        names = [seat.name for seat in seated]
        tallies = seat_tallies(session.game, names, results_of(connection, rounds, session_id))
        won = winners(names, session.totals or {}, session.finished)
        for seat in seated:
            connection.execute(seats.update().where(seats.c.id == seat.id)
                               .values(tally=tallies[seat.name], won=seat.name in won))
            key = (seat.player_id, session.game)
            sums[key] = added(sums[key], session_part(tallies[seat.name], seat.name in won))
            if session.created_at is not None:
                latest[key] = max(latest.get(key, session.created_at), session.created_at)
    rows = [{'player_id': player_id, 'game': game, 'tally': tally,
             'last_played': latest.get((player_id, game))}
            for (player_id, game), tally in sums.items()]
    for start in range(0, len(rows), CHUNK):
        connection.execute(figures.insert(), rows[start:start + CHUNK])


def results_of(connection, rounds, session_id):
    """Yield a session's stored results in order, CHUNK rows read at a time."""
    after = 0
    while True:
        chunk = connection.execute(
            sa.select(rounds.c.number, rounds.c.result)
            .where(rounds.c.session_id == session_id, rounds.c.number > after)
            .order_by(rounds.c.number).limit(CHUNK)
        ).all()
        for row in chunk:
            yield row.result or {}
        if len(chunk) < CHUNK:
            return
        after = chunk[-1].number


def downgrade():
    op.drop_table('player_figures')
    with op.batch_alter_table('session_player', schema=None) as batch_op:
        batch_op.drop_column('won')
        batch_op.drop_column('tally')
