"""Every read query of the site, one room per subject (STYLE.md: selectors). A room hands out
plain data (frozen rows, small values), never a model instance dressed with extra attributes.

- ``access``: who may see a game (``game_for_viewer`` and its ``Viewed`` value: the game, the
  reader's seat, the table's seats), the same rule for lists (``visible_to``), the write paths'
  handles.
- ``table``: what the game page shows one reader: the presenters' facts, the names at the
  table, the snapshot of the reader's view, the clock, the move log.
- ``panel``: the panel's reads for one request and the key of its cached render.
- ``lists``: the lobby and My games, as rows.
- ``profiles``: a player's numbers and last results.
- ``names``: how a game is named in words (its page, the notices, the emails).
- ``history``: the replay's positions and the record export; ``analysis``: the post-game
  analysis; ``chat``: who reads which chat lines; ``takebacks``: take back requests.
- ``clock``, ``turns``, ``seating``: the move clock, turn facts and the seating rule that the
  write path shares; ``hot``: the game request's reads in SQL written once; ``vapid``: the Web
  Push keys; ``devices``: a player's devices and the notices their addresses refused.
"""
