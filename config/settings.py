"""Settings for every environment, read from environment variables.

With no variable set this is a local development set-up that needs no external service: DEBUG on,
SQLite in db.sqlite3 at the repository root, the in-memory channel layer and Celery running tasks
eagerly in-process. Production sets at least DEBUG=false, SECRET_KEY, ALLOWED_HOSTS and
DATABASE_URL.

An unset or empty variable means "use the default"; a value that cannot be understood raises
ImproperlyConfigured at start-up rather than being guessed at.
"""

import os
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

_UNSET = object()
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _raw(name: str) -> str | None:
    value = os.environ.get(name, "").strip()
    return value or None


def env_str(name: str, default: str | object = _UNSET) -> str:
    value = _raw(name)
    if value is not None:
        return value
    if default is _UNSET:
        raise ImproperlyConfigured(f"The environment variable {name} must be set.")
    return default  # type: ignore[return-value]


def env_bool(name: str, default: bool) -> bool:
    value = _raw(name)
    if value is None:
        return default
    if value.lower() in _TRUE:
        return True
    if value.lower() in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a boolean: use one of {sorted(_TRUE | _FALSE)}."
    )


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    value = _raw(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not an integer.") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number} must be at least {minimum}.")
    return number


def _csv(value: str) -> list[str]:
    return [item.strip() for item in value.split(",") if item.strip()]


def _hosts(name: str, value: str) -> list[str]:
    """Host names as Django matches them: example.com, .example.com (and subdomains), or *."""
    hosts = _csv(value)
    for host in hosts:
        if "/" in host or host.count(":") == 1:
            raise ImproperlyConfigured(
                f"{name}: {host!r} is not a host name: list names such as example.com or "
                ".example.com, without a scheme, path or port."
            )
    return hosts


def _origins(name: str, value: str) -> list[str]:
    """Origins as Django's CSRF check compares them: scheme://host[:port], nothing after."""
    origins = _csv(value)
    for origin in origins:
        parts = urlsplit(origin)
        if parts.scheme not in {"http", "https"} or not parts.netloc or parts.path not in {"", "/"}:
            raise ImproperlyConfigured(
                f"{name}: {origin!r} is not an origin: write https://example.com "
                "(scheme and host, optionally :port, no path)."
            )
    return origins


def parse_database_url(url: str, *, base_dir: Path = BASE_DIR) -> dict:
    """Turn a DATABASE_URL into a DATABASES entry (by hand: two schemes are all we need).

    sqlite:///db.sqlite3       relative to the repository root
    sqlite:////abs/path.db     absolute path
    sqlite:///:memory:         in-memory database
    postgres://user:pass@host:port/name?sslmode=require   (also postgresql://)
    """
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        # Everything after "sqlite:///" is the path; a fourth slash makes it absolute.
        path = url[len("sqlite:///") :] if url.startswith("sqlite:///") else ""
        if not path:
            raise ImproperlyConfigured(f"DATABASE_URL={url!r}: write sqlite:///path/to/file.")
        name = path if path == ":memory:" or path.startswith("/") else str(base_dir / path)
        if name == ":memory:":
            return {"ENGINE": "django.db.backends.sqlite3", "NAME": name}
        # Concurrent writers (`make run`: two copies of a move, the worker thread, a chat post),
        # as Django 5.1+ supports them: BEGIN IMMEDIATE takes the write lock when a transaction
        # starts, so a second writer waits (busy timeout, seconds) for it instead of failing
        # with "database is locked" when its read turns into a write; WAL lets readers go on
        # while one writes.
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": name,
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    if parts.scheme in {"postgres", "postgresql"}:
        name = unquote(parts.path.lstrip("/"))
        if not name:
            raise ImproperlyConfigured(f"DATABASE_URL={url!r} names no database.")
        try:
            port = parts.port
        except ValueError:
            raise ImproperlyConfigured(f"DATABASE_URL={url!r} has a bad port.") from None
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": unquote(parts.hostname or ""),
            "PORT": str(port or ""),
            "OPTIONS": dict(parse_qsl(parts.query)),
        }
    raise ImproperlyConfigured(
        f"DATABASE_URL={url!r}: only sqlite:/// and postgres:// URLs are understood."
    )


