"""The GTP bridge (``python -m games.bots gtp``) end to end: the site in Daphne (the e2e tests'
server, in this process), the bridge as its own process with the stand-in GTP engine the arena
tests use (tests/ai/fake_gtp.py, as strict as Pentobi about its starting corners), and a person
playing through the services. The bridge accepts the person's rated challenge and plays its whole
classic two-player game through the API: every move of the bot is the engine's, posted with the
ply it saw and its idempotency key.

The streams are endless requests: the server must serve them beside the others, which only
PostgreSQL allows here (with the in-memory SQLite database the e2e server serves one request at
a time), so the end-to-end test needs PostgreSQL. The pure parts of the bridge are tested too.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

import pytest
from django.test import override_settings

from api import tokens
from api.bots import bot_account_make
from games import services
from games.bots import bridge
from games.bots.gtp import BoardMap, NoMapping, engine_argv, parse_move, play_commands
from games.engine.blksgf import PENTOBI_CORNER
from games.models import Action, ChatMessage, Game, Seat, TakeBack
from games.services import SeatSpec
from games.services.chat import chat_post
from tests.support.bridge import FAKE, ROOT, human_move, start_bridge
from tests.support.needs import missing

# -- the pure parts ------------------------------------------------------------------------------


def test_a_challenge_fits_by_mode_players_and_time():
    gtp = bridge.Options(engine=["pentobi-gtp"], min_move_seconds=3600)
    head = {"mode": "classic", "players": 2, "move_seconds": 3600}
    assert bridge.refusal(head, gtp) is None
    assert "less than" in bridge.refusal(head | {"move_seconds": 60}, gtp)
    assert "our own level" in bridge.refusal(head | {"mode": "shuffle"}, gtp)
    both = bridge.Options(engine=["pentobi-gtp"], level="expert")
    assert bridge.refusal(head | {"mode": "shuffle", "players": 4}, both) is None


def test_the_engine_is_started_in_the_games_variant():
    assert engine_argv(["pentobi-gtp", "--level", "5"], 2)[-2:] == ["--game", "classic_2"]
    assert engine_argv(["gtp", "-g", "{variant}"], 3) == ["gtp", "-g", "classic_3"]
    assert engine_argv(["pentobi-gtp"], 4)[-1] == "classic"


def test_the_moves_so_far_are_set_up_on_pentobis_board():
    """Our blue starts at t1: the board is turned so that it is Pentobi's a20 (blue's start)."""
    commands, board_map = play_commands([("blue", "t1,s1")])
    assert commands[0] == "clear_board"
    assert commands[1].startswith("play 1 ") and "a20" in commands[1]
    assert PENTOBI_CORNER["blue"] in board_map.to_pentobi(parse_move("t1"))


def test_corners_pentobi_does_not_allow_cannot_be_set_up():
    """Red must start opposite blue in Pentobi: a red first piece beside blue has no mapping
    (the bridge's own level then plays the game)."""
    with pytest.raises(NoMapping):
        play_commands([("blue", "a1"), ("yellow", "t20"), ("red", "t1")])
    assert BoardMap().allowed_corners("blue")


# -- end to end ----------------------------------------------------------------------------------


@pytest.fixture
def server(transactional_db):
    from django.db import connection

    if connection.vendor != "postgresql":
        missing("the bridge's test serves endless streams beside other requests: PostgreSQL")
    from tests.e2e.conftest import _application, _Daphne

    daphne = _Daphne.get()
    daphne.serial = False
    with override_settings(ALLOWED_HOSTS=["127.0.0.1", "localhost"]):
        daphne.app = _application(None)
        try:
            yield f"http://127.0.0.1:{daphne.port}"
        finally:
            daphne.app = None


def whole_game(server: str, alice, make_user, engine: list[str], seconds: float) -> str:
    """The person's rated challenge to the bot, accepted by the bridge, and their whole classic
    two-player game, the bot's moves all the engine's; the bridge's output."""
    robo = make_user("robo")
    bot_account_make(user=robo, confirm="robo")
    secret = tokens.token_issue(user=robo, name="bridge", scopes=["bot"]).secret
    argv = [sys.executable, "-m", "games.bots", "gtp", "--token", secret, "--url", server]
    argv += ["--games", "1", "--", *engine]
    process = subprocess.Popen(
        argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        game = services.game_create(
            creator=alice,
            mode="classic",
            players=2,
            scoring="advanced",
            rated=True,  # the person's rated challenge to the bot
            seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="robo")],
        )
        deadline = time.monotonic() + seconds
        while True:
            assert time.monotonic() < deadline, "the game did not end in time"
            assert process.poll() is None or game.status == Game.Status.FINISHED
            game.refresh_from_db()
            if game.status == Game.Status.FINISHED:
                break
            if game.status == Game.Status.ACTIVE and game.to_move_seat == 0:
                services.action_submit(
                    game=game, user=alice, action=human_move(game), expected_ply=game.ply
                )
            else:
                time.sleep(0.05)
        assert process.wait(timeout=60) == 0  # --games 1: it stops once the game is over
    finally:
        if process.poll() is None:
            process.kill()
        out = process.communicate()[0]
    print(out)
    assert game.rated and f"game {game.public_id}: accepted" in out
    bot_seat = game.seats.get(user=robo)
    bot_actions = Action.objects.filter(game=game, seat=bot_seat.index)
    assert bot_actions.count() >= 2
    # Every move of the bot came through the API from the engine (its key names the source).
    keys = [key for _ply, key in bot_actions.values_list("ply", "key")]
    expected = [
        f"u{robo.pk}:bridge-{game.public_id}-{ply - 1}-gtp"
        for ply, _key in bot_actions.values_list("ply", "key")
    ]
    assert keys == expected  # the ply it saw (the action's own ply less one), the engine's
    assert "our level plays" not in out and "refused" not in out
    assert out.count(" gtp {'place'") == len(keys)
    return out


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_the_bridge_plays_a_whole_classic_game_with_the_gtp_engine(server, alice, make_user):
    whole_game(server, alice, make_user, [sys.executable, str(FAKE), "--seed", "5"], 180)


