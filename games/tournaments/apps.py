from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # The records ask one registry which games are held (games/holds.py); the duplicate
        # tournaments' tables are (games/tournaments/visibility.py).
        from games import holds, hooks
        from games.online import tournament_deal
        from games.tournaments import duplicate_boards, online_tables, visibility

        holds.register(visibility.RULE)
        hooks.events_appending.connect(duplicate_boards.check_board_deal)
        # a duplicate table played online is dealt its boards, not the online table's shuffle
        tournament_deal.register(online_tables.BOARD_DEALS)
