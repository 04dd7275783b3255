"""Exact methods: CP-SAT models (OR-Tools) and python-constraint models for small instances."""
