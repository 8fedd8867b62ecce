"""The production configuration: config/settings.py read from a production-like environment.

Each check runs config.settings in a fresh interpreter with a clean environment (not
tests/settings.py): settings are read once, at start-up, so this is the only faithful way to see
what `DEBUG=false ... gunicorn config.wsgi` would run with.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.support.needs import missing

ROOT = Path(__file__).resolve().parents[1]


def production_env(**overrides: str) -> dict[str, str]:
    """A minimal environment (nothing from the caller's DATABASE_URL, REDIS_URL ...) with the
    variables a deployment must set, plus `overrides`; a value of "" removes a variable."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/tmp"),
        "LANG": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "example.com",
        "DATABASE_URL": "sqlite:///:memory:",
    }
    env.update(overrides)
    return {name: value for name, value in env.items() if value != ""}


def run(args: list[str], env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )


def settings_value(expression: str, **overrides: str):
    """Evaluate `expression` (JSON-serialisable) against django.conf.settings in a fresh process."""
    code = (
        "import json, django; django.setup(); from django.conf import settings; "
        f"print(json.dumps({expression}))"
    )
    done = run(["-c", code], production_env(**overrides))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


# -- manage.py check --deploy ---------------------------------------------------------------


def test_check_deploy_passes_without_a_single_warning():
    done = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], production_env())

    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout


def test_check_deploy_warns_when_hsts_is_switched_off():
    # The check above is not vacuous: turning a protection off is reported.
    done = run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        production_env(SECURE_HSTS_SECONDS="0"),
    )

    assert done.returncode != 0
    assert "security.W004" in done.stdout + done.stderr


# -- the site as production serves it ------------------------------------------------------

