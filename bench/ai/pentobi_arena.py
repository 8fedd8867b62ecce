"""Our AI levels against Pentobi's GTP engine, and Pentobi reading our ``.blksgf``
files.

Pentobi (GPL, https://github.com/enz/pentobi) is not part of this project: build its
``pentobi-gtp`` from its public source outside the repository (README, "Benchmarks") and name it
in ``PENTOBI_GTP``. Pentobi's opening books (``opening_books/`` in its source) are used when
``--books DIR`` (or ``PENTOBI_BOOKS``) names that folder, otherwise it plays with ``--nobook``.

    PENTOBI_GTP=out/pentobi/build/pentobi_gtp/pentobi-gtp \\
        .venv/bin/python bench/ai/pentobi_arena.py --level expert --pentobi-level 5 --games 20
    .venv/bin/python bench/ai/pentobi_arena.py sgf-check [--games 2]

**Arena.** Classic Blokus with Pentobi's rules: two players (``--players 2``, Pentobi's
``classic_2``: blue and red against yellow and green, R2.3), three (``classic_3``: one colour
each, green shared and taken in rotation by blue's player, yellow's, red's, as R2.4 and
Pentobi's alternate player agree) or four (``classic``: one colour for us, three for Pentobi).
With three and four players the report counts our first places against the fair share and our
mean place. Scores are R8.4's advanced scoring, which is Pentobi's counting (Pentobi
counts squares on the board where R8.4 counts squares left, 89 apart per colour, with the same
+15 / +5 bonuses), so both engines must agree on every final score, and they are checked to. Our
side moves with ``games.ai.decide`` from its seat's view, Pentobi with ``genmove``; every move of
either side goes through both engines (our ``apply``, Pentobi's ``play``), and a move one of them
refuses stops the run: that is a bug, not a result. Seats alternate from game to game and every
seed of the fixed list ``--seed``, ``--seed`` + 1, ... is played from every seat.

**What a run writes down.** The first seed (``--seed``, or drawn per run from the operating
system's randomness, ``os.urandom``) and the seeds of the games, the commit that played (``git
rev-parse``, ``-dirty`` when tracked files differ from it), the load average before and after,
and the command that plays the run again: printed on stderr when the run starts and in the
report (Markdown and ``--json``). Every game is kept as a ``.blksgf`` file under ``--sgf DIR``
(default ``out/pentobi_arena/<time>-seed<seed>/``), which Pentobi opens.

``--sims N`` with ``--cli`` or ``--paired`` passes ``--sims N`` to the command line: a search
that reaches N before its budget plays there what it plays in this process (the same seed), so a
paired run then plays every pair twice alike.

**Corners.** Here each colour places its first piece on any free corner (R3.1); Pentobi starts
blue at a20, yellow t20, red t1, green a1. The two boards are the same board under one of its
eight symmetries (turns and mirror images, as in games/engine/blksgf.py), chosen as the colours
take their corners. Pentobi's rule is stricter: red must start opposite blue, and yellow next to
blue. Our search is told so (``MctsParams.fixed_corners``): it places each colour's first
piece on Pentobi's corner for it, so the symmetry stays the identity, and plans with the
others' first pieces there too. With ``--free-corners`` (and with ``--cli`` / ``--paired``,
which play as the command line does) it plays the site's game instead: when it picks a corner
no symmetry can match, its first piece is moved (the same piece, turned or mirrored with the
board) to the corner Pentobi's rule leaves it, and the report counts how often that happened.

**sgf-check.** Plays finished classic games with our AIs (two, three and four players, corners
as above), writes them with ``games.engine.blksgf.export``, loads each with ``loadsgf`` into a
``pentobi-gtp`` started in the matching variant, and checks that Pentobi's board (``showboard``),
its scores (``final_score``) and its view that no colour has a move left (``all_legal``) match
ours.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere: the project on the path
    sys.path.insert(0, str(ROOT))

from bench.ai.arena import (  # noqa: E402
    elo,
    head_commit,
    load,
    machine,
    mean_ci,
    pct,
    percentile,
    wilson,
)
from games.ai import LEVELS, decide, mcts  # noqa: E402
from games.ai.book import book_move  # noqa: E402
from games.ai.expert import ExpertParams  # noqa: E402

# The GTP client and Pentobi's coordinates are the bridge's (games.bots.gtp): one copy.
from games.bots.gtp import (  # noqa: E402
    COMMAND_TIMEOUT,
    CORNER_CELLS,
    VARIANT,
    BoardMap,
    Cell,
    Gtp,
    GtpError,
    NoMapping,
    format_move,
    parse_move,
)
from games.engine import COLOURS, IllegalAction, apply, new_game  # noqa: E402
from games.engine import score as engine_score  # noqa: E402
from games.engine import view as seat_view  # noqa: E402
from games.engine.blksgf import COLOUR_NUMBER, SYMMETRIES, export  # noqa: E402
from games.engine.record import make_record  # noqa: E402
from games.engine.rules import placement_text  # noqa: E402
from games.engine.scoring import colour_points  # noqa: E402

BOOK = {2: "book_classic_2.blksgf", 3: "book_classic_3.blksgf", 4: "book_classic.blksgf"}
SQUARES_PER_COLOUR = 89  # R1.3
OUT = ROOT / "out" / "pentobi_arena"  # the games of each run, a folder per run (``--sgf``)
# showboard's characters for the four colours; '.' is empty, '+' an empty starting point.
BOARD_MARK = {"X": "B", "O": "Y", "#": "R", "@": "G", ".": ".", "+": "."}


class ArenaError(RuntimeError):
    """Something that must not happen between two engines that play by the same rules."""


# -- coordinates --------------------------------------------------------------------------------


def cells_of(text: str) -> list[Cell]:
    return parse_move(text)


def fit_first_piece(state, action: dict, board_map: BoardMap) -> tuple[dict, bool]:
    """Our colour's first piece, moved to a corner Pentobi's rules allow if it is not on one.

    Returns the action to play and whether it was moved. The piece keeps its shape and its place
    relative to its corner (the board's symmetry that takes one corner to the other moves it).
    """
    colour = COLOURS[state.turn]
    cells = cells_of(action["place"])
    allowed = board_map.allowed_corners(colour)
    if set(cells) & set(allowed):
        return action, False
    (corner,) = set(cells) & CORNER_CELLS  # R3.1: a first piece covers one corner
    for target in allowed:
        for f in SYMMETRIES:
            if f(*corner) != target:
                continue
            moved = {"place": format_move(f(x, y) for x, y in cells)}
            try:
                apply(state, moved)
            except IllegalAction:
                continue
            return moved, True
    raise ArenaError(f"no corner Pentobi allows is free for {colour}'s first piece")


# -- GTP ----------------------------------------------------------------------------------------


def pentobi_command(binary: str, players: int, *, level: int, seed: int, books: str | None):
    argv = [binary, "--game", VARIANT[players], "--level", str(level), "--seed", str(seed)]
    argv += ["--noresign", "--quiet"]  # play every game out; no log on stderr
    argv += ["--book", str(Path(books) / BOOK[players])] if books else ["--nobook"]
    return argv


def parse_showboard(text: str) -> list[str]:
    """``showboard``'s board as 20 strings, row 20 first, ``B Y R G .`` (as RECORD.md's state)."""
    rows: dict[int, str] = {}
    for line in text.splitlines():
        label = line[:2].strip()
        if not label.isdigit() or len(line) < 3 + 2 * 19 + 1 or line[2] != " ":
            continue
        marks = [line[3 + 2 * i] for i in range(20)]
        if any(m not in BOARD_MARK for m in marks):
            raise GtpError(f"showboard: unknown square in row {label}: {line!r}")
        rows[int(label)] = "".join(BOARD_MARK[m] for m in marks)
    if sorted(rows) != list(range(1, 21)):
        raise GtpError("showboard: the answer does not hold 20 rows of 20 squares")
    return [rows[r] for r in range(20, 0, -1)]


def board_for_pentobi(rows: list[str], board_map: BoardMap) -> list[str]:
    """Our board (``State.board_rows()``) seen through the symmetry, as Pentobi should show it."""
    grid = [["."] * 20 for _ in range(20)]
    for i, row in enumerate(rows):
        for x, mark in enumerate(row):
            if mark != ".":
                px, py = board_map.to_pentobi([(x, 19 - i)])[0]
                grid[19 - py][px] = mark
    return ["".join(row) for row in grid]


def pentobi_points(state) -> dict[str, int]:
    """Each colour's points as Pentobi counts them: squares on the board + R8.4's bonus."""
    return {COLOURS[c]: SQUARES_PER_COLOUR + colour_points(state, c) for c in range(4)}


def check_final(gtp: Gtp, state, players: int) -> str:
    """Pentobi agrees the game is over and scores it as we do; returns its final_score."""
    for c in range(4):
        if gtp.send(f"all_legal {COLOUR_NUMBER[COLOURS[c]]}").strip():
            raise ArenaError(f"Pentobi still has a move for {COLOURS[c]} at our game's end")
    answer = gtp.send("final_score").strip()
    points = pentobi_points(state)
    if players == 2:
        diff = points["blue"] + points["red"] - points["yellow"] - points["green"]
        expected = f"B+{diff}" if diff > 0 else f"W+{-diff}" if diff < 0 else "0"
    else:
        expected = " ".join(str(points[c]) for c in COLOURS)
    if answer.split() != expected.split():
        raise ArenaError(f"Pentobi scores {answer!r}, we score {expected!r} (R8.4)")
    return answer


# -- the arena ----------------------------------------------------------------------------------


def _our_move(state, seat: int, game: dict, board_map: BoardMap, out: dict):
    colour = COLOURS[state.turn]
    began = time.perf_counter()
    seed = game["seed"] * 1009 + state.ply
    if game["level"] in ("expert", "master") and ExpertParams.book:  # counted, not played here
        fixed = bool(mcts.MctsParams.fixed_corners)
        out["book_moves"] += book_move(state, fixed_corners=fixed) is not None
    if game.get("cli"):
        action = cli_move(game, out.get("actions", []), seed)
    else:
        action = decide(
            seat_view(state, seat),
            level=game["level"],
            seed=seed,
            budget=game["budget"],
            max_sims=game.get("sims"),
        )
    out["our_times"].append(time.perf_counter() - began)
    cells = cells_of(action["place"])
    if state.step == "setup":
        action, moved = fit_first_piece(state, action, board_map)
        out["corners_moved"] += moved
        out["our_first_pieces"] += 1
        cells = cells_of(action["place"])
        board_map.first_piece(colour, cells)
    after = apply(state, action)
    return after, f"play {COLOUR_NUMBER[colour]} {format_move(board_map.to_pentobi(cells))}"


def cli_move(game: dict, actions: list[dict], seed: int) -> dict:
    """Our move from the command line (``--cli``): a new ``python -m games.ai move``
    process per decision, handed the game so far as a record on standard input, as a tool
    outside the site would call it. The level's own budget, or ``--budget``."""
    argv, record = cli_command(game, actions, seed)
    done = subprocess.run(
        argv, cwd=ROOT, input=record, capture_output=True, text=True, timeout=COMMAND_TIMEOUT
    )
    if done.returncode != 0:
        raise ArenaError(f"python -m games.ai move failed ({done.returncode}): {done.stderr}")
    return json.loads(done.stdout)


