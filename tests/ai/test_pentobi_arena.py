"""bench/ai/pentobi_arena.py: our AI against Pentobi over GTP, and Pentobi loading our .blksgf.

Everything here runs without Pentobi: tests/ai/fake_gtp.py speaks Pentobi's GTP dialect and
keeps Pentobi's fixed starting corners. The last test plays one real game when ``PENTOBI_GTP``
names a built ``pentobi-gtp`` (README, "Benchmarks"), and is skipped otherwise.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import stat
import sys
from pathlib import Path

import pytest

from bench.ai import pentobi_arena as arena
from games.ai import mcts
from games.bots.gtp import INVERSE
from games.engine import COLOURS, apply, legal_placements, new_game
from games.engine.blksgf import PENTOBI_CORNER, SYMMETRIES
from games.engine.pieces import parse_squares, shape_of_mask
from games.engine.rules import placement_text

FAKE = Path(__file__).with_name("fake_gtp.py")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _games_kept_in_tmp(tmp_path, monkeypatch):
    """A run keeps its games in out/pentobi_arena/ by default: here in the test's own folder."""
    monkeypatch.setattr(arena, "OUT", tmp_path / "pentobi_arena")


@pytest.fixture
def fake_gtp(tmp_path, monkeypatch):
    """An executable ``pentobi-gtp`` stand-in, named in PENTOBI_GTP as the real one would be."""
    script = tmp_path / "pentobi-gtp"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FAKE}" "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PENTOBI_GTP", str(script))
    monkeypatch.delenv("PENTOBI_BOOKS", raising=False)
    return str(script)


# -- coordinates --------------------------------------------------------------------------------


def test_every_symmetry_has_its_inverse():
    cells = [(x, y) for x in range(20) for y in range(20)]
    for i, f in enumerate(SYMMETRIES):
        g = SYMMETRIES[INVERSE[i]]
        assert [g(*f(x, y)) for x, y in cells] == cells
    assert sorted(INVERSE) == list(range(8))


def test_moves_round_trip_through_the_board_map():
    board_map = arena.BoardMap()
    board_map.first_piece("blue", [(19, 0), (18, 0)])  # our blue starts at t1
    ours = arena.parse_move("t1,s1")
    theirs = board_map.to_pentobi(ours)
    assert (0, 19) in theirs  # Pentobi's blue starts at a20
    assert sorted(board_map.from_pentobi(theirs)) == sorted(ours)
    somewhere = arena.parse_move("k10,k11,l11")
    assert sorted(board_map.from_pentobi(board_map.to_pentobi(somewhere))) == sorted(somewhere)


def test_pentobis_start_points_are_the_four_corners_clockwise_from_a20():
    named = {c: arena.format_move([PENTOBI_CORNER[c]]) for c in COLOURS}
    assert named == {"blue": "a20", "yellow": "t20", "red": "t1", "green": "a1"}


def test_red_must_start_opposite_blue_and_yellow_next_to_it():
    board_map = arena.BoardMap()
    board_map.first_piece("blue", [(0, 0)])  # our blue on a1
    board_map.to_pentobi([(0, 0)])
    assert arena.BoardMap().allowed_corners("blue") == sorted(arena.CORNER_CELLS)
    assert board_map.allowed_corners("yellow") == [(0, 19), (19, 0)]  # a20 or t1: next to a1
    assert board_map.allowed_corners("red") == [(19, 19)]  # t20: opposite a1
    board_map.first_piece("yellow", [(19, 0)])
    assert board_map.allowed_corners("green") == [(0, 19)]


def test_a_mapped_piece_fixes_the_symmetry_for_the_moves_after_it():
    """Two symmetries take a corner to a corner; once a piece that is not symmetric itself has
    been mapped with one of them, only that one maps the next moves consistently."""
    theirs = arena.parse_move("a20,a19,a18,b18")  # Pentobi's blue L4 on its start point
    board_map = arena.BoardMap()
    ours = board_map.from_pentobi(theirs)
    assert len(board_map.left) == 1
    assert sorted(board_map.to_pentobi(ours)) == sorted(theirs)
    (yellow,) = board_map.allowed_corners("yellow")
    mine = arena.BoardMap()
    mine.first_piece("blue", [(19, 0)])
    assert len(mine.left) == 2
    mine.to_pentobi(arena.parse_move("t1,t2,t3,s3"))
    assert len(mine.left) == 1 and len(mine.allowed_corners("yellow")) == 1
    assert yellow in arena.CORNER_CELLS


