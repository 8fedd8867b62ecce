"""A resignation in the post-game analysis (R11.1): it is its player's decision, made out of turn
as often as not, so it is stored under the resigner's seat and colour and never judged (no loss
charged to the player whose turn it was)."""

from __future__ import annotations

from games.ai.judge import analyse_decision
from games.engine import apply, legal_actions, new_game


def test_r11_1_a_resignation_out_of_turn_is_the_resigners_and_is_not_judged():
    state = new_game(mode="classic", players=4)
    for _ in range(4):  # the setup round (R3.1): resigning is open after it
        state = apply(state, legal_actions(state)[0])
    assert state.controller() == 0  # blue's seat is to move
    resign = {"resign": "red"}  # seat 2 resigns out of turn

    result = analyse_decision(state, resign, ply=5, sims=64, seed=3)

    assert (result.seat, result.colour, result.judged) == (2, "red", False)
    assert result.loss == 0.0 and result.played == resign
    assert result.before == result.after and 0.0 <= result.after <= 1.0
