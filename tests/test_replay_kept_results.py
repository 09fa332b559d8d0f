"""A stored round played again from another state may keep its stored result (Game.replay_round).

Mighty keeps a hand's stored result when the hand is checked into its stored input: its score
depends only on the table and that input. These tests hold the shortcut to playing in full:
from the stored state and from other states before, every golden Mighty round played again
stores the same bytes either way, and a long correction through it stores what a full replay
of the session does, answers, running totals and figures included.
"""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from refapp import stored_json
from refapp.extensions import db
from refapp.games import get_game
from refapp.games.errors import Refusal
from refapp.games.game import Outcome, Table
from refapp.models import GameSession, Round
from refapp.services import later_rounds, replays, stored_rounds
from refapp.services.sessions import table_of

from .figures_support import check
from .stored_oracle import running_series
from .test_corrections_long import FIVE, full_replay, hand, recorded, stored_rows

GOLDEN = Path(__file__).parent / "golden"


def mighty_cases() -> list[Any]:
    """Return the golden Mighty cases whose rounds are all recorded (no refusal, no dry run)."""
    found = []
    for path in sorted(GOLDEN.glob("mighty*.json")):
        for case in json.loads(path.read_text(encoding="utf-8")):
            steps = case.get("rounds", [])
            clean = steps and not any("error" in s or s.get("dry_run") for s in steps)
            if clean and "session_error" not in case:
                found.append(case)
    return found


def stored(sid: int) -> list[later_rounds.StoredRound]:
    """Return a session's rounds as a replay reads them, inputs and results too (app context)."""
    return later_rounds.read_whole(sid, 1, 10**6)


def as_stored(outcome: Outcome) -> tuple[str, str, str]:
    """Return an outcome's input, result and state as the database keeps them."""
    return tuple(
        stored_json.stored(part) for part in (outcome.input, outcome.result, outcome.state)
    )


def in_full(game, table, state, row: later_rounds.StoredRound) -> tuple[str, ...]:
    """Return what playing a stored round's input in full from a state stores."""
    return as_stored(game.play(table, state, row.input))


def again(game, table, state, row: later_rounds.StoredRound) -> tuple[str, ...]:
    """Return what the replay stores of a stored round played again from a state."""
    outcome, texts = replays.played_again(game, table, state, row)
    if texts is None:
        return as_stored(outcome)
    return (*texts, stored_json.stored(outcome.state))


def played(call) -> tuple[str, ...] | str:
    """Return what a play stores, or the code of its refusal."""
    try:
        return call()
    except Refusal as error:
        return error.code


def test_every_golden_mighty_round_played_again_stores_what_playing_in_full_does(api, app):
    kept = 0
    for case in mighty_cases():
        sid = api.create(
            players=case["players"],
            game="mighty",
            rules=case.get("rules", {}),
            **case.get("session", {}),
        )["id"]
        for step in case["rounds"]:
            assert api.record(sid, step["input"]).status_code == 201
        with app.app_context():
            session = db.session.get(GameSession, sid)
            game, table = get_game("mighty"), table_of(session)
            before = dict(session.initial_state)
            for row in stored(sid):
                # the stored state before, then others: another dealer, a free deal, a raised floor
                others = [name for name in table.players if name != before.get("next_dealer")]
                states = [
                    before,
                    {**before, "next_dealer": others[0]},
                    {**before, "next_dealer": None},
                    {**before, "min_bid": 15},
                ]
                for state in states:
                    full = played(partial(in_full, game, table, state, row))
                    assert played(partial(again, game, table, state, row)) == full, (
                        case["id"],
                        row.number,
                        state,
                    )
                    if not isinstance(full, str):
                        kept += replays.played_again(game, table, state, row)[1] is not None
                before = row.state
            db.session.remove()
    assert kept > 50  # the shortcut was taken (most hands of the golden cases, several times)


def test_a_hand_checked_into_another_input_than_the_stored_one_is_scored_again(app):
    game = get_game("mighty")
    table = game.with_house_rules(Table(FIVE, game.resolve_rules({})))
    _, state = game.start(FIVE, dict(table.rules), {})
    first = game.play(table, state, hand("Ann", "Ben"))
    other = hand("Ann", "Ben", against=8)
    again = game.replay_round(table, state, other, first)
    assert again.result is not first.result
    assert as_stored(again) == as_stored(game.play(table, state, other))
    assert again.result["outcome"] == "opposition_win" != first.result["outcome"]
    same = game.replay_round(table, state, hand("Ann", "Ben"), first)
    assert same.result is first.result


@pytest.mark.parametrize("rotation", ["clockwise", "boss_if_won_else_friend"])
def test_a_long_correction_through_kept_results_stores_a_full_replay(api, app, client, rotation):
    # Hands of every kind of score, an all-pass and a misdeal; no later hand names its dealer.
    inputs: list[dict[str, Any]] = [hand("Ann", "Ben", dealer="Eve")]
    for n in range(1, 30):
        boss, friend = FIVE[n % 5], FIVE[(n + 2) % 5]
        inputs.append(hand(boss, friend, against=(3, 8, 7, 0, 12)[n % 5]))
    inputs[10] = {"all_pass": True}
    sid = recorded(api, "mighty", FIVE, {"next_dealer": rotation}, inputs)
    before = stored_rows(app, sid)
    response = api.client.put(
        f"/api/sessions/{sid}/rounds/1", json=hand("Ann", "Ben", dealer="Dee")
    )
    assert response.status_code == 200, response.get_json()
    after = stored_rows(app, sid)
    assert after == full_replay(app, sid)
    assert after != before
    with app.app_context():
        rows = db.session.scalars(
            select(Round).where(Round.session_id == sid).order_by(Round.number)
        ).all()
        players = db.session.get(GameSession, sid).players
        totals = running_series(dict.fromkeys(players, 0), [row.result["deltas"] for row in rows])
        for row, running in zip(rows, totals, strict=True):
            answer = stored_rounds.answer_text(
                row.number, row.input, row.result, row.recorded_at, row.corrected_at
            )
            assert (row.answer, row.running) == (answer, running), row.number
        db.session.remove()
    check(app, client)
