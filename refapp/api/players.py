"""API routes for players across sessions (statistics, renaming)."""
