"""The only writers of sessions, rounds and players; pages, the API and commands call these.

Every write takes its sessions and commits through ``writes``, one at a time per session. The
names below are what the rest of the app reads and calls (``services.record_round``); a test
patches a name in the module that owns it (``writes.audit``, ``values.MAX_ROUNDS``).
"""

from .corrections import replace_round, replace_rounds
from .hot_rows import state_after
from .listing import SessionFilter, SessionList, list_sessions
from .players import list_players, player_profile, rename_player
from .rounds import already_recorded, check_round, delete_round, record_round
from .rows import SessionRow
from .sessions import (
    ALL_ROUNDS,
    PlayedRound,
    SessionView,
    audit_entries,
    audit_of,
    chart_points,
    create_session,
    describe,
    finish_session,
    iso,
    load_session,
    round_dict,
    round_rows,
    session_dict,
    state_before,
    table_of,
    written_dict,
)
from .values import ID_MAX, MAX_ROUNDS, NAME_MAX

__all__ = [
    "ALL_ROUNDS",
    "ID_MAX",
    "MAX_ROUNDS",
    "NAME_MAX",
    "PlayedRound",
    "SessionFilter",
    "SessionList",
    "SessionRow",
    "SessionView",
    "already_recorded",
    "audit_entries",
    "audit_of",
    "chart_points",
    "check_round",
    "create_session",
    "delete_round",
    "describe",
    "finish_session",
    "iso",
    "list_players",
    "list_sessions",
    "load_session",
    "player_profile",
    "record_round",
    "rename_player",
    "replace_round",
    "replace_rounds",
    "round_dict",
    "round_rows",
    "session_dict",
    "state_after",
    "state_before",
    "table_of",
    "written_dict",
]
