"""The panel's cheaper parts: the move log built outside the template engine, the
piece of a placement named by the engine, the colours' words remembered per language. Each must
say exactly what the slower way said."""

from __future__ import annotations

import re

from django.utils import translation

from games.engine.pieces import PLACEMENTS, placement_piece, placement_text
from games.presenters import log
from games.presenters.board import _piece_of_shape, piece_of
from games.translations import colour_letter, colour_name


def test_r1_3_every_placement_is_named_as_its_shape_names_it():
    for value in PLACEMENTS:
        text = placement_text(value)
        assert placement_piece(text) == _piece_of_shape(text), text
    # A text the engine did not write (a hand-made one) is named by its shape.
    assert placement_piece("a1,b1,c1,a2,a4") is None
    assert piece_of("a1,a2,a3") == _piece_of_shape("a1,a2,a3")


def test_the_colours_words_follow_the_active_language_each_time():
    with translation.override("sv"):
        assert (colour_letter("yellow"), colour_letter("green")) == ("Gu", "Gr")
        swedish = colour_name("yellow")
    with translation.override("en"):
        assert (colour_letter("yellow"), colour_letter("green")) == ("Y", "G")
        assert colour_name("yellow") == "yellow"
    with translation.override("sv"):
        assert colour_name("yellow") == swedish != "yellow"
    assert colour_letter("") == colour_letter(None) == ""
    assert colour_name("purple") == "purple"


def test_the_move_log_items_escape_every_value_and_mark_the_new_turns():
    actions = [
        (1, 0, [{"event": "place", "colour": "blue", "piece": "I1", "squares": "a20"}]),
        (2, 1, [{"event": "place", "colour": "yellow", "piece": "I2", "squares": "t20,t19"}]),
    ]
    turns = log.turns(
        actions,
        classic=True,
        colour_labels={"blue": "<b>al&ce</b>", "yellow": 'bob "the" builder'},
        mine={"blue"},
        replay_url="/games/x/replay/",
    )
    html = str(log.items_html(turns["turns"]))
    items = re.findall(r'<li class="log-turn (\w+)( new)?">(.*?)</ul></li>', html, re.S)
    assert [(colour, bool(new)) for colour, new, _ in items] == [("yellow", True), ("blue", False)]
    assert "<b>" not in html and "&lt;b&gt;al&amp;ce&lt;/b&gt;" in html
    assert "bob &quot;the&quot; builder" in html
    assert 'href="/games/x/replay/?ply=2"' in html and 'href="/games/x/replay/?ply=1"' in html
    assert '<span class="log-n">2.</span>' in html
    assert '<li class="ev-place">' in html


def _colour_line(**changes) -> dict:
    line = {
        "name": "red",
        "label": "red",
        "letter": "R",
        "player": "Alice <b>",
        "supply": ["I5", "V3"],
        "remaining": 8,
        "passed": False,
        "to_move": True,
        "in_play": True,
        "mine": True,
        "deck": {"hand_count": 2, "pile_count": 25, "top": "Wild", "top_effect": 'a "wild" one'},
        "clock": None,
    }
    return {**line, **changes}


def test_the_colour_rows_say_what_the_template_said_with_its_spaces_and_escapes():
    from games.presenters.colours import rows_html

    with translation.override("en"):
        html = rows_html([_colour_line()], over=False, active=True, per_move="1 day", time_left="")
    text = re.sub(r"<[^>]+>", "", html)
    # The badge stands apart from the name (the head is not a flex box: the space is the text's).
    assert "Alice &lt;b&gt; (you) to move" in text
    assert "8 squares left 2 in handpile 25 discard: Wild" in text  # the template's spacing
    assert 'title="a &quot;wild&quot; one"' in html and "1 day per move" in text
    assert "I5 V3" in text
    over = rows_html([_colour_line()], over=True, active=False, per_move="1 day", time_left="")
    assert "to move" not in over and "per move" not in over
