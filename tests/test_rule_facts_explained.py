"""Each rule fact lives once: a round's explanation states the numbers the rules compute.

For every seat count a game allows (Mighty at four to seven seats, six and seven with a kill or
a resting rule; Dixit and Dalmuti across their ``player_range``) a round is dry-run through the
API and every number in its English explanation is matched with what the rules' own functions
give for that round: Mighty's ``deal_for``, ``win_base`` and ``share``; Dixit's
``found_points`` and ``vote_bonus``; Dalmuti's ``tribute_due`` and ``points``. A number the
rules do not give fails, and so does a sentence whose number drifted from the rules.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from itertools import pairwise

import pytest

from refapp.games import GAMES
from refapp.games.dalmuti.scoring import points as dalmuti_points
from refapp.games.dalmuti.tax import tribute_due
from refapp.games.dixit.deck import cards_laid
from refapp.games.dixit.scoring import found_points, vote_bonus, votes_drawn
from refapp.games.game import Table
from refapp.games.mighty.cards import POINT_CARDS
from refapp.games.mighty.house_rules.rules import MightyRules
from refapp.games.mighty.scoring.score import share, win_base
from refapp.games.mighty.seats.deal import deal_for

#: names without digits, so every number in a sentence is a rule's
NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu"]
#: the ways six and seven may play: kills (6마, 7마), or five play while the others rest
KILLS = {"six_player_rule": "kill", "seven_player_rule": "kill"}
RESTS = {"six_player_rule": "dealer_sits_out", "seven_player_rule": "ruling_side_sits_out"}
MIGHTY_TABLES = [(4, KILLS), (5, KILLS), (6, KILLS), (7, KILLS), (6, RESTS), (7, RESTS)]
#: the seat counts said in words ("the dealer rests at a table of six")
SEAT_WORDS = {6: "six", 7: "seven"}
#: a Mighty hand the friend wins with the mighty: no double, so m is the base; cards without
#: digits in their names, so every number said is the hand's
BID, OPPOSITION = 15, 4
CONTRACT = {"boss": "Cy", "bid": BID, "trump": "H"}
#: the cards the boss kills with at six (one) and seven (two): neither is a point of the hand
KILL_CARDS = ("JK", "HA")
#: Dixit's tables: the default range, then the wider ranges of its two house rules
DIXIT_RULES = ({}, {"two_votes_large_game": True}, {"large_table": True})
DALMUTI_RULES = ({}, {"allow_any_count": True})
#: English ordinals of the places a table of up to twelve finishes in
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}
#: a tribute card every role may give: the 12s are the most plentiful rank
TRIBUTE_CARD = 12


def seat_range(slug: str, rules: Mapping[str, object]) -> range:
    """Return every seat count the game allows under these rules."""
    low, high = GAMES[slug].player_range(GAMES[slug].house_rules(rules))
    return range(low, high + 1)


def dry_run(api, slug: str, players: list[str], rules: dict, body: dict) -> tuple[dict, dict]:
    """Dry-run one round at a new table; return the table's rules and the round's result."""
    created = api.create(players=players, game=slug, rules=rules)
    response = api.record(created["id"], body, dry_run=True)
    assert response.status_code == 200, response.get_json()
    return created["rules"], response.get_json()["round"]["result"]


def strays(lines: list[str], stated: set[int]) -> list[str]:
    """Return each number in the lines that the rules do not give for this round."""
    return [n for line in lines for n in re.findall(r"\d+", line) if int(n) not in stated]


def checked(lines: list[str], stated: set[int], sentences: list[str]) -> None:
    """Assert every number said is one the rules give, and each sentence is said as given."""
    assert not strays(lines, stated), strays(lines, stated)
    text = "\n".join(lines)
    for sentence in sentences:
        assert sentence in text, (sentence, lines)


# -- Mighty ------------------------------------------------------------------------------------


def mighty_hand(seats: int, rules: Mapping[str, object]) -> dict:
    """Return the hand played at this table: a kill for each the deal asks, a rest named."""
    deal = deal_for(MightyRules(rules), seats)
    body = {
        "dealer": "Ann",
        "contract": CONTRACT,
        "friend": {"card": "SA", "player": "Dee"},
        "opposition_points": OPPOSITION,
    }
    killed = [
        {"card": card, "player": name} for card, name in zip(KILL_CARDS, NAMES[4:], strict=False)
    ]
    if deal.kills == 1:
        body["kill"] = killed[0]
    elif deal.kills:
        body["kill"] = killed[: deal.kills]
    if deal.sitters == 2:  # the first hand at seven: the table names who rests
        body["sits_out"] = NAMES[4:6]
    return body


def mighty_expected(rules: Mapping[str, object], seats: int, result: dict) -> tuple[set, list]:
    """Return the numbers the rules give for the hand and the sentences that must say them."""
    house = MightyRules(rules)
    deal = deal_for(house, seats)
    taken = POINT_CARDS - OPPOSITION
    base, _words = win_base(house["win_formula"], BID, taken, house["min_bid"])
    assert result["multipliers"] == [], "the hand was chosen to have no double"
    out = set(result.get("killed", [])) | set(result.get("resting", []))
    assert len(out) == deal.kills + deal.sitters  # the deal says who is out, the hand names them
    playing = [name for name in NAMES[:seats] if name not in out]
    assert len(playing) == deal.active_count
    deltas = share(playing, "Cy", "Dee", base)
    assert {name: result["deltas"][name] for name in playing} == deltas
    against = next(name for name in playing if name not in ("Cy", "Dee"))
    stated = {BID, OPPOSITION, POINT_CARDS, taken, base, BID - base, 0}
    stated |= {abs(delta) for delta in deltas.values()}
    sentences = [
        f"The opposition took {OPPOSITION} point cards, so the ruling side has "
        f"n = {POINT_CARDS} - {OPPOSITION} = {taken}.",
        f"{taken} > {BID}: the ruling side wins.",
        f"Base {base} = {BID} - {BID - base}; m = {base}.",
        f"Cy (boss) +{deltas['Cy']}, Dee (friend) +{deltas['Dee']}",
        f"(opposition) {deltas[against]} each.",
    ]
    sentences += [
        f"{name} is killed, out of the hand, and scores 0." for name in result.get("killed", [])
    ]
    if deal.sitters == 1:
        sentences.append(f"(the dealer rests at a table of {SEAT_WORDS[seats]}) and scores 0.")
    return stated, sentences


@pytest.mark.parametrize(("seats", "rules"), MIGHTY_TABLES)
def test_a_mighty_explanation_states_what_the_rules_compute(api, seats, rules):
    body = mighty_hand(seats, rules)
    house, result = dry_run(api, "mighty", NAMES[:seats], rules, body)
    stated, sentences = mighty_expected(house, seats, result)
    checked(result["explanation"], stated, sentences)


def test_a_drifted_mighty_explanation_fails_the_check(api):
    house, result = dry_run(api, "mighty", NAMES[:6], KILLS, mighty_hand(6, KILLS))
    stated, sentences = mighty_expected(house, 6, result)
    lines = result["explanation"]
    checked(lines, stated, sentences)
    for old, new in (("= 16.", "= 17."), ("- 10;", "- 9;"), ("+10,", "+5,"), ("scores 0", "-5")):
        drifted = [line.replace(old, new) for line in lines]
        assert drifted != lines, old
        with pytest.raises(AssertionError):
            checked(drifted, stated, sentences)


# -- Dixit -------------------------------------------------------------------------------------


def dixit_turn(players: list[str]) -> dict:
    """Return a turn where the first voter finds the card and each other votes for the card of
    the voter before them: some find it, so every kind of point is said."""
    storyteller, *voters = players
    laid = [owner for owner in voters for _card in range(cards_laid(len(players)))]
    positions = [*laid[:1], storyteller, *laid[1:]]  # the storyteller's card at position 2
    first = {owner: positions.index(owner) + 1 for owner in voters}
    votes = {voters[0]: 2} | {voter: first[before] for before, voter in pairwise(voters)}
    return {"storyteller": storyteller, "positions": positions, "votes": votes}


def dixit_expected(rules: Mapping[str, object], players: list[str], turn: dict) -> tuple:
    """Return the numbers Dixit's rules give for the turn and the sentences that must say them."""
    table = Table(tuple(players), rules)
    storyteller = turn["storyteller"]
    voters = [p for p in players if p != storyteller]
    answer = turn["positions"].index(storyteller) + 1
    votes = {voter: [number] for voter, number in turn["votes"].items()}
    finders = [v for v in voters if answer in votes[v]]
    found, outcome = found_points(table, storyteller, voters, finders)
    assert outcome == "some_found"
    drawn = votes_drawn(storyteller, voters, turn["positions"], votes)
    bonus, capped = vote_bonus(table, voters, drawn)
    per_vote = {owner: bonus[owner] for _voter, owner, _number in drawn}
    stated = {answer, len(finders), len(voters), found[storyteller], 0}
    stated |= {number for _voter, _owner, number in drawn} | set(bonus.values())
    stated |= {found[storyteller] + 1}  # a finder's points with Odyssey's single vote
    sentences = [
        f"{storyteller} was the storyteller; their card was at position {answer}.",
        f"({len(finders)} of {len(voters)} voters): {storyteller} +{found[storyteller]} and "
        f"each finder +{found[finders[0]]}.",
    ]
    for voter, owner, number in drawn:
        assert per_vote[owner] == len([d for d in drawn if d[1] == owner]) or capped
        sentences.append(f"{voter} voted for {owner}'s card (position {number}): +1 to {owner}.")
    return stated | {1}, sentences