def cli_command(game: dict, actions: list[dict], seed: int) -> tuple[list[str], str]:
    """The command line ``cli_move`` runs and the record it hands it on standard input."""
    initial = new_game(mode="classic", players=game["players"], scoring="advanced")
    record = json.dumps(make_record(initial, actions, reveal=False))
    argv = [sys.executable, "-m", "games.ai", "move", "--level", game["level"]]
    argv += ["--seed", str(seed), "-"]
    if game["budget"] is not None:
        argv[-1:-1] = ["--budget", str(game["budget"])]
    if game.get("sims"):
        argv[-1:-1] = ["--sims", str(game["sims"])]
    return argv, record


def _their_move(state, gtp: Gtp, board_map: BoardMap, out: dict):
    colour = COLOURS[state.turn]
    began = time.perf_counter()
    answer = gtp.send(f"genmove {COLOUR_NUMBER[colour]}").strip()
    out["pentobi_times"].append(time.perf_counter() - began)
    if answer.lower() == "pass":
        raise ArenaError(f"Pentobi passed for {colour} at ply {state.ply}; it has a placement")
    first = state.step == "setup"
    allowed = board_map.allowed_corners(colour)
    cells = board_map.from_pentobi(parse_move(answer))
    if first and not set(cells) & set(allowed):
        raise ArenaError(f"Pentobi's first {colour} piece {answer} is off its starting point")
    try:
        return apply(state, {"place": format_move(cells)})
    except IllegalAction as exc:
        where = f"Pentobi's move {answer} for {colour} at ply {state.ply}"
        raise ArenaError(f"{where}: {exc}") from None


