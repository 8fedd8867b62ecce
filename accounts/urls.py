from django.urls import path

from accounts import views

urlpatterns = [
    path("players/<str:username>/block/", views.block, name="block"),
    path("settings/", views.settings_page, name="settings"),
    path("settings/vacation/", views.vacation, name="vacation"),
    path("language/", views.set_language, name="set_language"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
