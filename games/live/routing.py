from django.urls import path

from games.live import consumers

websocket_urlpatterns = [
    path("ws/games/<str:public_id>/", consumers.GameConsumer.as_asgi()),
    path("ws/me/", consumers.UserConsumer.as_asgi()),
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/", consumers.TournamentConsumer.as_asgi()),
]
