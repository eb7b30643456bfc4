"""Scorer entry pages (included at "" by tichu_site/urls.py, before replay), in the `entry` namespace."""

from django.urls import path

from . import views

app_name = "entry"

urlpatterns = [
    path("enter/", views.entry_home, name="home"),
    path("clubs/<slug:slug>/new-game/", views.new_game, name="new-game"),
    path("games/<int:pk>/enter/", views.enter, name="enter"),
    path("games/<int:pk>/enter/panels/", views.panels, name="panels"),
    path("games/<int:pk>/enter/round/", views.tzq_round, name="tzq-round"),
]
