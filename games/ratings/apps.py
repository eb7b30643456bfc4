from django.apps import AppConfig


class RatingsConfig(AppConfig):
    """The ratings, an app of their own that imports the records (games) and is never imported by
    them: the records call the hooks of games/hooks.py, connected here. Its models and migrations
    are its own (label "ratings"); their tables keep the names they had under the games app
    (ratings/0001 moved only the state: no data moved)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games.ratings"
    label = "ratings"

    def ready(self) -> None:
        from games.clubs import archive

        from . import receivers
        from .models import LeagueRules

        receivers.connect()
        # a club's archive carries its league rules (a club without a row has the defaults: none)
        archive.register_kind(archive.Kind("league_rules", LeagueRules, lambda c: LeagueRules.objects.filter(club=c)))
