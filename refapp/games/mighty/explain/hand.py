"""Every sentence of a round's explanation, worded once.

The English templates are the keys of the translation catalogs (refapp/translations): a changed
template loses its translations, so reword one only together with the catalogs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...game import Account, signed
from ..bidding.auction import Auction, Bid, next_bid
from ..bidding.misdeal import misdeal_limit
from ..cards import POINT_CARDS
from ..plurals import RULING_ONLY, TOOK, TOOK_SO, counted
from ..scoring.facts import FriendFact, hand_facts
from ..scoring.score import BACK_RUN_BOSS_TIMES, BACK_RUN_MOST, RUN_FIXED, Score, back_run_penalty
from ..shapes import Friend, MightyInput
from .facts import say_cards, say_contract_change, say_friend_reveal, say_multipliers
from .friend import say_contract, say_friend
from .tricks import say_kitty, say_next_play, say_points, say_tricks

if TYPE_CHECKING:
    from ..house_rules.rules import MightyRules

if TYPE_CHECKING:
    from ..scoring.facts import HandFacts
    from ..tricks.log import PlayLog
    from ..tricks.totals import Totals


def say_misdeal(account: Account, player: str, value: float | None, rules: MightyRules) -> None:
    """Say who threw their hand in and within which limit (a half as 0.5 / 0,5), or that the
    table saw the hand and it was not entered (value None)."""
    if value is None:
        account.say(
            "{player} declared a misdeal: the hand was shown to the table and not entered, so "
            "its value was not checked.",
            player=player,
        )
    elif rules.misdeal_at_most is not None:
        account.say(
            "{player} declared a misdeal: the hand is worth {value}, within this table's limit "
            "of at most {most}.",
            player=player,
            value=value,
            most=rules.misdeal_at_most,
        )
    else:
        account.say(
            "{player} declared a misdeal: the hand is worth {value}, within the limit of "
            "{limit_t}.",
            player=player,
            value=value,
            limit_t=misdeal_limit(rules),
        )
    account.say("Nobody scores; {player} deals the next hand.", player=player)


def say_all_pass(account: Account, floor: int, dealer: str | None, reopen: bool) -> None:
    """Say that nobody scores and how the cards go on: dealt again, or the kitty turned up."""
    account.say("Everyone passed: nobody scores.")
    if reopen and dealer:
        account.say(
            "The kitty is turned up and the auction starts again from {floor}, starting "
            "with {dealer}.",
            floor=floor,
            dealer=dealer,
        )
    elif reopen:
        account.say(
            "The kitty is turned up and the auction starts again from {floor}.", floor=floor
        )
    elif dealer:
        account.say("The cards are dealt again by {dealer}.", dealer=dealer)
    else:
        account.say("The cards are dealt again.")


def say_progress(
    account: Account,
    entered: MightyInput,
    auction: Auction | None,
    log: PlayLog | None = None,
) -> None:
    """Say what a dry run's parts tell (dealer, auction, contract, friend, tricks) so far."""
    if "dealer" in entered:
        account.say("{dealer} deals.", dealer=entered["dealer"])
    if auction is not None:
        say_auction(account, auction)
    if "contract" in entered:
        contract = entered["contract"]
        account.say(
            "Contract: {boss} as boss, {count} {trump_t}.",
            boss=contract["boss"],
            **Bid(contract["bid"], contract["trump"]).words(),
        )
    if "friend" in entered:
        say_friend(account, entered)
    if log is not None:
        say_tricks(account, log)
    if "opposition_points" in entered:
        points = entered["opposition_points"]
        account.say(counted(TOOK, points), points=points)
    if log is not None and log.next_player is not None:
        say_next_play(account, log)
    account.say("Nothing to score yet: the parts sent are consistent.")


def say_auction(account: Account, auction: Auction) -> None:
    """Say where the auction stands: who won it, or the highest bid and whose turn it is."""
    if auction.finished:
        account.say(
            "The auction is over: {leader} won with {count} {trump_t}.",
            leader=auction.leader,
            **auction.top.words(),
        )
        return
    if auction.highest is not None:
        account.say(
            "Highest bid so far: {leader}, {count} {trump_t}.",
            leader=auction.leader,
            **auction.highest.words(),
        )
    _say_next_bid(account, auction)


