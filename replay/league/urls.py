"""League tables and player pages (included at "" by tichu_site/urls.py, before replay), in the
`league` namespace, named as their package."""

from django.urls import path

from . import views

app_name = "league"

urlpatterns = [
    path("clubs/<slug:club_id>/league/", views.league, name="league"),  # id or slug
    path("clubs/<slug:club_id>/league/settings/", views.league_settings, name="league-settings"),
    path("clubs/<slug:club_id>/league.<str:fmt>", views.league, name="league-format"),
    path("players/<int:player_id>/", views.player, name="player"),
    path("players/<int:player_id>.<str:fmt>", views.player, name="player-format"),
]
