"""The cache on Redis, degrading to a miss while Redis is unreachable.

Django's RedisCache raises redis-py's ConnectionError or TimeoutError from every call when Redis is
away, and the pages that read the cache (game pages, sign-in's rate limits, presence) answered 500
although the database, which holds everything that matters, was fine. Here a read while Redis is
away is a miss and a write is dropped, as in a cache that forgets at once: ``add`` succeeds (the
key was missing; allauth's rate-limit lock waits a second and refuses the sign-in when it does
not), ``incr`` finds the key missing (ValueError, as for any missing key), and the failure is
logged at WARNING. The
cost, while Redis is away: rate limits and presence count nothing, panels are rendered afresh.
The client's socket timeouts (config.settings.redis_cache) keep a dead Redis from holding a page.
"""

from __future__ import annotations

import functools
import logging

import redis.exceptions
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

logger = logging.getLogger(__name__)

UNREACHABLE = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)


def _degrades(fallback):
    """Run the method; if Redis is unreachable, log it and return ``fallback(*args, **kwargs)``."""

    def wrap(method):
        @functools.wraps(method)
        def call(self, *args, **kwargs):
            try:
                return method(self, *args, **kwargs)
            except UNREACHABLE as exc:
                logger.warning("cache unavailable, %s degrades: %s", method.__name__, exc)
                return fallback(*args, **kwargs)

        return call

    return wrap


def _missing(key, *args, **kwargs):
    raise ValueError(f"Key '{key}' not found (the cache is unavailable)")


def _default(key, default=None, *args, **kwargs):
    return default


class ReusedClient(RedisCacheClient):
    """Django's client builds a new ``redis.Redis`` for every call: about 50 µs of
    CPU each, for the table of response callbacks it fills, two or three times a request. One
    client per connection pool serves them all: a ``redis.Redis`` takes a connection from its
    pool for each command, so it is safe to share between threads, and the pool reopens its
    connections in a forked child."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients.setdefault(id(pool), self._client(connection_pool=pool))
        return client


class DegradingRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = ReusedClient

    get = _degrades(_default)(RedisCache.get)
    get_many = _degrades(lambda *a, **k: {})(RedisCache.get_many)
    has_key = _degrades(lambda *a, **k: False)(RedisCache.has_key)
    add = _degrades(lambda *a, **k: True)(RedisCache.add)
    set = _degrades(lambda *a, **k: None)(RedisCache.set)
    set_many = _degrades(lambda data, *a, **k: list(data))(RedisCache.set_many)
    touch = _degrades(lambda *a, **k: False)(RedisCache.touch)
    delete = _degrades(lambda *a, **k: False)(RedisCache.delete)
    delete_many = _degrades(lambda *a, **k: None)(RedisCache.delete_many)
    incr = _degrades(_missing)(RedisCache.incr)
    clear = _degrades(lambda *a, **k: False)(RedisCache.clear)
