"""Presenters: page contexts built from what a seat may know (``engine.view`` plus
``engine.table``), never from a State. The game page (``game``) and the replay (``replay``)
share their words (``captions``) and the board helpers (``board``)."""
