"""Pure: the game page's "Resign" and "Take back" controls for one viewer, from their seat's
engine view and the game's plain facts (no model imports: tests/code/test_import_graph.py)."""

from __future__ import annotations

from django.utils.translation import gettext as _


def controls(view: dict, seat: int | None, *, rated: bool, takeback: dict | None = None) -> dict:
    """What the viewer may do besides moving: resign (a player who has not resigned, while the
    game runs; during the setup round only with two players, R11.1) and ask for, answer or wait
    on a take back (``takeback``: games.selectors.takebacks.facts for this viewer, None when
    there is nothing to show)."""
    if seat is None or view.get("over"):
        return {}
    out: dict = {}
    playing = view["players"] - len(view.get("resigned") or [])
    if seat not in (view.get("resigned") or []) and (view.get("step") != "setup" or playing <= 2):
        if playing <= 2:
            what = _("The game ends and the other player wins.")
        else:
            what = _(
                "Your colours stop and the others play on; you rank below every player who "
                "does not resign."
            )
        if rated:
            loss = _("This game is rated: it counts as a loss.")
            what = f"{what} {loss}"
        out["resign"] = {"text": what}
    if takeback:
        out["takeback"] = takeback
    return out
