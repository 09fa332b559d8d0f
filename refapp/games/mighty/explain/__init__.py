"""The words: a hand's explanation, "How we score" for a table's rules, and older rounds' words."""
