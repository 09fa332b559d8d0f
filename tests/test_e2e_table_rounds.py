"""Each kind of round entered by taps at 390x844, in three languages, on the page a table has
just after recording the round before it (the banner shown): every control the round needs is on
the screen when it is tapped (no search beyond its target's), no key is pressed, and the taps and
the model's seconds stay within the kind's targets. Each driver checks the round it stored.
"""

from __future__ import annotations

import pytest

from . import browser_support
from .table_rounds import KINDS, TARGETS

#: measures the page on the phone, whatever the database
pytestmark = pytest.mark.layout

chromium, live_csrf, table_phone = (
    browser_support.chromium,
    browser_support.live_csrf,
    browser_support.table_phone,
)
LANGUAGES = ["en", "ko", "hu"]


def test_every_kind_has_a_target():
    assert set(KINDS) == set(TARGETS)
    assert {"mighty plain", "mighty 6p-kill", "dixit 5p", "dalmuti 6p-tax"} <= set(KINDS)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", list(KINDS))
def test_a_round_fits_the_screen_and_its_targets(table_phone, kind, lang):
    count, _session = KINDS[kind](table_phone, lang)
    taps, scrolls, seconds = TARGETS[kind]
    where = f"{kind} ({lang})"
    assert count.scrolls <= scrolls, f"{where}: off screen when tapped: {count.off_screen}"
    assert count.typed == 0, f"{where}: {count.line()}"
    assert count.taps <= taps, f"{where}: {count.line()}"
    assert count.seconds <= seconds, f"{where}: {count.line()}"
