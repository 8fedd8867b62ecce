"""The arena runs games between levels and reports win rates, scores and decision times."""

from __future__ import annotations

import json

from bench.ai.arena import main, pair_share, wilson


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
    levels = ["expert", "baseline", "expert", "baseline"]
    # expert seats 0 (5) and 2 (9) against baseline seats 1 (9) and 3 (2): 1 + 0 + 0.5 + 0
    assert pair_share(levels, result, "expert", "baseline") == 1.5 / 4
    assert pair_share(levels, result, "baseline", "expert") == 2.5 / 4
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
    """Issue #23: no seed fixed in code: each run draws one and writes it down; the head to head
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
    """``max_sims`` bounds Expert's search by simulations (bench/ai_old_vs_new.py --sims): with a
    budget far above what they take, the same seed plays the same game twice."""
    from bench.ai.arena import play_game

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