def test_a_setup_round_lands_every_first_piece_on_pentobis_start_point():
    """Our AI may pick any free corner (R3.1): a first piece on a corner Pentobi's rules do not
    allow is moved to one they do, as the same piece, and maps onto the colour's start point."""
    state = new_game(mode="classic", players=2, scoring="advanced")
    board_map = arena.BoardMap()
    moved_any = False
    for _ in range(4):
        colour = COLOURS[state.turn]
        chosen = {"place": placement_text(min(legal_placements(state)))}  # always near a1
        action, moved = arena.fit_first_piece(state, chosen, board_map)
        moved_any |= moved
        piece = shape_of_mask(parse_squares(action["place"]))
        assert piece == shape_of_mask(parse_squares(chosen["place"]))
        cells = arena.parse_move(action["place"])
        board_map.first_piece(colour, cells)
        assert PENTOBI_CORNER[colour] in board_map.to_pentobi(cells)
        state = apply(state, action)
    assert moved_any and state.step == "place"


def test_gtp_move_text_parses_and_formats_in_pentobis_order():
    assert arena.parse_move("A20, b20,b19") == [(0, 19), (1, 19), (1, 18)]
    assert arena.format_move([(1, 1), (0, 1), (2, 0), (19, 19)]) == "c1,a2,b2,t20"
    for bad in ("", "u1", "a21", "a0", "a01", "a1,a1", "a1,a2,a3,a4,a5,a6", "pass"):
        with pytest.raises(arena.GtpError, match="is not a move"):
            arena.parse_move(bad)


def test_showboard_reads_pentobis_board_text():
    rows = ["." * 20 for _ in range(20)]
    rows[0] = "X" + "." * 18 + "O"  # row 20: blue on a20, yellow on t20
    rows[19] = "+" + "." * 17 + "##"  # row 1: green's empty start point, red on s1 and t1
    text = "\n".join(
        f"{20 - i:2d} " + " ".join(row) + ("  Blue(X): 5" if i == 0 else "")
        for i, row in enumerate(rows)
    )
    text = text.replace(". # #", ".>#" + " #", 1)  # '>' marks the last move, as Pentobi does
    board = arena.parse_showboard("\n" + text + "\n   A B C D E F G H I J K L M N O P Q R S T")
    assert board[0] == "B" + "." * 18 + "Y"
    assert board[19] == "." * 18 + "RR"
    with pytest.raises(arena.GtpError, match="20 rows"):
        arena.parse_showboard(text.split("\n", 1)[1])


# -- GTP and the arena loop, against the fake engine ----------------------------------------------


def test_gtp_answers_and_refusals(fake_gtp):
    with arena.Gtp([fake_gtp, "--game", "classic_2"]) as gtp:
        assert gtp.send("version") == "0.0-fake"
        with pytest.raises(arena.GtpError, match="refused: illegal move"):
            gtp.send("play 1 k10")  # blue's first piece must cover a20
        assert gtp.send("play 1 a20") == ""
        gtp.send("quit")
        with pytest.raises(arena.GtpError, match="stopped|not running"):
            gtp.send("version")


def test_the_arena_plays_alternating_seats_against_a_gtp_engine(fake_gtp, tmp_path, capsys):
    report_file = tmp_path / "report.json"
    argv = ["--level", "beginner", "--pentobi-level", "3", "--games", "2", "--seed", "7"]
    assert arena.main([*argv, "--json", str(report_file)]) == 0
    out = capsys.readouterr().out
    assert "beginner vs Pentobi level 3" in out and "win rate" in out
    report = json.loads(report_file.read_text())
    s = report["summary"]
    assert s["games"] == 2 == s["wins"] + s["draws"] + s["losses"]
    assert 0 <= s["win_ci95"][0] <= s["win_rate"] <= s["win_ci95"][1] <= 1
    assert s["our_decisions"] > 20 and s["pentobi_moves"] > 20
    assert s["our_first_pieces"] == 4 and s["corners_moved"] <= 4
    games = report["games"]
    assert [g["our_seat"] for g in games] == [0, 1]
    assert [g["our_colours"] for g in games] == [["blue", "red"], ["yellow", "green"]]
    assert [g["seed"] for g in games] == [7, 7]
    assert report["pentobi_version"] == "0.0-fake" and not report["books"]
    assert arena.main(["report", str(report_file)]) == 0
    assert "beginner vs Pentobi level 3" in capsys.readouterr().out


