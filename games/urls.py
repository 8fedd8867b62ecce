from django.urls import path

from games.views import (
    analysis,
    chat,
    game,
    help,
    history,
    lobby,
    pentobi,
    profiles,
    ratings,
    rematch,
)

urlpatterns = [
    path("", lobby.home, name="home"),
    path("help/", help.help_page, name="help"),
    path("games/new/", lobby.game_new, name="game_new"),
    path("games/mine/", lobby.my_games, name="my_games"),
    path("games/<str:public_id>/", game.game_page, name="game"),
    path("games/<str:public_id>/join/", lobby.game_join, name="game_join"),
    path("games/<str:public_id>/leave/", lobby.game_leave, name="game_leave"),
    path("games/<str:public_id>/invite/<str:token>/", lobby.invite, name="game_invite"),
    path(
        "games/<str:public_id>/invitation/accept/",
        lobby.invitation_accept,
        name="invitation_accept",
    ),
    path(
        "games/<str:public_id>/invitation/decline/",
        lobby.invitation_decline,
        name="invitation_decline",
    ),
    path("games/<str:public_id>/panel/", game.panel, name="game_panel"),
    path("games/<str:public_id>/act/", game.act, name="game_act"),
    path("games/<str:public_id>/rematch/", rematch.rematch, name="game_rematch"),
    path("games/<str:public_id>/replay/", history.replay, name="game_replay"),
    path("games/<str:public_id>/analysis/", analysis.section, name="game_analysis"),
    path("games/<str:public_id>/analyse/", analysis.analyse, name="game_analyse"),
    path("games/<str:public_id>/record.json", history.record, name="game_record"),
    path("games/<str:public_id>/game.blksgf", pentobi.download, name="game_blksgf"),
    path("games/<str:public_id>/chat/", chat.chat, name="game_chat"),
    path("replay/upload/", history.upload, name="replay_upload"),
    path("report/", chat.report, name="report"),
    path("leaderboard/", ratings.leaderboard, name="leaderboard"),
    path("players/<str:username>/", profiles.profile, name="profile"),
]
