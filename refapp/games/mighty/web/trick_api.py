"""API route for one Mighty trick judged alone: the referee's "who takes this?" (no session)."""

from ....api.views import json_body
from .. import judge_trick
from . import api


@api.post("/mighty/trick")
def mighty_trick():
    """Decide one trick: its winner, the reason in the game's words, and its point cards."""
    result = judge_trick(json_body())
    result.pop("explanation_parts", None)
    return result
