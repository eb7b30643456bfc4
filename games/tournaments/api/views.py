"""Thin API views for tournaments: check the input's shape, call one service or selector, render.
Who may do what is as for games: anyone reads a public club's tournaments, members read a
members-only club's, scorers and admins write."""

from __future__ import annotations

from django.http import HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from games import holds
from games import tournament as core
from games.api import bodies, http_cache
from games.api import serializers as gs
from games.api.exceptions import ApiError
from games.api.limits import uint_parameter
from games.api.permissions import require_writer
from games.api.requests import idempotency_key, query_uint, validated, write_response
from games.api.schema import SIGNED_IN
from games.api.views import (
    ERRORS,
    IDEMPOTENCY_HEADER,
    ApiView,
    Pagination,
    club_visible,
)
from games.tournaments import refusal_words, results, results_import, selectors, services, visibility
from games.tournaments.api import bodies as tbodies
from games.tournaments.api import serializers as s
from games.tournaments.models import Tournament

AT = uint_parameter("at", "as it stood after the first N events (default: all)")
RULE_ERRORS = {
    409: OpenApiResponse(gs.ErrorOutput, description="expected_seq is stale; nothing stored"),
    422: OpenApiResponse(gs.ErrorOutput, description="the tournament rules refuse events[index]; nothing stored"),
}


class TournamentView(ApiView):
    def tournament(self, request: Request, pk: int) -> Tournament:
        return selectors.tournament_get(request.user, pk)

    def at(self, request: Request, tournament: Tournament) -> int:
        at = query_uint(request, "at", tournament.seq)
        if at > tournament.seq:
            raise ApiError(
                _("at=%(at)s is past the tournament's last event (seq %(seq)s)") % {"at": at, "seq": tournament.seq},
                code="out_of_range",
            )
        return at

    def state(self, request: Request, tournament: Tournament) -> core.TournamentState:
        """The tournament after `at` events as the reader may see it (games.tournaments.visibility)."""
        return visibility.reader_state(tournament, request.user, self.at(request, tournament))


class TournamentListCreateApi(ApiView, generics.GenericAPIView):
    pagination_class = Pagination
    serializer_class = s.TournamentOutput
    filter_backends: list = []

    @extend_schema(
        parameters=[OpenApiParameter("club", str, description="only this club's (id or slug)")],
        responses=s.TournamentOutput(many=True),
        summary="Tournaments of the clubs you can see",
    )
    def get(self, request: Request) -> Response:
        tournaments = selectors.tournaments_visible(request.user)
        club = request.query_params.get("club")
        if club is not None:
            tournaments = tournaments.filter(club=club_visible(request, club))
        page = self.paginate_queryset(tournaments)
        return self.get_paginated_response(s.TournamentOutput(page, many=True).data)

    @extend_schema(
        request=s.TournamentCreateInput,
        parameters=[IDEMPOTENCY_HEADER],
        responses={201: gs.WriteOutput, **ERRORS},
        summary="Create a tournament (scorers, admins)",
    )
    def post(self, request: Request) -> Response:
        data = validated(s.TournamentCreateInput, request)
        club = club_visible(request, data.pop("club"))
        require_writer(request.user, club)
        return write_response(
            services.tournament_create(club=club, **data, user=request.user, idempotency_key=idempotency_key(request))
        )


class TournamentDetailApi(TournamentView):
    @extend_schema(responses={200: s.TournamentOutput, 404: ERRORS[404]})
    def get(self, request: Request, pk: int) -> Response:
        return Response(s.TournamentOutput(self.tournament(request, pk)).data)


