"""The bridge: a bot account's games played by a GTP engine, through the API.

It listens to the account's stream (``/api/v1/stream/me``): a challenge is read
(``GET /games/<id>``) and accepted if it fits (``fits``), declined otherwise; a game started or
a turn of the bot's starts a player for that game, in a thread of its own. The player listens
to the game's stream (``/api/v1/stream/games/<id>``, from ply 0, so that it holds every action)
and at each of the bot's decisions:

- classic Blokus, with an engine: ``clear_board``, a ``play`` for every placement so far and
  ``genmove`` for the colour to move, mapped to Pentobi's board and colours (games.bots.gtp);
- Blokus Shuffle (no GTP engine knows it), or a position the engine cannot be told (first
  pieces on corners Pentobi's rules do not allow) or an engine that fails: our own level
  (``games.ai.decide``) from the seat's view the API gives;

then posts the action with the ply it saw and an idempotency key (``POST /games/<id>/actions``):
a repeat of the same decision is answered once, never played twice. A stream cut by the network
is opened again from the last ply seen.

The other players' requests, from the same stream:

- a take back another player asks for (the ``game`` line's ``takeback`` says the bot's answer is
  awaited) is declined, or accepted with ``takebacks="accept"``, through
  ``POST /games/<id>/takeback``; once it has accepted, the bot does not move while the others
  still answer (its move would end the request): the next ``game`` line (declined, or the
  ``reset`` of the move taken back) brings its decision again;
- chat is not read: to the first line of another player in a game, the bot answers once with
  ``chat_reply`` (nothing if it is empty).
"""

from __future__ import annotations

import threading
import time
import urllib.error
from collections.abc import Callable
from dataclasses import dataclass, field

from games import ai
from games.bots.client import ApiError, Client
from games.bots.gtp import (
    COLOUR_NUMBER,
    VARIANT,
    Gtp,
    GtpError,
    NoMapping,
    answer_move,
    engine_argv,
    play_commands,
)

NETWORK_ERRORS = (ApiError, urllib.error.URLError, TimeoutError, ConnectionError, OSError)
RECONNECT_SECONDS = 2.0
FALLBACK_LEVEL = "expert"  # a classic position the engine cannot play, when --level is not given
CHAT_REPLY = "I am a bot; I do not read chat."
TAKEBACK_ANSWERS = ("accept", "decline")


@dataclass
class Options:
    engine: list[str] = field(default_factory=list)  # the GTP engine's command line
    level: str | None = None  # our level for Shuffle (and the engine's fallback)
    min_move_seconds: int = 0  # challenges with less time per move are declined
    games: int | None = None  # stop after this many games are over (None: run for ever)
    takebacks: str = "decline"  # the answer to another player's take back: accept or decline
    chat_reply: str = CHAT_REPLY  # said once a game to another player's chat ("": nothing)
    log: Callable[[str], None] = print


def refusal(head: dict, options: Options) -> str | None:
    """Why the bridge declines the challenge ``head`` (a game as ``GET /games/<id>``), or None
    if it fits: classic for 2, 3 or 4 players with an engine, Shuffle with a level, enough time
    per move."""
    mode, players = head.get("mode"), head.get("players")
    if mode == "classic":
        if players not in VARIANT:
            return f"classic for {players} players has no Pentobi variant"
        if not options.engine and not options.level:
            return "no engine and no level to play classic"
    elif mode == "shuffle":
        if not options.level:
            return "Shuffle is played by our own level only (--level)"
    else:
        return f"unknown mode {mode!r}"
    if head.get("move_seconds", 0) < options.min_move_seconds:
        return f"{head.get('move_seconds')} s per move is less than {options.min_move_seconds} s"
    return None


def placements(actions: list[dict]) -> list[tuple[str, str]]:
    """Every placement of the move log, in order: (colour, squares)."""
    return [
        (event["colour"], event["squares"])
        for action in actions
        for event in action.get("events", ())
        if event.get("event") == "place"
    ]


