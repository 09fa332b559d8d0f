"""A hand's score: the base and multipliers, and the facts every sentence is built from."""
