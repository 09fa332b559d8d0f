"""Per-game page helpers: the words and view models a game's pages show (no rules computed here)."""
