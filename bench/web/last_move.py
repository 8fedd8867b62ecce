"""A game's last move against its other moves: rated 2-player classic games played to
their end through the Django test client (the page's POST, htmx header), CPU and queries of each
move; the last move also writes the places and the ratings.

    DEBUG=false DATABASE_URL=postgres://postgres@127.0.0.1:5432/blokus_load \\
      REDIS_URL=redis://127.0.0.1:6379/3 SECRET_KEY=... ALLOWED_HOSTS=127.0.0.1 \\
      SECURE_SSL_REDIRECT=false CELERY_TASK_ALWAYS_EAGER=false \\
      .venv/bin/python bench/web/last_move.py [--games 3] [--queries]
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere: the project on the path
    sys.path.insert(0, str(ROOT))

from bench.load import load_setup  # noqa: E402  (sets Django up, before Django is imported)

# isort: split
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from games import engine  # noqa: E402
from games.models import Game  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--queries", action="store_true", help="print the last move's queries")
    args = parser.parse_args()
    rng = random.Random()
    for number in range(args.games):
        a, b = load_setup.make_users(2, f"last{rng.randrange(10**7)}")
        game = load_setup.new_game(a, b)
        game.rated = True
        game.save(update_fields=["rated"])
        clients = {}
        for seat, user in ((0, a), (1, b)):
            clients[seat] = Client(HTTP_HOST="127.0.0.1")
            clients[seat].force_login(user)
            clients[seat].get("/")  # the handler's first request (middleware set-up) not timed
        moves = []
        while True:
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            action = rng.choice(engine.legal_actions(game.current_state()))
            data = {
                "action": json.dumps(action),
                "ply": str(game.ply),
                "key": secrets.token_urlsafe(12),
            }
            with CaptureQueriesContext(connection) as captured:
                started = time.process_time()
                response = clients[game.to_move_seat].post(
                    f"/games/{game.public_id}/act/", data, HTTP_HX_REQUEST="true"
                )
                ms = (time.process_time() - started) * 1000
            assert response.status_code == 204, response.status_code
            moves.append((ms, len(captured)))
        others = [ms for ms, _ in moves[:-1]]
        print(
            f"game {number}: {len(moves)} moves; the others: median {statistics.median(others):.1f}"
            f" ms CPU, {statistics.median(q for _, q in moves[:-1]):.0f} queries; the last:"
            f" {moves[-1][0]:.1f} ms CPU, {moves[-1][1]} queries"
        )
    if args.queries:
        for query in captured.captured_queries:
            print(query["sql"][:160])
    load_setup.close_pool()


if __name__ == "__main__":
    main()
