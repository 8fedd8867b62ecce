from django.urls import path

from accounts import views

urlpatterns = [
    path("players/<str:username>/block/", views.block, name="block"),
    path("settings/", views.settings_page, name="settings"),
    path("settings/vacation/", views.vacation, name="vacation"),
    path("settings/account/close/", views.close_account, name="account_close"),
    path("settings/account/delete/", views.delete_account, name="account_delete"),
    path("privacy/", views.privacy, name="privacy"),
    path("language/", views.set_language, name="set_language"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
