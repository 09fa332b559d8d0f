"""Each Mighty rule fact lives once in the rules: what reads it agrees with it."""

from __future__ import annotations

import pytest

from refapp.games.mighty.cards import POINT_CARDS
from refapp.games.mighty.scoring.score import BACK_RUN_MOST

from .support import hand, play, table


@pytest.mark.parametrize("when", sorted(BACK_RUN_MOST))
def test_the_back_run_explanation_names_the_threshold_that_decided_it(when):
    most = BACK_RUN_MOST[when]
    tab = table(back_run_when=when)
    at_most = play(hand(18, "H", POINT_CARDS - most), tab).result
    assert at_most["back_run"] is True
    assert f"took only {most} point cards ({most} or fewer)" in " ".join(at_most["explanation"])
    assert play(hand(18, "H", POINT_CARDS - most - 1), tab).result["back_run"] is False