# --- Core --------------------------------------------------------------------------------------

DEBUG = env_bool("DEBUG", True)

if DEBUG:
    SECRET_KEY = env_str("SECRET_KEY", "django-insecure-local-development-only")
else:
    # No default outside DEBUG: a production site must never run on a key from the repository.
    SECRET_KEY = env_str("SECRET_KEY")
    # `check --deploy` would only warn (security.W009); a weak key signs sessions and password
    # reset links, so production refuses to start on one.
    if (
        len(SECRET_KEY) < 50
        or len(set(SECRET_KEY)) < 5
        or SECRET_KEY.startswith("django-insecure-")
    ):
        raise ImproperlyConfigured(
            "SECRET_KEY must be at least 50 random characters (and not django-insecure-...): "
            "generate one with python3 -c 'import secrets; print(secrets.token_urlsafe(50))'."
        )

# Comma-separated; required outside DEBUG (an empty list would refuse every request).
ALLOWED_HOSTS = _hosts(
    "ALLOWED_HOSTS", env_str("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else _UNSET)
)
# Needed only when a form is posted from another origin than the page's host (a proxy that
# rewrites the Host header); each entry is https://host[:port].
CSRF_TRUSTED_ORIGINS = _origins("CSRF_TRUSTED_ORIGINS", env_str("CSRF_TRUSTED_ORIGINS", ""))

INSTALLED_APPS = [
    "daphne",  # runserver speaks ASGI, so `make run` serves websockets too
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "channels",
    "allauth",
    "allauth.account",
    "health_check",  # /health/ and /health/full/ (games/health.py)
    "ninja",  # the API's schema and its browsable docs (static files, no CDN)
    "accounts",
    "games",
    "api",  # personal access tokens and /api/v1/ (api/)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Right after SecurityMiddleware (HTTPS redirect, HSTS) and before everything else: a static
    # file is answered here without sessions, CSRF or a database query.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "games.metrics.RequestMetricsMiddleware",  # times what reaches Django (/metrics/)
    "config.middleware.RefuseNulMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "config.middleware.UserTimeZoneMiddleware",
    "config.middleware.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "config.context_processors.languages",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- HTTPS and security headers ----------------------------------------------------------------

# Behind a TLS-terminating proxy (nginx, a load balancer) Django sees plain HTTP and learns the
# original scheme from X-Forwarded-Proto. Only set BEHIND_PROXY=true when that proxy sets the
# header itself and drops any copy a client sent: otherwise anyone can claim to be on HTTPS.
BEHIND_PROXY = env_bool("BEHIND_PROXY", False)
if BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
# HSTS is sent on HTTPS responses only. Browsers remember it for SECURE_HSTS_SECONDS, and a
# preloaded domain is built into them: start lower (SECURE_HSTS_SECONDS=3600) on a new domain.
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31_536_000, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
SESSION_COOKIE_SECURE = not DEBUG
# Sessions are read from the cache (Redis in production) and written through to the database:
# every request reads its session, and a Redis GET costs a fraction of a query through the ORM
# (one query fewer on every page, panel and move). A Redis that is away degrades to
# a miss (config.cache), and the session is then read from the database as before.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
CSRF_COOKIE_SECURE = not DEBUG
LANGUAGE_COOKIE_SECURE = not DEBUG  # the footer's switcher and config.middleware's ?lang= links
LANGUAGE_COOKIE_SAMESITE = "Lax"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy, by Django's own middleware (django.middleware.csp). Every script is a
# file under /static/ (htmx 2, js/live.js) and needs no eval. hx-on attributes are blocked: htmx
# compiles them with new Function, which only 'unsafe-eval' allows; put that behaviour in a static
# script or in htmx-config (responseHandling) instead.
# style-src allows 'unsafe-inline' and nothing else inline: templates carry style attributes
# (base.html's logout form, play.html's --w piece width) and htmx injects its indicator <style>.
# connect-src 'self' covers the websockets (ws:/wss: to the page's own host, CSP level 3; Chrome
# 71+, Firefox, Safari 15.4+).
CONTENT_SECURITY_POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "frame-ancestors": ["'none'"],
    "form-action": ["'self'"],
    "base-uri": ["'self'"],
}
# Enforced in production. Under DEBUG it is sent as Content-Security-Policy-Report-Only: the
# browser console names what production would block, and nothing breaks while developing.
CSP_REPORT_ONLY = env_bool("CSP_REPORT_ONLY", DEBUG)
SECURE_CSP = {} if CSP_REPORT_ONLY else CONTENT_SECURITY_POLICY
SECURE_CSP_REPORT_ONLY = CONTENT_SECURITY_POLICY if CSP_REPORT_ONLY else {}

# --- Database ----------------------------------------------------------------------------------

DATABASES = {
    "default": parse_database_url(env_str("DATABASE_URL", "sqlite:///db.sqlite3")),
}
_POSTGRES = DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
# The list indexes carry extra columns (INCLUDE) that only PostgreSQL stores; SQLite ignores them,
# which is expected, not a warning every `manage.py` command should print.
SILENCED_SYSTEM_CHECKS = [] if _POSTGRES else ["models.W040"]
# PostgreSQL connections come from Django's pool (psycopg 3 + psycopg_pool), one pool per
# process: a request borrows a connection instead of opening one (~ms on every request), and
# the pool caps how many a process holds, which ASGI (a thread per concurrent request) needs.
DATABASE_POOL = env_bool("DATABASE_POOL", _POSTGRES)
DATABASES["default"]["CONN_MAX_AGE"] = env_int("DATABASE_CONN_MAX_AGE", 0, minimum=0)
if DATABASE_POOL:
    if not _POSTGRES:
        raise ImproperlyConfigured("DATABASE_POOL=true needs a postgres:// DATABASE_URL.")
    if DATABASES["default"]["CONN_MAX_AGE"]:
        raise ImproperlyConfigured(
            "DATABASE_CONN_MAX_AGE must be 0 with the connection pool: the pool keeps "
            "connections open (set DATABASE_POOL=false to use persistent connections instead)."
        )
    try:
        import psycopg_pool  # noqa: F401
    except ImportError:
        raise ImproperlyConfigured(
            "DATABASE_POOL=true needs psycopg_pool (pip install psycopg-pool), "
            "or set DATABASE_POOL=false."
        ) from None
    # A sync (WSGI) worker uses one connection at a time; ASGI runs each request in its own
    # thread, so there the pool grows towards max_size under load.
    _pool_min = env_int("DATABASE_POOL_MIN_SIZE", 1, minimum=0)
    _pool_max = env_int("DATABASE_POOL_MAX_SIZE", 10, minimum=max(_pool_min, 1))
    DATABASES["default"]["OPTIONS"]["pool"] = {
        "min_size": _pool_min,
        "max_size": _pool_max,
        # Seconds a request waits for a free connection before failing (psycopg_pool's default).
        "timeout": env_int("DATABASE_POOL_TIMEOUT", 30, minimum=1),
    }
if _POSTGRES:
    # A connection the server dropped (a restart, a failover, an idle timeout) is found out
    # before use: with the pool, Django passes ConnectionPool.check_connection to psycopg_pool,
    # which tests each connection as it is handed out and replaces a dead one; without it,
    # persistent connections are checked at the start of each request.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Accounts ----------------------------------------------------------------------------------

AUTH_USER_MODEL = "accounts.User"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Logging in goes through allauth (username or email); ModelBackend stays for the admin and for
# django.contrib.auth's own authenticate() calls.
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# django-allauth, the account app only (no social login). Names as of allauth 65.x: the older
# ACCOUNT_AUTHENTICATION_METHOD / ACCOUNT_EMAIL_REQUIRED / ACCOUNT_USERNAME_REQUIRED are deprecated.
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"  # sign-up names never pass for another player
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
# Turn emails go to this address, so nobody plays before proving it is theirs.
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
# Following the link from the sign-up email (in the browser that signed up) logs the player in.
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
# One address per account, changed through allauth's verify-then-switch flow.
ACCOUNT_CHANGE_EMAIL = True
# Tell the owner when their password or email address changes.
ACCOUNT_EMAIL_NOTIFICATIONS = True
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Blokus Shuffle] "
# ACCOUNT_RATE_LIMITS is left unset on purpose: allauth's defaults (login, failed logins, sign-up,
# password reset, email confirmation ...) are on, counted in the default cache below.
# Those limits count per client address. Behind the proxy every request comes from the
# proxy's own address (127.0.0.1), so ten failed logins from anyone locked everybody out: trust
# the last TRUSTED_PROXY_COUNT entries of X-Forwarded-For (the README's nginx sets it to the
# client's address), and only with BEHIND_PROXY; without it, a client's X-Forwarded-For is
# ignored (it could name any address and slip past the limits).
ALLAUTH_TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 1, minimum=1) if BEHIND_PROXY else 0

