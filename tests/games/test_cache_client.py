"""The production cache (config.cache.DegradingRedisCache on a real Redis) keeps one
``redis.Redis`` per connection pool instead of building one per call, and that shared client
serves every call, from many threads at once, as the per-call clients did."""

from __future__ import annotations

import threading
import uuid

import pytest
from django.core.cache import caches

from config.settings import redis_cache


@pytest.fixture
def redis_cache_on(settings, require_redis):
    settings.CACHES = {"default": redis_cache(require_redis)}
    cache = caches["default"]
    yield cache
    cache.close()


def test_one_client_serves_every_call(redis_cache_on):
    client = redis_cache_on._cache.get_client()
    assert redis_cache_on._cache.get_client("any key") is client
    assert redis_cache_on._cache.get_client(write=True) is client  # one server: one pool
    key = f"t:{uuid.uuid4().hex}"
    redis_cache_on.set(key, {"ply": 3}, 30)
    assert redis_cache_on.get(key) == {"ply": 3}
    assert redis_cache_on._cache.get_client() is client
    redis_cache_on.delete(key)
    assert redis_cache_on.get(key, "gone") == "gone"


def test_threads_share_the_client_without_mixing_answers(redis_cache_on):
    prefix = f"t:{uuid.uuid4().hex}"
    wrong: list = []

    def work(n: int) -> None:
        for i in range(50):
            key = f"{prefix}:{n}:{i}"
            redis_cache_on.set(key, (n, i), 30)
            got = redis_cache_on.get(key)
            if got != (n, i):
                wrong.append((key, got))

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wrong == []
    assert len(redis_cache_on._cache._clients) == 1
    redis_cache_on.delete_many([f"{prefix}:{n}:{i}" for n in range(8) for i in range(50)])