class TournamentEventsApi(TournamentView):
    @extend_schema(
        parameters=[uint_parameter("after", "only events with seq > after (default 0)")],
        responses={200: tbodies.TournamentEventsOutput, 404: ERRORS[404]},
        summary="The tournament's events after seq N",
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = self.tournament(request, pk)
        after = query_uint(request, "after", 0)
        events = visibility.reader_events(
            tournament,
            request.user,
            tournament.events.filter(seq__gt=after).select_related("recorded_by").order_by("seq"),
        )
        return Response(
            {
                "tournament": tournament.pk,
                "seq": tournament.seq,
                "after": after,
                "events": s.TournamentEventOutput(events, many=True).data,
            }
        )

    @extend_schema(
        request=s.TournamentEventsAppendInput,
        parameters=[IDEMPOTENCY_HEADER],
        responses={201: gs.WriteOutput, **RULE_ERRORS, **ERRORS},
        summary="Append tournament events atomically (scorers, admins)",
    )
    def post(self, request: Request, pk: int) -> Response:
        data = validated(s.TournamentEventsAppendInput, request)
        return write_response(
            services.append_events(
                tournament_id=pk,
                events=data["events"],
                expected_seq=data["expected_seq"],
                user=request.user,
                idempotency_key=idempotency_key(request),
            )
        )


class TournamentRecordApi(TournamentView):
    @extend_schema(
        parameters=[AT, http_cache.IF_NONE_MATCH],
        responses={200: tbodies.TournamentRecordOutput, **http_cache.NOT_MODIFIED, 404: ERRORS[404]},
        summary="The whole tournament as a record (docs/tournament.md)",
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = self.tournament(request, pk)
        # ETag of the body (what a reader may see of a round is in it: games.api.http_cache)
        return http_cache.conditional(
            request, visibility.reader_record(tournament, request.user, self.at(request, tournament)), ""
        )


class TournamentStandingsApi(TournamentView):
    @extend_schema(
        parameters=[AT, http_cache.IF_NONE_MATCH],
        responses={200: bodies.StandingsOutput, **http_cache.NOT_MODIFIED, 404: ERRORS[404]},
        summary="Standings, as they stood after N events",
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = self.tournament(request, pk)
        # ETag of the body (what a reader may see of a round is in it: games.api.http_cache)
        return http_cache.conditional(request, core.standings_json(self.state(request, tournament)), "")


class TournamentBoardsApi(TournamentView):
    @extend_schema(
        parameters=[AT, http_cache.IF_NONE_MATCH],
        responses={200: tbodies.BoardsOutput, **http_cache.NOT_MODIFIED, 404: ERRORS[404]},
        summary="Duplicate: every board's results with their matchpoints, round by round",
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = self.tournament(request, pk)
        # ETag of the body (what a reader may see of a round is in it: games.api.http_cache)
        return http_cache.conditional(request, core.boards_json(self.state(request, tournament)), "")


class TournamentCrosstableApi(TournamentView):
    @extend_schema(
        parameters=[AT, http_cache.IF_NONE_MATCH],
        responses={200: bodies.CrosstableOutput, **http_cache.NOT_MODIFIED, 404: ERRORS[404]},
        summary="Crosstable, as it stood after N events",
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = self.tournament(request, pk)
        # ETag of the body (what a reader may see of a round is in it: games.api.http_cache)
        return http_cache.conditional(request, core.crosstable_json(self.state(request, tournament)), "")


class TournamentPairingApi(TournamentView):
    @extend_schema(
        responses={200: tbodies.PairingOutput, 404: ERRORS[404], 422: gs.ErrorOutput},
        summary="The proposed pairing of the next round, with its explanation (nothing stored)",
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = self.tournament(request, pk)
        state = selectors.state_at(tournament)
        try:
            pairing = core.propose(state)
        except core.TournamentError as err:
            said = refusal_words.message(err)
            return Response(
                {
                    "code": err.code,
                    "message": said,
                    "ok": False,
                    "index": None,
                    "error": {**err.as_dict(), "message": said},
                },
                status=status.HTTP_422_UNPROCESSABLE_ENTITY,
            )
        return Response({"ok": True, "seq": tournament.seq, "event": pairing.event()})


class RoundGamesApi(TournamentView):
    @extend_schema(
        responses={200: s.TableGameOutput(many=True), 404: ERRORS[404]}, summary="The games of a round's tables"
    )
    def get(self, request: Request, pk: int, round_number: int) -> Response:
        tournament = self.tournament(request, pk)
        links = selectors.table_games(tournament, round_number)
        rows = [links[n] for n in sorted(links)]
        return Response(s.TableGameOutput(rows, many=True, context={"unlisted": holds.unlisted(request.user)}).data)

    @extend_schema(
        request=None,
        responses={201: s.TableGameOutput(many=True), **ERRORS},
        summary="Make a game of the club for every table of the round (scorers, admins)",
    )
    def post(self, request: Request, pk: int, round_number: int) -> Response:
        links = services.make_round_games(tournament_id=pk, round_number=round_number, user=request.user)
        return Response(s.TableGameOutput(links, many=True).data, status=status.HTTP_201_CREATED)


class TableResultFromGameApi(TournamentView):
    @extend_schema(
        request=s.ResultFromGameInput,
        responses={201: gs.WriteOutput, **RULE_ERRORS, **ERRORS},
        summary="Record (or correct) a table's result from its game's score sheet (scorers, admins)",
    )
    def post(self, request: Request, pk: int, round_number: int, table: int) -> Response:
        data = validated(s.ResultFromGameInput, request)
        return write_response(
            services.record_result_from_game(
                tournament_id=pk, round_number=round_number, table=table, user=request.user, reason=data.get("reason")
            )
        )


class RoundTableCodesApi(TournamentView):
    @extend_schema(
        responses={200: s.TableCodeOutput(many=True), **ERRORS},
        auth=SIGNED_IN,
        summary="The round's live table codes (scorers, admins): each records its table's game only",
    )
    def get(self, request: Request, pk: int, round_number: int) -> Response:
        codes = services.round_table_codes(tournament_id=pk, round_number=round_number, user=request.user)
        return Response(s.TableCodeOutput([codes[n] for n in sorted(codes)], many=True).data)


class TableCodeApi(TournamentView):
    @extend_schema(
        request=None,
        responses={201: s.TableCodeOutput, **ERRORS},
        summary="Reissue a table's code: the old one stops working (scorers, admins)",
    )
    def post(self, request: Request, pk: int, round_number: int, table: int) -> Response:
        row = services.reissue_table_code(tournament_id=pk, round_number=round_number, table=table, user=request.user)
        return Response(s.TableCodeOutput(row).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=None,
        responses={204: None, **ERRORS},
        summary="Revoke a table's code without a new one (scorers, admins)",
    )
    def delete(self, request: Request, pk: int, round_number: int, table: int) -> Response:
        services.revoke_table_code(tournament_id=pk, round_number=round_number, table=table, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class GameTournamentTableApi(ApiView):
    """A tournament table's result, answered at the table (with the table's code or as a scorer)."""

    @extend_schema(
        responses={200: tbodies.TableResultOutput, **ERRORS},
        auth=[*SIGNED_IN, {"tableCode": []}],
        summary="The tournament result of the table this game plays, with its confirmation",
    )
    def get(self, request: Request, pk: int) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated("the table's code or a scorer's account is needed")
        return Response(services.table_result(game_id=pk, user=request.user))

    @extend_schema(
        request=s.TableActionInput,
        responses={201: gs.WriteOutput, **RULE_ERRORS, **ERRORS},
        summary="At the table: one side sends the result from the finished game, the other side confirms or "
        "disputes it (with the table's code and each side's PIN, or scorers and admins)",
    )
    def post(self, request: Request, pk: int) -> Response:
        data = validated(s.TableActionInput, request)
        return write_response(
            services.table_action(
                game_id=pk, action=data["action"], user=request.user, reason=data.get("reason"), pin=data.get("pin")
            )
        )


XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


class TournamentResultsApi(TournamentView):
    @extend_schema(
        parameters=[OpenApiParameter("as", str, description="json (default), standings.csv, tables.csv or xlsx")],
        responses={200: tbodies.TournamentResultsOutput, 404: ERRORS[404]},
        summary="The results in the tournament results format (tichu-tournament-results/1), or as CSV/XLSX",
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = self.tournament(request, pk)
        body = results.results_json(
            tournament, lambda gid: request.build_absolute_uri(reverse("game-record", args=[gid])), reader=request.user
        )
        kind = request.query_params.get("as", "json")
        if kind in ("standings.csv", "tables.csv"):
            response = HttpResponse(results.to_csv(body, kind.split(".")[0]), content_type="text/csv; charset=utf-8")
        elif kind == "xlsx":
            response = HttpResponse(results.to_xlsx(body), content_type=XLSX)
        elif kind == "json":
            return Response(body)
        else:
            raise ApiError(_("as= is json, standings.csv, tables.csv or xlsx"), code="invalid")
        response["Content-Disposition"] = f'attachment; filename="tournament-{pk}-{kind.replace(".", "-")}"'
        return response


class TournamentImportApi(ApiView):
    @extend_schema(
        request=s.TournamentImportInput,
        parameters=[IDEMPOTENCY_HEADER],
        responses={201: gs.WriteOutput, 200: gs.WriteOutput, **RULE_ERRORS, **ERRORS},
        summary="Import a tournament from a results file (ours, round trip exact; or aragos' JSON); "
        "scorers and admins of the club; all or nothing; the same file again answers 200 "
        "with the tournament it made (already_imported)",
    )
    def post(self, request: Request) -> Response:
        data = validated(s.TournamentImportInput, request)
        club = club_visible(request, data["club"])
        require_writer(request.user, club)
        record_url = lambda gid: request.build_absolute_uri(reverse("game-record", args=[gid]))  # noqa: E731
        key = idempotency_key(request)
        if data["format"] == "aragos":
            result = results_import.import_aragos(
                club=club, data=data["results"], user=request.user, name=data.get("name"), idempotency_key=key
            )
        else:
            result = results_import.import_results(
                club=club, data=data["results"], user=request.user, game_url=record_url, idempotency_key=key
            )
        return write_response(result)
