"""``{% email_destination as where %}``: where the site's emails go when they are not sent, said
to the developer on the pages that ask the reader to look for one (under ``make run``
the sign-up page sent people to their spam folder while the email was printed in the console).
Empty outside DEBUG and for a backend that really sends."""

from __future__ import annotations

from django import template
from django.conf import settings
from django.utils.translation import gettext as _

register = template.Library()

CONSOLE = {
    "django.core.mail.backends.console.EmailBackend",
    "games.management.commands.devserver.ReadableConsoleBackend",
}
FILES = "django.core.mail.backends.filebased.EmailBackend"


@register.simple_tag
def email_destination() -> str:
    if not settings.DEBUG:
        return ""
    if settings.EMAIL_BACKEND in CONSOLE:
        return _("printed in the terminal where the server runs (make run), not sent")
    if settings.EMAIL_BACKEND == FILES:
        return _("written as a file in %(path)s, not sent") % {"path": settings.EMAIL_FILE_PATH}
    return ""