# --- Cache -------------------------------------------------------------------------------------

# allauth's rate limits count in this cache. Local memory is per process: enough for one server
# process; a deployment with several processes should point it at a shared cache (Redis).
# allauth's rate limits and the chat limits count in the cache: Redis when there is one, so that
# every web process shares the counts; the embedded default keeps them in this process.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Logging -----------------------------------------------------------------------------------

# Everything to stderr, where the process manager (systemd, docker) collects it. Without this,
# Django sends the traceback of a server error to ADMINS by email only, and with no ADMINS
# configured it is lost.
LOG_LEVEL = env_str("LOG_LEVEL", "INFO").upper()
if LOG_LEVEL not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
    raise ImproperlyConfigured(
        f"LOG_LEVEL={LOG_LEVEL!r} is not one of DEBUG, INFO, WARNING, ERROR, CRITICAL."
    )
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "{asctime} {levelname} {name} [{process}] {message}", "style": "{"},
    },
    # Logs keep no email address (the privacy page says so): any that a message or a third
    # party's log line carries is masked before it is written (config/logfilters.py).
    "filters": {"no_emails": {"()": "config.logfilters.MaskEmails"}},
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "filters": ["no_emails"],
        }
    },
    "root": {"handlers": ["stderr"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["stderr"], "level": LOG_LEVEL, "propagate": False},
        # At DEBUG it logs every variable a template could not resolve with the whole context:
        # an email's context holds the address and its confirmation or reset key. Never below
        # INFO, whatever LOG_LEVEL says.
        "django.template": {
            "handlers": ["stderr"],
            "level": "INFO" if LOG_LEVEL == "DEBUG" else LOG_LEVEL,
            "propagate": False,
        },
    },
}

