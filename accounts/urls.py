from django.urls import path

from accounts import views

urlpatterns = [
    path("players/<str:username>/", views.profile, name="profile"),
    path("settings/", views.settings_page, name="settings"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
