"""CPU time per simulation of the search with MctsParams switches set against without them, on
the same positions (classic two players, a game of random placements at 0 / 20 / 40 pieces),
one thread, seeded fixed-count searches, the variants interleaved, min of ``--repeat`` runs.

    .venv/bin/python bench/ai/switch_speed.py --base lgr=0 --set lgr=1 [--repeat 5]

``--base``: the constants of the "off" runs (default: MctsParams as it is); ``--set``: those
of the "on" runs, on top of ``--base``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere: the project on the path
    sys.path.insert(0, str(ROOT))

from games.ai import mcts  # noqa: E402
from games.engine import apply, legal_placements, new_game  # noqa: E402
from games.engine.rules import placement_text  # noqa: E402


def position(pieces: int, seed: int):
    rng = random.Random(seed)
    s = new_game(mode="classic", players=2, seed=seed, scoring="advanced")
    while s.ply < pieces and not s.over:
        s = apply(s, {"place": placement_text(rng.choice(sorted(legal_placements(s))))})
    return s


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", action="append", default=[], help="name=value")
    parser.add_argument("--set", action="append", default=[], help="name=value")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()

    def values(items):
        out = {}
        for item in items:
            name, _, value = item.partition("=")
            out[name] = type(getattr(mcts.MctsParams, name))(float(value))
        return out

    base = type("Base", (mcts.MctsParams,), {"threads": 1, **values(args.base)})
    test = type("Test", (base,), values(args.set))
    for pieces, sims in ((0, 3000), (20, 5000), (40, 15000)):
        s = position(pieces, args.seed)
        best = {"off": 1e9, "on": 1e9}
        for _ in range(args.repeat):
            for name, params in (("off", base), ("on", test)):
                began = time.process_time()
                mcts.mcts_choose(s, deadline=float("inf"), max_sims=sims, seed=1, params=params)
                best[name] = min(best[name], (time.process_time() - began) / sims * 1e6)
        print(
            f"{pieces} pieces ({sims} sims): off {best['off']:.1f} us, on {best['on']:.1f} us,"
            f" on/off {best['on'] / best['off']:.3f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
