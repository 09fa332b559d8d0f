"""Sentences that count point cards or tricks, each in its one and its many form.

A stored explanation keeps its English template (a catalog key) and its values; the form is
chosen here by the count, as ngettext would for the table's languages (English and Hungarian
say one for 1 and many otherwise, Korean has one form: both keys carry the same translation).
"""

from __future__ import annotations

from ..errors import N_

#: the opposition's point cards as entered (a dry run's progress)
TOOK = (
    N_("The opposition took {points} point card."),
    N_("The opposition took {points} point cards."),
)
#: the opposition's point cards, and what the ruling side has
TOOK_SO = (
    N_(
        "The opposition took {against} point card, so the ruling side has "
        "n = {total} - {against} = {taken}."
    ),
    N_(
        "The opposition took {against} point cards, so the ruling side has "
        "n = {total} - {against} = {taken}."
    ),
)
#: a back-run counted by the ruling side's cards
RULING_ONLY = (
    N_("Back-run: the ruling side took only {taken} point card ({most} or fewer)."),
    N_("Back-run: the ruling side took only {taken} point cards ({most} or fewer)."),
)
#: what the tricks give the opposition, in one trick (one card or several) or in several
TRICKS_GIVE = (
    N_("The tricks give the opposition {points} point card, in trick {tricks}."),
    N_("The tricks give the opposition {points} point cards, in trick {tricks}."),
    N_("The tricks give the opposition {points} point cards, in tricks {tricks}."),
)
#: the tricks disagree with the points entered
TRICKS_DISAGREE = (
    N_("The tricks give the opposition {points} point card (trick {tricks}), not {value}."),
    N_("The tricks give the opposition {points} point cards (trick {tricks}), not {value}."),
    N_("The tricks give the opposition {points} point cards (tricks {tricks}), not {value}."),
)


def counted(forms: tuple[str, ...], count: int) -> str:
    """Return the form of a sentence for a count: one (1) or many."""
    return forms[0] if count == 1 else forms[1]


def in_tricks(forms: tuple[str, str, str], points: int, tricks: int) -> str:
    """Return the form for point cards taken in a number of tricks: one card in one trick,
    several cards in one trick, or several tricks."""
    if tricks == 1:
        return forms[0] if points == 1 else forms[1]
    return forms[2]
