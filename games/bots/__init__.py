"""Bots outside the site: ``python -m games.bots gtp`` connects a GTP engine (Pentobi's
``pentobi-gtp``, or any engine that speaks its dialect) to a bot account through the public API.

A client like any other program: it speaks HTTP to ``/api/v1/`` with the account's token and
imports nothing of the site but the pure engine and AI (``games.engine``, ``games.ai``), never
the models, services or Django (tests/code/test_import_graph.py).
"""
