"""The public JSON API (``/api/v1/``): personal access tokens, the endpoints a program uses to
play its owner's games, and the event streams. It reads and writes through ``games.selectors`` and
``games.services`` exactly as the game pages do (docs/ARCHITECTURE.md, "The API")."""
