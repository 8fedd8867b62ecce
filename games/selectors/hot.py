"""The reads every game request makes, in SQL written once.

A game page and its panel read the game, its seats with their users and the move log on every
request; a move locks the game and reads its seats with their players' notice flags. Through
the ORM each of those reads costs more CPU building the query (a fresh queryset, its compiler,
25 quoted columns) and the rows' instances than the database spends answering it: 0.4 ms for
the game, 0.5 ms for the seats, 0.3 ms for the log, against 0.05-0.1 ms for the same SQL
through a cursor (bench/RESULTS.md). Here the SQL is built once per process from the
models' own metadata (no hand-kept column list to drift) and the rows become model instances
through ``Model.from_db``, as the ORM makes them: the callers get the same objects as before.
``tests/games/test_hot_reads.py`` checks them field by field against the ORM's.
"""

from __future__ import annotations

import json
from functools import cache

from django.db import connection

from config.rows import convert, converters
from games.models import BOT_RELATION, Action, Game, NoticeSettings, PushSubscription, Seat


@cache
def _sql() -> dict:
    from django.contrib.auth import get_user_model

    user_model = get_user_model()
    seat_fields = [f for f in Seat._meta.concrete_fields]
    user_fields = [f for f in user_model._meta.concrete_fields]
    qn = connection.ops.quote_name
    seat_cols = ", ".join(f"s.{qn(f.column)}" for f in seat_fields)
    user_cols = ", ".join(f"u.{qn(f.column)}" for f in user_fields)
    game = f"SELECT * FROM {qn(Game._meta.db_table)} WHERE"
    seat_user = qn(Seat._meta.get_field("user").column)
    # Whether the seat's user has a subscribed device switched on, a webhook (false for no user)
    pushes = (
        f"EXISTS (SELECT 1 FROM {qn(PushSubscription._meta.db_table)} p"
        f" WHERE p.{qn(PushSubscription._meta.get_field('user').column)} = s.{seat_user}"
        f" AND p.{qn(PushSubscription._meta.get_field('enabled').column)})"
    )
    hooks = (
        f"EXISTS (SELECT 1 FROM {qn(NoticeSettings._meta.db_table)} n"
        f" WHERE n.{qn(NoticeSettings._meta.get_field('user').column)} = s.{seat_user}"
        f" AND NOT (n.{qn(NoticeSettings._meta.get_field('webhook_url').column)} = ''))"
    )
    # SQLite has no row locks (select_for_update is a no-op there too: its writes serialize)
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    lock_game = " FOR UPDATE OF g" if connection.features.has_select_for_update_of else lock
    game_fields = list(Game._meta.concrete_fields)
    game_cols = ", ".join(f"g.{qn(f.column)}" for f in game_fields)
    # A player's bot account (BOT_RELATION, the API's model read by its relation's name: games
    # does not import api), for the page's labels ("robo (bot)") as lists.prefetch_seats reads it.
    bot_relation = user_model._meta.get_field(BOT_RELATION)
    bot_model = bot_relation.related_model
    bot_fields = list(bot_model._meta.concrete_fields)
    bot_cols = ", ".join(f"b.{qn(f.column)}" for f in bot_fields)
    seats_join = (
        f" FROM {qn(Game._meta.db_table)} g"
        f" LEFT JOIN {qn(Seat._meta.db_table)} s"
        f" ON s.{qn(Seat._meta.get_field('game').column)} = g.{qn(Game._meta.pk.column)}"
        f" LEFT JOIN {qn(user_model._meta.db_table)} u"
        f" ON u.{qn(user_model._meta.pk.column)} = s.{seat_user}"
    )
    where = f" WHERE g.{qn('public_id')} = %s ORDER BY s.{qn(Seat._meta.get_field('index').column)}"
    game_join = seats_join + where
    bot_join = (
        f" LEFT JOIN {qn(bot_model._meta.db_table)} b"
        f" ON b.{qn(bot_relation.field.column)} = s.{seat_user}"
    )
    return {
        "lock_by_public_id": f"{game} {qn('public_id')} = %s{lock}",
        "lock_by_pk": f"{game} {qn(Game._meta.pk.column)} = %s{lock}",
        # The move's one read: its game locked, with the seats, their users and device flags
        # (a row per seat, the game's columns on each).
        "move": (
            f"SELECT {game_cols}, {seat_cols}, {user_cols}, {pushes}, {hooks}{game_join}{lock_game}"
        ),
        # A page's one read: the game with its seats, their users and their users' bot
        # accounts (a row per seat).
        "game_seats": (
            f"SELECT {game_cols}, {seat_cols}, {user_cols}, {bot_cols}{seats_join}{bot_join}{where}"
        ),
        "bot_relation": bot_relation,
        "bot_model": bot_model,
        "bot_names": [f.attname for f in bot_fields],
        "bot_converters": converters(bot_fields),
        "game_names": [f.attname for f in game_fields],
        "game_converters": converters(game_fields),
        "seat_names": [f.attname for f in seat_fields],
        "user_names": [f.attname for f in user_fields],
        # The backend's conversions of the columns, as the ORM applies them (none of these
        # columns needs one on PostgreSQL; SQLite's datetimes and booleans do).
        "converters": converters(seat_fields + user_fields),
        "user_model": user_model,
        "log": (
            f"SELECT {qn('ply')}, {qn('seat')}, {qn('events')} FROM {qn(Action._meta.db_table)}"
            f" WHERE {qn('game_id')} = %s AND NOT {qn('taken_back')} ORDER BY {qn('ply')}"
        ),
    }


