"""Online tables (included at "" by tichu_site/urls.py, before replay's `clubs/<slug>/`)."""

from django.urls import path

from . import views

app_name = "online"

urlpatterns = [
    path("clubs/<slug:slug>/online/", views.tables, name="tables"),
    path("clubs/<slug:slug>/online/<int:pk>/", views.table, name="table"),
    path("clubs/<slug:slug>/online/<int:pk>/watch/", views.watch, name="watch"),
    path("clubs/<slug:slug>/online/<int:pk>/watch/view/", views.watch_view, name="watch-view"),
    path("clubs/<slug:slug>/online/<int:pk>/seat/<int:seat>/bot/", views.seat_to_bot, name="seat-to-bot"),
    path("clubs/<slug:slug>/online/<int:pk>/seat/<int:seat>/take/", views.take_seat, name="take-seat"),
    path("clubs/<slug:slug>/online/clock/", views.clock_settings, name="clock-settings"),
    path("clubs/<slug:slug>/online/watch-delay/", views.watch_delay_settings, name="watch-delay-settings"),
    path("online/seat/<str:secret>/", views.seat_page, name="seat"),
    path("online/seat/<str:secret>/view/", views.seat_view, name="seat-view"),
    path("online/seat/<str:secret>/act/", views.seat_act, name="seat-act"),
]