def square_list(value: int) -> str:
    """A placement value as the record's squares ("a1,b1,...")."""
    return placement_text(value)


def play_game(game: dict) -> dict:
    """One game (``game``: players, our_seat, level, budget, sims, threads, seed, pentobi argv),
    with the search's constants set for it (``--threads``, ``--param``, ``--free-corners``) and
    put back afterwards (a run of one job plays in the caller's process)."""
    params = dict(game.get("params") or {})  # --param: a variant of the search
    params.setdefault("fixed_corners", 1 if game.get("fixed_corners") else 0)
    if game.get("threads"):
        params["threads"] = game["threads"]
    before = {name: getattr(mcts.MctsParams, name) for name in params}
    had_book = ExpertParams.book
    try:
        for name, value in params.items():
            setattr(mcts.MctsParams, name, value)
        ExpertParams.book = game.get("book", True)  # --no-book
        out = _play_game(game)
    finally:
        for name, value in before.items():
            setattr(mcts.MctsParams, name, value)
        ExpertParams.book = had_book
    out["budget"] = game["budget"]
    out["our_s"] = round(sum(out["our_times"]), 3)  # each side's thinking time in the game
    out["pentobi_s"] = round(sum(out["pentobi_times"]), 3)
    return out


def _play_game(game: dict) -> dict:
    players, our_seat = game["players"], game["our_seat"]
    state = initial = new_game(mode="classic", players=players, scoring="advanced")
    board_map = BoardMap()
    out = {
        "our_times": [],
        "pentobi_times": [],
        "corners_moved": 0,
        "our_first_pieces": 0,
        "book_moves": 0,
    }
    with Gtp(game["argv"]) as gtp:
        version = gtp.send("version")
        while not state.over:
            seat = state.controller()
            before = len(state.pieces[state.turn])
            colour = state.turn
            if seat == our_seat:
                state, command = _our_move(state, seat, game, board_map, out)
                gtp.send(command)  # Pentobi refuses an illegal move: GtpError
            else:
                state = _their_move(state, gtp, board_map, out)
            out.setdefault("actions", []).append(
                {"place": square_list(state.pieces[colour][before])}
            )
        final = check_final(gtp, state, players)
        board = parse_showboard(gtp.send("showboard"))
    if board != board_for_pentobi(state.board_rows(), board_map):
        raise ArenaError("Pentobi's board differs from ours at the game's end")
    if game.get("sgf_dir"):
        names = ["Pentobi" if p != our_seat else game["level"] for p in range(players)]
        how = "-cli" if game.get("cli") else ""  # --paired plays each index both ways
        path = Path(game["sgf_dir"]) / f"game{game['index']:03d}-seed{game['seed']}{how}.blksgf"
        record = make_record(initial, out["actions"], reveal=True)
        path.write_text(export(record, names=names, date=f"{datetime.now(UTC):%Y-%m-%d}"))
    out.pop("actions", None)
    result = engine_score(state)
    ours = result["players"][our_seat]
    theirs = [p for p in result["players"] if p["seat"] != our_seat]
    firsts = [p for p in result["players"] if p["place"] == 1]
    outcome = "loss" if ours["place"] != 1 else "win" if len(firsts) == 1 else "draw"
    return {
        "index": game["index"],
        "seed": game["seed"],
        "our_seat": our_seat,
        "cli": bool(game.get("cli")),
        "our_colours": ours["colours"],
        "outcome": outcome,
        "our_place": ours["place"],
        "first_share": 1.0 / len(firsts) if ours["place"] == 1 else 0.0,
        "our_score": ours["score"],
        "best_pentobi_score": max(p["score"] for p in theirs),
        "pentobi_final_score": final,
        "pentobi_version": version,
        "plies": state.ply,
        **out,
    }


