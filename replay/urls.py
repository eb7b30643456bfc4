"""HTML pages (included at "" last by tichu_site/urls.py)."""
from django.urls import include, path

from . import views

app_name = "replay"

urlpatterns = [
    path("", views.club_list, name="home"),
    path("clubs/", views.club_list, name="club-list"),
    path("clubs/<slug:slug>/", views.club_detail, name="club-detail"),
    path("games/<int:pk>/", views.game_detail, name="game-detail"),
    path("games/<int:pk>/replay/", views.game_replay, name="game-replay"),
    path("games/<int:pk>/replay/data/", views.game_replay_data, name="game-replay-data"),
    path("", include("replay.entry.urls")),
    path("", include("replay.tournaments.urls")),
]
