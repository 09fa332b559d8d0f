"""The walk of a recorded Mighty hand: the files a reader follows from the route to the commit.

A file is on the walk when one of its functions calls a function of another refapp file while
the hand is recorded through the API (the route, the service, the game's steps, the commit); a
file only called (a card's name, an option's value) is looked up, not walked through. The walk
is measured with ``sys.setprofile`` and held to a bound, so it cannot grow unnoticed.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import FrameType
from typing import Any

import refapp

ROOT = str(Path(refapp.__file__).parent) + "/"
SEATS = ["Minsu", "Jiwoo", "Eunji", "Hana", "Sora"]
#: two plain hands: the first warms the app, the second is walked (Eunji deals after Minsu)
HANDS = [
    {"dealer": dealer, "contract": {"boss": "Jiwoo", "bid": 14, "trump": "H"},
     "friend": {"card": "JK", "player": "Eunji"}, "opposition_points": 5}
    for dealer in ("Minsu", "Eunji")
]  # fmt: skip
#: the most files a recorded hand walks through (measured: 29 before the round was parsed once, 30
#: since the resting rule reads whether its deal names sitters from the deal itself, 32 since the
#: hot writes send their own statements: the rows read and written, services/rows.py and
#: hot_rows.py, are refapp's code a reader follows where the ORM's flush was SQLAlchemy's; 34
#: since groups: the Host check hands the request to the groups' prefix layer in club.py, and the
#: password guard asks club.py for the group's password)
WALK_MOST = 34


def walked(record: Any) -> dict[str, set[str]]:
    """Return each refapp file that called into another while ``record()`` ran, with its callees."""
    calls: dict[str, set[str]] = {}

    def profile(frame: FrameType, event: str, arg: object) -> None:
        caller = frame.f_back
        if event != "call" or caller is None:
            return
        callee, source = frame.f_code.co_filename, caller.f_code.co_filename
        if callee.startswith(ROOT) and source.startswith(ROOT) and callee != source:
            calls.setdefault(source[len(ROOT) :], set()).add(callee[len(ROOT) :])

    sys.setprofile(profile)
    try:
        record()
    finally:
        sys.setprofile(None)
    return calls


def test_a_recorded_mighty_hand_walks_through_few_files(api):
    session = api.create(SEATS, game="mighty")
    assert api.record(session["id"], HANDS[0]).status_code == 201
    answers: list[Any] = []
    files = walked(lambda: answers.append(api.record(session["id"], HANDS[1])))
    assert answers[0].status_code == 201, answers[0].get_json()
    assert answers[0].get_json()["round"]["number"] == 2
    assert any(name.startswith("games/mighty/") for name in files)  # the rules were walked
    assert len(files) <= WALK_MOST, sorted(files)
