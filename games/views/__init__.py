"""Views, one module per area: lobby (create/join/lists/help), play (the game page and its
partials), history (replay, records), chat (chat and reports)."""
