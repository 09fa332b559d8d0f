"""The sessions list's filters moved to ``refapp.web.forms.filters``; the API still imports them
from here (``refapp/api/views.py``), so this name stays until that import moves."""

from .forms.filters import SessionFilterForm

__all__ = ["SessionFilterForm"]