# --- Internationalisation ----------------------------------------------------------------------

# Six languages, those of the published rule sheets (RULES.md R10). Who sees which: the player's
# own setting (User.language), else ?lang= on the URL (the hreflang links), else the language
# cookie set by the footer's switcher, else the browser's Accept-Language, else English
# (config.middleware.UserLanguageMiddleware after Django's LocaleMiddleware). Catalogs are
# locale/<code>/LC_MESSAGES/django.po; the .mo files are built from them (config/catalogs.py, run
# by `make run`, `make test` and the test session), never committed.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("sv", "Svenska"),
    ("fi", "Suomi"),
    ("da", "Dansk"),
    ("nb", "Norsk bokmål"),
    ("ja", "日本語"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files ------------------------------------------------------------------------------

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# collectstatic's target; /out/ is gitignored.
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "out" / "static")))
# WhiteNoise serves STATIC_ROOT from every web process. Outside DEBUG the files get content
# hashes in their names (htmx.min.<hash>.js) and gzip copies, so browsers may cache them forever;
# that needs `manage.py collectstatic` before the server starts (a missing file is an error).
# Under DEBUG they are served as they are, straight from static/ and the apps.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
# Fixed at start from DEBUG (WhiteNoise would otherwise read settings.DEBUG when the middleware
# loads, which the test runner turns off): under DEBUG, files come from the finders as they are
# and nothing needs collecting.
WHITENOISE_AUTOREFRESH = DEBUG
WHITENOISE_USE_FINDERS = DEBUG

