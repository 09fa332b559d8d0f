"""Sentences filled in outside gettext are fitted too: Mighty's dealer hint, the history of
changes, a particle after a bracketed gloss; and the words agree in number with their names
(one winner, several Dixit voters who missed). Korean names of every final-sound class and a
name ending in a digit (Kim7: 칠 takes 이); docs/words.md says which form each takes."""

from __future__ import annotations

import html
import json
import re

import pytest
from flask_babel import force_locale
from sqlalchemy import select

from refapp import particles
from refapp.extensions import db
from refapp.games import GAMES
from refapp.i18n import explain
from refapp.models import Round
from refapp.web.changes import describe_entry, differences, undone

from .conftest import shown

MIGHTY_FIVE = ["민수", "서연", "철", "Kim7", "하늘"]
#: a hand worth 0 or less: eight plain cards, the king of hearts (1) and the joker (-1)
WEAK_HAND = ["S2", "S3", "H4", "H5", "D6", "D7", "C8", "C9", "HK", "JK"]
#: any Korean bracket particle left after a word
BRACKET = re.compile(r"이\(가\)|은\(는\)|을\(를\)|와\(과\)|\(으\)로|\(이\)")


def hand(boss: str, friend: str, dealer: str) -> dict:
    """Return a played Mighty hand at five seats: the boss's 13 spades, the friend by the joker."""
    return {
        "dealer": dealer,
        "contract": {"boss": boss, "bid": 13, "trump": "S"},
        "friend": {"card": "JK", "player": friend},
        "opposition_points": 3,
    }


def page_in(client, path: str, language: str) -> str:
    """Return a page as text read in a language (names unwrapped, entities read)."""
    client.set_cookie("lang", language)
    response = client.get(path)
    assert response.status_code == 200
    return html.unescape(shown(response))


# -- P3: a particle after a gloss ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fitted"),
    [
        ("민수 (총리대신)이(가) 줘요", "민수 (총리대신)가 줘요"),
        ("하늘 (농노)이(가) 줘요", "하늘 (농노)이 줘요"),
        ("지훈 (달무티)은(는)", "지훈 (달무티)은"),
        ("조커(어릿광대)을(를)", "조커(어릿광대)를"),
        ("조커만 2장(13으로 셈, 가장 약함)은(는)", "조커만 2장(13으로 셈, 가장 약함)은"),
        ("5(수녀원장) 1장은(는) 6(기사) 1장을(를)", "5(수녀원장) 1장은 6(기사) 1장을"),
        ("Anna (달무티)이(가)", "Anna (달무티)이(가)"),  # a Latin name's sound is unknown
        ("a (b (c) d)이(가)", "a (b (c) d)이(가)"),
        ("짝 없는)이(가)", "짝 없는)이"),  # no opening bracket: the word itself
    ],
)
def test_a_particle_after_a_gloss_fits_the_word_before_it(text, fitted):
    assert particles.fit(text, "ko") == fitted


# -- P1: the Mighty dealer hint ------------------------------------------------------------------


def test_the_dealer_hint_fits_every_name(api, client):
    sid = api.create(players=MIGHTY_FIVE, game="mighty")["id"]
    assert api.record(sid, hand("민수", "서연", "민수")).status_code == 201
    page = page_in(client, f"/sessions/{sid}", "ko")
    assert "서연이 지난 판의 프렌드(또는 주공)였어요." in page
    throw = {"dealer": "서연", "misdeal": {"player": "철", "hand": WEAK_HAND}}
    assert api.record(sid, throw).status_code == 201, api.session(sid)
    page = page_in(client, f"/sessions/{sid}", "ko")
    assert "지난 판에 철이 파토를 냈어요." in page
    assert api.record(sid, hand("철", "Kim7", "철")).status_code == 201
    page = page_in(client, f"/sessions/{sid}", "ko")
    assert "Kim7이 지난 판의 프렌드(또는 주공)였어요." in page
    hint = page.split("Kim7이 지난 판", 1)[0][-40:]
    assert not BRACKET.search(hint), hint


# -- P2 and P12: the history of changes ----------------------------------------------------------


def test_the_changes_lines_are_fitted(app):
    dalmuti, mighty = GAMES["dalmuti"], GAMES["mighty"]
    with app.test_request_context("/", headers={"Accept-Language": "ko"}), force_locale("ko"):
        (changed,) = differences(dalmuti, {"hands.지훈": [4, 4]}, {"hands.지훈": [4, 5]})
        (gone,) = undone(dalmuti, {"hands.민수": [2, 3]})
    assert str(changed).startswith("<bdi>지훈</bdi>이 ") and "이(가)" not in str(changed)
    assert str(gone).startswith("<bdi>민수</bdi>가 ") and "이(가)" not in str(gone)
    with app.test_request_context("/", headers={"Accept-Language": "hu"}), force_locale("hu"):
        (missed,) = differences(mighty, {"kill.2.misses": ["HA"]}, {"kill.2.misses": ["HK"]})
        (fifth,) = differences(mighty, {"kill.5.misses": ["HA"]}, {"kill.5.misses": ["HK"]})
    assert "a 2. kiütés" in str(missed) and "(z)" not in str(missed)
    assert "az 5. kiütés" in str(fifth)


