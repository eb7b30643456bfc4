"""HTML pages (included at "" last by tichu_site/urls.py).

The clubs' list and a club's page are the club pages' (replay/clubs/views.py); their routes stay
here so that their names (`replay:home`, `replay:club-list`, `replay:club-detail`) and addresses
stay what every template and link uses.
"""

from django.urls import include, path

from . import game_page, views
from .clubs import views as clubs

app_name = "replay"

urlpatterns = [
    path("", clubs.club_list, name="home"),
    path("clubs/", clubs.club_list, name="club-list"),
    path("clubs/<slug:slug>/", clubs.club_detail, name="club-detail"),
    path("games/<int:pk>/", game_page.game_detail, name="game-detail"),
    path("games/<int:pk>/replay/", views.game_replay, name="game-replay"),
    path("games/<int:pk>/replay/data/", views.game_replay_data, name="game-replay-data"),
    path("", include("replay.entry.urls")),
    path("", include("replay.tournaments.urls")),
]