def games_of(args, argv_for) -> list[dict]:
    """The games of a run: seat ``g % players`` for us, seed ``seed + g // players``. With
    ``--paired`` each of them twice in a row, first in this process (``cli`` false: as a worker
    plays) and then from the command line (``cli`` true), so that the two ways of playing meet
    the same seeds, seats and Pentobi, under the same load, in turn."""
    out = []
    for g in range(args.games):
        seed = args.seed + g // args.players
        if args.our_seats is not None and g % args.players not in args.our_seats:
            continue
        for cli in (False, True) if args.paired else (args.cli,):
            out.append(
                {
                    "index": g,
                    "players": args.players,
                    "our_seat": g % args.players,
                    "level": args.level,
                    "budget": args.budget,
                    "sims": args.sims,
                    "threads": args.threads,
                    "params": args.param,
                    "fixed_corners": not args.free_corners,
                    "book": not args.no_book,
                    "seed": seed,
                    "argv": argv_for(seed),
                    "sgf_dir": args.sgf,
                    "cli": cli,
                }
            )
    return out


def points(result: dict) -> float:
    return {"win": 1.0, "draw": 0.5}.get(result["outcome"], 0.0)


def paired_difference(results: list[dict]) -> dict:
    """``--paired``: the command line's points minus the worker's, game by game (same seed and
    seat), with a 95 % interval from the spread of those differences (normal approximation)."""
    worker = {(r["seed"], r["our_seat"]): points(r) for r in results if not r.get("cli")}
    diffs = [
        points(r) - worker[(r["seed"], r["our_seat"])]
        for r in results
        if r.get("cli") and (r["seed"], r["our_seat"]) in worker
    ]
    if not diffs:
        return {"pairs": 0}
    mean, lo, hi = mean_ci(diffs)  # one pair: its difference, no spread
    return {
        "pairs": len(diffs),
        "mean": round(mean, 4),
        "ci95": [round(lo, 4), round(hi, 4)],
        "same": sum(d == 0 for d in diffs),
    }


def summarize(results: list[dict]) -> dict:
    n = len(results)
    wins = sum(r["outcome"] == "win" for r in results)
    draws = sum(r["outcome"] == "draw" for r in results)
    rate = (wins + draws / 2) / n if n else 0.0
    lo, hi = wilson(rate, n)
    margins = [r["our_score"] - r["best_pentobi_score"] for r in results]
    mean, mlo, mhi = mean_ci(margins) if margins else (0.0, 0.0, 0.0)
    ours = [t for r in results for t in r["our_times"]]
    theirs = [t for r in results for t in r["pentobi_times"]]
    seats = {}
    for seat in sorted({r["our_seat"] for r in results}):
        mine = [r for r in results if r["our_seat"] == seat]
        seats[str(seat)] = [len(mine), sum(points(r) for r in mine)]
    places = [r["our_place"] for r in results if "our_place" in r]
    firsts = sum(r.get("first_share", 0.0) for r in results)
    return {
        "elo": elo(rate, n),
        "by_seat": seats,
        "mean_place": round(statistics.fmean(places), 3) if places else None,
        "firsts": round(firsts, 2),  # a first place shared by k counts 1/k
        "games": n,
        "wins": wins,
        "draws": draws,
        "losses": n - wins - draws,
        "win_rate": round(rate, 4),
        "win_ci95": [round(lo, 4), round(hi, 4)],
        "mean_margin": round(mean, 2),
        "margin_ci95": [round(mlo, 2), round(mhi, 2)],
        "our_decisions": len(ours),
        "our_mean_s": round(sum(ours) / len(ours), 3) if ours else 0.0,
        "pentobi_mean_s": round(sum(theirs) / len(theirs), 3) if theirs else 0.0,
        "our_p50_s": round(percentile(ours, 0.5), 3),
        "our_p95_s": round(percentile(ours, 0.95), 3),
        "pentobi_moves": len(theirs),
        "pentobi_p50_s": round(percentile(theirs, 0.5), 3),
        "pentobi_p95_s": round(percentile(theirs, 0.95), 3),
        "corners_moved": sum(r["corners_moved"] for r in results),
        "our_first_pieces": sum(r["our_first_pieces"] for r in results),
        "book_moves": sum(r.get("book_moves", 0) for r in results),
    }


