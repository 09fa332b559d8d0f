"""Downloads of a session: the CSV of per-round deltas."""
