"""A Mighty hand's input, declared once: every path, the words naming it, the kind of its value."""

from __future__ import annotations

from ..errors import N_
from ..round_input import InputPath

#: the more specific pattern of a prefix comes first: the first that matches names the path
ROUND_INPUT = (
    InputPath("dealer", N_("Dealer (딜러)"), "name"),
    InputPath("bidding", N_("Auction (경매)")),
    InputPath("bidding.{n}.player", N_("Bidder at auction turn %(n)s"), "name"),
    InputPath("bidding.{n}.bid", N_("Count bid at auction turn %(n)s")),
    InputPath("bidding.{n}.trump", N_("Trump (기루다) bid at auction turn %(n)s"), "trump"),
    InputPath("bidding.{n}.pass", N_("Pass (패스) at auction turn %(n)s")),
    InputPath("all_pass", N_("Everyone passed (모두 패스)")),
    InputPath("contract.boss", N_("Boss (주공)"), "name"),
    InputPath("contract.bid", N_("Count of the contract (공약)")),
    InputPath("contract.trump", N_("Trump (기루다) of the contract"), "trump"),
    InputPath("kill.{n}.card", N_("Card named for kill %(n)s"), "card"),
    InputPath("kill.{n}.player", N_("Player killed by kill %(n)s"), "name"),
    InputPath("kill.{n}.misses.{m}", N_("Miss %(m)s before kill %(n)s"), "card"),
    InputPath("kill.{n}.misses", N_("Misses before kill %(n)s"), "cards"),
    InputPath("kill.card", N_("Card named for the kill (킬)"), "card"),
    InputPath("kill.player", N_("Player killed (킬)"), "name"),
    InputPath("kill.misses.{n}", N_("Miss %(n)s before the kill"), "card"),
    InputPath("kill.misses", N_("Misses before the kill"), "cards"),
    InputPath("kill", N_("Kill (킬)")),
    InputPath("sits_out", N_("Players resting this hand"), "name"),
    InputPath("friend.card", N_("Friend card"), "card"),
    InputPath("friend.player", N_("Friend (프렌드)"), "name"),
    InputPath("friend.first_trick", N_("Friend (프렌드) as the winner of trick 1"), "name"),
    InputPath("friend.none", N_("No friend (노 프렌드)")),
    InputPath("friend.kitty", N_("Friend card in the kitty (바닥패)")),
    InputPath("opposition_points", N_("Opposition's point cards (야당 점수카드)")),
    InputPath("mighty_holder", N_("Mighty (마이티) ended with"), "holder"),
    InputPath("joker_holder", N_("Joker (조커) ended with"), "holder"),
    InputPath("misdeal.player", N_("Player who threw the hand in (파토)"), "name"),
    InputPath("misdeal.hand", N_("Throw-in (파토) hand"), "cards"),
    InputPath("misdeal.shown", N_("Throw-in (파토) hand shown to the table")),
    InputPath("tricks", N_("Tricks")),
    InputPath("tricks.{n}", N_("Trick %(n)s")),
    InputPath("tricks.{n}.{m}.player", N_("Player of card %(m)s in trick %(n)s"), "name"),
    InputPath("tricks.{n}.{m}.card", N_("Card %(m)s in trick %(n)s"), "card"),
    InputPath("tricks.{n}.{m}.suit", N_("Suit the joker named in trick %(n)s"), "trump"),
    InputPath("tricks.{n}.{m}.call", N_("Joker call (조커콜) in trick %(n)s")),
)
