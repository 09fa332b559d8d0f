"""Dixit rules tests."""