def game_with_seats(public_id: str) -> tuple[Game, list[Seat]] | None:
    """The game by its public id and its seats in seat order, each with its ``user`` (None for
    an open or computer seat, its bot account read with it) and its ``game`` set, as
    ``Game.objects.get(public_id=...)`` and
    ``game.seats.select_related("user", "user__api_bot")`` give them, in one query. None if
    there is no such game."""
    return _game_and_seats("game_seats", public_id, device_flags=False, bots=True)


def locked_game(*, public_id: str | None = None, pk: int | None = None) -> Game | None:
    """``Game.objects.select_for_update().get(...)`` by public id or primary key (the row
    locked until the transaction ends), or None."""
    sql = _sql()["lock_by_public_id" if pk is None else "lock_by_pk"]
    found = list(Game.objects.raw(sql, [public_id if pk is None else pk]))
    return found[0] if found else None


def locked_with_seats(public_id: str) -> tuple[Game, list[Seat]] | None:
    """The move path's one read: the game by its public id, its row locked until
    the transaction ends (``select_for_update``), and its seats as ``seats(game,
    device_flags=True)`` gives them, in one query. None if there is no such game."""
    return _game_and_seats("move", public_id, device_flags=True, bots=False)


def _game_and_seats(query: str, public_id: str, *, device_flags: bool, bots: bool):
    """The game and its seats from ``query``, a join with a row per seat (the game's columns on
    each), or None."""
    sql = _sql()
    with connection.cursor() as cursor:
        cursor.execute(sql[query], [public_id])
        rows = cursor.fetchall()
    if not rows:
        return None
    split = len(sql["game_names"])
    values = convert(list(rows[0][:split]), sql["game_converters"])
    game = Game.from_db(connection.alias, sql["game_names"], values)
    # A game has its seats from its creation; a row without one (the join's NULLs) has none.
    out = [_seat(row[split:], game, device_flags, bots) for row in rows if row[split] is not None]
    return game, out


def _seat(row, game: Game, device_flags: bool, bots: bool) -> Seat:
    sql = _sql()
    seat_names, user_names = sql["seat_names"], sql["user_names"]
    split = len(seat_names)
    end = split + len(user_names)
    if sql["converters"]:
        row = convert(list(row), sql["converters"])
    seat = Seat.from_db(connection.alias, seat_names, row[:split])
    user = None
    if row[split] is not None:
        user = sql["user_model"].from_db(connection.alias, user_names, row[split:end])
    # The relations' own descriptors: the ids stay the row's, the objects are kept on the seat
    # (``seat.user`` and ``seat.game`` then read no row).
    seat.user = user
    seat.game = game
    if device_flags:
        seat.pushes, seat.hooks = bool(row[end]), bool(row[end + 1])
    if bots and user is not None:
        # Kept as select_related keeps it (None: no bot account), so that known_bot reads it
        # and ``user.api_bot`` reads no row.
        bot = None
        if row[end] is not None:
            values = convert(list(row[end:]), sql["bot_converters"])
            bot = sql["bot_model"].from_db(connection.alias, sql["bot_names"], values)
            sql["bot_relation"].field.set_cached_value(bot, user)
        sql["bot_relation"].set_cached_value(user, bot)
    return seat


def turn_log(game: Game) -> list[tuple[int, int, list]]:
    """(ply, seat, public events) of every action of the record (not taken back), in order."""
    with connection.cursor() as cursor:
        cursor.execute(_sql()["log"], [game.pk])
        rows = cursor.fetchall()
    return [(ply, seat, _json(events)) for ply, seat, events in rows]


def _json(value):
    # PostgreSQL's jsonb comes through Django's connection as text (Django's own JSONField
    # decodes it the same way); SQLite's JSON is text as well.
    return json.loads(value) if isinstance(value, str) else value
