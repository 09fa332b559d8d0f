"""The Mighty rule tests, one module per phase of the rules (refapp/games/mighty)."""