def dixit_lines(api, rules: dict, seats: int) -> tuple[list[str], set[int], list[str]]:
    """Dry-run the turn at this many seats; return its lines, numbers and sentences."""
    players = NAMES[:seats]
    turn = dixit_turn(players)
    house, result = dry_run(api, "dixit", players, rules, turn)
    stated, sentences = dixit_expected(house, players, turn)
    stated |= {abs(delta) for delta in result["deltas"].values()}
    return result["explanation"], stated, sentences


def one_vote_point(rules: Mapping[str, object], players: list[str]) -> int:
    """Return what one vote for a player's card is worth, as ``vote_bonus`` computes it."""
    table = Table(tuple(players), rules)
    bonus, _capped = vote_bonus(table, players[1:], [(players[1], players[2], 1)])
    return bonus[players[2]]


@pytest.mark.parametrize("rules", DIXIT_RULES)
def test_a_dixit_explanation_states_what_the_rules_compute(api, rules):
    for seats in seat_range("dixit", rules):
        lines, stated, sentences = dixit_lines(api, rules, seats)
        assert one_vote_point(rules, NAMES[:seats]) == 1  # "+1 to {owner}" for each vote
        checked(lines, stated, sentences)


def test_a_drifted_dixit_explanation_fails_the_check(api):
    lines, stated, sentences = dixit_lines(api, {}, 5)
    checked(lines, stated, sentences)
    for old, new in (("+3 and", "+2 and"), ("finder +3", "finder +4"), ("position 2.", "pos 9.")):
        drifted = [line.replace(old, new) for line in lines]
        assert drifted != lines, old
        with pytest.raises(AssertionError):
            checked(drifted, stated, sentences)


