"""Club-life pages (included at "" by tichu_site/urls.py, before replay's `clubs/<slug>/`)."""
from django.urls import path

from . import views

app_name = "clubs"

urlpatterns = [
    path("new-club/", views.club_create, name="create"),  # not under clubs/: any slug stays free
    path("clubs/<slug:slug>/members/", views.members, name="members"),
    path("clubs/<slug:slug>/leave/", views.leave, name="leave"),
    path("clubs/<slug:slug>/players/", views.roster, name="players"),
    path("clubs/<slug:slug>/history/", views.history, name="history"),
    path("clubs/<slug:slug>/imports/", views.imports, name="imports"),
    path("invitations/<str:token>/", views.invitation, name="invitation"),
]
