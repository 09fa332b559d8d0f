"""A stale entry, side by side: the round another phone recorded first and the kept entry, with
what the kept entry would score as the next round. The table chooses: record it or discard it.

Each side shows its round whole, in the words of the history's line (the game's summary and
the points); a kept entry the rules refuse shows the refusal and the entry, field by field.
Before that the kept entry takes what the rounds recorded since moved on (``take_what_moved``):
whatever the form offered for the round it was started at and offers otherwise now - the next
dealer, the next storyteller - whichever the game's form fills in from the state.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from markupsafe import Markup

from .. import services
from ..games import get_game
from ..games.errors import Refusal
from ..models import utcnow
from ..services.values import without_expected
from .changes import differences, flatten
from .forms import RoundForm, round_form
from .forms.base import RoundBody
from .path_words import describe_path, describe_value

#: the fields of a round form that are no part of its entry
NOT_ENTRY = ("csrf_token", "expected_round", "idempotency_key")


@dataclass
class Side:
    """One side of the comparison: a round's number and, when it scores, the round itself (as
    the history shows it); else why it cannot be scored and its entry in words."""

    number: int
    deltas: dict[str, int] = field(default_factory=dict)
    refusal: str | None = None
    #: the round as stored or as it would be stored, when it scores
    played: services.PlayedRound | None = None
    #: the entry, one line a field, when the rules refuse it
    lines: list[Markup] = field(default_factory=list)
    #: what the kept entry took from the rounds recorded since ("Dealer: Cy → Eve")
    moved: list[Markup] = field(default_factory=list)


@dataclass
class StaleChoice:
    """What another phone recorded (``theirs``) and the kept entry as the next round (``mine``)."""

    theirs: Side
    mine: Side


def compare(session_id: int, body: RoundBody, count: int) -> StaleChoice:
    """Describe the last stored round and the kept entry checked as round ``count + 1``."""
    rows = services.round_rows(session_id, count - 1, count)
    theirs = Side(count, deltas_of(rows[-1].result) if rows else {})
    theirs.played = rows[-1] if rows else None
    mine = Side(count + 1)
    entry = without_expected(body)
    try:
        checked = services.check_round(session_id, entry, whole=True)  # as recording it would
    except Refusal as error:
        mine.refusal = error.message  # shown by the side; recording it would be refused too
        mine.lines = entry_words(session_id, entry)
    else:
        mine.deltas = deltas_of(checked["result"])
        if mine.deltas:
            # the round as it would be stored (never stored: no time of its own)
            mine.played = services.PlayedRound(
                count + 1, checked["input"], checked["result"], utcnow(), None
            )
    return StaleChoice(theirs, mine)


def entry_words(session_id: int, entry: RoundBody) -> list[Markup]:
    """Return an entry as the history of changes words it: "Dealer: Ann", one line a field."""
    rules = get_game(services.load_session(session_id, with_rounds=False).game)
    return [
        Markup("{}: {}").format(describe_path(rules, path), describe_value(rules, path, value))
        for path, value in flatten(entry).items()
    ]


def moved_words(session_id: int, before: RoundBody, after: RoundBody) -> list[Markup]:
    """Say what a kept entry took from the rounds recorded since, as the history words it."""
    game = get_game(services.load_session(session_id, with_rounds=False).game)
    return differences(game, without_expected(before), without_expected(after))


def take_what_moved(form: RoundForm, view: services.SessionView, expected: int | None) -> bool:
    """Let a kept entry take what the rounds recorded since changed; True when it did.

    Each field still at what a fresh form offered for round ``expected`` (the round the entry
    was started at) takes what a fresh form offers now, when that differs: the next dealer or
    storyteller the state now names. Fields the table changed are kept as entered.
    """
    if expected is None or not 1 <= expected <= view.count:
        return False
    before = services.state_before(view.session, expected)
    then = dataclasses.replace(
        view,
        state=view.game.public_state(view.table, before, view.totals),
        count=expected - 1,
    )
    offered, offers = round_form(then, formdata=None), round_form(view, formdata=None)
    moved = False
    for item in form:
        name = item.short_name
        if name in NOT_ENTRY or name not in offered or name not in offers:
            continue
        old, new = offered[name].data, offers[name].data
        if item.data == old and old != new:
            item.data = new
            moved = True
    return moved


def deltas_of(result: object) -> dict[str, int]:
    """Return a round result's points per player (none for a partial check)."""
    deltas = result.get("deltas") if isinstance(result, dict) else None
    return dict(deltas) if isinstance(deltas, dict) else {}