class Bridge:
    def __init__(self, client: Client, options: Options):
        self.client = client
        self.options = options
        self.players: dict[str, threading.Thread] = {}
        self.lock = threading.Lock()
        self.finished = 0
        self.done = threading.Event()
        self.username = ""  # the bot's own (GET /me): its own chat lines are not answered

    def log(self, text: str) -> None:
        self.options.log(text)

    # -- the account's stream --------------------------------------------------------------

    def run(self) -> int:
        """Until ``options.games`` games are over (or for ever): 0 then."""
        me = self.client.get("/me")
        if "bot" not in me["token"]["scopes"]:
            self.log("note: this token has no bot scope (a bot account's token should)")
        self.username = me["username"]
        self.log(f"bridge for {me['username']}: listening")
        threading.Thread(target=self._listen, name="stream-me", daemon=True).start()
        self.done.wait()
        return 0

    def _listen(self) -> None:
        while not self.done.is_set():
            try:
                for event in self.client.stream("/stream/me"):
                    self.on_event(event)
                    if self.done.is_set():
                        return
            except NETWORK_ERRORS as exc:
                self.log(f"stream/me: {exc}; again in {RECONNECT_SECONDS:.0f} s")
            time.sleep(RECONNECT_SECONDS)

    def on_event(self, event: dict) -> None:
        kind = event.get("type")
        if kind == "hello":
            for game_id in event.get("challenges", ()):
                self.consider(game_id)
            for turn in event.get("your_turn", ()):
                self.play(turn["game"])
        elif kind == "challenge":
            self.consider(event["game"])
        elif kind in ("game_started", "your_turn"):
            self.play(event["game"])
        elif kind == "closed":
            self.log(f"stream/me closed: {event.get('detail')}")
            self.done.set()

    def consider(self, game_id: str) -> None:
        """Accept the challenge if it fits, else decline it."""
        try:
            head = self.client.get(f"/games/{game_id}")
            reason = refusal(head, self.options)
            if reason is None:
                self.client.post(f"/challenges/{game_id}/accept")
                self.log(f"game {game_id}: accepted ({head['mode']}, {head['players']} players)")
            else:
                self.client.post(f"/challenges/{game_id}/decline")
                self.log(f"game {game_id}: declined ({reason})")
        except ApiError as exc:
            self.log(f"game {game_id}: challenge not answered: {exc}")

    def play(self, game_id: str) -> None:
        """A player for the game, unless one plays it already."""
        with self.lock:
            if game_id in self.players and self.players[game_id].is_alive():
                return
            thread = threading.Thread(
                target=self._play, args=(game_id,), name=f"game-{game_id}", daemon=True
            )
            self.players[game_id] = thread
            thread.start()

    def _play(self, game_id: str) -> None:
        player = GamePlayer(self, game_id)
        try:
            over = player.run()
        finally:
            player.close()
        if over:
            with self.lock:
                self.finished += 1
                if self.options.games is not None and self.finished >= self.options.games:
                    self.done.set()


