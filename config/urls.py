from django.contrib import admin
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe
from health_check.views import HealthCheckView

from games.health import checks


@require_safe
@cache_control(max_age=86400)
def favicon(request):
    """Browsers ask for /favicon.ico whatever the page says: send them to the SVG icon (its
    hashed name is looked up per request: the static manifest exists only once collected)."""
    return redirect(static("favicon.svg"))


urlpatterns = [
    path("health/", HealthCheckView.as_view(checks=checks(full=False)), name="health"),
    path("health/full/", HealthCheckView.as_view(checks=checks(full=True)), name="health_full"),
    path("favicon.ico", favicon),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
]
