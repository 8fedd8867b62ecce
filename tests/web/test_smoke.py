"""The skeleton holds together: the site serves its home page and the accounts work."""

import pytest
from django.conf import settings
from django.contrib.auth import authenticate, get_user_model
from django.core.management import call_command

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_the_home_page_names_the_site(client):
    response = client.get("/")

    assert response.status_code == 200
    assert b"Blokus Shuffle" in response.content
    assert b"htmx.min.js" in response.content


def test_the_user_model_is_the_custom_one():
    assert settings.AUTH_USER_MODEL == "accounts.User"
    assert get_user_model() is User


def test_a_user_can_be_created_with_a_profile():
    user = User.objects.create_user(username="carol", password="pw", display_name="Carol")

    user.refresh_from_db()
    assert user.display_name == "Carol"
    assert user.time_zone == "UTC"
    assert str(user) == "Carol"


def test_demo_accounts_can_run_twice(capsys):
    call_command("demo_accounts")
    call_command("demo_accounts")

    assert sorted(User.objects.values_list("username", flat=True)) == ["alice", "bob"]
    assert authenticate(username="alice", password="blokus-demo") is not None
    assert authenticate(username="bob", password="blokus-demo") is not None
    assert "blokus-demo" in capsys.readouterr().out


def test_the_system_checks_pass():
    call_command("check")
