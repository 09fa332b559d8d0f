"""Refusals whose values are lists of names, read through the API in English, Korean and
Hungarian: the names are listed as each language lists them ("Ann and Bob", "민수와 철이",
"Ági és Zsófi"), never as Python prints a list, never joined by "&", and a particle after the
last name fits it (docs/words.md, "Particles that fit the name")."""

from __future__ import annotations

import re

import pytest

#: text a sentence must not hold once its list is written: Python's list, the old joiner, and a
#: Korean bracket particle left after a Hangul name (every name below is Hangul in Korean)
NEVER = ("[", "]", "&", "(가)", "(이)", "(과)", "(와)", "(는)", "(을)", "(를)", "(z)")
#: seven seats as Korean and Hungarian tables name them (final-sound classes mixed)
KOREAN_SEVEN = ["민수", "서연", "철", "지훈", "하늘", "은정", "영일"]
HUNGARIAN_SEVEN = ["Ági", "Imre", "Zsófi", "Kovács Péter", "Bence", "Ödön", "Éva"]
ENGLISH_SEVEN = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]
SEVEN_BY_LANGUAGE = {"en": ENGLISH_SEVEN, "ko": KOREAN_SEVEN, "hu": HUNGARIAN_SEVEN}
#: the sentence each language must say (boss and friend of hand 1 rest, two others named)
SEVEN_SAYS = {
    "en": ("Ann and Cy both rest, not Bob and Dee",),
    "ko": ("민수와 철이 쉬어요", "서연과 지훈이 아니에요"),
    "hu": ("Ági és Zsófi pihennek, nem Imre és Kovács Péter",),
}


def refusal(client, sid: int, body: dict, language: str) -> dict:
    """Post a round in a language and return its refusal (asserting it is one)."""
    response = client.post(
        f"/api/sessions/{sid}/rounds", json=body, headers={"Accept-Language": language}
    )
    assert response.status_code in (400, 422), response.get_json()
    return response.get_json()["error"]


def played(names: list[str], boss: int, friend: int, **extra) -> dict:
    """Return a played Mighty hand: boss and friend by seat, 4 opposition point cards."""
    return {
        "contract": {"boss": names[boss], "bid": 15, "trump": "H"},
        "friend": {"card": "SA", "player": names[friend]},
        "opposition_points": 4,
        **extra,
    }


def seven_seats(api, names: list[str]) -> int:
    """Start a seven-seat Mighty session where the previous boss and friend rest."""
    rules = {"seven_player_rule": "ruling_side_sits_out"}
    return api.create(players=names, game="mighty", rules=rules)["id"]


def clean(message: str, listed: bool = False) -> None:
    """Fail on any list syntax, "&" or unfitted particle in a message; where it lists what the
    entry sent, on a quote mark too (a single value is quoted: 'Eve')."""
    for bad in NEVER:
        assert bad not in message, (bad, message)
    if listed:  # an opening quote mark: after a space or a bracket (English "hand's" is no quote)
        assert not re.search(r"(^|[\s(])'", message), message


@pytest.mark.parametrize("language", ["en", "ko", "hu"])
def test_seven_seats_wrong_sitters_are_listed_as_the_language_lists_names(api, client, language):
    names = SEVEN_BY_LANGUAGE[language]
    sid = seven_seats(api, names)
    first = played(names, 0, 2, sits_out=[names[5], names[6]])
    assert api.record(sid, first).status_code == 201  # seats 0 and 2 rest the next hand
    error = refusal(client, sid, played(names, 3, 4, sits_out=[names[3], names[1]]), language)
    assert error["code"] == "wrong_sitter"
    clean(error["message"], listed=True)
    assert not any(f"'{name}" in error["message"] for name in names)  # names, not input
    for words in SEVEN_SAYS[language]:
        assert words in error["message"], error["message"]


@pytest.mark.parametrize("language", ["en", "ko", "hu"])
def test_three_sitters_at_seven_seats_are_listed_never_as_code(api, client, language):
    names = SEVEN_BY_LANGUAGE[language]
    sid = seven_seats(api, names)
    three = played(names, 0, 2, sits_out=names[4:7])
    error = refusal(client, sid, three, language)
    assert error["code"] == "wrong_sitter"
    clean(error["message"], listed=True)
    assert all(name in error["message"] for name in names[4:7]), error["message"]
    joined = {"en": f"{names[5]} and {names[6]}", "ko": f"{names[5]}, {names[6]}"}
    joined["hu"] = f"{names[5]} és {names[6]}"
    assert joined[language] in error["message"], error["message"]


@pytest.mark.parametrize("language", ["en", "ko", "hu"])
def test_six_seats_a_wrong_sitter_is_named_and_fitted(api, client, language):
    names = SEVEN_BY_LANGUAGE[language][:6]
    sid = api.create(players=names, game="mighty", rules={"six_player_rule": "dealer_sits_out"})[
        "id"
    ]
    body = played(names, 1, 2, dealer=names[0], sits_out=names[3])
    error = refusal(client, sid, body, language)
    assert error["code"] == "wrong_sitter"
    clean(error["message"])
    assert names[0] in error["message"] and names[3] in error["message"]
    if language == "ko":
        assert "민수가" in error["message"] or "민수는" in error["message"], error["message"]


@pytest.mark.parametrize(("seats", "rules"), [(6, {}), (7, {}), (5, {})])
def test_nobody_rests_says_every_seat_takes_part(api, client, seats, rules):
    names = ENGLISH_SEVEN[:seats]
    sid = api.create(players=names, game="mighty", rules=rules)["id"]
    rested = api.session(sid)["rules"]
    if seats > 5:  # the table of this size kills (6마, 7마) by default: nobody rests
        assert "kill" in rested.values(), rested
    body = played(names, 0, 1, sits_out=names[-1])
    error = refusal(client, sid, body, "en")
    assert error["code"] == "wrong_sitter"
    assert f"all {seats} players" in error["message"], error["message"]
    assert (seats > 5) == ("the boss kills" in error["message"]), error["message"]
    clean(error["message"])