def run_arena(args, binary: str, argv: list[str]) -> dict:
    def argv_for(seed: int) -> list[str]:
        return pentobi_command(
            binary, args.players, level=args.pentobi_level, seed=seed, books=args.books
        )

    draw_seed(args)
    Path(args.sgf).mkdir(parents=True, exist_ok=True)
    if args.equal_time:
        args.calibration = pentobi_seconds(args, binary)
        args.budget = args.calibration["mean_s"]
        print(
            f"pentobi_arena: Pentobi level {args.pentobi_level} took {args.budget:.3f} s a move "
            f"(mean of {args.calibration['moves']} moves in {args.calibration['games']} "
            "self-play games without its book): our first budget, then matched game by game",
            file=sys.stderr,
            flush=True,
        )
    games = games_of(args, argv_for)
    results = []
    revision = commit()  # the code that plays, even if HEAD moves during a long run
    started = time.time()
    load_before = load()
    print(
        f"pentobi_arena: seed {args.seed} ({'given' if args.seed_given else 'drawn for this run'})"
        f", games' seeds {', '.join(map(str, sorted({g['seed'] for g in games})))}; commit "
        f"{revision}; load {load_before}; games kept in {args.sgf}",
        file=sys.stderr,
        flush=True,
    )
    if args.jobs == 1:
        iterator = map(play_game, games)
    else:
        pool = ProcessPoolExecutor(max_workers=args.jobs)
        iterator = pool.map(play_game, games)
    for result in iterator:
        results.append(result)
        if args.equal_time:  # the next games' budget: our time over the run brought to Pentobi's
            args.budget = matched_budget(args.budget, results, len(games) - len(results))
            for later in games[len(results) :]:
                later["budget"] = args.budget
        if args.progress:
            print(
                f"game {len(results)}/{len(games)}: {result['outcome']} "
                f"{result['our_score']} vs {result['best_pentobi_score']} "
                f"(seat {result['our_seat']}, seed {result['seed']}"
                f"{', command line' if result['cli'] else ''})",
                file=sys.stderr,
                flush=True,
            )
        if args.json:  # the report so far, after every game: a stopped run keeps its games
            report = arena_report(args, argv, results, revision, started, load_before)
            Path(args.json).write_text(json.dumps(report, indent=2))
    if args.jobs != 1:
        pool.shutdown()
    return arena_report(args, argv, results, revision, started, load_before)


def self_play_times(argv: list[str]) -> list[float]:
    """Seconds of each ``genmove`` of a Pentobi self-play game (``argv`` starts the engine):
    every colour in turn until all four pass."""
    times = []
    with Gtp(argv) as gtp:
        passes = 0
        colour = 0
        while passes < 4:
            began = time.perf_counter()
            answer = gtp.send(f"genmove {COLOUR_NUMBER[COLOURS[colour]]}").strip()
            if answer.lower() == "pass":
                passes += 1
            else:
                times.append(time.perf_counter() - began)
                passes = 0
            colour = (colour + 1) % 4
    return times


def matched_budget(budget: float, results: list[dict], remaining: int = 1) -> float:
    """``--equal-time``: our next games' seconds a decision, so that our thinking time over the
    run comes to Pentobi's: Pentobi's time so far and its mean a game over the ``remaining``
    games, less our time so far, shared among those games, each of our seconds bought at the
    rate the games so far show (our seconds per second of budget, per game). Each side's time is
    its whole thinking time in a game, book moves included on both sides; the result is at most
    twice or half ``budget``. Our search often uses less than its budget (it stops once its pick
    cannot change, Pentobi's rule too), and Pentobi's time a move is its level's simulations, so
    neither side's time is known before the games.

    An earlier rule multiplied the budget by Pentobi's time over ours so far after each game:
    while the first games' deficit lasted it kept raising the budget, and overshot (0.57 s, 1.64,
    0.97, 1.66, 1.06 in the first five games of a run). This one spreads the deficit over the
    games left, so each game's budget stays near the one that matches the means."""
    ours = sum(r["our_s"] for r in results)
    theirs = sum(r["pentobi_s"] for r in results)
    rates = [r["our_s"] / r["budget"] for r in results if r["budget"] and r["our_s"] > 0]
    if not rates or theirs <= 0:
        return budget
    rate = sum(rates) / len(rates)  # our seconds a game per second of budget
    left = max(1, remaining)
    wanted = (theirs + left * theirs / len(results) - ours) / (left * rate)
    return round(min(2.0 * budget, max(0.5 * budget, wanted)), 3)


def pentobi_seconds(args, binary: str) -> dict:
    """``--equal-time``: Pentobi's mean seconds a move at its level on this machine now, from a
    self-play game (seed ``seed - 1``, before the run's own) without its book: a book move takes
    no time, and the games' own first moves come from the book on both sides. It is the first
    game's budget only (``matched_budget`` follows the games, one at a time)."""
    argv = pentobi_command(
        binary, args.players, level=args.pentobi_level, seed=args.seed - 1, books=None
    )
    times = self_play_times(argv)
    return {
        "games": 1,
        "moves": len(times),
        "mean_s": round(sum(times) / len(times), 3),
        "p50_s": round(percentile(times, 0.5), 3),
    }


