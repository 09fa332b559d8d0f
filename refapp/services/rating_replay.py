"""Replaying a game's ratings from one event on (services/ratings.py): every later step rated
again, ``CHUNK`` steps at a time, each player from their rating just before the first event
changed, and the current ratings stored."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import groupby

from sqlalchemy import ColumnElement, and_, delete, or_, select, update

from ..extensions import db
from ..games.ratings import NEWCOMER, Skill, rate
from ..models import PlayerRating, RatingStep, aware
from .keyed_rows import keyed_rows

#: where an event stands in its game's order: its time, its session, its round (0: the session)
EventKey = tuple[datetime, int, int]
#: steps read at a time by a replay
CHUNK = 1000


@dataclass(frozen=True)
class Step:
    """A stored step as a replay reads it: its row, its event, its player, team and rank."""

    id: int
    event: EventKey
    player_id: int
    team: int
    rank: int
    #: the player's rating before the event as last rated (None: not rated yet)
    prior: Skill | None


def replay(
    game: str,
    start: EventKey,
    dropped: Iterable[int] = (),
    known: Mapping[int, Skill] | None = None,
) -> None:
    """Rate every event of a game from ``start`` on again, each player from their rating just
    before it (``known``, else what their first step from ``start`` on was rated from, else
    their last step before it); then store the current rating of everyone touched
    (``dropped``: players whose steps from ``start`` on were taken out, who may have none left).
    """
    skills: dict[int, Skill] = {}
    starting = dict(known or {})
    cursor = start
    while True:
        steps = steps_from(game, cursor)
        events = [list(event) for _, event in groupby(steps, key=lambda step: step.event)]
        full = len(steps) == CHUNK and len(events) > 1
        if full:  # the last event may go on past this chunk: read it again with the next
            cursor = events.pop()[0].event
        changes = [
            row
            for event in events
            for row in rated(game, event, skills, (start, starting), frozenset(dropped))
        ]
        if changes:
            db.session.execute(update(RatingStep), changes)
        if not full:
            break
    store_current(game, (start, starting), skills, set(dropped) - set(skills))


def steps_from(game: str, cursor: EventKey) -> list[Step]:
    """Return up to ``CHUNK`` steps of a game from an event on, in the order they are rated."""
    found = db.session.execute(
        select(
            RatingStep.id,
            RatingStep.at,
            RatingStep.session_id,
            RatingStep.number,
            RatingStep.player_id,
            RatingStep.team,
            RatingStep.rank,
            RatingStep.mu_before,
            RatingStep.sigma_before,
            RatingStep.rated_before,
        )
        .where(RatingStep.game == game, from_event(cursor))
        .order_by(
            RatingStep.at,
            RatingStep.session_id,
            RatingStep.number,
            RatingStep.team,
            RatingStep.slot,
        )
        .limit(CHUNK)
    )
    return [
        Step(
            row.id,
            (aware(row.at), row.session_id, row.number),
            row.player_id,
            row.team,
            row.rank,
            Skill(row.mu_before, row.sigma_before, row.rated_before)
            if row.rated_before >= 0
            else None,
        )
        for row in found
    ]


def from_event(key: EventKey) -> ColumnElement[bool]:
    """Return the condition of a step at or after an event (by time, session, round)."""
    at, session_id, number = key
    return and_(
        RatingStep.at >= at,
        or_(
            RatingStep.at > at,
            RatingStep.session_id > session_id,
            and_(RatingStep.session_id == session_id, RatingStep.number >= number),
        ),
    )


def before_event(key: EventKey) -> ColumnElement[bool]:
    """Return the condition of a step before an event."""
    at, session_id, number = key
    return and_(
        RatingStep.at <= at,
        or_(
            RatingStep.at < at,
            RatingStep.session_id < session_id,
            and_(RatingStep.session_id == session_id, RatingStep.number < number),
        ),
    )


#: where a replay starts: its first event, and the ratings known just before it
Start = tuple[EventKey, Mapping[int, Skill]]


def rated(
    game: str,
    event: Sequence[Step],
    skills: dict[int, Skill],
    start: Start,
    dropped: frozenset[int] = frozenset(),
) -> list[dict[str, object]]:
    """Rate one event from the players' ratings so far; return its steps' new values."""
    teams = [list(team) for _, team in groupby(event, key=lambda step: step.team)]
    for step in event:
        if step.player_id not in skills:
            skills[step.player_id] = first_skill(game, step, start, dropped)
    prior = {step.player_id: skills[step.player_id] for step in event}
    after = rate(
        [[skills[step.player_id] for step in team] for team in teams],
        [team[0].rank for team in teams],
    )
    changes: list[dict[str, object]] = []
    for team, new in zip(teams, after, strict=True):
        for step, skill in zip(team, new, strict=True):
            skills[step.player_id] = skill
            was = prior[step.player_id]
            changes.append(
                {
                    "id": step.id,
                    "mu": skill.mu,
                    "sigma": skill.sigma,
                    "rated": skill.rated,
                    "mu_before": was.mu,
                    "sigma_before": was.sigma,
                    "rated_before": was.rated,
                }
            )
    return changes


def before(game: str, player_id: int, start: EventKey) -> Skill:
    """Return a player's rating just before an event (a newcomer's without an earlier step)."""
    row = db.session.execute(
        select(RatingStep.mu, RatingStep.sigma, RatingStep.rated)
        .where(RatingStep.player_id == player_id, RatingStep.game == game, before_event(start))
        .order_by(RatingStep.at.desc(), RatingStep.session_id.desc(), RatingStep.number.desc())
        .limit(1)
    ).first()
    return NEWCOMER if row is None else Skill(row.mu, row.sigma, row.rated)


def first_skill(game: str, step: Step, start: Start, dropped: frozenset[int]) -> Skill:
    """Return a player's rating before their first step of a replay: known before the first
    event, else what that step was last rated from - unless steps of theirs were taken out
    (``dropped``): one of those may have come between, so their last step before the first
    event is read."""
    key, known = start
    if step.player_id in known:
        return known[step.player_id]
    if step.prior is not None and step.player_id not in dropped:
        return step.prior
    return before(game, step.player_id, key)


def starting_skill(game: str, player_id: int, start: Start) -> Skill:
    """Return a player's rating just before a replay's first event: known, or read."""
    key, known = start
    return known.get(player_id) or before(game, player_id, key)


def store_current(
    game: str, start: Start, skills: Mapping[int, Skill], dropped: Iterable[int]
) -> None:
    """Store the current rating of every player a replay rated or took steps from."""
    final = dict(skills)
    for player_id in dropped:
        final[player_id] = starting_skill(game, player_id, start)
    gone = [player_id for player_id, skill in final.items() if not skill.rated]
    if gone:
        db.session.execute(
            delete(PlayerRating).where(PlayerRating.game == game, PlayerRating.player_id.in_(gone))
        )
    kept = {player_id: skill for player_id, skill in final.items() if skill.rated}
    if not kept:
        return
    empty = {"mu": NEWCOMER.mu, "sigma": NEWCOMER.sigma, "display": 0.0, "rated": 0}
    rows = keyed_rows(PlayerRating, ("game", "player_id"), [(game, pid) for pid in kept], empty)
    for row in rows.values():
        skill = kept[row.player_id]
        row.mu, row.sigma, row.rated = skill.mu, skill.sigma, skill.rated
        row.display = skill.display
    db.session.flush()
