"""A round without scrolling: each kind of round entered by taps at 390x844, in three languages.

From the page as it opens after the previous round, every control the round needs is on the
screen when it is tapped (no search), no key is pressed, and the taps stay within the targets;
the stored round is read back through the API. A returning table starts with no typing, and a
two-round correction takes six taps and one search (round 1 in the history).
"""

from __future__ import annotations

import pytest

from . import browser_support
from .table_rounds import KINDS

#: measures the page on the phone, whatever the database
pytestmark = pytest.mark.layout

chromium, live_csrf, table_phone = (
    browser_support.chromium,
    browser_support.live_csrf,
    browser_support.table_phone,
)

#: the most taps each kind of round may take (the record button included)
TARGETS = {
    "mighty plain": 8,
    # a 6마 hand: the plain hand and its kill, at most 2 taps more (the card named, its holder)
    "mighty 6마": 10,
    "mighty 7마": 12,
    "mighty 6 resting": 8,
    "dixit 5p": 9,
    "dalmuti 6p-tax": 7,
    "mighty correction-2": 6,
    "setup returning": 2,
}
#: the searches off-screen each kind may need: finding round 1 in the history is one
SEARCHES = {"mighty correction-2": 1}
LANGUAGES = ["en", "ko", "hu"]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", list(KINDS))
def test_a_round_fits_the_screen(table_phone, kind, lang):
    count, session = KINDS[kind](table_phone, lang)
    most = SEARCHES.get(kind, 0)
    assert count.scrolls <= most, f"{kind} ({lang}): off screen when tapped: {count.off_screen}"
    assert count.typed == 0
    assert count.taps <= TARGETS[kind], count.line()
    if kind in ("setup returning", "mighty correction-2"):
        return  # their drivers check the stored session themselves
    assert len(session["rounds"]) == 2
    entered = session["rounds"][1]["input"]
    if kind.startswith("mighty"):
        assert entered["contract"] == {"boss": "Seoyeon", "bid": 15, "trump": "S"}
        friend_card = "DK" if kind == "mighty 7마" else "DA"  # the mighty (DA) killed Yuna
        assert entered["friend"] == {"card": friend_card, "player": "Minsu"}
        assert entered["opposition_points"] == 7
        result = session["rounds"][1]["result"]
        if kind == "mighty 6마":
            assert entered["kill"] == {"card": "JK", "player": "Hyunwoo"}
            assert result["killed"] == ["Hyunwoo"] and result["deltas"]["Hyunwoo"] == 0
        if kind == "mighty 7마":
            assert entered["kill"] == [
                {"card": "JK", "player": "Hyunwoo"},
                {"card": "DA", "player": "Yuna"},
            ]
            assert result["killed"] == ["Hyunwoo", "Yuna"]
        if kind == "mighty 6 resting":
            assert result["resting"] == ["Eunji"] and result["deltas"]["Eunji"] == 0
        assert sum(result["deltas"].values()) == 0
    elif kind == "dixit 5p":
        assert entered["storyteller"] == "Ben"
        assert entered["positions"] == ["Cy", "Ben", "Dee", "Eve", "Ann"]
        assert entered["votes"] == {"Ann": 2, "Cy": 2, "Dee": 1, "Eve": 5}
    else:
        assert entered["tribute"] == {"paid": True}
        assert entered["finish_order"] == ["Cy", "Ann", "Fay", "Ben", "Dee", "Eve"]
