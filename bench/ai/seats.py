"""Expert against Expert in classic two-player games at a fixed number of simulations: how
often the first seat (blue and red) wins, and, when the two seats' search parameters differ, how
often variant A beats variant B.

    .venv/bin/python bench/ai/seats.py --sims 1000 --games 20 --seed 1 \
        [--a centre_pieces=12] [--b centre_pieces=0] [--opening 0] [--threads 1] [--corners]

``--a`` / ``--b`` set ``MctsParams`` attributes (``name=value``, repeatable) for the seat playing
variant A / B; they take turns as the first seat (game 2k: A first; game 2k + 1: B first, on the
same seed). Without ``--b`` both seats play A, and every game has its own seed. Advanced
scoring (Pentobi's); a tie is half a win. ``--corners``: the colours start on Pentobi's corners
(a player's two colours diagonally opposite, as bench/ai/pentobi_arena.py moves our first pieces);
without it each colour picks any free corner (R3.1).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere: the project on the path
    sys.path.insert(0, str(ROOT))

from bench.ai.arena import wilson  # noqa: E402
from bench.ai.pentobi_arena import BoardMap, cells_of, fit_first_piece  # noqa: E402
from games.ai import decide, mcts  # noqa: E402
from games.engine import COLOURS, apply, new_game, score, view  # noqa: E402


def overrides(items: list[str]) -> dict:
    out = {}
    for item in items:
        name, _, value = item.partition("=")
        if not hasattr(mcts.MctsParams, name):
            raise SystemExit(f"MctsParams has no {name!r}")
        kind = type(getattr(mcts.MctsParams, name))
        out[name] = kind(float(value)) if kind is int else kind(value)
    return out


def play(variants: list[dict], *, seed: int, sims: int, opening: int, corners: bool) -> dict:
    """One game; ``variants[seat]``: the seat's MctsParams overrides."""
    base = {k: getattr(mcts.MctsParams, k) for v in variants for k in v}
    state = new_game(mode="classic", players=2, scoring="advanced", seed=seed)
    board_map = BoardMap()
    try:
        while not state.over:
            seat = state.controller()
            for k, v in base.items():
                setattr(mcts.MctsParams, k, v)
            for k, v in variants[seat].items():
                setattr(mcts.MctsParams, k, v)
            level = "beginner" if state.ply < opening else "expert"
            action = decide(
                view(state, seat),
                level=level,
                seed=seed * 1009 + state.ply,
                budget=600.0,
                max_sims=sims,
            )
            if corners and state.step == "setup":
                action, _ = fit_first_piece(state, action, board_map)
                board_map.first_piece(COLOURS[state.turn], cells_of(action["place"]))
            state = apply(state, action)
    finally:
        for k, v in base.items():
            setattr(mcts.MctsParams, k, v)
    return score(state)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--sims", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opening", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--corners", action="store_true", help="Pentobi's corners")
    parser.add_argument("--a", action="append", default=[])
    parser.add_argument("--b", action="append", default=None)
    parser.add_argument("--json", default=None, help="write the games here")
    args = parser.parse_args(argv)
    mcts.configure(threads=args.threads)
    mcts.warm_up()
    a, b = overrides(args.a), None if args.b is None else overrides(args.b)
    games = []
    began = time.time()
    for g in range(args.games):
        if b is None:
            seed, seats = args.seed + g, ["A", "A"]
        else:
            seed, seats = args.seed + g // 2, ["A", "B"] if g % 2 == 0 else ["B", "A"]
        variants = [a if s == "A" else b for s in seats]
        result = play(
            variants, seed=seed, sims=args.sims, opening=args.opening, corners=args.corners
        )
        pts = {p["seat"]: p["score"] for p in result["players"]}
        first = 1.0 if pts[0] > pts[1] else 0.5 if pts[0] == pts[1] else 0.0
        games.append({"seed": seed, "first": seats[0], "scores": pts, "first_won": first})
        print(
            f"game {g + 1} seed {seed} first {seats[0]}: {pts[0]}-{pts[1]} "
            f"({time.time() - began:.0f} s)",
            file=sys.stderr,
            flush=True,
        )
    n = len(games)
    rate = sum(x["first_won"] for x in games) / n
    lo, hi = wilson(rate, n)
    margin = sum(x["scores"][0] - x["scores"][1] for x in games) / n
    print(f"first seat won {rate:.1%} [{lo:.1%}, {hi:.1%}] of {n}; mean margin {margin:+.1f}")
    if b is not None:
        share = sum(x["first_won"] if x["first"] == "A" else 1 - x["first_won"] for x in games)
        lo, hi = wilson(share / n, n)
        print(f"A won {share / n:.1%} [{lo:.1%}, {hi:.1%}] of {n}")
    if args.json:
        Path(args.json).write_text(json.dumps({"args": vars(args), "games": games}, indent=1))


if __name__ == "__main__":
    main()
