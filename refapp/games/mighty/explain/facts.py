"""The sentences that name a scored hand's facts, built from its ``facts`` (scoring/facts.py): the
winning bid and the contract's change, the mighty and the joker, the friend, each multiplier.

Worded once, like explain/hand.py: the English templates are the translation catalogs' keys.
"""

from __future__ import annotations

from ...errors import N_
from ...game import Account
from ..bidding.auction import Bid
from ..cards import TRUMP_NAMES, card_words
from ..house_rules.options import OPTIONS
from ..scoring.facts import CardFact, ContractChange, FriendFact
from ..scoring.multipliers import BECAUSE, MultiplierFact
from ..scoring.score import FIXED_RUN_M, MULTIPLIER_NAMES
from ..shapes import Contract, WinningBid
from ..tricks.holders import HOLDER_WORDS

#: each house rule's label by its key, for "(house rule “...”)"
RULE_LABELS = {option.key: option.label for option in OPTIONS}
#: a holder as one player's side, in brackets after the player's name ("Dee (an opponent)")
ONE_HOLDER_WORDS = {"opposition": N_("an opponent")}


def say_contract_change(
    account: Account, contract: Contract, winning: WinningBid | None,
    change: ContractChange | None,
) -> None:  # fmt: skip
    """Say the auction's winning bid and how the contract came from it (its change, its price)."""
    final = Bid(contract["bid"], contract["trump"])
    if winning is None:
        account.say(
            "The bidding was not entered: the contract {count} {trump_t} is scored as declared.",
            **final.words(),
        )
        return
    values: dict[str, object] = {
        "leader": winning["player"],
        **Bid(winning["bid"], winning["trump"]).words("won_"),
        **final.words(),
    }
    rule = change["rule"] if change is not None else None
    cost = change["cost"] if change is not None else None
    if change is None:
        account.say(
            "{leader} won the auction with {won_count} {won_trump_t}, and the contract is "
            "that bid.",
            **values,
        )
    elif rule is None:
        account.say(
            "{leader} won the auction with {won_count} {won_trump_t}; the contract raises it to "
            "{count} {trump_t} (a raise without a trump change costs nothing).",
            **values,
        )
    elif cost is None:
        account.say(
            "{leader} won the auction with {won_count} {won_trump_t}; the contract changes it to "
            "{count} {trump_t}, as the house rule “{rule_t}” allows.",
            rule_t=RULE_LABELS[rule],
            **values,
        )
    else:
        _say_priced_change(account, values, change, rule, cost)


def _say_priced_change(
    account: Account, values: dict[str, object], change: ContractChange, rule: str, cost: int
) -> None:
    """Say a trump change's price (``cost`` by the house rule ``rule``), capped at 20 where it
    says so."""
    values.update(
        extra=change["raised_by"],
        cost=cost,
        price=change["price"],
        rule_t=RULE_LABELS[rule],
    )
    if change["price"] < change["from"]["bid"] + cost:
        account.say(
            "{leader} won the auction with {won_count} {won_trump_t}; the contract changes it to "
            "{count} {trump_t}, {extra} more: the house rule “{rule_t}” asks {cost} more, capped "
            "at 20, so at least {price}.",
            **values,
        )
    else:
        account.say(
            "{leader} won the auction with {won_count} {won_trump_t}; the contract changes it to "
            "{count} {trump_t}, {extra} more: the house rule “{rule_t}” asks {cost} more, so at "
            "least {price}.",
            **values,
        )


def say_friend_reveal(account: Account, friend: FriendFact, boss: str) -> None:
    """Say which trick showed who holds the friend card (a hand entered with its tricks)."""
    card = friend["card"]
    if friend["form"] != "card" or card is None:  # a card call always names its card
        return
    values = {"card_t": card_words(card), "trick": friend["trick"]}
    if friend["where"] == "kitty":
        account.say("Nobody played {card_t}: it is in the kitty, a self friend.", **values)
    elif friend["where"] == "hand":
        account.say(
            "{card_t} was played by the boss {player} in trick {trick}: a self friend.",
            player=boss,
            **values,
        )
    else:
        account.say(
            "{card_t} was played by {player} in trick {trick}, so {player} is the friend.",
            player=friend["player"],
            **values,
        )


def say_cards(account: Account, trump: str, mighty: CardFact, joker: CardFact) -> None:
    """Say which card was the mighty under this trump and where it was, then the joker."""
    values: dict[str, object] = {
        "trump_t": TRUMP_NAMES[trump],
        "card_t": card_words(mighty["card"]),
    }
    values.update(_holder_values(mighty))
    holder = mighty["holder"]
    if holder is None:
        account.say(
            "The mighty under {trump_t} is {card_t}; who held it was not entered, so it counts "
            "as the ruling side's.",
            **values,
        )
    elif mighty["trick"] is not None:
        account.say(
            "The mighty under {trump_t} is {card_t}; {holder_t} {player} played it in trick "
            "{trick}.",
            **values,
        )
    elif holder == "kitty":
        account.say("The mighty under {trump_t} is {card_t}, buried in the kitty.", **values)
    elif mighty["player"] is not None:
        account.say(
            "The mighty under {trump_t} is {card_t}, held by {holder_t} {player}.", **values
        )
    else:
        account.say("The mighty under {trump_t} is {card_t}, held by {holder_t}.", **values)
    _say_joker(account, joker)
    if mighty["friend_card"]:  # the joker called as the friend card needs no word: it says so
        account.say("The friend card is the mighty itself ({card_t}).", card_t=values["card_t"])


def _holder_values(card: CardFact) -> dict[str, object]:
    """Return a special card's holder as a sentence's values."""
    values: dict[str, object] = {}
    if card["holder"] is not None:
        values["holder_t"] = HOLDER_WORDS[card["holder"]]
    if card["player"] is not None:
        values["player"] = card["player"]
    if card["trick"] is not None:
        values["trick"] = card["trick"]
    return values


def _say_joker(account: Account, joker: CardFact) -> None:
    """Say where the joker was."""
    values = _holder_values(joker)
    holder = joker["holder"]
    if holder is None:
        account.say("Who held the joker was not entered, so it counts as the ruling side's.")
    elif joker["trick"] is not None:
        values["holder_t"] = ONE_HOLDER_WORDS.get(holder, values["holder_t"])
        account.say("The joker was played by {player} ({holder_t}) in trick {trick}.", **values)
    elif holder == "kitty":
        account.say("The joker was buried in the kitty.")
    elif joker["player"] is not None:
        account.say("The joker was held by {holder_t} {player}.", **values)
    else:
        account.say("The joker was held by {holder_t}.", **values)


def say_multipliers(account: Account, multipliers: list[MultiplierFact], run: str) -> None:
    """Say each multiplier the hand's facts bring up: applied and why, or why not."""
    for fact in multipliers:
        values: dict[str, object] = {
            "name_t": MULTIPLIER_NAMES[fact["name"]],
            "because_t": BECAUSE[fact["because"]],
        }
        rule = fact["rule"]
        if rule is not None:
            values["rule_t"] = RULE_LABELS[rule]
        if fact["applied"] and fact["name"] == "run" and run == "fixed_20":
            account.say(
                "m = {m} for {name_t}: {because_t} (house rule “{rule_t}”).",
                m=FIXED_RUN_M,
                **values,
            )
        elif fact["applied"]:
            account.say("×2 for {name_t}: {because_t} (house rule “{rule_t}”).", **values)
        elif rule is not None:
            account.say("No ×2 for {name_t}: {because_t} (house rule “{rule_t}”).", **values)
        else:
            account.say("No ×2 for {name_t}: {because_t}.", **values)
