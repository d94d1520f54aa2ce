"""Fitting the weights the package ships, from the gold sets in tests/gold (repository only)."""
