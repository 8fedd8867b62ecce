"""``python -m games.bots gtp --token blk_... --url https://site -- pentobi-gtp --level 5``:
a bot account's games played by a GTP engine (games.bots.bridge)."""

from __future__ import annotations

import argparse
import functools
import os
import sys

from games.ai import LEVELS
from games.bots.bridge import CHAT_REPLY, TAKEBACK_ANSWERS, Bridge, Options
from games.bots.client import ApiError, Client


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m games.bots", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    g = sub.add_parser(
        "gtp",
        help="play a bot account's games with a GTP engine",
        description=(
            "Accept the challenges that fit and play every game of the bot account through the "
            "API: classic with the GTP engine given after --, Shuffle with --level. "
            "{variant} in the engine's command becomes classic_2, classic_3 or classic; "
            "without it, --game <variant> is added (as pentobi-gtp takes it)."
        ),
    )
    g.add_argument("--token", default=os.environ.get("BLOKUS_TOKEN", ""), help="or BLOKUS_TOKEN")
    g.add_argument("--url", default="http://127.0.0.1:8000", help="the site")
    g.add_argument("--level", choices=list(LEVELS), help="our level for Shuffle games")
    g.add_argument("--min-move-seconds", type=int, default=0, help="decline faster games")
    g.add_argument("--games", type=int, help="stop after this many games are over")
    g.add_argument(
        "--takebacks",
        choices=TAKEBACK_ANSWERS,
        default="decline",
        help="the answer to another player's take back (default: decline); after accepting, "
        "the bot waits for the other players' answers before it moves",
    )
    g.add_argument(
        "--chat-reply",
        default=CHAT_REPLY,
        metavar="TEXT",
        help=f"the bot does not read chat: to the first line of another player in a game it "
        f"answers this, once (default: {CHAT_REPLY!r}; '' for nothing)",
    )
    g.add_argument("engine", nargs=argparse.REMAINDER, help="-- the GTP engine's command")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    engine = args.engine[1:] if args.engine[:1] == ["--"] else args.engine
    if not args.token:
        print("give the bot's token: --token blk_... (or BLOKUS_TOKEN)", file=sys.stderr)
        return 2
    if not engine and not args.level:
        print("give a GTP engine after -- or a --level (or both)", file=sys.stderr)
        return 2
    log = functools.partial(print, flush=True)
    options = Options(
        engine=engine,
        level=args.level,
        min_move_seconds=args.min_move_seconds,
        games=args.games,
        takebacks=args.takebacks,
        chat_reply=args.chat_reply,
        log=log,
    )
    try:
        return Bridge(Client(args.url, args.token), options).run()
    except ApiError as exc:
        print(f"the API refused: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