def pentobi_gtp() -> str | None:
    """The real engine: PENTOBI_GTP, or ``pentobi-gtp`` on the PATH."""
    return os.environ.get("PENTOBI_GTP") or shutil.which("pentobi-gtp")


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_bridge_plays_a_whole_classic_game_with_the_real_pentobi(server, alice, make_user):
    """Pentobi itself (GPL, not part of the project: README's "Pentobi" section builds it) plays
    the bot's side of a whole game, at its fastest level; skipped without it."""
    binary = pentobi_gtp()
    if not binary:
        pytest.skip("no pentobi-gtp: set PENTOBI_GTP or put it on the PATH")
    engine = [binary, "--level", "1", "--quiet", "--nobook"]
    out = whole_game(server, alice, make_user, engine, 480)
    assert "over (finished)" in out


def wait_for(check, what: str, process: subprocess.Popen, seconds: float = 60):
    deadline = time.monotonic() + seconds
    while not (found := check()):
        assert process.poll() is None, f"the bridge stopped before {what}"
        assert time.monotonic() < deadline, f"no {what} in time"
        time.sleep(0.05)
    return found


@pytest.mark.slow
@pytest.mark.timeout(180)
@pytest.mark.parametrize("answer", ["decline", "accept"])
def test_the_bridge_answers_take_backs_and_chat(server, alice, bob, carol, make_user, answer):
    """R11 take backs: a take back another player asks for is answered through the API, declined
    by default (``--takebacks accept`` accepts it, and the bot waits for the others' answers
    before moving); the bot plays on afterwards. Chat is not read: the first line of another
    player gets the fixed reply once, whatever follows."""
    robo = make_user("robo")
    bot_account_make(user=robo, confirm="robo")
    secret = tokens.token_issue(user=robo, name="bridge", scopes=["bot"]).secret
    extra = ["--takebacks", answer] if answer == "accept" else []
    process = start_bridge(server, secret, *extra)
    try:
        # Four players, one colour each, the bot third: a person's take back is asked while
        # the next person (not the bot) is to move, as the rules allow (R11).
        invited = [SeatSpec(Seat.Kind.INVITED, username=n) for n in ("bob", "robo", "carol")]
        game = services.game_create(
            creator=alice,
            mode="classic",
            players=4,
            rated=False,
            seats=[SeatSpec(Seat.Kind.HUMAN), *invited],
        )
        for person in (bob, carol):
            services.invitation_accept(game=game, user=person)

        def started():
            game.refresh_from_db()
            return game.status == Game.Status.ACTIVE

        wait_for(started, "start (the bridge accepts)", process)
        services.action_submit(game=game, user=alice, action=human_move(game), expected_ply=0)
        game.refresh_from_db()
        asked = services.takeback_request(game=game, user=alice)
        asked = wait_for(
            lambda: TakeBack.objects.filter(pk=asked.pk, answers__has_key="2").first(),
            "answer from the bot",
            process,
        )
        assert asked.answers["2"] is (answer == "accept")
        if answer == "decline":
            assert asked.status == TakeBack.Status.DECLINED
        else:
            assert asked.status == TakeBack.Status.PENDING  # bob and carol answer too
            time.sleep(1.0)  # the bot, next but one, waits: nothing of it is played meanwhile
            for person in (bob, carol):
                game.refresh_from_db()
                services.takeback_answer(game=game, user=person, accept=True)
            asked.refresh_from_db()
            assert asked.status == TakeBack.Status.ACCEPTED
            game.refresh_from_db()
            assert game.ply == 0
            services.action_submit(game=game, user=alice, action=human_move(game), expected_ply=0)
        game.refresh_from_db()
        services.action_submit(game=game, user=bob, action=human_move(game), expected_ply=game.ply)
        moves = Action.objects.filter(game=game, seat=2, taken_back=False)
        wait_for(moves.exists, "move of the bot after the take back", process)
        assert moves.get().key.endswith("-gtp")
        # The bot's game stream is open (it has played): chat reaches it.
        chat_post(game=game, user=alice, text="hello robo")
        replies = ChatMessage.objects.filter(game=game, user=robo)
        wait_for(replies.exists, "chat reply", process)
        chat_post(game=game, user=bob, text="are you there?")
        time.sleep(1.0)
        assert [m.text for m in replies] == [bridge.CHAT_REPLY]  # once a game
    finally:
        process.kill()
        out = process.communicate()[0]
        print(out)
    assert f"take back {asked.pk}: {answer}d" in out
    assert "chat: answered" in out and "Traceback" not in out
