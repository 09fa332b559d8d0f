"""The Great Dalmuti's rule tests, one module per part of the rules (refapp/games/dalmuti)."""

import pytest

# the shared case runner asserts too: let pytest explain its failures like a test's
pytest.register_assert_rewrite("tests.games.dalmuti.support")
