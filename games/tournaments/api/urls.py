"""Routes of the tournament API, included under /api/ by games/urls.py (docs/api.md)."""

from django.urls import path

from games.tournaments.api import brackets, leagues, seasons, views

urlpatterns = [
    path("tournaments/", views.TournamentListCreateApi.as_view(), name="tournament-list"),
    path("tournaments/import/", views.TournamentImportApi.as_view(), name="tournament-import"),
    path("tournaments/<int:pk>/", views.TournamentDetailApi.as_view(), name="tournament-detail"),
    path("tournaments/<int:pk>/events/", views.TournamentEventsApi.as_view(), name="tournament-events"),
    path("tournaments/<int:pk>/record/", views.TournamentRecordApi.as_view(), name="tournament-record"),
    path("tournaments/<int:pk>/standings/", views.TournamentStandingsApi.as_view(), name="tournament-standings"),
    path("tournaments/<int:pk>/crosstable/", views.TournamentCrosstableApi.as_view(), name="tournament-crosstable"),
    path("tournaments/<int:pk>/boards/", views.TournamentBoardsApi.as_view(), name="tournament-boards"),
    path("tournaments/<int:pk>/pairing/", views.TournamentPairingApi.as_view(), name="tournament-pairing"),
    path(
        "tournaments/<int:pk>/rounds/<int:round_number>/games/",
        views.RoundGamesApi.as_view(),
        name="tournament-round-games",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:round_number>/tables/<int:table>/result-from-game/",
        views.TableResultFromGameApi.as_view(),
        name="tournament-table-result",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:round_number>/codes/",
        views.RoundTableCodesApi.as_view(),
        name="tournament-round-codes",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:round_number>/tables/<int:table>/code/",
        views.TableCodeApi.as_view(),
        name="tournament-table-code",
    ),
    path("games/<int:pk>/tournament-table/", views.GameTournamentTableApi.as_view(), name="game-tournament-table"),
    path("tournaments/<int:pk>/results/", views.TournamentResultsApi.as_view(), name="tournament-results"),
    path("clubs/<slug:club>/seasons/", seasons.ClubSeasonsApi.as_view(), name="club-seasons"),
    path("seasons/<int:pk>/", seasons.SeasonDetailApi.as_view(), name="season-detail"),
    path("seasons/<int:pk>/events/", seasons.SeasonEventsApi.as_view(), name="season-events"),
    path("clubs/<slug:club>/brackets/", brackets.ClubBracketsApi.as_view(), name="club-brackets"),
    path("brackets/<int:pk>/", brackets.BracketDetailApi.as_view(), name="bracket-detail"),
    path("brackets/<int:pk>/events/", brackets.BracketEventsApi.as_view(), name="bracket-events"),
    path("brackets/<int:pk>/seed/", brackets.BracketSeedApi.as_view(), name="bracket-seed"),
    path("clubs/<slug:club>/leagues/", leagues.ClubLeaguesApi.as_view(), name="club-leagues"),
    path(
        "clubs/<slug:club>/leagues/next-season/",
        leagues.ClubLeaguesNextSeasonApi.as_view(),
        name="club-leagues-next-season",
    ),
    path("leagues/<int:pk>/", leagues.LeagueDetailApi.as_view(), name="league-detail"),
    path("leagues/<int:pk>/events/", leagues.LeagueEventsApi.as_view(), name="league-events"),
]