def test_cli_moves_come_from_a_command_line_process_given_the_game_so_far():
    """``--cli``: our move is what ``python -m games.ai move`` prints for a record
    of the game so far, a legal placement for the colour to move."""
    game = {"players": 2, "level": "beginner", "budget": None}
    state = new_game(mode="classic", players=2, scoring="advanced")
    actions = []
    for seed in (1, 2, 3):
        action = arena.cli_move(game, actions, seed)
        assert action["place"] in {placement_text(p) for p in legal_placements(state)}
        state = apply(state, action)
        actions.append(action)
    assert len(state.pieces[0]) == len(state.pieces[1]) == len(state.pieces[2]) == 1


def test_cli_refuses_what_the_command_line_cannot_be_told():
    for extra in (["--threads", "1"], ["--param", "lgr=0"], ["--sims", "0"], ["--no-book"]):
        with pytest.raises(SystemExit):
            arena.arena_args(["--cli", *extra])
    assert arena.arena_args(["--cli", "--level", "expert"]).cli


def test_cli_passes_the_simulation_count_on_to_the_command_line():
    """``--cli --sims N``: the command line bounds its search as this process does."""
    args = arena.arena_args(["--cli", "--level", "expert", "--sims", "300", "--budget", "5"])
    game = {"players": 2, "level": args.level, "budget": args.budget, "sims": args.sims}
    argv, _ = arena.cli_command(game, [], 17)
    assert argv[3:] == ["move", "--level", "expert", "--seed", "17"] + [
        "--budget", "5.0", "--sims", "300", "-"
    ]  # fmt: skip


def _command_line_in_this_process(calls: list[tuple[int, int]]):
    """A stand-in for ``cli_move`` that spawns one real ``python -m games.ai move`` for the first
    decision of each command-line game and runs the very same command line (argv and record on
    standard input, through ``games.ai.cli.main``) in this process for the rest. A process per
    move costs about a second of start-up each, some eighty of them for two games: that cost,
    not what the test checks, made it hit its timeout on a busy machine."""
    from games.ai import cli

    real = arena.cli_move

    def move(game, actions, seed):
        calls.append((game["index"], len(actions)))
        if sum(index == game["index"] for index, _ in calls) == 1:
            return real(game, actions, seed)
        argv, record = arena.cli_command(game, actions, seed)
        assert argv[1:3] == ["-m", "games.ai"] and argv[-1] == "-"
        stdin, stdout = io.TextIOWrapper(io.BytesIO(record.encode())), io.StringIO()
        with contextlib.redirect_stdout(stdout), pytest.MonkeyPatch.context() as patch:
            patch.setattr(sys, "stdin", stdin)
            assert cli.main(argv[3:]) == 0
        return json.loads(stdout.getvalue())

    return move


