"""Game page GET: server CPU in-process (the goal "game page GET <= 8 ms of server CPU").

    DEBUG=false DATABASE_URL=postgres://postgres@127.0.0.1:5432/blokus_load \\
      REDIS_URL=redis://127.0.0.1:6379/3 SECRET_KEY=x ALLOWED_HOSTS=127.0.0.1 \\
      SECURE_SSL_REDIRECT=false .venv/bin/python bench/web/page_cpu.py [--games 30] [--preplay 16]

Creates classic 2-player games (bench/load/load_setup.py's helpers), plays each a few plies, then
for the seat to move GETs the whole game page through the Django test client (the full middleware
stack, sessions, auth, the production settings it runs with): once with the panel cache cleared
(a first view of the position) and then 10 more times (any later view: the cached panel). CPU
is ``time.process_time`` around each request. Prints medians and p95, in ms.
"""

from __future__ import annotations

import argparse
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
from django.core.cache import cache  # noqa: E402
from django.test import Client  # noqa: E402


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, int(len(values) * 0.95) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--preplay", type=int, default=16)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    tag = f"cpu{secrets.token_hex(3)}"
    first, later = [], []
    for i in range(args.games):
        a, b = load_setup.make_users(2, f"{tag}{i}")
        game = load_setup.play_random(load_setup.new_game(a, b), {0: a, 1: b}, args.preplay, rng)
        game.refresh_from_db()
        if game.status != game.Status.ACTIVE:
            continue
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login({0: a, 1: b}[game.to_move_seat])
        url = f"/games/{game.public_id}/"
        client.get(url)  # warm: the session, the URL resolver, this process's memos
        cache.clear()
        start = time.process_time()
        assert client.get(url).status_code == 200
        first.append((time.process_time() - start) * 1000)
        for _ in range(10):
            start = time.process_time()
            client.get(url)
            later.append((time.process_time() - start) * 1000)
    print(f"games: {len(first)}")
    print(
        f"first view of a position (cache cleared): median {statistics.median(first):.1f} ms, "
        f"p95 {p95(first):.1f} ms"
    )
    print(
        f"later views (cached panel): median {statistics.median(later):.1f} ms, "
        f"p95 {p95(later):.1f} ms"
    )
    load_setup.close_pool()


if __name__ == "__main__":
    main()
