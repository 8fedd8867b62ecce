"""Expert with today's search (games/ai/mcts/) against Expert with the search before issue #23
(bench/ai_mcts_old.py), classic games, the same time budget per decision, seats swapped between
the two games of each seed (random starts: the first four decisions are Beginner's).

    .venv/bin/python bench/ai_old_vs_new.py [--players 2] [--games 10] [--budget 0.5] [--seed N]
        [--sims N]

``--sims N`` stops every search at N simulations (the budget then only caps a slow one): the two
searches compared at the same number of simulations, i.e. the quality of a simulation, not its
speed.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for path in (ROOT, ROOT / "bench"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

import ai_mcts_old  # noqa: E402

import games.ai as ai  # noqa: E402
from bench.ai.arena import elo, pair_share, play_game, wilson  # noqa: E402
from games.ai import expert  # noqa: E402


def old_action(seat_view, state, rng, *, budget, max_sims=None):
    """Expert, its placements searched by the frozen search (classic games only)."""
    today = expert.mcts
    expert.mcts = ai_mcts_old
    try:
        return expert.expert_action(seat_view, state, rng, budget=budget, max_sims=max_sims)
    finally:
        expert.mcts = today


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2, choices=(2, 4))
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--budget", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--sims", type=int, default=None, help="simulations per search")
    args = parser.parse_args(argv)
    seed = random.SystemRandom().randrange(1, 100_000) if args.seed is None else args.seed
    sys.modules["bench_old_expert"] = sys.modules[__name__]
    ai.BENCH_LEVELS = (*ai.BENCH_LEVELS, "old")
    ai.BENCH_MODULES["old"] = "bench_old_expert"
    ai_mcts_old.warm_up()
    ai.mcts.warm_up()
    shares = []
    for g in range(args.games):
        seats = ["expert", "old"] * (args.players // 2)
        levels = seats if g % 2 == 0 else seats[1:] + seats[:1]
        times = {"expert": [], "old": []}
        result = play_game(
            levels,
            mode="classic",
            players=args.players,
            scoring="basic",
            seed=seed * 100_003 + g // 2,
            budget=args.budget,
            times=times,
            opening=4,
            max_sims=args.sims,
        )
        shares.append(pair_share(levels, result, "expert", "old"))
        scores = {levels[p["seat"]]: p["score"] for p in result["players"]}
        print(f"game {g + 1}: {scores} share {shares[-1]}", file=sys.stderr, flush=True)
    rate = sum(shares) / len(shares)
    lo, hi = wilson(rate, len(shares))
    print(
        f"seed {seed}, {args.players} players, {args.budget} s per decision"
        f"{f', {args.sims} simulations per search' if args.sims else ''}: today's search "
        f"beat the frozen one in {rate:.1%} [{lo:.1%}, {hi:.1%}] of {len(shares)} games; "
        f"Elo {elo(rate, len(shares))}"
    )


if __name__ == "__main__":
    main()
