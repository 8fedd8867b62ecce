from django.contrib import admin
from django.urls import include, path
from health_check.views import HealthCheckView

from games.health import checks

urlpatterns = [
    path("health/", HealthCheckView.as_view(checks=checks(full=False)), name="health"),
    path("health/full/", HealthCheckView.as_view(checks=checks(full=True)), name="health_full"),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
]