def _say_next_bid(account: Account, auction: Auction) -> None:
    """Say who bids next in an open auction and what they may bid."""
    kind, values = next_bid(auction)
    player = auction.next_bidder
    if player is None:  # nobody has bid and no dealer was named: any trump, from the floor
        account.say("Anyone to bid: at least {count}, or pass.", **values)
    elif kind == "at_least":
        account.say("{player} to bid: at least {count}, or pass.", player=player, **values)
    elif kind == "no_trump_or_suit":
        account.say(
            "{player} to bid: at least {count} no-trump or {next} in a suit, or pass.",
            player=player,
            **values,
        )
    elif kind == "no_trump":
        account.say("{player} to bid: {count} no-trump, or pass.", player=player, **values)
    else:
        account.say(
            "{player} to bid: nothing beats {count} {trump_t}, so pass.",
            player=player,
            **values,
        )


def explain_hand(
    rules: MightyRules,
    entered: MightyInput,
    score: Score,
    players: Sequence[str],
    refereed: tuple[PlayLog, Totals] | None = None,
) -> tuple[Account, HandFacts]:
    """Return a scored hand's facts and its explanation, built from them."""
    facts = hand_facts(rules, entered, score, refereed[0] if refereed is not None else None)
    account = Account()
    say_score(account, facts, score, players, rules, refereed)
    return account, facts


def say_score(
    account: Account,
    facts: HandFacts,
    score: Score,
    players: Sequence[str],
    rules: MightyRules,
    refereed: tuple[PlayLog, Totals] | None = None,
) -> None:
    """Explain a scored hand from its facts: contract, bid, tricks, cards, n, m, share."""
    contract, friend = facts["contract"], facts["friend"]
    boss = contract["boss"]
    entered: MightyInput = {"contract": contract, "friend": _entered_friend(friend, boss)}
    say_contract(account, entered, friend["where"])
    say_contract_change(account, contract, facts["winning_bid"], facts["contract_change"])
    if refereed is not None:
        say_tricks(account, refereed[0])
        say_friend_reveal(account, friend, boss)
        say_points(account, refereed[1])
    say_cards(account, contract["trump"], facts["mighty"], facts["joker"])
    if refereed is not None:
        say_kitty(account, refereed[1].kitty)
    account.say(
        counted(TOOK_SO, score.against),
        against=score.against,
        total=POINT_CARDS,
        taken=score.taken,
    )
    _say_outcome(account, score)
    if score.back_run:
        _say_back_run(account, score)
    say_multipliers(account, list(facts["multipliers"]), rules.run)
    if score.seed_penalty:
        _say_penalty(account, score, boss, friend["player"])
    say_share(account, players, boss, friend["player"], score.deltas)


def _entered_friend(friend: FriendFact, boss: str) -> Friend:
    """Return the friend fact in the input's form, for the contract's line."""
    if friend["form"] == "none":
        return {"none": True}
    if friend["form"] == "first_trick":
        return {"first_trick": friend["player"] or boss}
    card = friend["card"] or ""  # a card call always names its card
    if friend["where"] == "kitty":
        return {"card": card, "kitty": True}
    return {"card": card, "player": friend["player"] or boss}


def _say_outcome(account: Account, score: Score) -> None:
    """Say who won (or a critic) and, when m comes from a formula, its arithmetic."""
    bid, taken = score.bid, score.taken
    if score.outcome == "ruling_win" and taken > bid:
        account.say("{taken} > {bid}: the ruling side wins.", taken=taken, bid=bid)
    elif score.outcome == "ruling_win":
        account.say("n = bid = {bid}, a declared run: the ruling side wins.", bid=bid)
    elif score.outcome == "opposition_win":
        account.say("{taken} < {bid}: the opposition wins.", taken=taken, bid=bid)
    elif score.formula is not None:
        account.say("n = bid = {bid}: a critic, scored as an ordinary win.", bid=bid)
    elif score.m:
        account.say(
            "n = bid = {bid}: a critic; the ruling side keeps its privilege and wins "
            "m = 1 (no multipliers).",
            bid=bid,
        )
    else:
        account.say("n = bid = {bid}: a critic, scored as a draw.", bid=bid)
    if score.formula is not None:
        say_arithmetic(account, score.base, score.formula, score.steps, score.m)


