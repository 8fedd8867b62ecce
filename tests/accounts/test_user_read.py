"""The signed-in user that every request reads (``ModelBackend.get_user`` calls
``User._default_manager.get(pk=...)``) comes from SQL written once (accounts.models.UserManager),
and gives what the ORM's query gives: the same fields, the same errors, one query."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

pytestmark = pytest.mark.django_db

User = get_user_model()


def fields(user) -> dict:
    return {f.attname: getattr(user, f.attname) for f in User._meta.concrete_fields}


def test_a_read_by_key_is_the_orms_in_one_query(alice):
    User.objects.filter(pk=alice.pk).update(
        time_zone="Europe/Paris", language="de", last_login=dt.datetime(2026, 1, 2, tzinfo=dt.UTC)
    )
    want = User.objects.filter(pk=alice.pk).get()  # the ORM's own query
    with CaptureQueriesContext(connection) as queries:
        got = User.objects.get(pk=alice.pk)
    assert len(queries) == 1
    assert "SELECT" in queries[0]["sql"] and "LIMIT" not in queries[0]["sql"]  # not the ORM's
    assert fields(got) == fields(want) and got.time_zone == "Europe/Paris"
    assert got._state.adding is False and got._state.db == "default"
    assert User.objects.get(pk=str(alice.pk)) == alice  # the session keeps the key as text


def test_a_missing_or_malformed_key_raises_what_the_orm_raises(alice):
    with pytest.raises(User.DoesNotExist):
        User.objects.get(pk=alice.pk + 1000)
    with pytest.raises(User.DoesNotExist):
        User.objects.get(pk=None)
    with pytest.raises(ValueError, match="expected a number"):
        User.objects.get(pk="not-a-number")


def test_other_reads_are_the_orms(alice, bob):
    with CaptureQueriesContext(connection) as queries:
        assert User.objects.get(username="bob") == bob
        assert User.objects.get(pk=alice.pk, username="alice") == alice
    assert all("LIMIT" in q["sql"] for q in queries.captured_queries)  # the ORM's get
    with pytest.raises(User.DoesNotExist):
        User.objects.get(pk=alice.pk, username="bob")


def test_a_signed_in_request_finds_its_player_and_an_inactive_one_is_signed_out(client, alice):
    client.force_login(alice)
    page = client.get(reverse("home"))
    assert page.status_code == 200 and "alice" in page.content.decode()
    assert page.wsgi_request.user == alice and page.wsgi_request.user.is_authenticated
    User.objects.filter(pk=alice.pk).update(is_active=False)  # ModelBackend refuses them
    page = client.get(reverse("home"))
    assert not page.wsgi_request.user.is_authenticated
