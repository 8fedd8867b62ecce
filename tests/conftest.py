"""Shared fixtures. Kept minimal: each test folder adds its own conftest.py as it grows."""
