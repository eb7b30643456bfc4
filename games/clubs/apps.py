from django.apps import AppConfig


class ClubsConfig(AppConfig):
    """Club life: invitations and the club's audit log (the models of games.clubs)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games.clubs"
    label = "clubs"
    verbose_name = "Club life"