# --- Email -------------------------------------------------------------------------------------

EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
# Where django.core.mail.backends.filebased.EmailBackend writes each message (one file each).
EMAIL_FILE_PATH = env_str("EMAIL_FILE_PATH", str(BASE_DIR / "out" / "emails"))
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Blokus Shuffle <noreply@localhost>")
# The SMTP backend's server (EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend).
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25, minimum=1)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)  # STARTTLS, usually port 587
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)  # implicit TLS, usually port 465
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured("Set EMAIL_USE_TLS or EMAIL_USE_SSL, not both.")
# Seconds before a stuck SMTP connection fails (and the email task retries), instead of holding
# a worker for ever.
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10, minimum=1)
# A "your turn" email goes out this long after the turn began, and only if the player was not at
# the board meanwhile (a visible page with recent input: games.live.presence, games.jobs.emails).
TURN_EMAIL_GRACE_SECONDS = env_int("TURN_EMAIL_GRACE_SECONDS", 60, minimum=0)

# "Play now" (games.services.seeks, games.selectors.seeks): a request looks for players rated
# within MATCH_WINDOW points of its own, plus MATCH_WINDOW_GROWTH points for every minute it has
# waited; the sweep that joins tables and gives the computer the seats of those whose wait is over
# runs every MATCH_SWEEP_SECONDS. A game found after MATCH_NOTICE_AFTER_SECONDS of waiting is
# also told by device and email (the player may have left the page). A player who cancelled
# MATCH_CANCELS_PER_HOUR requests in the last hour waits before asking again.
MATCH_WINDOW = env_int("MATCH_WINDOW", 100, minimum=0)
MATCH_WINDOW_GROWTH = env_int("MATCH_WINDOW_GROWTH", 100, minimum=0)
MATCH_SWEEP_SECONDS = env_int("MATCH_SWEEP_SECONDS", 10, minimum=1)
MATCH_NOTICE_AFTER_SECONDS = env_int("MATCH_NOTICE_AFTER_SECONDS", 300, minimum=0)
MATCH_CANCELS_PER_HOUR = env_int("MATCH_CANCELS_PER_HOUR", 10, minimum=1)

# The site's address as players reach it, for the absolute links in emails (no trailing slash).
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
if not SITE_URL.startswith(("http://", "https://")):
    raise ImproperlyConfigured(f"SITE_URL={SITE_URL!r} must start with http:// or https://.")


# The monitor's endpoints (/health/full/ and /metrics/, games/health.py and games/metrics.py): a
# request must carry "Authorization: Bearer <MONITOR_TOKEN>"; unset, they answer 404 to everyone.
# Their results are kept HEALTH_CACHE_SECONDS per process, so a burst of requests checks once.
MONITOR_TOKEN = env_str("MONITOR_TOKEN", "")
HEALTH_CACHE_SECONDS = env_int("HEALTH_CACHE_SECONDS", 5, minimum=0)
# Each Celery worker marks itself alive in the cache every HEALTH_WORKER_BEAT_SECONDS; the full
# check reports the workers down when the last mark is older than HEALTH_WORKER_STALE_SECONDS.
HEALTH_WORKER_BEAT_SECONDS = env_int("HEALTH_WORKER_BEAT_SECONDS", 10, minimum=1)
HEALTH_WORKER_STALE_SECONDS = env_int("HEALTH_WORKER_STALE_SECONDS", 60, minimum=2)