def test_paired_plays_each_game_in_this_process_then_from_the_command_line(
    fake_gtp, tmp_path, capsys, monkeypatch
):
    """``--paired``: every seed and seat twice in a row, in this process and from the command
    line; the report has both summaries and the game-by-game difference."""
    calls = []
    monkeypatch.setattr(arena, "cli_move", _command_line_in_this_process(calls))
    report_file = tmp_path / "paired.json"
    argv = ["--level", "beginner", "--games", "2", "--seed", "11", "--paired"]
    sgf = tmp_path / "sgf"
    assert arena.main([*argv, "--json", str(report_file), "--sgf", str(sgf)]) == 0
    assert sorted(f.name for f in sgf.iterdir()) == [  # both games of a pair are kept
        "game000-seed11-cli.blksgf",
        "game000-seed11.blksgf",
        "game001-seed11-cli.blksgf",
        "game001-seed11.blksgf",
    ]
    report = json.loads(report_file.read_text())
    games = report["games"]
    assert [(g["seed"], g["our_seat"], g["cli"]) for g in games] == [
        (11, 0, False),
        (11, 0, True),
        (11, 1, False),
        (11, 1, True),
    ]
    assert report["summary_worker"]["games"] == report["summary_cli"]["games"] == 2
    diff = report["difference"]
    by_pair = [arena.points(games[i + 1]) - arena.points(games[i]) for i in (0, 2)]
    assert diff["pairs"] == 2 and diff["mean"] == sum(by_pair) / 2
    assert diff["same"] == sum(d == 0 for d in by_pair)
    # the command-line game of each pair took each of our decisions from the command line
    for index in (0, 1):
        plies = [ply for i, ply in calls if i == index]
        assert len(plies) > 10 and plies == sorted(set(plies))
    assert {index for index, _ in calls} == {0, 1}
    out = capsys.readouterr().out
    assert "in this process: 2 |" in out and "command line: 2 |" in out
    assert "game by game" in out and "over 2 pairs" in out
    with pytest.raises(SystemExit):
        arena.arena_args(["--paired", "--cli"])
    assert arena.arena_args(["--paired", "--sims", "50"]).sims == 50


def test_a_run_stopped_midway_keeps_the_games_it_played_in_its_json_report(
    fake_gtp, tmp_path, monkeypatch
):
    """``--json`` is rewritten after every game: a run that stops (an engine error here, a
    killed process in a long arena) leaves the report of the games it finished."""
    report_file = tmp_path / "report.json"
    real, played = arena.play_game, []

    def two_then_fail(game):
        if len(played) == 2:
            raise arena.ArenaError("stopped after two games")
        played.append(game["index"])
        return real(game)

    monkeypatch.setattr(arena, "play_game", two_then_fail)
    argv = ["--level", "beginner", "--games", "4", "--seed", "5", "--json", str(report_file)]
    with pytest.raises(arena.ArenaError, match="stopped after two games"):
        arena.main(argv)
    report = json.loads(report_file.read_text())
    assert [g["index"] for g in report["games"]] == [0, 1]
    assert report["summary"]["games"] == 2


def test_our_search_knows_pentobis_corners_and_none_of_its_first_pieces_is_moved(fake_gtp):
    """By default the search plays Pentobi's fixed-corner game (MctsParams.fixed_corners): the
    arena never has to move one of its first pieces; --free-corners plays the site's R3.1."""
    argv = ["--level", "expert", "--sims", "60", "--budget", "30", "--games", "2", "--seed", "5"]
    report = arena.run_arena(arena.arena_args(argv), fake_gtp, [])
    s = report["summary"]
    assert report["corners"] == "fixed" and s["our_first_pieces"] == 4
    assert s["corners_moved"] == 0
    assert report["book"] is True and mcts.MctsParams.fixed_corners == 0  # put back
    assert s["book_moves"] >= 1  # blue's first piece at least: the empty board is in the book
    free = arena.arena_args([*argv, "--free-corners"])
    assert free.free_corners and arena.arena_args(["--paired", "--level", "expert"]).free_corners


def test_the_arena_plays_four_players(fake_gtp):
    args = arena.arena_args(["--level", "beginner", "--players", "4", "--games", "1"])
    report = arena.run_arena(args, fake_gtp, [])
    assert report["summary"]["games"] == 1 and report["games"][0]["our_colours"] == ["blue"]
    assert len(report["games"][0]["pentobi_final_score"].split()) == 4


def test_the_arena_plays_three_players_and_counts_first_places_and_mean_place(fake_gtp):
    """classic_3: one colour ours, two Pentobi's, the shared green taken in rotation (R2.4:
    blue's player first, as Pentobi's alternate player); our seat rotates from game to game."""
    args = arena.arena_args(["--level", "beginner", "--players", "3", "--games", "3"])
    report = arena.run_arena(args, fake_gtp, [])
    games = report["games"]
    assert [g["our_seat"] for g in games] == [0, 1, 2]
    assert [g["our_colours"] for g in games] == [["blue"], ["yellow"], ["red"]]
    assert all(len(g["pentobi_final_score"].split()) >= 3 for g in games)
    s = report["summary"]
    places = [g["our_place"] for g in games]
    assert s["mean_place"] == round(sum(places) / 3, 3) and all(1 <= p <= 3 for p in places)
    assert s["firsts"] == round(sum(g["first_share"] for g in games), 2)
    if not s["draws"]:  # no shared first place: every first place counts 1
        assert s["firsts"] == places.count(1) == s["wins"]
    text = arena.arena_markdown(report)
    assert "three players (classic_3)" in text and "fair share of 33.3%" in text


