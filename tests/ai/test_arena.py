"""bench/ai/arena.py: games between levels (today's, or another commit's from git), win rates,
scores and decision times; and its suite's page."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.ai import arena, before
from bench.ai.arena import main, pair_share, play_game, wilson

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _games_kept_in_tmp(tmp_path, monkeypatch):
    """A run keeps its games in out/arena/ by default: here in the test's own folder."""
    monkeypatch.setattr(arena, "OUT", tmp_path / "arena")


def test_a_short_arena_run(capsys):
    argv = ["--mode", "classic", "--players", "2", "--games", "2", "--seats", "casual,beginner"]
    assert main([*argv, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    levels = report["levels"]
    assert set(levels) == {"casual", "beginner"}
    assert levels["casual"]["win_rate"] + levels["beginner"]["win_rate"] == 1.0
    for r in levels.values():
        assert r["seat_games"] == 2
        lo, hi = r["win_ci95"]
        assert 0 <= lo <= r["win_rate"] <= hi <= 1
        assert r["p50_ms"] <= r["p95_ms"]


def test_text_report_names_every_level(capsys):
    argv = ["--mode", "shuffle", "--players", "3", "--games", "1"]
    assert main([*argv, "--seats", "beginner,casual,beginner"]) == 0
    out = capsys.readouterr().out
    assert "beginner" in out and "casual" in out and "p95" in out


def test_wilson_interval():
    lo, hi = wilson(0.5, 100)
    assert 0.40 < lo < 0.41 and 0.59 < hi < 0.60
    assert wilson(1.0, 10)[1] == 1.0


def test_head_to_head_counts_pairs_of_seats():
    result = {
        "players": [
            {"seat": 0, "score": 5},
            {"seat": 1, "score": 9},
            {"seat": 2, "score": 9},
            {"seat": 3, "score": 2},
        ]
    }
    levels = ["expert", "expert@3e6615a", "expert", "expert@3e6615a"]
    # expert seats 0 (5) and 2 (9) against the older Expert's 1 (9) and 3 (2): 1 + 0 + 0.5 + 0
    assert pair_share(levels, result, "expert", "expert@3e6615a") == 1.5 / 4
    assert pair_share(levels, result, "expert@3e6615a", "expert") == 2.5 / 4
    assert pair_share(levels, result, "expert", "casual") is None


def test_a_four_player_run_reports_head_to_head(capsys):
    argv = ["--mode", "classic", "--players", "4", "--games", "1", "--json"]
    assert main([*argv, "--seats", "casual,beginner,casual,beginner"]) == 0
    h = json.loads(capsys.readouterr().out)["head_to_head"]
    assert (h["first"], h["second"], h["games"]) == ("casual", "beginner", 1)
    assert h["ci95"][0] <= h["rate"] <= h["ci95"][1]


def test_games_in_parallel_report_what_one_at_a_time_does(capsys):
    """``--jobs 2``: the same seeded games (Beginner and Casual depend on the seed only), in
    processes; the same scores and wins, every decision timed."""
    argv = ["--mode", "classic", "--players", "2", "--games", "3", "--seats", "casual,beginner"]
    argv += ["--seed", "1"]
    reports = []
    for jobs in ("1", "2"):
        assert main([*argv, "--jobs", jobs, "--json"]) == 0
        reports.append(json.loads(capsys.readouterr().out))
    one, two = reports
    assert two["jobs"] == 2
    for level in ("casual", "beginner"):
        for key in ("seat_games", "win_rate", "mean_score", "decisions"):
            assert one["levels"][level][key] == two["levels"][level][key]
    assert one["head_to_head"] == two["head_to_head"]


def test_a_run_draws_its_seed_reports_it_and_an_elo_difference(capsys):
    """No seed fixed in code: each run draws one and writes it down; the head to head
    comes with an Elo difference and its 95 % interval; whole turns are timed."""
    argv = ["--mode", "classic", "--players", "2", "--games", "2", "--seats", "casual,beginner"]
    seeds = set()
    for _ in range(2):
        assert main([*argv, "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
        seeds.add(report["seed"])
        elo, lo, hi = report["head_to_head"]["elo"]
        assert (lo is None or elo is None or lo <= elo) and (hi is None or elo is None or elo <= hi)
        assert report["levels"]["casual"]["turns"] == report["levels"]["casual"]["decisions"]
    assert len(seeds) == 2


def test_head_to_head_reads_the_engines_place_under_advanced_scoring():
    """R8.4: with advanced scoring the higher score wins; the engine's place says so."""
    result = {
        "players": [{"seat": 0, "score": 20, "place": 1}, {"seat": 1, "score": 5, "place": 2}]
    }
    assert pair_share(["expert", "casual"], result, "expert", "casual") == 1.0


def test_a_game_bounded_by_simulations_replays_exactly():
    """``max_sims`` (``--sims``) bounds Expert's search by simulations: with a budget far above
    what they take, the same seed plays the same game twice."""
    games = [
        play_game(
            ["expert", "casual"],
            mode="classic",
            players=2,
            scoring="basic",
            seed=7,
            budget=60.0,
            times={"expert": [], "casual": []},
            opening=60,  # Beginner plays the opening: a short game of a few searches
            max_sims=64,
        )
        for _ in range(2)
    ]
    assert games[0] == games[1]


def _games_unchanged_since_head() -> bool:
    done = subprocess.run(
        ["git", "status", "--porcelain", "--", "games"], cwd=ROOT, capture_output=True, text=True
    )
    return done.returncode == 0 and not done.stdout.strip()


@pytest.mark.skipif(
    not _games_unchanged_since_head(), reason="games/ differs from HEAD (or no git checkout)"
)
def test_a_seat_plays_the_code_of_a_commit_taken_from_git(tmp_path, monkeypatch):
    """``casual@HEAD``: HEAD's games/ exported from git, played by a process of its own from
    records of the game so far; with games/ as committed it plays the very game today's Casual
    plays, and its decisions are timed like the others."""
    monkeypatch.setattr(before, "OUT", tmp_path)  # not a tree per commit tested in out/before
    kwargs = {"mode": "shuffle", "players": 2, "scoring": "basic", "seed": 3, "budget": None}
    kwargs["opening"] = 30  # Beginner's, in this process: a shorter test
    here = play_game(["casual", "beginner"], times={"casual": [], "beginner": []}, **kwargs)
    times = {"casual@HEAD": [], "beginner": []}
    try:
        there = play_game(["casual@HEAD", "beginner"], times=times, **kwargs)
        assert set(arena._BEFORE) == {"HEAD"}
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True)
        folder = arena._BEFORE["HEAD"].folder
        assert folder == tmp_path / head.stdout.decode().strip()
        assert (folder / "games" / "ai" / "__init__.py").is_file()
    finally:
        arena.close_before()
    assert there == here
    assert times["casual@HEAD"] and all(t >= 0 for t in times["casual@HEAD"])
    assert not arena._BEFORE


def test_a_seat_of_an_unknown_commit_is_refused(capsys):
    with pytest.raises(SystemExit):
        main(["--players", "2", "--seats", "expert,expert@no-such-commit"])
    assert "names no commit" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--players", "2", "--seats", "expert,grandmaster"])


def test_the_suite_writes_its_page_from_the_runs_it_finds(tmp_path, capsys):
    """``suite``: runs already in ``--out`` are reused (none is played here); the page has the
    targets and each run's command, as run from the project's root."""
    report = {
        "seed": 5,
        "commits": {"3e6615a": "3e6615a" + "0" * 33},
        "levels": {
            "expert": {
                "seat_games": 20, "win_rate": 0.8, "win_ci95": [0.58, 0.92],
                "mean_score": 10.0, "score_ci95": [8.0, 12.0], "decisions": 500,
                "p50_ms": 400.0, "p95_ms": 520.0,
            },
        },
        "head_to_head": {
            "first": "expert", "second": arena.BASELINE, "games": 20, "rate": 0.8,
            "ci95": [0.58, 0.92], "elo": [240.8, 56.4, 426.0],
        },
    }  # fmt: skip
    (tmp_path / "expert-baseline-shuffle2.json").write_text(json.dumps(report))
    page = tmp_path / "page.md"
    argv = ["suite", "--out", str(tmp_path), "--only", "expert-baseline-shuffle2"]
    assert main([*argv, "--md", str(page)]) == 0
    text = page.read_text()
    assert text.strip() == capsys.readouterr().out.strip()
    assert f"Expert beats the Expert of {arena.BASELINE} (0.5 s), shuffle2 (head to head)" in text
    assert "| 80.0 % [58.0 %, 92.0 %] | yes |" in text
    assert (
        f".venv/bin/python bench/ai/arena.py --mode shuffle --players 2 --games 20 --seats "
        f"expert,{arena.BASELINE} --budget 0.5 --json" in text
    )


def test_the_arena_runs_as_a_script_from_the_projects_root():
    done = subprocess.run(
        [sys.executable, "bench/ai/arena.py", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "LEVEL@REV" in done.stdout and "--jobs" in done.stdout


def test_a_run_writes_down_its_seeds_commit_load_and_keeps_its_games(tmp_path, capsys):
    """Drawn per run and written down, on stderr at the start and in the report: the seed and
    every game's, the commit, the load before and after; every game kept as a file: a classic
    game as Pentobi's .blksgf, a Shuffle game as its record with the decks."""
    from games.engine.blksgf import parse as parse_blksgf
    from games.engine.record import replay

    for mode, suffix in (("classic", ".blksgf"), ("shuffle", ".json")):
        keep = tmp_path / mode
        argv = ["--mode", mode, "--players", "2", "--games", "2", "--seats", "casual,beginner"]
        assert main([*argv, "--keep", str(keep), "--json"]) == 0
        out = capsys.readouterr()
        report = json.loads(out.out)
        assert report["seed_drawn"] is True
        seeds = report["game_seeds"]
        assert len(seeds) == 2 and seeds[0] == report["seed"] * 100_003
        assert f"seed {report['seed']} (drawn for this run)" in out.err
        assert ", ".join(map(str, seeds)) in out.err
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True
        )
        assert report["commit"].startswith(head.stdout.decode().strip())
        assert report["commit"] in out.err
        assert report["load_before"] >= 0 and report["load_after"] >= 0
        files = sorted(keep.iterdir())
        assert [f.name for f in files] == [
            f"game{g:03d}-seed{s}{suffix}" for g, s in enumerate(seeds)
        ]
        for f in files:
            text = f.read_text()
            state = replay(parse_blksgf(text) if suffix == ".blksgf" else json.loads(text))
            assert state.over
    assert main([*argv, "--seed", "11", "--keep", str(tmp_path / "given")]) == 0
    out = capsys.readouterr()
    assert "seed 11 (given)" in out.out and "commit " in out.out and "load average" in out.out


def test_the_games_go_to_out_arena_unless_told(capsys):
    argv = ["--mode", "classic", "--players", "2", "--games", "1", "--seats", "casual,beginner"]
    assert main([*argv, "--seed", "4", "--json"]) == 0
    kept = Path(json.loads(capsys.readouterr().out)["kept"])
    assert kept.parent == arena.OUT and kept.name.endswith("-seed4")
    assert [f.suffix for f in kept.iterdir()] == [".blksgf"]
