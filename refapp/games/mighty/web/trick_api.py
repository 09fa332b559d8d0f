"""API route for one Mighty trick judged alone: the referee's "who takes this?" (no session)."""

from flask.typing import ResponseReturnValue

from ....bodies import json_body
from .. import judge_trick
from . import api


@api.post("/mighty/trick")
def mighty_trick() -> ResponseReturnValue:
    """Decide one trick: its winner, the reason in the game's words, and its point cards."""
    result = judge_trick(json_body())
    return {key: value for key, value in result.items() if key != "explanation_parts"}