def test_an_illegal_pentobi_move_stops_the_run(fake_gtp, monkeypatch):
    monkeypatch.setenv("FAKE_GTP_ILLEGAL", "1")
    args = arena.arena_args(["--level", "beginner", "--games", "1"])
    with pytest.raises(
        arena.ArenaError, match=r"Pentobi's move [a-t0-9,]+ for yellow at ply \d+: .+ \(R[0-9.]+\)"
    ):
        arena.run_arena(args, fake_gtp, [])


def test_without_pentobi_gtp_it_says_so_and_exits_2(monkeypatch, capsys):
    monkeypatch.delenv("PENTOBI_GTP", raising=False)
    assert arena.main(["--games", "1"]) == 2
    assert "PENTOBI_GTP is not set" in capsys.readouterr().err
    assert arena.main(["sgf-check"]) == 2


def test_sgf_check_compares_the_loaded_board_and_scores(fake_gtp, tmp_path, capsys):
    assert arena.main(["sgf-check", "--games", "1", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    for variant in ("classic_2", "classic_3", "classic"):
        assert f"| {variant} | 1 |" in out
    assert "DIFFERENT" not in out and out.count("| same | same |") == 3
    assert len(list(tmp_path.glob("*.blksgf"))) == 3


def test_the_board_check_sees_a_board_under_the_wrong_symmetry():
    _, state, board_map = arena.self_play(2, ["beginner"], seed=3)
    assert len(board_map.left) == 1  # four corners taken: one symmetry fits
    rows = state.board_rows()
    right = arena.board_for_pentobi(rows, board_map)
    assert right != rows or board_map.left == [0]
    for i in set(range(8)) - set(board_map.left):
        wrong = arena.BoardMap()
        wrong.left = [i]
        assert arena.board_for_pentobi(rows, wrong) != right


# -- the real thing -------------------------------------------------------------------------------


@pytest.mark.skipif(not os.environ.get("PENTOBI_GTP"), reason="PENTOBI_GTP is not set")
def test_one_game_against_the_real_pentobi():
    args = arena.arena_args(["--level", "casual", "--pentobi-level", "1", "--games", "1"])
    report = arena.run_arena(args, os.environ["PENTOBI_GTP"], [])
    game = report["games"][0]
    assert game["pentobi_version"] and game["pentobi_final_score"]
    assert game["outcome"] in ("win", "draw", "loss") and game["plies"] > 40


def test_a_run_writes_down_its_seeds_commit_load_and_keeps_its_games(fake_gtp, tmp_path, capsys):
    """Drawn per run and written down, on stderr at the start and in the report: the first seed
    and the games', the commit, the load before and after, the command that plays the run again;
    every game kept as a .blksgf file, by default under out/pentobi_arena/."""
    import subprocess

    from games.engine.blksgf import parse
    from games.engine.record import replay

    report_file = tmp_path / "report.json"
    assert arena.main(["--level", "beginner", "--games", "2", "--json", str(report_file)]) == 0
    out = capsys.readouterr()
    report = json.loads(report_file.read_text())
    seed = report["seed"]
    assert report["seed_drawn"] is True and report["seeds"] == [seed]
    assert f"seed {seed} (drawn for this run)" in out.err
    assert report["command"].endswith(f"--seed {seed}")
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True)
    assert report["commit"].startswith(head.stdout.decode().strip())
    assert report["commit"] in out.err and f"Commit {report['commit']}" in out.out
    assert report["load_before"] >= 0 and report["load_after"] >= 0
    kept = Path(report["sgf"])
    assert kept.parent == arena.OUT and kept.name.endswith(f"-seed{seed}")
    files = sorted(kept.iterdir())
    assert [f.name for f in files] == [f"game00{g}-seed{seed}.blksgf" for g in (0, 1)]
    assert all(replay(parse(f.read_text())).over for f in files)
    assert "(drawn for this run)" in out.out and f"games kept in {kept}" in out.out


def test_equal_time_gives_our_level_pentobis_mean_seconds_a_move(fake_gtp, capsys, monkeypatch):
    """--equal-time: Pentobi's self-play before the games, without its book (a book move takes
    no time), sets our first budget; after each game the next games' budget brings our time to
    Pentobi's so far; the report shows both sides' means in the games."""
    started = []
    real = arena.self_play_times
    monkeypatch.setattr(arena, "self_play_times", lambda argv: started.append(argv) or real(argv))
    argv = ["--level", "expert", "--sims", "40", "--equal-time", "--games", "2", "--seed", "9"]
    args = arena.arena_args([*argv, "--books", "/nowhere"])
    args.books = None  # the games run without books (the fake has none); the calibration never
    report = arena.run_arena(args, fake_gtp, argv)
    assert started and all("--nobook" in a and "--book" not in a for a in started)
    calibration = report["equal_time"]
    assert calibration["games"] == 1 and calibration["moves"] > 40
    s = report["summary"]
    assert s["our_mean_s"] > 0 and s["pentobi_mean_s"] >= 0 and s["pentobi_moves"] > 20
    first, second = report["games"]
    assert first["budget"] == calibration["mean_s"] > 0
    assert second["budget"] == arena.matched_budget(first["budget"], [first])
    assert report["budget"] == arena.matched_budget(second["budget"], [first, second])
    assert "Equal time: Pentobi's mean" in arena.arena_markdown(report)
    assert "pentobi_arena: Pentobi level 5 took" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        arena.arena_args(["--equal-time", "--jobs", "2"])
    with pytest.raises(SystemExit):
        arena.arena_args(["--equal-time", "--budget", "2"])


def test_the_matched_budget_follows_the_time_each_side_took():
    one = [{"budget": 1.0, "our_s": 10.0, "pentobi_s": 12.0}]
    # one game left: Pentobi's 12 s so far and 12 s to come, less our 10 s, at 10 s a second
    assert arena.matched_budget(1.0, one, remaining=1) == 1.4
    # nine games left: the 2 s behind are shared among them
    assert arena.matched_budget(1.0, one, remaining=9) == round((12 + 9 * 12 - 10) / 90, 3)
    # at most twice or half the budget
    assert arena.matched_budget(1.0, [{"budget": 1.0, "our_s": 1.0, "pentobi_s": 9.0}]) == 2.0
    assert arena.matched_budget(1.0, [{"budget": 1.0, "our_s": 9.0, "pentobi_s": 1.0}]) == 0.5
    # the rate is our seconds per second of budget, from each game at its own budget
    games = [
        {"budget": 1.0, "our_s": 10.0, "pentobi_s": 10.0},
        {"budget": 2.0, "our_s": 20.0, "pentobi_s": 10.0},
    ]
    assert arena.matched_budget(1.0, games, remaining=2) == round((20 + 2 * 10 - 30) / 20, 3)
    # nothing measured yet: unchanged
    assert arena.matched_budget(0.7, [{"budget": 0.7, "our_s": 0.0, "pentobi_s": 1.0}]) == 0.7


def test_the_matched_budget_settles_instead_of_overshooting():
    """A run where our seconds are the budget times 10 a game and Pentobi's are 12: from a first
    budget of 0.6 the budget goes to 1.2 and stays near it (the old rule went 0.6, 1.2, 1.44 ...
    while the first game's deficit lasted), and over the run the totals meet."""
    results, budget, budgets = [], 0.6, []
    for _ in range(20):
        budgets.append(budget)
        results.append({"budget": budget, "our_s": 10.0 * budget, "pentobi_s": 12.0})
        budget = arena.matched_budget(budget, results, 20 - len(results))
    assert max(budgets[1:]) <= 1.3 and min(budgets[1:]) >= 1.2
    ours = sum(r["our_s"] for r in results)
    assert abs(ours - 12.0 * 20) < 1.0