# Vacation (accounts.vacations): days a player may pause all their move clocks in any 365 days.
VACATION_DAYS_PER_YEAR = env_int("VACATION_DAYS_PER_YEAR", 14, minimum=0)

# "Download my data" (games.jobs.exports): the zips are written to EXPORT_ROOT (a folder the web
# processes and the Celery workers share), kept EXPORT_DAYS, then deleted by the hourly sweep; a
# build that has not finished after EXPORT_LEASE_SECONDS (a worker died) counts as failed, so
# that the player may ask again.
EXPORT_ROOT = Path(env_str("EXPORT_ROOT", str(BASE_DIR / "out" / "exports")))
EXPORT_DAYS = env_int("EXPORT_DAYS", 3, minimum=1)
EXPORT_LEASE_SECONDS = env_int("EXPORT_LEASE_SECONDS", 3600, minimum=60)
# Deleting an account (games.services.accounts_deletion) waits this many days; a sign-in
# meanwhile cancels it.
DELETION_GRACE_DAYS = env_int("DELETION_GRACE_DAYS", 7, minimum=0)
# Backups (README, "Backups"): `manage.py backup_db` writes pg_dump's custom format here and
# keeps the newest BACKUP_KEEP dumps; `manage.py restore_drill` restores the newest.
BACKUP_DIR = Path(env_str("BACKUP_DIR", str(BASE_DIR / "out" / "backups")))
BACKUP_KEEP = env_int("BACKUP_KEEP", 30, minimum=1)

# --- Channels and Celery -----------------------------------------------------------------------

REDIS_URL = env_str("REDIS_URL", "")
if REDIS_URL and not REDIS_URL.startswith(("redis://", "rediss://", "unix://")):
    raise ImproperlyConfigured(f"REDIS_URL={REDIS_URL!r} must start with redis:// or rediss://.")

# The channel layer's Redis connections: every idle consumer waits in a blocking BZPOPMIN of
# channels_redis's ``brpop_timeout`` (5 s). redis-py 8 gives every client a default
# ``socket_timeout`` of 5 s too, which cut those reads at the same moment: each idle websocket's
# consumer died with "Timeout reading from ..." (close 1011) every few seconds (redis-py issue
# 4091). The socket timeout here sits well above the blocking read, so only a Redis that really
# stopped answering trips it; keepalive probes find a peer that vanished. Django's cache (short
# commands only) keeps redis-py's 5 s; Celery's broker (kombu) passes its own socket_timeout
# (None by default) and checks its BRPOP connections itself.
CHANNEL_REDIS_SOCKET_TIMEOUT = 30