# -- Dalmuti -----------------------------------------------------------------------------------


def ordinal(place: int) -> str:
    """Return a place as the English explanation writes it: 1st, 2nd, 3rd, 4th ..."""
    return ORDINALS.get(place, f"{place}th")


def dalmuti_lines(api, rules: dict, seats: int) -> tuple[list[str], set[int], list[str]]:
    """Dry-run a first hand at this many seats, its tribute as due; return its lines, the
    numbers the rules give and the sentences that must say them."""
    players = NAMES[:seats]
    house = GAMES["dalmuti"].house_rules(rules)
    due = tribute_due(players, house, 0)
    tribute = {item["role"]: [TRIBUTE_CARD] * item["count"] for item in due}
    body = {"tribute": tribute, "finish_order": players} if tribute else {"finish_order": players}
    table_rules, result = dry_run(api, "dalmuti", players, rules, body)
    scoring = str(table_rules["scoring"])
    earned = {name: dalmuti_points(place, seats, scoring) for place, name in enumerate(players, 1)}
    assert result["points"] == earned
    stated = {seats, TRIBUTE_CARD, 0} | {item["count"] for item in due}
    stated |= set(range(1, seats + 1)) | set(earned.values())  # places, players below
    deltas = ", ".join(
        f"{name} {points:+d}" if points else f"{name} 0" for name, points in earned.items()
    )
    sentences = [f"This hand: {deltas}."]
    for place, name in enumerate(players, 1):
        went = "finished last, " if place == seats else "went out "
        sentences.append(f"{name} {went}{ordinal(place)} of {seats}")
        below = seats - place
        if scoring != "role_chips" and below:
            unit = "player" if below == 1 else "players"
            sentences.append(f"{below} {unit} finished below: {earned[name]} point")
    return result["explanation"], stated, sentences


def dalmuti_tribute_said(lines: list[str], seats: int, rules: dict) -> None:
    """Assert each tribute line names as many cards as ``tribute_due`` asks of its giver."""
    due = tribute_due(NAMES[:seats], GAMES["dalmuti"].house_rules(rules), 0)
    said = [line for line in lines if line.startswith("Tax: ")]
    assert len(said) == len(due), (due, said)
    for item in due:
        (line,) = [line for line in said if line.startswith(f"Tax: {item['from']} (")]
        assert line.endswith(f" to {item['to']}."), line
        assert len(re.findall(rf"\b{TRIBUTE_CARD}\b", line)) == item["count"], (item, line)


@pytest.mark.parametrize("rules", DALMUTI_RULES)
def test_a_dalmuti_explanation_states_what_the_rules_compute(api, rules):
    for seats in seat_range("dalmuti", rules):
        lines, stated, sentences = dalmuti_lines(api, rules, seats)
        checked(lines, stated, sentences)
        dalmuti_tribute_said(lines, seats, rules)


def test_a_drifted_dalmuti_explanation_fails_the_check(api):
    lines, stated, sentences = dalmuti_lines(api, {}, 5)
    checked(lines, stated, sentences)
    dalmuti_tribute_said(lines, 5, {})
    for old, new in ((" of 5", " of 6"), ("4 players finished", "5 players finished")):
        drifted = [line.replace(old, new) for line in lines]
        assert drifted != lines, old
        with pytest.raises(AssertionError):
            checked(drifted, stated, sentences)
    one_card = [line.replace(" and 12 (Peasant) to", " to") for line in lines]
    assert one_card != lines
    with pytest.raises(AssertionError):
        dalmuti_tribute_said(one_card, 5, {})