# Migrate an in-memory database, collect the static files into a temporary STATIC_ROOT, then
# request pages through Django's test client (the full middleware stack, WhiteNoise included).
SERVE_SCRIPT = """
import json, sys
import django
from django.core.management import call_command

django.setup()
call_command("migrate", verbosity=0)
call_command("collectstatic", interactive=False, verbosity=0)

from django.templatetags.static import static
from django.test import Client

client = Client(HTTP_HOST="example.com")
https = {"HTTP_X_FORWARDED_PROTO": "https"}

def grab(response):
    if response.streaming:
        body = b"".join(response.streaming_content)
    else:
        body = response.content
    return {
        "status": response.status_code,
        "headers": {k.lower(): v for k, v in response.headers.items()},
        "body": body.decode("utf-8", "replace"),
        "cookies": {name: morsel.OutputString() for name, morsel in response.cookies.items()},
    }

htmx = static("htmx.min.js")
out = {
    "htmx_url": htmx,
    "plain_http": grab(client.get("/")),
    "home": grab(client.get("/", **https)),
    "htmx": grab(client.get(htmx, **https)),
    "htmx_gzip": grab(client.get(htmx, HTTP_ACCEPT_ENCODING="gzip", **https)),
    "lang_link": grab(Client(HTTP_HOST="example.com").get("/?lang=sv", **https)),
    "lang_switch": grab(
        Client(HTTP_HOST="example.com").post("/language/", {"language": "fi", "next": "/"}, **https)
    ),
}
json.dump(out, sys.stdout)
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    static_root = tmp_path_factory.mktemp("static_root")
    env = production_env(BEHIND_PROXY="true", STATIC_ROOT=str(static_root))
    done = run(["-c", SERVE_SCRIPT], env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_plain_http_is_redirected_to_https(served):
    response = served["plain_http"]

    assert response["status"] == 301
    assert response["headers"]["location"] == "https://example.com/"


def test_the_home_page_carries_the_security_headers(served):
    response = served["home"]
    headers = response["headers"]

    assert response["status"] == 200
    assert headers["strict-transport-security"] == "max-age=31536000; includeSubDomains; preload"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "same-origin"
    assert headers["x-frame-options"] == "DENY"
    assert headers["cross-origin-opener-policy"] == "same-origin"
    assert "content-security-policy-report-only" not in headers


def test_the_content_security_policy_is_enforced(served):
    policy = dict(
        directive.strip().split(" ", 1)
        for directive in served["home"]["headers"]["content-security-policy"].split(";")
    )

    assert policy == {
        "default-src": "'self'",
        "script-src": "'self'",
        "style-src": "'self' 'unsafe-inline'",
        "img-src": "'self' data:",
        "connect-src": "'self'",
        "object-src": "'none'",
        "frame-ancestors": "'none'",
        "form-action": "'self'",
        "base-uri": "'self'",
    }


def test_the_page_holds_no_inline_script(served):
    # script-src 'self' blocks inline <script> blocks: every script is a file under /static/.
    body = served["home"]["body"]

    assert "<script>" not in body
    assert body.count("<script") == body.count("<script src=")


@pytest.mark.parametrize("how", ["lang_link", "lang_switch"])
def test_the_language_cookie_is_secure_behind_tls(served, how):
    """The language cookie went out without Secure on HTTPS, from the ?lang= links
    (config.middleware) and from the footer's switcher (Django's set_language)."""
    cookie = served[how]["cookies"]["django_language"].lower()
    assert "; secure" in cookie and "samesite=lax" in cookie


def test_static_files_are_served_by_whitenoise_with_hashed_names(served):
    url = served["htmx_url"]
    response = served["htmx"]

    assert url.startswith("/static/htmx.min.") and url != "/static/htmx.min.js"
    assert f'src="{url}"' in served["home"]["body"]
    assert response["status"] == 200
    assert response["body"] == (ROOT / "static" / "htmx.min.js").read_text()
    # A hashed name never changes content, so browsers may keep it for good.
    assert "immutable" in response["headers"]["cache-control"]
    assert served["htmx_gzip"]["headers"]["content-encoding"] == "gzip"


def test_debug_sends_the_policy_report_only():
    values = settings_value(
        "[settings.SECURE_CSP, settings.SECURE_CSP_REPORT_ONLY['script-src']]",
        DEBUG="true",
        SECRET_KEY="",
        ALLOWED_HOSTS="",
    )

    assert values == [{}, ["'self'"]]


def test_whitenoise_comes_right_after_the_security_middleware():
    from django.conf import settings

    assert settings.MIDDLEWARE[:2] == [
        "django.middleware.security.SecurityMiddleware",
        "whitenoise.middleware.WhiteNoiseMiddleware",
    ]
    assert "django.middleware.csp.ContentSecurityPolicyMiddleware" in settings.MIDDLEWARE


# -- the database connection pool ----------------------------------------------------------


def test_postgres_uses_the_connection_pool_by_default():
    database = settings_value(
        "settings.DATABASES['default']", DATABASE_URL="postgres://blokus@db.local/blokus"
    )

    assert database["OPTIONS"]["pool"] == {"min_size": 1, "max_size": 10, "timeout": 30}
    assert database["CONN_MAX_AGE"] == 0


def test_the_pool_can_be_switched_off_for_persistent_connections():
    database = settings_value(
        "settings.DATABASES['default']",
        DATABASE_URL="postgres://blokus@db.local/blokus",
        DATABASE_POOL="false",
        DATABASE_CONN_MAX_AGE="60",
    )

    assert "pool" not in database["OPTIONS"]
    assert database["CONN_MAX_AGE"] == 60


def test_a_pooled_connection_reaches_postgres():
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        missing("needs PostgreSQL (set DATABASE_URL=postgres://...)")
    # The maintenance database always exists (the one in DATABASE_URL may not: the test run
    # creates test_<name> instead).
    url = urlunsplit(urlsplit(url)._replace(path="/postgres"))
    code = (
        "import django; django.setup(); from django.db import connection; "
        "cursor = connection.cursor(); cursor.execute('select 1'); "
        "print(type(connection.pool).__name__, cursor.fetchone()[0])"
    )
    done = run(["-c", code], production_env(DATABASE_URL=url))

    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["ConnectionPool", "1"]


def test_a_connection_the_server_dropped_is_replaced_before_use():
    """PostgreSQL terminates the pooled connection between two requests; the next request
    gets a live one instead of an error (CONN_HEALTH_CHECKS: the pool checks on hand-out)."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        missing("needs PostgreSQL (set DATABASE_URL=postgres://...)")
    url = urlunsplit(urlsplit(url)._replace(path="/postgres"))
    code = f"""
import django, psycopg
django.setup()
from django.db import connection
with connection.cursor() as cursor:
    cursor.execute("select pg_backend_pid()")
    pid = cursor.fetchone()[0]
connection.close()  # the end of a request: back to the pool
with psycopg.connect({url!r}, autocommit=True) as other:
    other.execute("select pg_terminate_backend(%s)", [pid])
with connection.cursor() as cursor:  # the next request
    cursor.execute("select pg_backend_pid()")
    print("ok", cursor.fetchone()[0] != pid)
"""
    done = run(["-c", code], production_env(DATABASE_URL=url, DATABASE_POOL_MIN_SIZE="1"))

    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["ok", "True"]


def test_the_file_email_backend_writes_where_it_is_told(tmp_path):
    """EMAIL_BACKEND=...filebased.EmailBackend with EMAIL_FILE_PATH sends to files."""
    code = (
        "import django; django.setup(); from django.core.mail import send_mail; "
        "print(send_mail('hi', 'body', 'a@example.com', ['b@example.com']))"
    )
    done = run(
        ["-c", code],
        production_env(
            EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend",
            EMAIL_FILE_PATH=str(tmp_path),
        ),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "1"
    (written,) = list(tmp_path.iterdir())
    assert "Subject: hi" in written.read_text()


def test_a_database_command_exits_at_once_with_the_pool():
    """psycopg_pool's threads no longer hold a finished command for ~15 s (games.apps)."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        missing("needs PostgreSQL (set DATABASE_URL=postgres://...)")
    url = urlunsplit(urlsplit(url)._replace(path="/postgres"))

    def timed(code: str):
        started = time.monotonic()
        done = run(["manage.py", "shell", "-c", code], production_env(DATABASE_URL=url))
        return done, time.monotonic() - started

    # The same command without touching the database (no connection, no pool): its start-up
    # and exit, however slow the machine, are the yardstick; the pool's threads added ~15 s.
    quiet, baseline = timed("pass")
    done, elapsed = timed(
        "from django.db import connection; connection.cursor().execute('select 1')"
    )

    assert quiet.returncode == 0, quiet.stderr
    assert done.returncode == 0, done.stderr
    assert "couldn't stop thread" not in done.stderr
    assert elapsed < baseline + 6, (
        f"the command took {elapsed:.1f} s to exit ({baseline:.1f} s without the database)"
    )


# -- bad values stop the start -------------------------------------------------------------

BAD_ENVIRONMENTS = [
    ({"DEBUG": "maybe"}, "DEBUG='maybe' is not a boolean"),
    ({"DATABASE_URL": "mysql://x"}, "only sqlite:/// and postgres:// URLs are understood"),
    ({"REDIS_URL": "http://x"}, "REDIS_URL='http://x' must start with redis://"),
    ({"DATABASE_CONN_MAX_AGE": "-1"}, "DATABASE_CONN_MAX_AGE=-1 must be at least 0"),
    ({"SECRET_KEY": ""}, "SECRET_KEY must be set"),
    ({"SECRET_KEY": "too-short"}, "SECRET_KEY must be at least 50 random characters"),
    ({"SECRET_KEY": "django-insecure-" + "x" * 60}, "SECRET_KEY must be at least 50"),
    ({"ALLOWED_HOSTS": ""}, "ALLOWED_HOSTS must be set"),
    ({"ALLOWED_HOSTS": "https://example.com"}, "'https://example.com' is not a host name"),
    ({"ALLOWED_HOSTS": "example.com:8000"}, "'example.com:8000' is not a host name"),
    ({"CSRF_TRUSTED_ORIGINS": "example.com"}, "'example.com' is not an origin"),
    ({"SECURE_HSTS_SECONDS": "a year"}, "SECURE_HSTS_SECONDS='a year' is not an integer"),
    ({"BEHIND_PROXY": "nginx"}, "BEHIND_PROXY='nginx' is not a boolean"),
    (
        {"DATABASE_URL": "postgres://u@db.local/blokus", "DATABASE_CONN_MAX_AGE": "60"},
        "DATABASE_CONN_MAX_AGE must be 0 with the connection pool",
    ),
    ({"DATABASE_POOL": "true"}, "DATABASE_POOL=true needs a postgres:// DATABASE_URL"),
    (
        {
            "DATABASE_URL": "postgres://u@db.local/blokus",
            "DATABASE_POOL_MIN_SIZE": "4",
            "DATABASE_POOL_MAX_SIZE": "2",
        },
        "DATABASE_POOL_MAX_SIZE=2 must be at least 4",
    ),
]


@pytest.mark.parametrize(
    ("overrides", "message"), BAD_ENVIRONMENTS, ids=[m for _, m in BAD_ENVIRONMENTS]
)
def test_a_bad_value_stops_the_start_with_a_clear_message(overrides, message):
    done = run(["-c", "import django; django.setup()"], production_env(**overrides))

    assert done.returncode != 0
    last_line = done.stderr.strip().splitlines()[-1]
    assert last_line.startswith("django.core.exceptions.ImproperlyConfigured: ")
    assert message in last_line


@pytest.mark.parametrize(
    "environment, count",
    [
        ({"BEHIND_PROXY": "true"}, 1),
        ({"BEHIND_PROXY": "true", "TRUSTED_PROXY_COUNT": "2"}, 2),
        ({}, 0),
    ],
)
def test_client_addresses_are_trusted_from_the_proxy_only(environment, count):
    """allauth reads the client's address from X-Forwarded-For only behind the proxy."""
    assert settings_value("settings.ALLAUTH_TRUSTED_PROXY_COUNT", **environment) == count


def test_a_production_install_carries_no_test_tools_and_checks_every_hash():
    """requirements.txt is what runs the site, every file pinned by hash; the test and
    benchmark tools live in requirements-dev.txt."""
    text = (ROOT / "requirements.txt").read_text()
    entries = [e for e in text.replace("\\\n", " ").splitlines() if e and not e.startswith("#")]
    names = {e.split("==")[0].strip().lower() for e in entries}
    assert not names & {"pytest", "playwright", "hypothesis", "ruff", "locust", "websockets"}
    assert {"django", "channels", "celery", "gunicorn", "daphne"} <= names
    assert all("--hash=sha256:" in e for e in entries), [e for e in entries if "--hash" not in e]
    dev = (ROOT / "requirements-dev.txt").read_text()
    assert "-r requirements.txt" in dev and "pytest==" in dev
