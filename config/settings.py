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
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": name}
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

# Comma-separated; required outside DEBUG (an empty list would refuse every request).
ALLOWED_HOSTS = _csv(env_str("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else _UNSET))
CSRF_TRUSTED_ORIGINS = _csv(env_str("CSRF_TRUSTED_ORIGINS", ""))
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG

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
    "accounts",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
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
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database ----------------------------------------------------------------------------------

DATABASES = {
    "default": parse_database_url(env_str("DATABASE_URL", "sqlite:///db.sqlite3")),
}
DATABASES["default"]["CONN_MAX_AGE"] = env_int("DATABASE_CONN_MAX_AGE", 0, minimum=0)
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

# --- Cache -------------------------------------------------------------------------------------

# allauth's rate limits count in this cache. Local memory is per process: enough for one server
# process; a deployment with several processes should point it at a shared cache (Redis).
# allauth's rate limits and the chat limits count in the cache: Redis when there is one, so that
# every web process shares the counts; the embedded default keeps them in this process.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Internationalisation ----------------------------------------------------------------------

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files ------------------------------------------------------------------------------

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# collectstatic's target; /out/ is gitignored.
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "out" / "static")))

# --- Email -------------------------------------------------------------------------------------

EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Blokus Shuffle <noreply@localhost>")

# --- Channels and Celery -----------------------------------------------------------------------

REDIS_URL = env_str("REDIS_URL", "")
if REDIS_URL and not REDIS_URL.startswith(("redis://", "rediss://", "unix://")):
    raise ImproperlyConfigured(f"REDIS_URL={REDIS_URL!r} must start with redis:// or rediss://.")

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL]},
        }
    }
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }
else:
    # One process only: enough for `make run`, where the web process also runs the tasks.
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# Eager by default: tasks run in-process when queued, so local runs and tests need no broker or
# worker. A deployment with workers sets CELERY_TASK_ALWAYS_EAGER=false and REDIS_URL.
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", REDIS_URL or "memory://")
CELERY_TASK_IGNORE_RESULT = True
# Tasks are acknowledged after they ran and requeued if the worker dies (they are idempotent);
# one task at a time per worker process, so a long AI turn does not hold others back.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Redis redelivers an unacknowledged task after this long: above the longest AI turn.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_TIMEZONE = TIME_ZONE
