from django.apps import AppConfig


class ClubsConfig(AppConfig):
    """Club life: invitations and the club's audit log (the models of games.clubs)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games.clubs"
    label = "clubs"
    verbose_name = "Club life"

    def ready(self) -> None:
        # The club's feed follows the records through their hooks (the records import no club
        # module): a game started, a finished game changed.
        from games import hooks
        from games.clubs import feed

        hooks.game_started.connect(feed.game_started)
        hooks.finished_game_changed.connect(feed.game_changed)