def redis_channel_layer(url: str) -> dict:
    """The channel layer on the Redis at ``url`` (tests build theirs with this too)."""
    host = {
        "address": url,
        "socket_timeout": CHANNEL_REDIS_SOCKET_TIMEOUT,
        "socket_keepalive": True,
    }
    return {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": [host]}}


# Seconds the cache's Redis client waits to connect or for an answer: a Redis that went away
# costs a page this much, then the cache degrades to a miss (config.cache).
CACHE_REDIS_TIMEOUT = 0.5


def redis_cache(url: str) -> dict:
    """The cache on the Redis at ``url``, a miss while Redis is unreachable (tests use it too)."""
    return {
        "BACKEND": "config.cache.DegradingRedisCache",
        "LOCATION": url,
        "OPTIONS": {
            "socket_connect_timeout": CACHE_REDIS_TIMEOUT,
            "socket_timeout": CACHE_REDIS_TIMEOUT,
        },
    }


if REDIS_URL:
    CHANNEL_LAYERS = {"default": redis_channel_layer(REDIS_URL)}
    CACHES = {"default": redis_cache(REDIS_URL)}
else:
    # One process only: enough for `make run`, where the web process also runs the worker.
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# `make run` (manage.py devserver, DEV_WORKER=1) with no Redis: tasks are queued for real, on a
# durable SQLite broker (kombu's SQLAlchemy transport), and a Celery worker and beat run in
# threads of the dev server's own process, so the computer's turns and the emails happen outside
# the player's request while the in-memory channel layer still reaches every websocket.
DEV_WORKER = env_bool("DEV_WORKER", False) and not REDIS_URL

# Eager by default: tasks run in-process when queued, so local runs and tests need no broker or
# worker. A deployment with workers sets CELERY_TASK_ALWAYS_EAGER=false and REDIS_URL.
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", not REDIS_URL and not DEV_WORKER)
CELERY_TASK_EAGER_PROPAGATES = True
# Threads per AI decision in a Celery worker (games/ai/mcts/ searches one tree per thread). The
# default fits one decision at a time on two cores; with `--concurrency N` on C cores, use C / N
# (at least 1), or concurrent decisions share the cores and each searches less in its budget.
AI_SEARCH_THREADS = env_int("AI_SEARCH_THREADS", 2, minimum=1)
# Simulations per search at most for the computer's decisions (games/jobs/computer.py), on top
# of the level's time budget. Unset or 0 (the default): the budget alone, as players meet the
# levels. Set, a search that reaches it first plays what the arena (bench/ai/arena.py --sims) and
# the command line (python -m games.ai move --sims) play for the same seed, threads and level.
AI_MAX_SIMS = env_int("AI_MAX_SIMS", 0, minimum=0) or None
CELERY_BROKER_URL = env_str(
    "CELERY_BROKER_URL",
    REDIS_URL
    or (
        f"sqla+sqlite:///{BASE_DIR / 'out' / 'celery-broker.sqlite3'}"
        if DEV_WORKER
        else "memory://"
    ),
)
CELERY_TASK_IGNORE_RESULT = True
# Tasks are acknowledged after they ran and requeued if the worker dies (they are idempotent);
# one task at a time per worker process, so a long AI turn does not hold others back.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Redis redelivers an unacknowledged task after this long: above the longest AI turn. (The
# integration tests set a second or two, to see a killed worker's task come back.)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 3600, minimum=1)
}
if DEV_WORKER:  # the SQLAlchemy transport hands its options to create_engine: none of those
    CELERY_BROKER_TRANSPORT_OPTIONS = {}
