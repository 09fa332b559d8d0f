"""Mighty's rounds a table plays every few hands, on the phone at 390x844 in three languages: what
the auction's end shows, a misdeal's cards one chip away, the line, the 7마 greying and the
corrections that fill the next dealer (their kinds' targets: tests/test_e2e_table_rounds.py).
"""

from __future__ import annotations

import pytest

from . import browser_support
from .table_rounds import MIGHTY, MIGHTY_SEVEN, MIGHTY_SIX, Table, chip, open_session
from .table_rounds_mighty import FIRST

#: the hands recorded before a six- and a seven-seat hand (their kills named by the joker)
SIX_FIRST = {**FIRST, "kill": {"card": "JK", "player": "Jihun"}}
SIX_FIRST["friend"] = {"card": "SA", "player": "Eunji"}
SEVEN_FIRST = {**FIRST, "friend": {"card": "HA", "player": "Eunji"}}
SEVEN_FIRST["kill"] = [{"card": "JK", "player": "Jihun"}, {"card": "SA", "player": "Yuna"}]

pytestmark = pytest.mark.layout

chromium, live_csrf, table_phone = (
    browser_support.chromium,
    browser_support.live_csrf,
    browser_support.table_phone,
)
LANGUAGES = ["en", "ko", "hu"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_after_the_last_pass_the_contract_is_open_on_screen(table_phone, lang):
    """D6: the auction's last pass opens the contract, prefilled with the winning bid, and its
    controls are on the screen; the auction stays one tap away on the composer's line."""
    phone = table_phone
    open_session(phone, "mighty", MIGHTY, [FIRST], lang)
    table = Table(phone, "D6")
    page = phone.page
    table.tap(".composer-more [data-goto='auction']")
    table.send("#auction button[name=action][value=bid_S_14]")
    assert page.locator("#auction .mighty-pass-rest").is_visible()
    table.send("#auction .mighty-pass-rest")
    contract = page.locator("#contract")
    assert "composer-current" in (contract.get_attribute("class") or "")
    assert contract.is_visible() and not page.locator("#auction .mighty-bids").is_visible()
    assert page.locator("#boss").input_value() == "Eunji"
    assert page.locator("#contract_bid").input_value() == "14"
    for selector in (
        ".mighty-names[data-for='contract_bid'] button[data-value='15']",
        "#contract label.mighty-chip[data-short='♠']",
    ):
        assert page.locator(selector).evaluate(
            "node => { const box = node.getBoundingClientRect();"
            " return box.top >= 0 && box.bottom <= innerHeight; }"
        ), selector
    # the auction's piece on the line opens it again, and it stays open
    table.tap(".composer-line [data-goto='auction']")
    page.wait_for_timeout(100)
    assert page.locator("#auction").evaluate("node => node.classList.contains('composer-current')")
    assert table.count.scrolls == 0, table.count.off_screen


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_misdeals_cards_are_one_chip_away_and_checked(table_phone, lang):
    """The cards of a misdeal stay one chip away: tapped, they are checked as usual."""
    phone = table_phone
    sid = open_session(phone, "mighty", MIGHTY, [FIRST], lang)
    table = Table(phone, "misdeal cards")
    table.tap(".composer-more [data-goto='misdeal']")
    table.tap(".mighty-names[data-for='misdeal_player'] button[data-value='Seoyeon']")
    table.tap(".mighty-misdeal-cards > summary")
    high = ["SA", "SK", "SQ", "SJ", "S10", "HA", "HK", "HQ", "HJ", "H10"]
    for card in high:
        phone.page.locator(f"[data-deal-card='{card}']").click()
    table.send("#round-form button[name=action][value=misdeal_shown]", status=422)
    assert phone.session(sid)["rounds_total"] == 1
    assert phone.page.locator(".mighty-misdeal-cards").evaluate("node => node.open")


def line_text(page) -> str:
    """Return the composer's line as the table reads it (once the composer has drawn it)."""
    page.wait_for_timeout(100)
    return " | ".join(page.locator(".composer-line button").all_inner_texts())


def test_the_line_says_where_the_mighty_and_joker_ended_and_the_kills_misses(table_phone):
    phone = table_phone
    open_session(phone, "mighty", MIGHTY_SIX, [SIX_FIRST], "en")
    page = phone.page
    table = Table(phone, "line")
    for selector in (
        chip("boss", "Seoyeon"),
        chip("contract_bid", "15"),
        "#contract label.mighty-chip[data-short='♥']",
        "#kill [data-mighty-picker] [data-pick='mighty']",
        "#kill [data-kill-miss]",
        "#kill [data-mighty-picker] [data-pick='joker']",
        chip("kill_player", "Hyunwoo"),
    ):
        table.tap(selector)
    assert "Hyunwoo killed by Joker (missed ♠A)" in line_text(page)
    table.tap(".composer-more [data-goto='holders']")
    table.tap(".mighty-names[data-for='mighty_holder'] button[data-value='opposition']")
    table.tap(".mighty-names[data-for='joker_holder'] button[data-value='kitty']")
    assert "mighty: Opposition (야당) · joker: Kitty (바닥패), buried" in line_text(page)
    assert "Where the mighty" not in line_text(page)


def test_a_card_that_killed_is_greyed_for_the_second_kill(table_phone):
    phone = table_phone
    open_session(phone, "mighty", MIGHTY_SEVEN, [SEVEN_FIRST], "en")
    page = phone.page
    table = Table(phone, "7마")
    for selector in (
        chip("boss", "Seoyeon"),
        chip("contract_bid", "15"),
        "#contract label.mighty-chip[data-short='♥']",
        "#kill [data-mighty-picker] [data-pick='mighty']",
        chip("kill_player", "Hyunwoo"),
    ):
        table.tap(selector)
    page.locator("#kill2.composer-current").wait_for()
    assert page.locator("#kill2 [data-mighty-picker] [data-pick='mighty']").is_disabled()
    assert page.locator("#kill2 [data-mighty-picker] [data-pick='joker']").is_enabled()
    table.tap("#kill2 [data-mighty-picker] [data-suit='S']")
    assert page.locator("#kill2 [data-mighty-picker] [data-rank='A']").is_disabled()
    assert page.locator("#kill2 [data-mighty-picker] [data-rank='K']").is_enabled()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_correction_that_moves_the_next_dealer_fills_it_in(table_phone, lang):
    """D8: round 1's friend corrected moves round 2's dealer (the last hand's friend deals):
    the next round's dealer and hint follow at once, both are saved, nothing is refused."""
    phone = table_phone
    hands, dealer = [], "Minsu"
    for friend in ("Seoyeon", "Jiwoo", "Hyunwoo"):
        hands.append({**FIRST, "dealer": dealer, "friend": {"card": "JK", "player": friend}})
        dealer = friend
    sid = open_session(phone, "mighty", MIGHTY, hands, lang)
    page = phone.page
    table = Table(phone, "mighty correction-2")
    fix = "#main .correction .mighty-names[data-for='fix-{}'] button[data-value='{}']"
    table.tap("#round-1 a[data-correct]")
    page.locator("#round-1 .correction form").wait_for()
    table.tap("#main .correction .composer-line button[data-goto='friend']")
    table.tap(fix.format("friend_player", "Eunji"))
    assert page.locator("#main .correction select[name='fix-next-dealer']").input_value() == "Eunji"
    hint = page.locator("#main .correction .next-round .mighty-dealer p.hint").text_content()
    assert "Eunji" in hint and "Seoyeon" not in hint
    assert page.locator("#main .correction input[name=also_next]").is_checked()
    table.send("#main .correction .record-bar button[value=record]")
    count = table.done()
    session = phone.session(sid)
    assert session["rounds"][0]["input"]["friend"]["player"] == "Eunji"
    assert session["rounds"][1]["input"]["dealer"] == "Eunji"
    assert count.refusals == 0 and count.taps <= 5, count.line()
    print(f"{lang} {count.line()}")


def test_a_dealer_the_page_cannot_tell_is_refused_by_its_field_without_a_stale_hint(table_phone):
    """After a loss the friend deals (boss_if_won_else_friend): the page cannot score the hand,
    so the next round's dealer is not filled in; the refusal names who deals, and the next
    round's hint no longer names the old friend."""
    phone = table_phone
    rules = {"next_dealer": "boss_if_won_else_friend"}
    hands, dealer = [], "Minsu"
    for friend in ("Seoyeon", "Jiwoo"):
        lost = {**FIRST, "dealer": dealer, "friend": {"card": "JK", "player": friend}}
        hands.append({**lost, "opposition_points": 10})  # n = 10 < 14: the friend deals next
        dealer = friend
    sid = open_session(phone, "mighty", MIGHTY, hands, "en", rules)
    page = phone.page
    table = Table(phone, "refused")
    fix = "#main .correction .mighty-names[data-for='fix-{}'] button[data-value='{}']"
    table.tap("#round-1 a[data-correct]")
    page.locator("#round-1 .correction form").wait_for()
    table.tap("#main .correction .composer-line button[data-goto='friend']")
    table.tap(fix.format("friend_player", "Eunji"))
    next_dealer = page.locator("#main .correction select[name='fix-next-dealer']")
    assert next_dealer.input_value() == "Seoyeon"
    table.send("#main .correction .record-bar button[value=record]", status=422)
    hint = page.locator("#main .correction .next-round .mighty-dealer").text_content()
    assert "Eunji deals this hand" in hint and "Seoyeon deals" not in hint
    table.tap(fix.format("next-dealer", "Eunji"))
    table.send("#main .correction .record-bar button[value=record]")
    rounds = phone.session(sid)["rounds"]
    assert rounds[0]["input"]["friend"]["player"] == "Eunji"
    assert rounds[1]["input"]["dealer"] == "Eunji"
