"""The help page's pictures come from the engine's own tables (issue "A game table players
enjoy"): the 21 pieces, each card, one worked example turn played by the engine."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import translations
from games.engine.cards import CARD_EFFECTS, CARD_KINDS, CARD_NAMES, CARDS
from games.engine.pieces import PIECES, SHAPES
from games.presenters import pictures


@pytest.fixture
def page(db) -> str:
    response = Client().get(reverse("help"))
    assert response.status_code == 200
    return response.content.decode()


def _section(content: str, pattern: str) -> str:
    found = re.search(pattern, content, re.S)
    assert found, pattern
    return found.group(0)


def test_the_help_page_draws_every_piece_from_the_engine_table(page):
    gallery = _section(page, r'<ul class="piece-gallery".*?</ul>')
    drawn = re.findall(r'aria-label="Piece (\w+), (\d+) squares?">(.*?)</svg>', gallery, re.S)

    assert [name for name, _, _ in drawn] == list(PIECES) and len(drawn) == 21  # R1.3
    for name, size, body in drawn:
        assert body.count("<rect") == len(SHAPES[name]) == int(size)
        # The squares are the table's own: (x, y) with y upwards, drawn with the top row first.
        squares = {(int(x), int(y)) for x, y in re.findall(r'<rect x="(\d+)" y="(\d+)"', body)}
        top = max(y for _, y in SHAPES[name])
        cell = pictures.CELL
        assert squares == {(x * cell, (top - y) * cell) for x, y in SHAPES[name]}
    assert sum(int(size) for _, size, _ in drawn) == 89  # R1.3: 89 squares per colour


def test_the_help_page_draws_each_card_kind_as_a_card_with_its_name_and_effect(page):
    gallery = _section(page, r'<ul class="card-gallery".*?</ul>').replace("&#x27;", "'")
    drawn = re.findall(r'<svg class="card-pic".*?</svg>', gallery, re.S)

    assert len(drawn) == len(CARD_KINDS) == 8  # R1.4, R6
    for kind, svg in zip(CARD_KINDS, drawn, strict=True):
        name = CARD_NAMES[kind].replace("&", "&amp;")
        assert f'aria-label="Card {name}: ' in svg
        assert f">{name}</text>" in svg  # the name written on the card
        assert 'rx="10"' in svg and 'class="c-blue"' in svg  # a rounded card, a colour band
        words = " ".join(re.findall(r"<tspan[^>]*>(.*?)</tspan>", svg))
        assert words == CARD_EFFECTS[kind]  # the engine's effect text, all of it
        assert CARDS[kind].rule in svg


def _squares(svg: str, css_class: str, inset: float = 0) -> set[tuple[int, int]]:
    """Grid positions of the board picture's rects of one class (column, row from the top)."""
    size = float(re.search(r'class="c-blue" x="[\d.]+" y="[\d.]+" width="([\d.]+)"', svg)[1])
    return {
        (round((float(x) - inset) / size), round((float(y) - inset) / size))
        for x, y in re.findall(rf'<rect class="{css_class}" x="([\d.]+)" y="([\d.]+)"', svg)
    }


def test_the_worked_example_is_a_real_turn_that_follows_the_corner_rules(page):
    example = _section(page, r'<section id="example">.*?</section>')
    steps = re.findall(r"<li><h3>.*?</h3>(.*?)</li>\s*(?=<li><h3>|</ol>)", example, re.S)

    assert len(steps) == 4  # play a card, its effect, place a piece, draw
    for rule in ("R5.1", "R5.3", "R5.4", "R4.2", "R4.3", "R4.4"):  # the rules it shows, cited
        assert re.search(rf"\b{re.escape(rule)}\b", example), rule
    assert "played" in steps[0] and 'class="order-pic"' in steps[1]
    assert "new" in steps[3] and 'class="board-pic"' in steps[2]

    board = steps[2]
    placed = re.search(r"Blue placed ([A-Z]\w*) on ([a-t0-9,]+)", board)
    new = _squares(board, "last", inset=1.5)
    blue = _squares(board, "c-blue")
    assert len(new) == len(placed[2].split(",")) == len(SHAPES[placed[1]])  # the piece it names
    assert new <= blue  # the outlined piece is blue's
    old = blue - new
    sides = {(x + dx, y + dy) for x, y in new for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
    corners = {(x + dx, y + dy) for x, y in new for dx in (1, -1) for dy in (1, -1)}
    assert not sides & old  # R4.3: no side shared with its own colour
    assert corners & old  # R4.2: a corner touches its own colour
    assert board.count('class="contact"') >= 1  # and that corner is ringed


def test_the_example_is_drawn_once_in_four_steps():
    # In English whatever another test left active in this thread (the cache is per language).
    with translation.override("en"):
        first = pictures.example_turn()
        assert pictures.example_turn() is first  # functools.cache: drawn once per language
    assert [step["title"] for step in first] == [
        "Play a card",
        "Its effect",
        "Place a piece",
        "Draw",
    ]


def test_the_palette_the_pictures_use_is_the_sites(db):
    css = (Path(settings.BASE_DIR) / "static" / "css" / "site.css").read_text()
    for colour, fill in pictures.FILL.items():
        assert re.search(rf"--{colour}:\s*{fill};", css, re.I), colour


def test_the_help_page_explains_every_card_of_the_registry_with_its_rule(page):
    """The cards section loops over the card registry: each kind's name and paragraph, and the
    number of kinds is counted, not written."""
    section = _section(page, r'<section id="cards">.*?</section>').replace("&#x27;", "'")
    with translation.override("en"):
        for kind in CARD_KINDS:
            paragraph = str(translations.card_help(kind))
            assert f"<strong>{CARD_NAMES[kind]}</strong> {paragraph}" in section.replace(
                "&amp;", "&"
            ), kind
            assert paragraph.startswith(f"({CARDS[kind].rule}):")
    assert f"Every deck holds the same {len(CARD_KINDS)} kinds" in section
