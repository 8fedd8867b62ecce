from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView
from health_check.views import HealthCheckView

from games.health import checks

urlpatterns = [
    path("health/", HealthCheckView.as_view(checks=checks(full=False)), name="health"),
    path("health/full/", HealthCheckView.as_view(checks=checks(full=True)), name="health_full"),
    # Browsers ask for /favicon.ico whatever the page says: send them to the SVG icon.
    path("favicon.ico", RedirectView.as_view(url=static("favicon.svg"), permanent=True)),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
]
