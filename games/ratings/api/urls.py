"""Routes of the league API, included under /api/ by tichu_site/urls.py before games.urls (whose
last route answers unknown paths): the records' URLs do not import the ratings (pyproject.toml,
the layers contract)."""

from django.urls import path

from . import views

urlpatterns = [
    path("clubs/<slug:pk>/league/", views.ClubLeagueApi.as_view(), name="club-league"),
    path("players/<int:pk>/ratings/", views.PlayerRatingsApi.as_view(), name="player-ratings"),
]
