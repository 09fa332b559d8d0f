"""The evening's Dixit and Dalmuti rounds at 390x844 in three languages, held to their targets."""

from __future__ import annotations

import pytest

from . import browser_support
from .table_rounds_cards import KINDS, TARGETS

#: measures the page on the phone, whatever the database
pytestmark = pytest.mark.layout

chromium, live_csrf, table_phone = (
    browser_support.chromium,
    browser_support.live_csrf,
    browser_support.table_phone,
)
LANGUAGES = ["en", "ko", "hu"]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", list(KINDS))
def test_each_kind_within_its_targets(table_phone, kind, lang):
    count, _session = KINDS[kind](table_phone, lang)  # the driver checks the stored round
    taps, scrolls, seconds = TARGETS[kind]
    print(count.line(), f"[{lang}]")
    assert count.scrolls <= scrolls, f"{kind} ({lang}): off screen: {count.off_screen}"
    assert count.typed == 0
    assert count.taps <= taps and count.seconds <= seconds, count.line()
