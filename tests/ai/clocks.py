"""Clocks the AI tests drive (``mcts_choose(clock=…)``, ``games.ai.expert.clock``): a search's
time is then a count of its own clock readings, the same on a loaded machine as on an idle one."""

from __future__ import annotations


class Ticking:
    """A clock that moves on by ``tick`` seconds at every reading (``tick`` 0: a stopped clock,
    for code whose searches are replaced by instant answers)."""

    def __init__(self, tick: float = 0.001, start: float = 1000.0):
        self.tick = tick
        self.now = start
        self.readings = 0

    def __call__(self) -> float:
        self.now += self.tick
        self.readings += 1
        return self.now