# The queue tasks are sent to, and that `celery worker` reads unless -Q names others: sites (or
# test runs) that share one Redis database keep apart with different names.
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_TASK_DEFAULT_QUEUE", "celery")
CELERY_TIMEZONE = TIME_ZONE
# Post-game analysis: its own queue, read by a worker of its own in production (the
# README's production layout), so that an analysis never delays a computer's turn or an email;
# `make run`'s embedded worker reads both queues, and an analysis runs there in slices of
# ANALYSIS_CHUNK_SECONDS between which the computer's turns get their turn. ANALYSIS_SIMS is the
# depth: simulations per search (games/ai/judge.py; each player's biggest drops are judged
# again with 4 times as many), 1000 keeping a two-player classic game near 33 CPU seconds (at most
# 40 of 60) and a four-player Shuffle game near 66 (at most 79 of 180; bench/ANALYSIS_RESULTS.md);
# a run holds its analysis for ANALYSIS_LEASE_SECONDS after each decision, after which a killed
# worker's analysis is taken over.
ANALYSIS_QUEUE = env_str("CELERY_ANALYSIS_QUEUE", f"{CELERY_TASK_DEFAULT_QUEUE}-analysis")
ANALYSIS_SIMS = env_int("ANALYSIS_SIMS", 1000, minimum=1)
ANALYSIS_CHUNK_SECONDS = env_int("ANALYSIS_CHUNK_SECONDS", 10, minimum=1)
ANALYSIS_LEASE_SECONDS = env_int("ANALYSIS_LEASE_SECONDS", 60, minimum=2)
# At most this many analyses wait for the worker (one per player at most): past it, a request is
# refused until the queue shortens, and the analysis section shows each its place meanwhile.
ANALYSIS_QUEUE_MAX = env_int("ANALYSIS_QUEUE_MAX", 20, minimum=1)
# Web Push and chat webhooks: a queue of their own, so that the computer's turns never wait
# behind a slow push service or chat app (each request may take 10 s). Production reads it with
# a worker of its own (the README's layout); `make run`'s embedded worker and the tests' worker
# processes read it beside the default queue.
NOTICES_QUEUE = env_str("CELERY_NOTICES_QUEUE", f"{CELERY_TASK_DEFAULT_QUEUE}-notices")
CELERY_TASK_ROUTES = {
    "games.tasks.analyse_game": {"queue": ANALYSIS_QUEUE},
    "games.tasks.send_push": {"queue": NOTICES_QUEUE},
    "games.tasks.send_webhook": {"queue": NOTICES_QUEUE},
    "games.tasks.send_test_notice": {"queue": NOTICES_QUEUE},
}
# `celery -A config beat` (one beat process per deployment): the deadline scan, every minute. A
# scan still queued when the next one is due expires instead of piling up.
CELERY_BEAT_SCHEDULE = {
    "scan-deadlines": {
        "task": "games.tasks.scan_deadlines",
        "schedule": 60.0,
        "options": {"expires": 55},
    },
    # A computer turn whose task was lost (a worker killed mid-turn; Redis would only hand
    # it out again after the visibility timeout, an hour) is queued again within a minute.
    "sweep-computer-turns": {
        "task": "games.tasks.sweep_computer_turns",
        "schedule": 15.0,
        "options": {"expires": 14},
    },
    # "Play now": tables whose rating windows have grown to meet are joined, and the computer
    # takes the empty seats of those whose wait is over.
    "sweep-seeks": {
        "task": "games.tasks.sweep_seeks",
        "schedule": float(MATCH_SWEEP_SECONDS),
        "options": {"expires": max(1, MATCH_SWEEP_SECONDS - 1)},
    },
    # Tournaments: start those whose time has come, remind their players an hour before, and
    # move on rounds whose games all ended (each game's end also does).
    "sweep-tournaments": {
        "task": "games.tasks.sweep_tournaments",
        "schedule": 60.0,
        "options": {"expires": 55},
    },
    # An analysis whose worker was killed is queued again once its lease lapsed.
    "sweep-analyses": {
        "task": "games.tasks.sweep_analyses",
        "schedule": 60.0,
        "options": {"expires": 55},
    },
    # Accounts whose deletion is due, expired data exports and sessions (games.jobs.accounts).
    "sweep-accounts": {
        "task": "games.tasks.sweep_accounts",
        "schedule": 3600.0,
        "options": {"expires": 3500},
    },
}

# -- Web Push and chat webhooks (games.jobs.push) ---------------------------------------------
# VAPID (RFC 8292): the key pair push services know this site's notices by. VAPID_PRIVATE_KEY is
# the P-256 private key, base64url (32 raw bytes or DER), from `python -m games.jobs.push keys`;
# the public key is derived from it. Unset: under DEBUG a key is kept in out/vapid.key (made on
# first use); otherwise Web Push is off (Settings says so) and the webhook still works.
VAPID_PRIVATE_KEY = env_str("VAPID_PRIVATE_KEY", "")
VAPID_SUBJECT = env_str("VAPID_SUBJECT", "mailto:noreply@localhost")
# A webhook URL must be https (chat apps' are) and, like a push endpoint, on the public internet
# (no call into the site's own network); plain http and local addresses only where this says so
# (tests, `make run`).
WEBHOOK_ALLOW_HTTP = env_bool("WEBHOOK_ALLOW_HTTP", DEBUG)
