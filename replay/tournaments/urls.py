"""Tournament pages (included at "" by tichu_site/urls.py, before replay), in the `tournaments`
namespace, named as their package."""

from django.urls import path

from . import brackets, duplicate, leagues, print_pages, results_post, seasons, table_cards, views

app_name = "tournaments"

urlpatterns = [
    path("clubs/<slug:slug>/tournaments/", views.club_tournaments, name="club-tournaments"),
    path("clubs/<slug:slug>/tournaments/new/", views.tournament_new, name="tournament-new"),
    path("clubs/<slug:slug>/seasons/new/", seasons.season_new, name="season-new"),
    path("clubs/<slug:slug>/seasons/<int:pk>/", seasons.season_page, name="season"),
    path("clubs/<slug:slug>/brackets/new/", brackets.bracket_new, name="bracket-new"),
    path("clubs/<slug:slug>/brackets/<int:pk>/", brackets.bracket_page, name="bracket"),
    path("clubs/<slug:slug>/brackets/<int:pk>/bracket.pdf", brackets.bracket_pdf, name="bracket-pdf"),
    path("clubs/<slug:slug>/seasons/<int:pk>/table.<str:kind>", seasons.season_file, name="season-file"),
    path("clubs/<slug:slug>/leagues/new/", leagues.league_new, name="league-new"),
    path("clubs/<slug:slug>/leagues/<int:pk>/", leagues.league_page, name="league"),
    path("tournaments/<int:pk>/", views.tournament_page, name="tournament"),
    path("tournaments/<int:pk>/act/", views.tournament_action, name="tournament-action"),
    path("tournaments/<int:pk>/pair/", views.tournament_pair, name="tournament-pair"),
    path("tournaments/<int:pk>/standings/", views.tournament_standings, name="tournament-standings"),
    path("tournaments/<int:pk>/projector/", views.tournament_projector, name="tournament-projector"),
    path("tournaments/<int:pk>/rounds/<int:round_number>/cards/", table_cards.table_cards, name="tournament-cards"),
    path(
        "tournaments/<int:pk>/rounds/<int:round_number>/tables/<int:table>/code/",
        table_cards.table_code_action,
        name="tournament-table-code",
    ),
    path("tournaments/<int:pk>/duplicate/", duplicate.duplicate_page, name="tournament-duplicate"),
    path("tournaments/<int:pk>/duplicate/adjust/", duplicate.duplicate_adjust, name="tournament-duplicate-adjust"),
    path("tournaments/<int:pk>/boards.pdf", duplicate.boards_pdf, name="tournament-boards-pdf"),
    path("t/", table_cards.code_form, name="table-code-form"),
    path("t/<str:code>/", table_cards.code_open, name="table-code"),
    path("games/<int:pk>/enter/result/", table_cards.table_result, name="table-result"),
    path(
        "tournaments/<int:pk>/rounds/<int:round_number>/pairings/",
        print_pages.pairings_page,
        name="tournament-print-pairings",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:round_number>/sheets/",
        print_pages.sheets_page,
        name="tournament-print-sheets",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:round_number>/<str:kind>.pdf",
        table_cards.round_pdf,
        name="tournament-round-pdf",
    ),
    path("tournaments/<int:pk>/results/", results_post.results_page, name="tournament-results"),
    path("tournaments/<int:pk>/results.<str:kind>", results_post.results_file, name="tournament-results-file"),
    path("tournaments/<int:pk>/standings.pdf", table_cards.standings_pdf, name="tournament-standings-pdf"),
]
