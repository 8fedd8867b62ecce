"""The help page's pictures come from the engine's own tables (issue "A game table players
enjoy", item 9): the 21 pieces, each card, one worked example turn."""

from __future__ import annotations

import re

from django.test import Client
from django.urls import reverse

from games.engine.cards import CARD_KINDS, CARD_NAMES
from games.engine.pieces import PIECES, SHAPES


def test_the_help_page_draws_every_piece_from_the_engine_table(db):
    content = Client().get(reverse("help")).content.decode()

    gallery = re.search(r'<ul class="piece-gallery".*?</ul>', content, re.S).group(0)
    drawn = re.findall(r'aria-label="Piece (\w+), (\d+) squares">(.*?)</svg>', gallery, re.S)
    assert [name for name, _, _ in drawn] == list(PIECES) and len(drawn) == 21  # R1.3
    for name, size, body in drawn:
        assert body.count("<rect") == len(SHAPES[name]) == int(size)
    assert sum(int(size) for _, size, _ in drawn) == 89


def test_the_help_page_draws_each_card_and_a_worked_example(db):
    content = Client().get(reverse("help")).content.decode()

    cards = re.search(r'<ul class="card-gallery".*?</ul>', content, re.S).group(0)
    for kind in CARD_KINDS:
        assert f"Card {CARD_NAMES[kind]}:" in cards.replace("&amp;", "&")
    example = re.search(r'<section id="example">.*?</section>', content, re.S).group(0)
    assert example.count("<li>") == 3 and "(R5.1)" in example and "(R5.3)" in example
    assert "(R5.4)" in example and 'class="board-pic"' in example
