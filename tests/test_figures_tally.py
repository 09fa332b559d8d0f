"""Figures summed from per-round tallies are exactly the figures read from every result at once."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from refapp.games import GAMES
from refapp.games.stats import figures_from, round_tally
from refapp.games.tally import added, summed

from . import figures_oracle as oracle
from .sittings import Sitting, figures, sitting_part
from .test_stats import DALMUTI_HANDS, DIXIT_TURNS, FIVE, FOUR, MIGHTY_HANDS, NO_TAX, results

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve")
name = st.sampled_from(NAMES)
deltas = st.dictionaries(name, st.integers(-200, 200), max_size=5)

dalmuti_result = st.fixed_dictionaries(
    {"deltas": deltas},
    optional={
        "ranks_after": st.permutations(NAMES),
        "ranks_during": st.one_of(st.none(), st.permutations(NAMES)),
        "revolution_by": st.one_of(st.none(), name),
    },
)
dixit_result = st.fixed_dictionaries(
    {"deltas": deltas},
    optional={
        "storyteller": name,
        "outcome": st.sampled_from(["some_found", "all_found", "none_found"]),
        "vote_bonus": st.dictionaries(name, st.integers(0, 3), max_size=5),
    },
)
mighty_result = st.fixed_dictionaries(
    {
        "deltas": deltas,
        "outcome": st.sampled_from(
            ["ruling_win", "critic", "opposition_win", "misdeal", "all_pass"]
        ),
        "contract": st.fixed_dictionaries({"bid": st.integers(13, 20)}),
    },
    optional={
        "boss": name,
        "friend": st.one_of(st.none(), name),
        "m": st.integers(-50, 50),
        "ruling_points": st.integers(0, 20),
        "back_run": st.booleans(),
    },
)
RESULTS = {"dalmuti": dalmuti_result, "dixit": dixit_result, "mighty": mighty_result}
sittings = st.sampled_from(sorted(RESULTS)).flatmap(
    lambda game: st.tuples(
        st.just(game),
        st.lists(
            st.tuples(
                st.lists(name, min_size=2, max_size=5, unique=True),
                st.booleans(),
                st.lists(RESULTS[game], max_size=12),
            ),
            max_size=5,
        ),
    )
)


def at_table(players: list[str], rows: list[dict]) -> list[dict]:
    """Return stored results as a table stores them: deltas for the seated players only."""
    return [
        {**row, "deltas": {k: v for k, v in row["deltas"].items() if k in players}} for row in rows
    ]


@given(sittings, name)
def test_summed_tallies_give_the_figures_read_from_every_result(drawn, who):
    game, sessions = drawn
    seated = [
        (players, done, at_table(players, rows))
        for players, done, rows in sessions
        if who in players
    ]
    parts = [
        sitting_part(who, Sitting(game, players, done, rows)) for players, done, rows in seated
    ]
    assert figures_from(game, summed(parts)) == oracle.figures(game, who, seated)
    assert figures(game, who, [Sitting(game, *one) for one in seated]) == oracle.figures(
        game, who, seated
    )


@given(sittings, name, st.data())
def test_a_round_taken_out_again_leaves_the_tally_it_found(drawn, who, data):
    game, sessions = drawn
    rows = [row for _, _, results in sessions for row in results]
    if not rows:
        return
    taken = data.draw(st.sampled_from(rows))
    kept = list(rows)
    kept.remove(taken)
    whole = summed(round_tally(game, who, row) for row in rows)
    assert added(whole, round_tally(game, who, taken), -1) == summed(
        round_tally(game, who, row) for row in kept
    )


def test_the_engines_results_count_the_same_as_before():
    """The worked sessions of test_stats, scored by the real rules, counted both ways."""
    played = {
        "dixit": (FOUR, results("dixit", FOUR, DIXIT_TURNS)),
        "mighty": (FIVE, results("mighty", FIVE, MIGHTY_HANDS)),
        "dalmuti": (FIVE, results("dalmuti", FIVE, DALMUTI_HANDS, NO_TAX)),
    }
    for game, (players, rows) in played.items():
        for who in players:
            part = sitting_part(who, Sitting(game, players, True, rows))
            wanted = oracle.figures(game, who, [(players, True, rows)])
            assert figures_from(game, part) == wanted
            assert GAMES[game].figures(who, rows) == oracle.OWN[game](who, rows)
    # a worked value, so the comparison cannot pass on two empty dictionaries
    eve = sitting_part("Eve", Sitting("mighty", FIVE, True, played["mighty"][1]))
    assert figures_from("mighty", eve)["points"] == 60
    assert figures_from("mighty", eve)["hands_as_boss"] == 1
