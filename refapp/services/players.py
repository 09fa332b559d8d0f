"""Players across sessions: the roster, a player's figures per game, renaming and merging.

Reading costs a fixed number of queries and rows whatever the number of sessions and rounds:
figures come from the sums the writes keep (services/figures.py), and a profile lists the
newest sessions only. A rename is
one transaction: the name is rewritten in every stored round, setup and state of the player's
sessions, each of those sessions is replayed through its rules to prove nothing else changed,
and each gets an audit entry. Renaming onto another player's name merges the two.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections import defaultdict
from collections.abc import Mapping, Sequence

from flask_babel import gettext as _
from sqlalchemy import BigInteger, cast, func, select
from sqlalchemy.orm import joinedload, selectinload

from ..club import current_group_id
from ..extensions import db
from ..games import GAMES, get_game
from ..games.errors import Conflict, NotFound, Refusal, RuleViolation, quote
from ..games.game import Table, replay
from ..games.stats import figures_from
from ..games.tally import summed
from ..models import GameSession, Player, PlayerFigures, Round, SessionPlayer
from . import due, figures, limits, ratings, running_shifts, stored_rounds, values, writes
from .player_shapes import PlayerProfile, PlayerRow, PlayerSession
from .sessions import iso

#: a session's stored JSON, besides its rounds, that may quote a player's name
SESSION_JSON = ("setup", "initial_state", "totals")


# -- reading -----------------------------------------------------------------------------------

#: the most sessions a player's profile lists (the newest); ``sessions_played`` counts them all
SESSIONS_LISTED = 50


def list_players() -> list[PlayerRow]:
    """Return every player with sessions played and won and the games played, in two queries.

    Everything comes from the figures rows kept per player and game (services/figures.py):
    a few rows per player, whatever their history. Sessions that went idle are counted first,
    and what running ones owe the figures added (services/due.py: one indexed query each when
    none did).
    """
    due.figures_current()
    players = db.session.scalars(select(Player).where(Player.group_id == current_group_id()))
    mine: dict[int, list[PlayerFigures]] = defaultdict(list)
    group_rows = (
        select(PlayerFigures)
        .join(Player, Player.id == PlayerFigures.player_id)
        .where(Player.group_id + 0 == current_group_id())
    )
    for row in db.session.scalars(group_rows):
        if (row.tally or {}).get("sessions_played"):
            mine[row.player_id].append(row)
    rows: list[PlayerRow] = []
    for player in sorted(players, key=lambda player: (player.name.casefold(), player.name)):
        tally = summed(row.tally for row in mine[player.id])
        games = {row.game for row in mine[player.id]}
        rows.append(
            {
                "name": player.name,
                "sessions_played": tally.get("sessions_played", 0),
                "sessions_won": tally.get("sessions_won", 0),
                "rounds_played": tally.get("rounds_played", 0),
                "games": [slug for slug in GAMES if slug in games],
                "last_played": iso(
                    max(
                        (
                            figures.aware(row.last_played)
                            for row in mine[player.id]
                            if row.last_played is not None
                        ),
                        default=None,
                    )
                ),
            }
        )
    return rows


def player_profile(name: object) -> PlayerProfile:
    """Return a player's record overall and per game, and their newest sessions."""
    due.figures_current()
    return profile_of(find_player(name))


def tagged_profile(name: object) -> tuple[PlayerProfile, str]:
    """Return a player's profile and their entity tag (``player_tag``) as of its sessions.

    Four queries whatever the player's history: the player, their figures rows, their newest
    sessions with those sessions' seats, and the tag's one aggregate over their sessions.
    """
    due.figures_current()
    player = find_player(name)
    return profile_of(player), player_tag(player)


def profile_of(player: Player) -> PlayerProfile:
    """Return a player's profile: figures per game from their stored sums, newest sessions."""
    stored = {
        row.game: row.tally or {}
        for row in db.session.scalars(
            select(PlayerFigures).where(PlayerFigures.player_id == player.id)
        )
        if (row.tally or {}).get("sessions_played")
    }
    sessions = (
        db.session.scalars(
            select(GameSession)
            .join(SessionPlayer, SessionPlayer.session_id == GameSession.id)
            .where(SessionPlayer.player_id == player.id)
            # the seats last added first: read off the player's seat index, whatever their history
            .order_by(SessionPlayer.id.desc())
            .limit(SESSIONS_LISTED)
            .options(joinedload(GameSession.seats))
        )
        .unique()
        .all()
    )
    overall = summed(stored.values())
    played = overall.get("sessions_played", 0)
    return {
        "name": player.name,
        "created_at": iso(player.created_at),
        "sessions_played": played,
        "sessions_won": overall.get("sessions_won", 0),
        "games": {
            slug: {"title": game.title, **figures_from(slug, stored[slug])}
            for slug, game in GAMES.items()
            if slug in stored
        },
        "sessions": [session_row(session, player.name) for session in sessions],
        "sessions_listed_at_most": SESSIONS_LISTED,
        "sessions_not_listed": max(0, played - len(sessions)),
    }


