"""What the fault tests ask the service's database, run in the stack's own environment
(`python -m tests.faults.probe COMMAND ...` with DATABASE_URL of the private PostgreSQL): one
JSON object on stdout.

    setup SLUG            a public club, a scorer with a token: {"club", "token"}
    history CLUB N        N generated finished games (score-sheet outcomes) in the club
    status CLUB           {"finished", "rated", "pending"}: finished games, games with rating
                          changes, rating outbox rows of the club's games
    check CLUB            status, then `equal`: the stored league (every rating change and
                          rating) equals a clean recompute (every outcome refolded from the events)
    online SLUG           a club, a member, and an online table of Tichu for four people opened by
                          the member (games.online.services): {"game", "secrets"} (seat order)
    events GAME           the game's stored events, in order: {"seq", "events"}
"""

from __future__ import annotations

import json
import os
import sys


def main(argv: list[str]) -> dict:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tichu_site.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from games.models import Club, Game, Membership
    from games.ratings import services
    from games.ratings.models import RatingChange, RatingOutbox

    command, *args = argv
    if command == "online":
        from games.online import services as online

        club = Club.objects.create(name=args[0], slug=args[0])
        user = get_user_model().objects.create_user(f"member-{args[0]}", password="pw")
        Membership.objects.create(club=club, user=user, role=Membership.Role.VIEWER)
        table = online.open_table(
            club=club, variant="nanking", options=None, players=["Ada", "Ben", "Cyd", "Dot"], user=user
        )
        return {"game": table.game_id, "secrets": [s.secret for s in table.seats.order_by("seat")]}
    if command == "events":
        game = Game.objects.get(pk=int(args[0]))
        return {"seq": game.seq, "events": [e.as_record_event() for e in game.events.order_by("seq")]}
    if command == "setup":
        slug = args[0]
        club = Club.objects.create(name=slug, slug=slug, visibility=Club.Visibility.PUBLIC)
        user = get_user_model().objects.create_user(f"scorer-{slug}", password="pw")
        Membership.objects.create(club=club, user=user, role=Membership.Role.SCORER)
        return {"club": club.pk, "token": Token.objects.create(user=user).key}
    if command == "history":
        from bench.ratings_lab.fixtures import load_history
        from bench.ratings_lab.synthetic import synthetic_history

        _, games = synthetic_history(int(args[1]), 40, seed=3)
        load_history(Club.objects.get(pk=int(args[0])), games)
        return {"games": len(games)}
    club = int(args[0])
    status = {
        "finished": Game.objects.filter(club_id=club, status=Game.Status.FINISHED).count(),
        "rated": RatingChange.objects.filter(club_id=club).values("game_id").distinct().count(),
        "pending": RatingOutbox.objects.filter(game__club_id=club).count(),
    }
    if command == "status":
        return status
    if command == "check":
        stored = services.pool_signature(club, "nanking")
        services.recompute_club(club, refold=True)
        return {**status, "rows": len(stored), "equal": stored == services.pool_signature(club, "nanking")}
    raise SystemExit(f"unknown command {command!r}")


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:])))