def draw_seed(args) -> None:
    """The run's first seed: drawn from the operating system's randomness unless ``--seed``
    gave one; and the folder its games are kept in (``--sgf``, else one under ``OUT``)."""
    if not hasattr(args, "seed_given"):
        args.seed_given = args.seed is not None
    if args.seed is None:  # chosen per run, written in the report
        args.seed = random.SystemRandom().randrange(1, 100_000)
    if not args.sgf:
        args.sgf = str(OUT / f"{datetime.now(UTC):%Y%m%d-%H%M%S}-seed{args.seed}")


def arena_report(args, argv, results, revision, started, load_before) -> dict:
    again = list(argv) if args.seed_given else [*argv, "--seed", str(args.seed)]
    report = {
        "level": args.level,
        "budget": args.budget,
        "pentobi_level": args.pentobi_level,
        "sims": args.sims,
        "threads": args.threads,
        "params": args.param,
        "equal_time": getattr(args, "calibration", None),
        "corners": "free" if args.free_corners else "fixed",
        "book": not args.no_book,
        "cli": args.cli,
        "paired": args.paired,
        "players": args.players,
        "seed": args.seed,
        "seed_drawn": not args.seed_given,
        "seeds": sorted({r["seed"] for r in results}),
        "sgf": args.sgf,
        "jobs": args.jobs,
        "books": bool(args.books),
        "pentobi_version": results[0]["pentobi_version"] if results else "",
        "command": "PENTOBI_GTP=... .venv/bin/python bench/ai/pentobi_arena.py " + " ".join(again),
        "commit": revision,
        "date": f"{datetime.now(UTC):%Y-%m-%d}",
        "machine": machine(),
        "wall_s": round(time.time() - started, 1),
        "load_before": round(load_before, 2),
        "load_after": load(),
        "summary": summarize(results),
        "games": [
            {k: v for k, v in r.items() if k not in ("our_times", "pentobi_times")} for r in results
        ],
    }
    if args.paired:
        report["summary_worker"] = summarize([r for r in results if not r["cli"]])
        report["summary_cli"] = summarize([r for r in results if r["cli"]])
        report["difference"] = paired_difference(results)
    return report


# -- reports ------------------------------------------------------------------------------------


def commit() -> str:
    """The commit that plays, ``-dirty`` when tracked files differ from it."""
    return head_commit()


def fmt_elo(value) -> str:
    if not value:
        return "-"
    best, lo, hi = ("?" if v is None else f"{v:+.0f}" for v in value)
    return f"{best} [95 % CI {lo}, {hi}]"


def summary_row(name: str, s: dict) -> str:
    lo, hi = s["win_ci95"]
    mlo, mhi = s["margin_ci95"]
    return (
        f"| {name}{s['games']} | {s['wins']}–{s['draws']}–{s['losses']} "
        f"| {pct(s['win_rate'])} [{pct(lo)}, {pct(hi)}] "
        f"| {s['mean_margin']:+.1f} [{mlo:+.1f}, {mhi:+.1f}] "
        f"| {s['our_p50_s']:.2f} / {s['our_p95_s']:.2f} ({s['our_decisions']}) "
        f"| {s['pentobi_p50_s']:.3f} / {s['pentobi_p95_s']:.3f} ({s['pentobi_moves']}) |"
    )


def paired_lines(diff: dict | None) -> list[str]:
    if not diff or not diff.get("pairs"):
        return []
    lo, hi = diff["ci95"]
    return [
        f"Command line minus this process, game by game: {diff['mean'] * 100:+.1f} points "
        f"[95 % CI {lo * 100:+.1f}, {hi * 100:+.1f}] over {diff['pairs']} pairs "
        f"({diff['same']} with the same result).",
        "",
    ]


def arena_markdown(report: dict) -> str:
    s = report["summary"]
    who = report["level"] + (f" (budget {report['budget']} s)" if report["budget"] else "")
    if report.get("sims"):
        who += f", {report['sims']} simulations a search"
    if report.get("params"):
        who += ", " + ", ".join(f"{k}={v}" for k, v in report["params"].items())
    if report.get("corners") == "free" and not report.get("cli") and not report.get("paired"):
        who += ", free corners (R3.1; first pieces moved to Pentobi's)"
    if report.get("book") is False:
        who += ", without our opening book"
    if report.get("cli"):
        who += ", from the command line (a process per move)"
    last_seed = max((g["seed"] for g in report["games"]), default=report["seed"])
    if report.get("paired"):
        who += ", in this process and from the command line, game by game"
    mode = {
        2: "two players (classic_2)",
        3: "three players (classic_3)",
        4: "four players (classic)",
    }[report["players"]]
    rows = [("", s)]
    if report.get("paired"):
        rows = [
            ("in this process: ", report["summary_worker"]),
            ("command line: ", report["summary_cli"]),
        ]
    return "\n".join(
        [
            f"### {who} vs Pentobi level {report['pentobi_level']}, classic, {mode}",
            "",
            "```",
            report["command"],
            "```",
            "",
            "| games | won–drawn–lost | win rate [95 % CI] | mean margin [95 % CI] "
            "| our s/decision p50 / p95 | Pentobi s/move p50 / p95 |",
            "|---|---|---|---|---|---|",
            *(summary_row(name, x) for name, x in rows),
            "",
            *paired_lines(report.get("difference")),
            *equal_time_lines(report.get("equal_time"), s, report.get("games", [])),
            *places_lines(report["players"], s),
            " ".join(
                f"{name}Elo difference {fmt_elo(x.get('elo'))}; by our seat (games, points): "
                f"{x.get('by_seat', {})}."
                for name, x in rows
            )
            + " "
            f"Pentobi {report['pentobi_version']}, "
            f"{'opening book' if report['books'] else 'no opening book'}, 1 thread; "
            f"seeds {report['seed']}–{last_seed}"
            f"{' (drawn for this run)' if report.get('seed_drawn') else ''}, seats alternated"
            f"{'; games kept in ' + report['sgf'] if report.get('sgf') else ''}. "
            "Our first pieces moved to Pentobi's corner: "
            f"{s['corners_moved']} of {s['our_first_pieces']}; our moves from our opening book: "
            f"{s.get('book_moves', 0)}. Commit {report['commit']}, "
            f"{report['date']}, {report['machine']}; wall {report['wall_s']} s, load "
            f"{report['load_before']} before, {report['load_after']} after.",
        ]
    )


