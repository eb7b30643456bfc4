"""The replay pages: a game's page, its replay and the replay's data (included at "" last by
tichu_site/urls.py), in the `replay` namespace."""

from django.urls import path

from . import game_page, views

app_name = "replay"

urlpatterns = [
    path("games/<int:pk>/", game_page.game_detail, name="game-detail"),
    path("games/<int:pk>/replay/", views.game_replay, name="game-replay"),
    path("games/<int:pk>/replay/data/", views.game_replay_data, name="game-replay-data"),
]
