"""A Dalmuti hand's input, declared once: every path, the words naming it, its value's kind."""

from __future__ import annotations

from ..errors import N_
from ..round_input import InputPath
from .ranks import ROLES

#: the more specific pattern of a prefix comes first: the first that matches names the path
ROUND_INPUT = (
    InputPath("finish_order", N_("Finishing order"), "names"),
    InputPath("tribute", N_("Tribute")),
    InputPath("tribute.paid", N_("Tax paid as due")),
    InputPath("tribute.{role}", N_("Tribute cards of the %(role)s"), "cards"),
    InputPath("revolution", N_("Revolution")),
    InputPath("revolution.player", N_("Player who declared the revolution"), "name"),
    InputPath("revolution.kind", N_("Kind of revolution"), "revolution"),
    InputPath("hands", N_("Hands as dealt")),
    InputPath("hands.{player}", N_("%(player)s's hand as dealt"), "cards"),
    InputPath("merchant_trades", N_("Merchants' swaps (house rule)"), "names"),
    InputPath("merchant_trades.{n}", N_("Merchants' swap %(n)s"), "names"),
)

#: a role code in a path ("tribute.greater_peasant")
INPUT_PLACES = {"role": "|".join(ROLES)}
