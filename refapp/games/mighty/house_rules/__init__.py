"""The house rules: the options, their seat-count defaults, the typed rules and the presets."""