def places_lines(players: int, s: dict) -> list[str]:
    """Three and four players: our first places against the fair share, and our mean place."""
    if players == 2 or not s.get("games") or s.get("mean_place") is None:
        return []
    share = s["firsts"] / s["games"]
    fair = 1 / players
    return [
        f"First places: {s['firsts']:g} of {s['games']} ({share:.1%}; a first place shared by k "
        f"counts 1/k), {share / fair:.2f}x the fair share of {fair:.1%}; mean place "
        f"{s['mean_place']:.2f} of {players}; margin: our score minus the best Pentobi colour's.",
        "",
    ]


def equal_time_lines(calibration: dict | None, s: dict, games: list[dict]) -> list[str]:
    """``--equal-time``: where our budget came from, how it followed the games, and both
    sides' mean seconds a move in the games themselves."""
    if not calibration:
        return []
    budgets = [g["budget"] for g in games if g.get("budget")]
    followed = (
        f" Our budget then followed the games (``matched_budget``): {budgets[0]} s in the first, "
        f"{budgets[-1]} s in the last, {statistics.fmean(budgets):.3f} s on average."
        if budgets
        else ""
    )
    return [
        f"Equal time: Pentobi's mean {calibration['mean_s']} s a move (median "
        f"{calibration['p50_s']} s) over {calibration['moves']} moves of {calibration['games']} "
        f"self-play game(s) without its book, before the run, was our first budget.{followed} "
        f"In the games: our mean {s.get('our_mean_s')} s a decision, Pentobi's "
        f"{s.get('pentobi_mean_s')} s a move.",
        "",
    ]


# -- sgf-check ----------------------------------------------------------------------------------


def self_play(players: int, levels: list[str], seed: int) -> tuple[dict, object, BoardMap]:
    """A finished classic game of our AIs whose corners Pentobi's rules allow: (record, final
    state, the symmetry to Pentobi's board)."""
    initial = state = new_game(mode="classic", players=players, scoring="advanced")
    board_map = BoardMap()
    actions = []
    while not state.over:
        seat = state.controller()
        level = levels[seat % len(levels)]
        action = decide(seat_view(state, seat), level=level, seed=seed * 1009 + state.ply)
        if state.step == "setup":
            action, _ = fit_first_piece(state, action, board_map)
            board_map.first_piece(COLOURS[state.turn], cells_of(action["place"]))
        state = apply(state, action)
        actions.append(action)
    return make_record(initial, actions, reveal=True), state, board_map


def sgf_check_one(binary: str, books: str | None, players: int, seed: int, out: Path) -> dict:
    record, state, board_map = self_play(players, ["casual", "beginner"], seed)
    path = out / f"classic-{players}p-seed{seed}.blksgf"
    path.write_text(export(record, date="2026-01-01"))
    argv = pentobi_command(binary, players, level=1, seed=seed, books=books)
    checks = {"players": players, "seed": seed, "file": str(path), "moves": len(record["actions"])}
    with Gtp(argv) as gtp:
        gtp.send(f"loadsgf {path.resolve()}")
        board = parse_showboard(gtp.send("showboard"))
        checks["board_matches"] = board == board_for_pentobi(state.board_rows(), board_map)
        try:
            checks["pentobi_final_score"] = check_final(gtp, state, players)
            checks["score_matches"] = True
        except (ArenaError, GtpError, NoMapping) as exc:
            checks["score_matches"] = False
            checks["problem"] = str(exc)
    checks["our_points"] = pentobi_points(state)
    checks["ok"] = checks["board_matches"] and checks["score_matches"]
    return checks


def sgf_markdown(results: list[dict]) -> str:
    lines = [
        "| variant | seed | moves | board after loadsgf | final_score | Pentobi's answer |",
        "|---|---|---|---|---|---|",
    ]
    for r in results:
        lines.append(
            f"| {VARIANT[r['players']]} | {r['seed']} | {r['moves']} "
            f"| {'same' if r['board_matches'] else 'DIFFERENT'} "
            f"| {'same' if r['score_matches'] else 'DIFFERENT'} "
            f"| `{r.get('pentobi_final_score', r.get('problem', ''))}` |"
        )
    return "\n".join(lines)


# -- command line -------------------------------------------------------------------------------


def binary_from_env() -> str | None:
    binary = os.environ.get("PENTOBI_GTP", "").strip()
    if not binary:
        print(
            "PENTOBI_GTP is not set: build pentobi-gtp from Pentobi's source (README, "
            "Benchmarks) and set PENTOBI_GTP to its path",
            file=sys.stderr,
        )
        return None
    return binary


