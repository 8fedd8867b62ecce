"""ASGI entry point: Channels routes each protocol. Only HTTP for now; websockets come later."""

import os

from channels.routing import ProtocolTypeRouter
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Initialise Django (apps, settings) before anything that imports models.
django_asgi_app = get_asgi_application()

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # TODO: "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(...))),
    }
)
