"""bench/ai/openings.py: our picks at the positions of Pentobi's opening book (a small book of
the same form here; Pentobi's own stays outside the repository)."""

from __future__ import annotations

import json

from bench.ai import openings

# Blue's two first moves, yellow's answer to the first (next to blue, Pentobi's rule), red's
# answer (opposite blue); a variation for the second.
BOOK = """(
;GM[Blokus Two-Player]
(
 ;1[a17,b17,a18,a19,a20]TE[1]
 ;2[s17,t17,t18,t19,t20]TE[1]
 ;3[t1,t2,s3,t3,s4]TE[1]
)
(
 ;1[a20,b20,c20,d20,e20]TE[1]
 (
  ;2[t16,t17,t18,t19,t20]
 )
 (
  ;2[s20,t20,t19,t18,s18]
 )
)
)
"""


def test_the_books_tree_and_its_positions():
    root = openings.read_book(BOOK)
    assert [c.colour for c in root.children] == ["blue", "blue"]
    found = openings.positions(root, 8)
    assert [len(line) for line, _ in found] == [0, 1, 1, 2]
    assert [len(answers) for _, answers in found] == [2, 1, 2, 1]


def test_a_pick_is_a_book_move_up_to_a_symmetry_and_a_refused_corner_is_told_apart():
    root = openings.read_book(BOOK)
    found = openings.positions(root, 8)
    index = openings.book_index(found)
    line = [root.children[0]]  # blue a17-a20,b17: yellow to move
    cells = openings.cells_of
    assert openings.classify(line, "yellow", cells("s17,t17,t18,t19,t20"), index) == "book"
    # The same move in the mirror that keeps blue's corner and swaps t20 and a1 (blue's piece
    # mirrored too): the book position under that symmetry.
    mirrored = openings.mapped(lambda x, y: (19 - y, 19 - x), cells("s17,t17,t18,t19,t20"))
    blue = openings.Node("blue", openings.mapped(lambda x, y: (19 - y, 19 - x), line[0].cells))
    assert openings.classify([blue], "yellow", mirrored, index) == "book"
    # Yellow opposite blue: Pentobi's yellow starts next to blue, whatever the symmetry.
    assert openings.classify(line, "yellow", cells("t1,t2,t3,t4,t5"), index) == "corner"
    # Yellow next to blue but another piece: not in the book.
    assert openings.classify(line, "yellow", cells("t16,t17,t18,t19,t20"), index) == "other"
    # Red next to blue (a1) after yellow's t20: refused by Pentobi (red starts opposite blue).
    two = [root.children[0], root.children[0].children[0]]
    assert openings.classify(two, "red", cells("a1,a2,a3,a4,a5"), index) == "corner"
    assert openings.classify(two, "red", cells("t1,t2,s3,t3,s4"), index) == "book"


def test_a_short_run_reports_picks_values_and_how_it_ran(tmp_path, capsys):
    book = tmp_path / "book.blksgf"
    book.write_text(BOOK)
    out = tmp_path / "report.json"
    argv = [str(book), "--sims", "16", "--seeds", "2", "--depth", "3", "--json", str(out)]
    assert openings.main(argv) == 0
    text = capsys.readouterr()
    report = json.loads(out.read_text())
    assert report["seeds_drawn"] and len(report["seeds"]) == 2
    assert report["command"].endswith(f"--seed {report['seed']}")
    assert report["commit"] and report["load_before"] >= 0 and report["load_after"] >= 0
    assert [r["depth"] for r in report["by_depth"]] == [0, 1, 2]
    for r in report["results"]:
        assert len(r["picks"]) == 2 and 0 <= r["value_second"] <= 1
        assert all(p["kind"] in ("book", "corner", "other") for p in r["picks"])
    corners = {(c["colour"], c["corner"]): c for c in report["corners"]}
    assert set(corners) == {
        (colour, where)
        for colour in ("yellow", "red")
        for where in ("next to blue", "opposite blue")
    }
    assert corners["yellow", "next to blue"]["corners"] == 2  # t20 and a1, blue on a20
    assert corners["red", "opposite blue"]["corners"] == 1
    for colour in ("yellow", "red"):
        sides = [corners[colour, where] for where in ("next to blue", "opposite blue")]
        assert abs(sum(s["prior"] for s in sides) - 1) < 0.01
        assert abs(sum(s["visits"] for s in sides) - 1) < 0.01
    assert "| 1 | blue (first) | 1 (1) | 2 |" in text.out
    assert "The corners fight" in text.out
    assert "Empty board, blue to move" in text.out
    assert openings.main([str(tmp_path / "missing.blksgf")]) == 2
