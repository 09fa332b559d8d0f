"""Pages for players across sessions."""