def _param(text: str) -> tuple[str, float]:
    name, _, value = text.partition("=")
    if not hasattr(mcts.MctsParams, name) or not value:
        raise argparse.ArgumentTypeError(f"{text!r}: want NAME=VALUE, NAME an MctsParams constant")
    kind = type(getattr(mcts.MctsParams, name))
    return name, kind(float(value)) if kind is int else kind(value)


def arena_args(argv: list[str]):
    parser = argparse.ArgumentParser(prog="bench/ai/pentobi_arena.py", description=__doc__)
    parser.add_argument("--level", choices=LEVELS, default="expert")
    parser.add_argument("--budget", type=float, help="Expert's seconds per decision")
    parser.add_argument(
        "--sims",
        type=int,
        help="stop each of our searches at this many simulations (with a "
        "large --budget: a run that does not depend on the machine's load)",
    )
    parser.add_argument("--threads", type=int, help="our search threads (default: Expert's)")
    parser.add_argument(
        "--param",
        type=_param,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set an MctsParams constant for our search (a variant; repeatable)",
    )
    parser.add_argument(
        "--our-seats",
        type=lambda t: {int(x) for x in t.split(",")},
        default=None,
        help="play only the games where we sit in these seats (e.g. 1: the second player)",
    )
    parser.add_argument("--pentobi-level", type=int, default=5, choices=range(1, 10))
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument(
        "--seed", type=int, default=None, help="first seed of the list (default: drawn per run)"
    )
    parser.add_argument(
        "--sgf",
        help="folder for every game's .blksgf file (default: out/pentobi_arena/<time>-seed<seed>/)",
    )
    parser.add_argument("--jobs", type=int, default=1, help="games at a time")
    parser.add_argument("--books", default=os.environ.get("PENTOBI_BOOKS") or None)
    parser.add_argument("--json", help="also write the report as JSON to this file")
    parser.add_argument("--progress", action="store_true", help="one line per game on stderr")
    parser.add_argument(
        "--cli",
        action="store_true",
        help="our moves from the command line: one `python -m games.ai move` process per move",
    )
    parser.add_argument(
        "--paired",
        action="store_true",
        help="play every game twice, in this process and then from the command line (--cli), "
        "and report both and the difference",
    )
    parser.add_argument(
        "--equal-time",
        action="store_true",
        help="time Pentobi at --pentobi-level in a self-play game without its book and give our "
        "level its mean seconds a move as the first --budget; after each game, bring our "
        "budget to Pentobi's time over the games so far (one game at a time)",
    )
    parser.add_argument(
        "--no-book",
        action="store_true",
        help="our levels search their first moves too (ExpertParams.book off: games/ai/book.py)",
    )
    parser.add_argument(
        "--free-corners",
        action="store_true",
        help="our search plays the site's game, each first piece on any free corner (R3.1), "
        "and the arena moves a first piece Pentobi refuses (implied by --cli and --paired); "
        "default: it knows Pentobi's fixed corners (MctsParams.fixed_corners)",
    )
    args = parser.parse_args(argv)
    args.param = dict(args.param)
    args.free_corners = args.free_corners or args.cli or args.paired
    if args.paired and args.cli:
        parser.error("--paired already plays every game from the command line too")
    banned = args.threads or args.param or args.no_book
    if (args.cli or args.paired) and banned:
        parser.error(
            "--cli and --paired play the level as the command line does: no --threads, "
            "--param or --no-book"
        )
    if args.equal_time and args.budget is not None:
        parser.error("--equal-time sets the budget from Pentobi's time: no --budget")
    if args.equal_time and args.jobs != 1:
        parser.error("--equal-time matches the budget game by game: one game at a time (--jobs 1)")
    positive = (args.budget, args.sims)
    if args.games < 1 or args.jobs < 1 or any(v is not None and v <= 0 for v in positive):
        parser.error("--games, --jobs, --budget and --sims must be positive")
    args.seed_given = args.seed is not None
    return args


def sgf_args(argv: list[str]):
    parser = argparse.ArgumentParser(prog="bench/ai/pentobi_arena.py sgf-check")
    parser.add_argument("--games", type=int, default=2, help="games per variant")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=str(ROOT / "bench" / "out" / "pentobi_sgf"))
    parser.add_argument("--books", default=os.environ.get("PENTOBI_BOOKS") or None)
    parser.add_argument("--json", help="also write the results as JSON to this file")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["report"]:  # the markdown of a saved --json report, without playing
        for path in argv[1:]:
            print(arena_markdown(json.loads(Path(path).read_text())) + "\n")
        return 0
    sgf = bool(argv) and argv[0] == "sgf-check"
    args = sgf_args(argv[1:]) if sgf else arena_args(argv)
    binary = binary_from_env()
    if binary is None:
        return 2
    if sgf:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        results = [
            sgf_check_one(binary, args.books, players, args.seed + g, out)
            for players in (2, 3, 4)
            for g in range(args.games)
        ]
        if args.json:
            Path(args.json).write_text(json.dumps(results, indent=2))
        print(sgf_markdown(results))
        return 0 if all(r["ok"] for r in results) else 1
    report = run_arena(args, binary, argv)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2))
    print(arena_markdown(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
