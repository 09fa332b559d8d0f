"""The Great Dalmuti's score in words: each place's points and each peasant's rise, said from
the score's facts (``scoring.score_facts``)."""

from __future__ import annotations

from collections.abc import Mapping

from ..errors import N_
from ..game import Account, signed
from .ranks import middle_of_three, role_name, role_of
from .shapes import RisingFact

#: the finishing places as words (ten players at most); a template also gets the bare number
ORDINALS = (
    N_("1st"),
    N_("2nd"),
    N_("3rd"),
    N_("4th"),
    N_("5th"),
    N_("6th"),
    N_("7th"),
    N_("8th"),
    N_("9th"),
    N_("10th"),
)


def ordinal(number: int) -> str:
    """Write 1st, 2nd, 3rd, 4th, ... 11th (up to 10th a word marked for translation)."""
    if 1 <= number <= len(ORDINALS):
        return ORDINALS[number - 1]
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    if 10 <= number % 100 <= 20:
        suffix = "th"
    return f"{number}{suffix}"


def say_place(
    account: Account, scoring: str, name: str, position: int, count: int, won: int
) -> None:
    """Explain one finishing place by the facts its points rest on: the players who finished
    below ('Cy went out 1st of 5; 4 players finished below: 4 points.'), or the role reached
    and its chip (``role_chips``)."""
    values: dict[str, int | str] = {
        "name": name,
        "place_t": ordinal(position),
        "place": position,
        "count": count,
        "below": count - position,
        "points": won,
    }
    if scoring == "role_chips":
        say_chip(account, values)
    elif scoring == "players_below_plus_one":
        say_below_plus_one(account, values)
    else:
        say_below(account, values)


def say_below(account: Account, values: Mapping[str, int | str]) -> None:
    """Say a place's points under ``players_below``: one per player who finished below."""
    if values["below"] == 0:
        account.say(
            "{name} finished last, {place_t} of {count}; nobody finished below: {points} points.",
            **values,
        )
    elif values["below"] == 1:
        account.say(
            "{name} went out {place_t} of {count}; {below} player finished below: {points} point.",
            **values,
        )
    else:
        account.say(
            "{name} went out {place_t} of {count}; {below} players finished below: "
            "{points} points.",
            **values,
        )


def say_below_plus_one(account: Account, values: Mapping[str, int | str]) -> None:
    """Say a place's points under ``players_below_plus_one``: one per player below, plus one."""
    if values["below"] == 0:
        account.say(
            "{name} finished last, {place_t} of {count}; nobody finished below, plus one: "
            "{points} point.",
            **values,
        )
    elif values["below"] == 1:
        account.say(
            "{name} went out {place_t} of {count}; {below} player finished below, plus one: "
            "{points} points.",
            **values,
        )
    else:
        account.say(
            "{name} went out {place_t} of {count}; {below} players finished below, plus one: "
            "{points} points.",
            **values,
        )


def say_chip(account: Account, values: Mapping[str, int | str]) -> None:
    """Say a place's points under ``role_chips``: the role reached and that role's chip."""
    count, position = int(values["count"]), int(values["place"])
    if middle_of_three(position, count):
        account.say(
            "{name} went out {place_t} of {count}, the middle seat ({ld_t} and {lp_t} at once): "
            "its chip is {points} points.",
            ld_t=role_name("lesser_dalmuti"),
            lp_t=role_name("lesser_peasant"),
            **values,
        )
        return
    role = role_of(position, count)
    if role == "merchant":
        account.say(
            "{name} went out {place_t} of {count} and becomes a merchant: every merchant's chip "
            "is {points} points.",
            **values,
        )
    elif role == "greater_peasant":
        account.say(
            "{name} finished last, {place_t} of {count}, and becomes {role_t}: that role's chip "
            "is {points} points.",
            role_t=role_name(role),
            **values,
        )
    elif values["points"] == 1:
        account.say(
            "{name} went out {place_t} of {count} and becomes {role_t}: that role's chip is "
            "{points} point.",
            role_t=role_name(role),
            **values,
        )
    else:
        account.say(
            "{name} went out {place_t} of {count} and becomes {role_t}: that role's chip is "
            "{points} points.",
            role_t=role_name(role),
            **values,
        )


def say_rising(account: Account, item: RisingFact, roles: Mapping[str, str]) -> None:
    """Explain a peasant's rise and the bonus it earns their Dalmuti; nothing for no rise."""
    risen = item["risen"]
    if not risen:
        return  # a peasant who did not rise (or fell) earns their Dalmuti nothing to explain
    low, top = item["peasant"], item["dalmuti"]
    values = {
        "peasant": low,
        "peasant_role_t": role_name(roles[low]),
        "place_t": ordinal(item["place_after"]),
        "place": item["place_after"],
        "risen": risen,
        "bonus": signed(risen),
        "dalmuti": top,
        "dalmuti_role_t": role_name(roles[top]),
    }
    if risen == 1:
        account.say(
            "Rising bonus: {peasant} ({peasant_role_t}) finished {place_t}, {risen} place "
            "up: {bonus} to {dalmuti} ({dalmuti_role_t}).",
            **values,
        )
    else:
        account.say(
            "Rising bonus: {peasant} ({peasant_role_t}) finished {place_t}, {risen} places "
            "up: {bonus} to {dalmuti} ({dalmuti_role_t}).",
            **values,
        )
