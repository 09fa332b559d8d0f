"""Properties of every hand at four, six and seven seats: deltas sum to 0 (the seed's back-run
penalty excepted) and a player killed or resting never scores."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from refapp.games.game import Table

from .support import GAME, fresh

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus")
#: the seat counts and each one's way of playing, as (seats, rules)
TABLES = (
    (4, {}),
    (6, {"six_player_rule": "kill"}),
    (6, {"six_player_rule": "dealer_sits_out"}),
    (7, {"seven_player_rule": "kill"}),
    (7, {"seven_player_rule": "ruling_side_sits_out"}),
)
#: house rules that change m or its sharing (the back-run penalty is not zero-sum: left out)
SCORING = st.fixed_dictionaries(
    {},
    optional={
        "win_formula": st.sampled_from(["bid_minus_10", "taken_minus_10", "pagat"]),
        "critic": st.sampled_from(["ruling_plus_one", "draw", "win"]),
        "lose_formula": st.sampled_from(["twice_shortfall", "shortfall"]),
        "back_run": st.sampled_from(["flag", "double"]),
        "run": st.sampled_from(["double", "fixed_20", "none"]),
        "loss_multipliers": st.sampled_from([[], ["no_trump", "no_friend"]]),
    },
)


@st.composite
def seated_hands(draw):
    """Draw a table of 4, 6 or 7 and one valid played hand for it."""
    seats, rules = draw(st.sampled_from(TABLES))
    rules = {**rules, **draw(SCORING)}
    players = NAMES[:seats]
    tab = Table(players, GAME.resolve_rules(rules, seats=seats))
    raw: dict = {}
    resting: list[str] = []
    if rules.get("six_player_rule") == "dealer_sits_out" and seats == 6:
        dealer = draw(st.sampled_from(players))
        raw["dealer"], resting = dealer, [dealer]
    if rules.get("seven_player_rule") == "ruling_side_sits_out" and seats == 7:
        resting = draw(st.lists(st.sampled_from(players), min_size=2, max_size=2, unique=True))
        raw["sits_out"] = resting
    bidders = [name for name in players if name not in resting]
    boss = draw(st.sampled_from(bidders))
    kills = 0 if resting or seats == 4 else seats - 5
    others = [name for name in bidders if name != boss]
    killed = draw(st.lists(st.sampled_from(others), min_size=kills, max_size=kills, unique=True))
    cards = iter(["SK", "HK", "DK"])
    if killed:
        kill = [{"card": next(cards), "player": name} for name in killed]
        raw["kill"] = kill[0] if kills == 1 else kill
    active = [name for name in bidders if name not in killed]
    floor = tab.rules["min_bid"]
    raw["contract"] = {
        "boss": boss,
        "bid": draw(st.integers(floor, 20)),
        "trump": draw(st.sampled_from(["S", "H", "D", "C", "NT"])),
    }
    friend = draw(st.sampled_from([None, *active]))
    raw["friend"] = {"none": True} if friend is None else {"card": "CK", "player": friend}
    raw["opposition_points"] = draw(st.integers(1, 20))
    return tab, raw, resting + killed, active


@settings(max_examples=300, deadline=None)
@given(seated_hands())
def test_every_hand_is_zero_sum_and_nobody_out_of_it_scores(case):
    tab, raw, out, active = case
    result = GAME.play(tab, fresh(tab), raw).result
    deltas = result["deltas"]
    assert set(deltas) == set(tab.players)
    assert sum(deltas.values()) == 0
    assert all(deltas[name] == 0 for name in out)
    assert sorted(result["killed"] + result["resting"]) == sorted(out)
    if result["m"]:
        assert all(deltas[name] != 0 for name in active)
    boss, friend = result["boss"], result["friend"]
    opponents = [name for name in active if name not in (boss, friend)]
    assert len({deltas[name] for name in opponents}) == 1
    share = -deltas[opponents[0]]
    assert deltas[boss] == share * (len(active) - (3 if friend else 1))
