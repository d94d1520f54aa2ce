"""Calibration of the shipped rules against the development gold sets (repository tooling)."""
