"""A fourth game that lives only in the tests: a two-player coin-toss score sheet.

It proves a game is one package and one registration: nothing outside ``tests/coin_toss/`` names
it, yet it gets the API, the session page with its form, the history, the statistics, export and
import, and the pages in every language (its own words falling back to English). The fixture in
``tests/test_fourth_game.py`` registers `GAME` and restores the registries after.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from refapp.games.errors import N_, MalformedInput
from refapp.games.game import Account, Game, Outcome, Table, signed
from refapp.games.inputs import mapping
from refapp.games.options import HouseRules, RuleOption
from refapp.games.round_input import InputPath


class CoinTossRules(HouseRules):
    """The house rules in force at a coin-toss table, defaults filled once."""

    options = (
        RuleOption(
            "stake",
            "int",
            1,
            "The points the winner of a toss takes from the other.",
            minimum=1,
            maximum=10,
            label=N_("Stake"),
            group="stakes",
        ),
    )
    __slots__ = ()
    stake: int


class CoinToss(Game):
    """Two players toss a coin; the winner takes the stake from the other."""

    slug = "coin_toss"
    title = N_("Coin toss")
    position = 4
    min_players = 2
    max_players = 2
    topics = {"stakes": N_("Stakes")}
    options = CoinTossRules.options
    round_input = (InputPath("winner", N_("Winner of the toss"), "name"),)
    house_rules_type = CoinTossRules

    def play(
        self, table: Table, state: Mapping[str, Any], raw: Any, *, partial: bool = False
    ) -> Outcome:
        """Check the toss's winner and move the stake."""
        body = mapping(raw, "round")
        if "winner" not in body:
            raise MalformedInput("missing_field", "Name the winner of the toss.", "winner")
        winner = table.player(body["winner"], "winner")
        loser = next(name for name in table.players if name != winner)
        stake = CoinTossRules.of(table.rules).stake
        account = Account()
        account.say("{winner} won the toss: {points}.", winner=winner, points=signed(stake))
        result = {"deltas": {winner: stake, loser: -stake}, "winner": winner, **account.result()}
        return Outcome({"winner": winner}, result, {"tosses": state.get("tosses", 0) + 1})

    def tally(self, name: str, result: Mapping[str, Any]) -> dict[str, int]:
        """Count a toss the player won."""
        return {"tosses_won": int(result.get("winner") == name)}

    def figures_from(self, counted: Mapping[str, int]) -> dict[str, Any]:
        """Return how many tosses the player won."""
        return {"tosses_won": counted.get("tosses_won", 0)}


#: the one coin toss the fixture registers (its web package takes its slug from it)
GAME = CoinToss()