def say_arithmetic(account: Account, base: int, formula: str, steps: list[str], m: int) -> None:
    """Say how m comes about: "Base 5 = 15 - 10; ×2 run; ×2 no-trump = 20."."""
    values: dict[str, object] = {"base": base, "formula": formula, "m": m}
    values.update({f"step{index}_t": step for index, step in enumerate(steps, 1)})
    count = len(steps)
    if count == 0:
        account.say("Base {base} = {formula}; m = {m}.", **values)
    elif steps[-1] == RUN_FIXED:  # the run comes first: here it is the only step
        account.say("Base {base} = {formula}; {step1_t}.", **values)
    elif count == 1:
        account.say("Base {base} = {formula}; {step1_t} = {m}.", **values)
    elif count == 2:
        account.say("Base {base} = {formula}; {step1_t}; {step2_t} = {m}.", **values)
    elif count == 3:
        account.say("Base {base} = {formula}; {step1_t}; {step2_t}; {step3_t} = {m}.", **values)
    elif count == 4:
        account.say(
            "Base {base} = {formula}; {step1_t}; {step2_t}; {step3_t}; {step4_t} = {m}.",
            **values,
        )
    elif count == 5:
        account.say(
            "Base {base} = {formula}; {step1_t}; {step2_t}; {step3_t}; {step4_t}; {step5_t} = {m}.",
            **values,
        )
    else:  # the run and all five doubles
        account.say(
            "Base {base} = {formula}; {step1_t}; {step2_t}; {step3_t}; {step4_t}; "
            "{step5_t}; {step6_t} = {m}.",
            **values,
        )


def _say_penalty(account: Account, score: Score, boss: str, friend: str | None) -> None:
    """Say the seed's back-run penalty, which makes the hand not zero-sum: the figures are
    ``scoring.score.back_run_penalty``'s."""
    deltas = back_run_penalty(boss, friend, score.bid)
    penalty = {
        "times": BACK_RUN_BOSS_TIMES,
        "bid": score.bid,
        "penalty": deltas[boss],
        "m": score.m,
    }
    if friend is not None:
        account.say(
            "Back-run penalty (the Korean wiki's rule): boss -{times} × {bid} = {penalty}, "
            "friend {friend_penalty}; the opposition +{m} each as usual. This hand is not "
            "zero-sum.",
            friend_penalty=deltas[friend],
            **penalty,
        )
    else:
        account.say(
            "Back-run penalty (the Korean wiki's rule): boss -{times} × {bid} = {penalty}; "
            "the opposition +{m} each as usual. This hand is not zero-sum.",
            **penalty,
        )


def say_share(
    account: Account,
    players: Sequence[str],
    boss: str,
    friend: str | None,
    deltas: Mapping[str, int],
) -> None:
    """Say what each side gets: "Ann (boss) +10, Ben (friend) +5, Cy, Dee and Eve ..."."""
    others = [p for p in players if p not in (boss, friend)]
    values: dict[str, object] = {
        "boss": boss,
        "boss_points": signed(deltas[boss]),
        "points": signed(deltas[others[0]]),
        **{f"other{index}": name for index, name in enumerate(others, 1)},
    }
    if friend is not None:
        values.update(friend=friend, friend_points=signed(deltas[friend]))
    # five in the hand: three against the boss and the friend, or four against the boss;
    # four in the hand (a table of four): two against both, or three against the boss
    if friend is not None and len(others) == 2:
        account.say(
            "{boss} (boss) {boss_points}, {friend} (friend) {friend_points}, {other1} and "
            "{other2} (opposition) {points} each.",
            **values,
        )
    elif friend is not None:
        account.say(
            "{boss} (boss) {boss_points}, {friend} (friend) {friend_points}, {other1}, "
            "{other2} and {other3} (opposition) {points} each.",
            **values,
        )
    elif len(others) == 3:
        account.say(
            "{boss} (boss) {boss_points}, {other1}, {other2} and {other3} (the other three) "
            "{points} each.",
            **values,
        )
    else:
        account.say(
            "{boss} (boss) {boss_points}, {other1}, {other2}, {other3} and {other4} (the "
            "other four) {points} each.",
            **values,
        )


def _say_back_run(account: Account, score: Score) -> None:
    """Say why the hand is a back-run, by the threshold the table plays (back_run_when)."""
    if score.back_run_when == "opposition_reaches_bid":
        account.say(
            "Back-run: the opposition took {against} point cards, at least the bid of {bid}.",
            against=score.against,
            bid=score.bid,
        )
    else:
        account.say(
            counted(RULING_ONLY, score.taken),
            taken=score.taken,
            most=BACK_RUN_MOST[score.back_run_when],
        )
