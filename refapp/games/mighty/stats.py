"""A player's Mighty figures and roles, counted hand by hand from the stored results (pure)."""

from __future__ import annotations

from collections.abc import Mapping

from ..records import Mark
from ..roles import Partner, RoleBook, Roles
from ..stats import average
from ..tally import Figures, Tally
from .cards import POINT_CARDS, TRUMPS
from .shapes import MightyResult

#: the outcomes of a round in which a hand was played (not a misdeal, not all passed)
PLAYED_HANDS = ("ruling_win", "critic", "opposition_win")

Result = MightyResult


def made(result: Result) -> bool:
    """Return True if the boss's contract was made: a win, or a critic that paid the ruling side."""
    outcome = result.get("outcome")
    return outcome == "ruling_win" or (outcome == "critic" and result.get("m", 0) > 0)


def friend_of(result: Result) -> str | None:
    """Return a played hand's friend: None without one, or when the boss was their own friend."""
    friend = result.get("friend")
    return friend if isinstance(friend, str) and friend != result.get("boss") else None


def side_of(name: str, result: Result) -> str:
    """Return a player's role in a played hand they were in: boss, friend or opposition."""
    if result.get("boss") == name:
        return "boss"
    return "friend" if friend_of(result) == name else "opposition"


def tally(name: str, result: Result) -> Tally:
    """Return what one round adds: a hand played in a role, won or lost (as boss, by its bid and
    trump), runs; or a hand the player was killed in or rested (no hand played then).

    The boss and the friend are the ruling side, the others the opposition; the ruling side
    won when the contract was made, the opposition when it was not. Runs (the ruling side took
    all 20 point cards) and back-runs (the opposition took at least the bid) count the hands
    the player was on the ruling side, as boss or friend. The figure ``times_as_friend`` counts
    the hands whose result names the player the friend.
    """
    out = _out_of_hand(name, result)
    if out or result.get("outcome") not in PLAYED_HANDS:
        return out
    won = int(made(result))
    side = side_of(name, result)
    counted: Tally = {"hands_played": 1, "times_as_friend": int(result.get("friend") == name)}
    if side == "opposition":
        counted.update(opposition_hands=1, opposition_won=1 - won)
        return counted
    counted["runs"] = int(result.get("ruling_points") == POINT_CARDS)
    counted["back_runs"] = int(bool(result.get("back_run")))
    if side == "friend":
        counted.update(friend_hands=1, friend_won=won)
        return counted
    contract = result["contract"]
    bid, trump = contract["bid"], contract.get("trump")
    counted.update(hands_as_boss=1, contracts_made=won, bid_sum=bid)
    counted.update({f"bid_{bid}_hands": 1, f"bid_{bid}_made": won})
    if trump in TRUMPS:
        counted.update({f"trump_{trump}_hands": 1, f"trump_{trump}_made": won})
    return counted


def _out_of_hand(name: str, result: Result) -> Tally:
    """Return a round the player sat out at four, six or seven seats: killed, or resting."""
    if name in result.get("killed", ()):
        return {"hands_killed": 1}
    if name in result.get("resting", ()):
        return {"hands_rested": 1}
    return {}


def figures_from(counted: Mapping[str, int]) -> Figures:
    """Return the hands as boss, contracts made, the average bid, times as friend, the runs, and
    the hands killed or rested (four, six or seven seats)."""
    led = counted.get("hands_as_boss", 0)
    return {
        "hands_played": counted.get("hands_played", 0),
        "hands_as_boss": led,
        "contracts_made": counted.get("contracts_made", 0),
        "average_bid": average(counted.get("bid_sum", 0), led),
        "times_as_friend": counted.get("times_as_friend", 0),
        "runs": counted.get("runs", 0),
        "back_runs": counted.get("back_runs", 0),
        "hands_killed": counted.get("hands_killed", 0),
        "hands_rested": counted.get("hands_rested", 0),
    }


def roles_from(counted: Mapping[str, int]) -> Roles:
    """Return the hands played and won per role, as boss per bid (the bids seen) and per trump
    (every trump), and the runs and back-runs."""
    bids = sorted(
        {int(key.split("_")[1]) for key in counted if key.startswith("bid_") and key != "bid_sum"}
    )
    return {
        "boss": {"hands": counted.get("hands_as_boss", 0), "won": counted.get("contracts_made", 0)},
        "friend": {"hands": counted.get("friend_hands", 0), "won": counted.get("friend_won", 0)},
        "opposition": {
            "hands": counted.get("opposition_hands", 0),
            "won": counted.get("opposition_won", 0),
        },
        "by_bid": {str(bid): _as_boss(counted, f"bid_{bid}") for bid in bids},
        "by_trump": {trump: _as_boss(counted, f"trump_{trump}") for trump in TRUMPS},
        "runs": counted.get("runs", 0),
        "back_runs": counted.get("back_runs", 0),
    }


def _as_boss(counted: Mapping[str, int], prefix: str) -> dict[str, int]:
    """Return the hands as boss under one bid or trump, and the contracts made of them."""
    return {"hands": counted.get(f"{prefix}_hands", 0), "made": counted.get(f"{prefix}_made", 0)}


def pair_tallies(result: Result) -> list[tuple[str, str, Tally]]:
    """Return a played hand's boss and friend with what it adds to them as a pair: a hand with
    the first as boss, and whether it was won (none without a friend)."""
    boss, friend = result.get("boss"), friend_of(result)
    if result.get("outcome") not in PLAYED_HANDS or boss is None or friend is None:
        return []
    return [(boss, friend, {"first_boss_hands": 1, "first_boss_won": int(made(result))})]


def partners_from(pairs: Mapping[str, Mapping[str, int]]) -> list[Partner]:
    """Return the friends of the player as boss and their bosses as friend, with the hands and
    wins together (from each pair's tally seen from the player's side), most hands first."""
    found: list[Partner] = []
    for name, tally in pairs.items():
        for side, role in (("first", "friend"), ("second", "boss")):
            hands = tally.get(f"{side}_boss_hands", 0)
            if hands:
                won = tally.get(f"{side}_boss_won", 0)
                found.append({"name": name, "role": role, "hands": hands, "won": won})
    return sorted(
        found, key=lambda line: (-line["hands"], -line["won"], line["name"], line["role"])
    )


ROLE_BOOK = RoleBook[Result](
    roles_from=roles_from, pair_tallies=pair_tallies, partners_from=partners_from
)


#: Mighty's own records: the highest contract a boss made
RECORD_KEYS = ("highest_contract_made",)


def marks(result: Result) -> list[Mark]:
    """Return the contract a hand's boss made (a mark for the highest contract made)."""
    boss = result.get("boss")
    if result.get("outcome") not in PLAYED_HANDS or not made(result) or boss is None:
        return []
    return [Mark("highest_contract_made", result["contract"]["bid"], boss)]
