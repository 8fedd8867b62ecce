"""The opening book (games/ai/book.py) and its builder (bench/ai/make_book.py)."""

from __future__ import annotations

import json
import random

import pytest

from bench.ai import make_book
from games.ai import book, decide, expert, mcts
from games.engine import apply, legal_placements, new_game, view
from games.engine.blksgf import SYMMETRIES
from games.engine.rules import placement_text

CORNERS = {"a1", "t1", "a20", "t20"}


def _corner(text: str) -> str:
    (corner,) = set(text.split(",")) & CORNERS
    return corner


def _setup_position(seed: int, plies: int, mode: str = "classic"):
    rng = random.Random(seed)
    s = new_game(mode=mode, players=2, scoring="advanced", seed=seed)
    for _ in range(plies):
        s = apply(s, {"place": placement_text(rng.choice(sorted(legal_placements(s))))})
    return s


def _mirrored(state, k: int):
    """The same game with every placement seen in symmetry ``k``."""
    s = new_game(mode=state.mode, players=2, scoring="advanced", seed=0)
    for i in range(max(len(p) for p in state.pieces)):
        for c in range(4):
            if i < len(state.pieces[c]):
                text = book.to_key_frame(placement_text(state.pieces[c][i]), k)
                s = apply(s, {"place": text})
    return s


@pytest.mark.parametrize("seed", range(6))
def test_a_position_and_its_mirror_images_share_one_key_and_the_move_turns_with_them(
    seed, tmp_path
):
    """Eight symmetries of the board, one book entry: looked up from any of them, the book's
    move leads to that symmetry's image of the position after the move (the move's image, or
    one the position's own symmetry makes equal: at the empty board every corner is one)."""
    s = _setup_position(seed, seed % 4)
    key, k = book.position_key(s)
    move = sorted(legal_placements(s))[seed * 7 % len(legal_placements(s))]
    entry = {"move": book.to_key_frame(placement_text(move), k)}
    path = tmp_path / "book.json"
    path.write_text(json.dumps({"books": {"classic-2-free": {"positions": {key: entry}}}}))
    book._books.cache_clear()
    assert book.book_move(s, path=path) == move
    for j in range(len(SYMMETRIES)):
        image = _mirrored(s, j)
        assert book.position_key(image)[0] == key
        found = book.book_move(image, path=path)
        after = book.position_key(apply(s, {"place": placement_text(move)}))[0]
        assert book.position_key(apply(image, {"place": placement_text(found)}))[0] == after
        texts = [[placement_text(v) for v in s.pieces[c]] for c in range(4)]
        if len({book._seen(texts, i) for i in range(8)}) == 8:  # no symmetry keeps it
            # exactly the move's image
            assert placement_text(found) == book.to_key_frame(placement_text(move), j)


def test_no_book_for_three_or_four_players_shuffle_after_setup_or_an_illegal_entry(tmp_path):
    s = new_game(mode="classic", players=2, scoring="advanced", seed=1)
    key, _ = book.position_key(s)
    path = tmp_path / "book.json"
    occupied = {"move": "a1,a2,a3,a4,a5"}
    books = {"classic-2-free": {"positions": {key: occupied}}}
    path.write_text(json.dumps({"books": books}))
    book._books.cache_clear()
    assert book.book_move(s, path=path) is not None  # a1 is free at the start
    after = apply(s, {"place": "a1,a2,a3,a4,a5"})
    books["classic-2-free"]["positions"][book.position_key(after)[0]] = occupied
    path.write_text(json.dumps({"books": books}))
    book._books.cache_clear()
    assert book.book_move(after, path=path) is None  # a1 taken: the search decides
    assert book.book_move(s, path=path, fixed_corners=True) is None  # another book
    for players in (3, 4):
        assert book.book_name(new_game(mode="classic", players=players, seed=1), False) is None
    shuffle = _setup_position(3, 4, mode="shuffle")
    assert shuffle.step != "setup" and book.book_name(shuffle, False) is None


def test_the_builder_keeps_the_searchs_pick_and_follows_its_likeliest_replies(tmp_path):
    positions = make_book.build("classic-2-fixed", 200, 3, 2, seed=11, threads=1)
    plies = [e["ply"] for e in positions.values()]
    assert plies.count(0) == 1 and plies.count(1) >= 1 and 2 in plies
    for key, entry in positions.items():
        s = book.position_of(key)
        assert entry["sims"] == 200 and 0 < entry["visits"] <= 200
        assert entry["move"] in {placement_text(v) for v in legal_placements(s)}
        assert _corner(entry["move"]) == ("a20", "t20", "t1", "a1")[s.turn]  # fixed corners
        assert book.position_key(s, fixed_corners=True)[0] == key  # no symmetry moves them
    out = tmp_path / "book.json"
    argv = ["--book", "shuffle-2-free", "--sims", "50", "--depth", "1", "--width", "1"]
    assert make_book.main([*argv, "--threads", "1", "--out", str(out)]) == 0
    made = json.loads(out.read_text())["books"]["shuffle-2-free"]
    assert made["made"]["command"].endswith(f"--seed {made['made']['seed']}")
    assert list(made["positions"]) == ["|||"]


@pytest.mark.parametrize("name", ["classic-2-free", "classic-2-fixed", "shuffle-2-free"])
def test_every_move_of_the_committed_book_is_legal_where_it_is_stored(name):
    books = json.loads(book.BOOK_FILE.read_text())["books"]
    assert name in books and books[name]["made"]["sims"] >= 10_000
    mode = name.split("-")[0]
    positions = books[name]["positions"]
    assert "|||" in positions and len(positions) >= 5
    for key, entry in positions.items():
        s = book.position_of(key, mode)
        assert s.step == "setup" or mode == "classic"
        assert entry["move"] in {placement_text(v) for v in legal_placements(s)}, (key, entry)


def test_expert_plays_the_book_move_without_searching(monkeypatch, tmp_path):
    s = _setup_position(5, 2)
    key, k = book.position_key(s)
    move = sorted(legal_placements(s))[-1]  # not what a search would pick
    path = tmp_path / "book.json"
    entry = {"move": book.to_key_frame(placement_text(move), k)}
    path.write_text(json.dumps({"books": {"classic-2-free": {"positions": {key: entry}}}}))
    book._books.cache_clear()
    monkeypatch.setattr(book, "BOOK_FILE", path)

    def no_search(*args, **kwargs):
        raise AssertionError("searched a book position")

    monkeypatch.setattr(mcts, "mcts_choose", no_search)
    action = decide(view(s, s.controller()), level="expert", seed=1, max_sims=100)
    assert action == {"place": placement_text(move)}
    monkeypatch.setattr(expert.ExpertParams, "book", False)
    with pytest.raises(AssertionError, match="searched"):
        decide(view(s, s.controller()), level="expert", seed=1, max_sims=100)
    book._books.cache_clear()
