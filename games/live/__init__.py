"""Live updates (STYLE.md habit 9): websocket consumers and routing, the nudges the write path
sends on commit (nudges.py), and who has a page open (presence.py)."""
