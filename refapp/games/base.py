"""Former home of the shared value types, kept while importers move to their new modules."""

from .errors import N_, MalformedInput, NotFound, RuleViolation, fill, install_translator, quote
from .game import Account, Game, Outcome, Table, leaders, replay, running_totals, signed
from .inputs import mapping, require, sequence, whole_number
from .options import RuleOption, resolve_rules

__all__ = [
    "N_", "Account", "Game", "MalformedInput", "NotFound", "Outcome", "RuleOption",
    "RuleViolation", "Table", "fill", "install_translator", "leaders", "mapping", "quote",
    "replay", "require", "resolve_rules", "running_totals", "sequence", "signed", "whole_number",
]  # fmt: skip
