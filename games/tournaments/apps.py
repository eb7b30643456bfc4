from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"