class GamePlayer:
    """One game: its stream, its move log, its engine (started at the first decision)."""

    def __init__(self, bridge: Bridge, game_id: str):
        self.bridge, self.client, self.options = bridge, bridge.client, bridge.options
        self.game_id = game_id
        self.actions: list[dict] = []
        self.seen: int | None = None
        self.decided: int | None = None  # the last ply a move was posted at
        self.engine: Gtp | None = None
        self.engine_broken = False
        self.answered: set[int] = set()  # the take backs answered
        self.waiting: int | None = None  # a take back accepted whose end the bot waits for
        self.chatted = False  # the chat reply was said

    def log(self, text: str) -> None:
        self.bridge.log(f"game {self.game_id}: {text}")

    def run(self) -> bool:
        """True when the game is over, False if it went away (cancelled, no longer ours)."""
        while not self.bridge.done.is_set():
            try:
                for event in self.client.stream(
                    f"/stream/games/{self.game_id}", since_ply=self.seen or 0
                ):
                    over = self.on_event(event)
                    if over is not None:
                        return over
            except ApiError as exc:
                if exc.status in (401, 403, 404):
                    self.log(f"stream refused: {exc}")
                    return False
                self.log(f"stream: {exc}; again in {RECONNECT_SECONDS:.0f} s")
            except NETWORK_ERRORS as exc:
                self.log(f"stream: {exc}; again in {RECONNECT_SECONDS:.0f} s")
            time.sleep(RECONNECT_SECONDS)
        return False

    def on_event(self, event: dict) -> bool | None:
        kind = event.get("type")
        if kind == "action":
            if not self.actions or event["ply"] > self.actions[-1]["ply"]:
                self.actions.append(event)
        elif kind == "reset":  # a take back: the log goes back to that ply
            self.actions = [a for a in self.actions if a["ply"] <= event["ply"]]
            self.decided = None
        elif kind == "closed":
            return False
        elif kind == "chat":
            self.on_chat(event)
        elif kind == "game":
            self.seen = event["ply"]
            if event["status"] in ("finished", "aborted"):
                self.log(f"over ({event['status']}) at ply {event['ply']}")
                return event["status"] == "finished"
            self.on_takeback(event.get("takeback") or {})
            if self.waiting is not None:
                return None  # a take back the bot accepted is still being answered
            if event.get("your_decision") and event["ply"] != self.decided:
                self.decide(event)
        return None

    # -- the other players' requests -----------------------------------------------------------

    def on_takeback(self, takeback: dict) -> None:
        """Answer the take back the ``game`` line says awaits the bot (once), and keep waiting
        while one it accepted is pending."""
        number = takeback.get("id")
        if number is None or not takeback.get("answered"):
            self.waiting = None  # none pending, or the bot's answer is no longer asked
        if not takeback.get("answer") or number in self.answered:
            return
        self.answered.add(number)
        answer = self.options.takebacks
        try:
            self.client.post(f"/games/{self.game_id}/takeback", {"answer": answer})
        except ApiError as exc:  # answered by the others already, or the game moved on
            self.log(f"take back {number}: not answered: {exc}")
            return
        self.log(f"take back {number}: {answer}d")
        if answer == "accept":
            self.waiting = number

    def on_chat(self, line: dict) -> None:
        """Chat is not read: the first line of another player gets ``chat_reply``, once."""
        if self.chatted or not self.options.chat_reply or line.get("user") == self.bridge.username:
            return
        self.chatted = True
        try:
            self.client.post(f"/games/{self.game_id}/chat", {"text": self.options.chat_reply})
            self.log("chat: answered")
        except ApiError as exc:
            self.log(f"chat: not answered: {exc}")

    # -- a decision --------------------------------------------------------------------------

    def decide(self, game: dict) -> None:
        ply = game["ply"]
        self.decided = ply
        action, source = None, ""
        if game["mode"] == "classic" and self.options.engine and not self.engine_broken:
            try:
                action, source = self.engine_move(game), "gtp"
            except (GtpError, NoMapping) as exc:
                self.log(f"ply {ply}: the engine cannot play this ({exc}); our level plays")
        if action is None:
            action, source = self.level_move(game), self.options.level or FALLBACK_LEVEL
        try:
            self.post(action, ply, source)
        except ApiError as exc:
            if exc.code == "illegal" and source == "gtp":
                self.log(f"ply {ply}: the engine's move {action} was refused ({exc.detail})")
                level = self.options.level or FALLBACK_LEVEL
                self.post(self.level_move(game), ply, level)
            elif exc.code == "stale":
                self.decided = None  # the game moved on: the stream brings it
            else:
                self.log(f"ply {ply}: not played: {exc}")

    def post(self, action: dict, ply: int, source: str) -> None:
        key = f"bridge-{self.game_id}-{ply}-{source}"
        answer = self.client.post(
            f"/games/{self.game_id}/actions", {"action": action, "ply": ply, "key": key}
        )
        self.log(f"ply {ply}: {source} {action} -> ply {answer['ply']}")

    def level_move(self, game: dict) -> dict:
        return ai.decide(game["view"], level=self.options.level or FALLBACK_LEVEL)

    def engine_move(self, game: dict) -> dict:
        last = self.actions[-1]["ply"] if self.actions else 0
        if last != game["ply"]:  # a log that does not reach this ply: read it whole
            self.actions = self.client.get(f"/games/{self.game_id}/actions")["actions"]
        placed = placements(self.actions)
        colour = game["view"]["to_move"]
        commands, board_map = play_commands(placed)
        if self.engine is None:
            self.engine = Gtp(engine_argv(self.options.engine, game["players"]))
        for command in commands:
            self.engine.send(command)
        answer = self.engine.send(f"genmove {COLOUR_NUMBER[colour]}")
        first = colour not in {c for c, _squares in placed}
        return {"place": answer_move(answer, colour, board_map, first)}

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close()