def test_one_winner_is_a_winner_several_are_winners(app):
    game = GAMES["dixit"]
    entry = {"action": "finish_session", "round": None, "before": None}
    with app.test_request_context("/"):
        one, _ = describe_entry(game, {**entry, "after": {"winners": ["Ann"]}})
        two, _ = describe_entry(game, {**entry, "after": {"winners": ["Ann", "Ben"]}})
    assert one == "Session finished; winner: Ann."
    assert two == "Session finished; winners: Ann, Ben."


# -- P12: Dixit's missed voters ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("finders", "template", "hungarian"),
    [
        (["Ben", "Cy", "Dee"], "{missed} did not find it: 0.", "Eve nem találta meg: 0."),
        (["Ben"], "{missed} did not find it: 0 each.", "Cy, Dee, Eve nem találták meg"),
    ],
)
def test_the_voters_who_missed_agree_in_number(api, app, finders, template, hungarian):
    players = ["Ann", "Ben", "Cy", "Dee", "Eve"]
    sid = api.create(players=players, game="dixit")["id"]
    votes = {name: 1 if name in finders else 2 for name in players[1:]}
    body = {"storyteller": "Ann", "positions": players, "votes": votes}
    assert api.record(sid, body).status_code == 201
    with app.app_context():
        result = db.session.execute(select(Round.result).filter_by(session_id=sid)).scalar_one()
    assert template in [part[0] for part in result["explanation_parts"]]
    with app.test_request_context("/", headers={"Accept-Language": "hu"}):
        assert any(hungarian in line for line in explain(result)), explain(result)


# -- P18 and the check-play verdict: the jester by its word --------------------------------------


@pytest.mark.parametrize(
    ("fields", "language", "words"),
    [
        ({"previous": "1", "play": "J"}, "ko", "조커로는 1을 이길 수 없어요"),
        ({"previous": "1", "play": "J"}, "en", "jester does not beat 1"),
        (
            {"previous": "6", "play": "5"},
            "ko",
            "낼 수 있어요: 5(수녀원장) 1장은 6(기사) 1장을 이겨요.",
        ),
        ({"previous": "7 7", "play": "6 J"}, "hu", "6, bolond (lovag, 2 lap)"),
        ({"play": "J J"}, "ko", "조커만 2장(13으로 셈, 가장 약함)"),
    ],
)
def test_the_jester_is_said_by_its_word_and_no_particle_follows_a_bracket(
    api, client, fields, language, words
):
    sid = api.create(players=["민수", "서연", "철", "지훈"], game="dalmuti")["id"]
    client.set_cookie("lang", language)
    response = client.post(f"/sessions/{sid}/check-play", data=fields)
    page = html.unescape(shown(response))
    assert words in page, re.sub(r"\s+", " ", page)[-3000:]
    assert not re.search(r"\bJ\b(?:\(|을|를|로|으)", page)
    assert not BRACKET.search(page.split('id="verdict"', 1)[-1][:600])


# -- P11: the offline queue's words need no article ----------------------------------------------


def test_the_queue_words_hold_no_article_for_the_script_to_leave(client):
    page = page_in(client, "/", "hu")
    held = re.search(r'data-queue-held="([^"]*)"', page)
    discard = re.search(r'data-queue-discard="([^"]*)"', page)
    assert held and discard
    assert "(z)" not in held.group(1) + discard.group(1)
    assert held.group(1).startswith("{n}. forduló") and discard.group(1).startswith("{n}.")


def test_a_corrections_next_dealer_hint_is_fitted_for_each_name(api, client):
    sid = api.create(players=MIGHTY_FIVE, game="mighty")["id"]
    assert api.record(sid, hand("민수", "서연", "민수")).status_code == 201
    assert api.record(sid, hand("철", "하늘", "서연")).status_code == 201
    page = page_in(client, f"/sessions/{sid}/rounds/1/edit", "ko")
    found = re.search(r"data-follow-hints='([^']*)'", page)
    assert found, "the next round's dealer box carries a hint per name"
    hints = json.loads(found.group(1))
    assert set(hints) == set(MIGHTY_FIVE)
    assert hints["서연"].startswith("서연이 지난 판의 프렌드(또는 주공)였어요.")
    assert hints["철"].startswith("철이 지난 판의") and hints["Kim7"].startswith("Kim7이 ")
    assert not any(BRACKET.search(hint.split(" 지난", 1)[0]) for hint in hints.values())