def session_row(session: GameSession, name: str) -> PlayerSession:
    """Return one of a player's sessions: what it was, and how the player stood in it."""
    players = session.players
    seat = next((seat for seat in session.seats if seat.player.name == name), None)
    return {
        "id": session.id,
        "game": session.game,
        "name": session.name,
        "players": players,
        "created_at": iso(session.created_at),
        "finished": session.finished,
        "rounds": session.round_count,
        "points": (session.totals or {}).get(name, 0),
        "won": seat is not None and seat.won,
        "place": seat.place if seat is not None else None,
    }


def find_player(name: object) -> Player:
    """Return the player of that name (trimmed, NFC) or raise ``not_found``."""
    key = unicodedata.normalize("NFC", name.strip()) if isinstance(name, str) else name
    player = None
    if isinstance(key, str) and not values.has_control(key):  # PostgreSQL refuses a NUL
        mine = select(Player).where(Player.name == key, Player.group_id == current_group_id())
        player = db.session.scalars(mine).one_or_none()
    if player is None:
        raise NotFound("There is no player {value}.", None, value=quote(name))
    return player


# -- renaming --------------------------------------------------------------------------------------


def player_name(raw: object) -> str:
    """Return a new name trimmed and NFC, 1..40 printable characters, or raise naming ``name``."""
    return values.player_name(raw, "name")


def renamed(value: object, old: str, new: str) -> object:
    """Return a copy of stored JSON with every key and string value equal to old replaced by new."""
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, Mapping):
        return {
            (new if key == old else key): renamed(item, old, new) for key, item in value.items()
        }
    if isinstance(value, list | tuple):
        return [renamed(item, old, new) for item in value]
    return value


def player_tag(player: Player) -> str:
    """Return a player's entity tag (unquoted), from their id and name and one aggregate of their
    sessions: how many, and the sums of their versions and of id times version.

    Every change a rename could clash with moves it: a session of theirs written (its version
    grows), a seat moved to them by a merge, a new session seating them, a rename of them.
    """
    marks = db.session.execute(
        select(
            func.count(),
            func.coalesce(func.sum(GameSession.version), 0),
            func.coalesce(func.sum(cast(GameSession.id, BigInteger) * GameSession.version), 0),
            func.coalesce(func.max(GameSession.id), 0),
        )
        .select_from(SessionPlayer)
        .join(GameSession, GameSession.id == SessionPlayer.session_id)
        .where(SessionPlayer.player_id == player.id)
    ).one()
    seen = f"{player.id}:{player.name}:" + ".".join(str(int(mark)) for mark in marks)
    return f"p{player.id}-{hashlib.sha256(seen.encode()).hexdigest()[:16]}"


@writes.transaction()
def rename_player(
    name: str, raw: object, *, expected: writes.Precondition | None = None
) -> tuple[Player, bool]:
    """Rename a player, or merge them into the player who already has the new name; audited.

    The player's row, and the merge target's, are locked before their sessions are listed, so a
    session being created with either name lands wholly before the rename (and is rewritten) or
    after it. ``expected`` (the request's ``If-Match``) is compared with the player's tag under
    those locks. A merge is refused (``player_conflict``) when both sit at one session: they are
    two people. Returns the player who now has the new name, and whether it was a merge.
    """
    new = player_name(raw)
    find_player(name)  # an unknown name is refused before anything is locked
    key = unicodedata.normalize("NFC", name.strip())
    locked = writes.lock_players([key, new])  # SQLite: BEGIN IMMEDIATE, the write's turn
    player = _still_there(locked.get(key), name, expected)
    old = player.name
    if new == old:  # nothing to write: the write's turn (and its locks) ends here
        db.session.rollback()
        return player, False
    target = locked.get(new)
    ids, sessions = _sessions_locked(player)
    if target is not None:
        _check_two_people(sessions, target, old, new)
    for session in sessions:  # a name that reads as a tablemate's is that name at the table
        tablemates = [seat.player.name for seat in session.seats if seat.player_id != player.id]
        values.refuse_same_name(new, tablemates, "name")
    for session in sessions:
        rewrite_session(session, old, new)
        writes.audit(session, "rename_player", None, {"name": old}, {"name": new})
    if target is None:
        player.name = new
    else:
        _merge(player, target, ids)
    taken = Conflict(
        "player_conflict",
        "Another player took the name {new} meanwhile; reload and try again.",
        "name",
        new=quote(new),
    )
    writes.commit_write(*sessions, conflict=taken)
    return (player, False) if target is None else (target, True)


