"""Scores of the service against the gold sets in tests/gold, one module per task (repository only)."""
