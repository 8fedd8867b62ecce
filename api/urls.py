from django.urls import path

from api import views
from api.endpoints import api

urlpatterns = [
    path("api/v1/", api.urls),
    path("settings/tokens/", views.tokens_page, name="api_tokens"),
    path("settings/bot/", views.bot_page, name="api_bot"),
    path("settings/tokens/<int:token_id>/revoke/", views.token_revoke, name="api_token_revoke"),
]