def _still_there(player: Player | None, name: str, expected: writes.Precondition | None) -> Player:
    """Return the locked player, refused when renamed or merged away meanwhile or when the
    device's tag (``expected``) is stale."""
    if player is None:  # renamed or merged away while this write waited for its turn
        raise NotFound("There is no player {value}.", None, value=quote(name))
    if expected is not None and not expected.matches(player_tag(player)):
        raise Conflict(
            "stale_tag",
            "This device saw {value} of {name}, who has changed since: another device renamed "
            "them or wrote to one of their sessions. Reload and try again.",
            "If-Match",
            value=expected.shown(),
            name=quote(player.name),
        )
    return player


def _sessions_locked(player: Player) -> tuple[Sequence[int], Sequence[GameSession]]:
    """Lock the player's sessions and return their ids and rows (with rounds and states)."""
    ids = db.session.scalars(
        select(SessionPlayer.session_id).where(SessionPlayer.player_id == player.id)
    ).all()
    writes.lock_sessions(ids)
    sessions = db.session.scalars(
        select(GameSession)
        .where(GameSession.id.in_(ids))
        .order_by(GameSession.id)
        .options(selectinload(GameSession.rounds).undefer(Round.state))
    ).all()
    return ids, sessions


def _check_two_people(sessions: Sequence[GameSession], target: Player, old: str, new: str) -> None:
    """Refuse a merge into a player who sits at one of the sessions too (``player_conflict``)."""
    shared = [s.id for s in sessions if any(seat.player_id == target.id for seat in s.seats)]
    if shared:
        raise Conflict(
            "player_conflict",
            "{old} and {new} both sit at session {ids}, so they are two people; {old} "
            "cannot be merged into {new}. Choose another name.",
            "name",
            old=quote(old),
            new=quote(new),
            ids=", ".join(map(str, shared)),
        )


def _merge(player: Player, target: Player, ids: Sequence[int]) -> None:
    """Move the player's seats to the target, move their figures, and delete the player."""
    for seat in list(player.seats):
        if seat.session_id not in ids:  # seated by a write that took no lock: refuse
            raise writes.lost_race()
        seat.player = target
    figures.player_merged(player.id, target.id)
    ratings.player_merged(player.id, target.id)
    db.session.delete(player)


def rewrite_session(session: GameSession, old: str, new: str) -> None:
    """Write the new name into a session's stored JSON and replay its rounds under it.

    The replay proves the rewrite touched only the name: a name that is also one of the game's
    own words (a card, a role) would break an input or change a score, and is refused.
    """
    game = get_game(session.game)
    players = tuple(new if seat.player.name == old else seat.player.name for seat in session.seats)
    table = Table(players, dict(session.rules))
    for column in SESSION_JSON:
        if getattr(session, column, None) is not None:
            setattr(session, column, renamed(getattr(session, column), old, new))
    try:
        game.start(players, table.rules, session.setup or {})
    except Refusal as error:
        raise unsafe(session, None, old, new, error.message) from error
    inputs = [renamed(played.input, old, new) for played in session.rounds]
    try:
        outcomes = list(replay(game, table, session.initial_state, inputs))
    except Refusal as error:
        raise unsafe(session, error.round, old, new, error.message) from error
    for played, outcome in zip(session.rounds, outcomes, strict=True):
        if outcome.result["deltas"] != renamed(played.result["deltas"], old, new):
            raise unsafe(session, played.number, old, new, _("the score would change"))
        # a longer name makes the round longer: the session must still fit an import
        limits.grow(
            session,
            limits.round_bytes(outcome.input, outcome.result)
            - limits.round_bytes(played.input, played.result),
        )
        played.input, played.result = dict(outcome.input), dict(outcome.result)
        played.state = dict(outcome.state)
    stored_rounds.rewrite(session.rounds, players)
    running_shifts.dropped(session.id)


def unsafe(session: GameSession, number: int | None, old: str, new: str, why: str) -> RuleViolation:
    """Return the refusal of a rename that would change more than the name in a session.

    ``why`` is already in the reader's language (a rule's message, or a phrase translated here).
    """
    if number is None:
        return RuleViolation(
            "rename_unsafe",
            "Renaming {old} to {new} would change more than the name in session {id} (its "
            "setup: {why}); the name may be one of the game's own words. Nothing was renamed.",
            "name",
            old=quote(old),
            new=quote(new),
            id=session.id,
            why=why.rstrip("."),
        )
    return RuleViolation(
        "rename_unsafe",
        "Renaming {old} to {new} would change more than the name in session {id} (round "
        "{number}: {why}); the name may be one of the game's own words. Nothing was renamed.",
        "name",
        old=quote(old),
        new=quote(new),
        id=session.id,
        number=number,
        why=why.rstrip("."),
    )
