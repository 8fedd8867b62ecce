from django.contrib import admin
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from games.health import CachedHealthView, MonitorHealthView
from games.metrics import metrics_view


@require_safe
@cache_control(max_age=86400)
def favicon(request):
    """Browsers ask for /favicon.ico whatever the page says: send them to the SVG icon (its
    hashed name is looked up per request: the static manifest exists only once collected)."""
    return redirect(static("favicon.svg"))


urlpatterns = [
    path("health/", CachedHealthView.as_view(), name="health"),
    path("health/full/", MonitorHealthView.as_view(), name="health_full"),
    path("metrics/", metrics_view, name="metrics"),
    path("favicon.ico", favicon),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("", include("api.urls")),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
]
