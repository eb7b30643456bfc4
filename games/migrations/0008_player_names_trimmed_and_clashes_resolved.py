"""Player names unique in a club regardless of case and surrounding spaces (1 of 2).

Before the constraint is added (0009), existing clashes are resolved and reported (printed):
- names are trimmed;
- players whose names differ only by case or spaces are merged into the oldest one (their seats
  move to it; its account link is kept, or taken from the merged one), unless two of them sat
  at the same game: then they are different people and the later one is renamed "Name (2)".
Merged players' rating rows go with them: recompute the clubs reported (`manage.py
recompute_ratings --club ID --refold`).
"""

from django.db import migrations


def _free_name(names_taken: set[str], base: str) -> str:
    n = 2
    while f"{base} ({n})".lower() in names_taken:
        n += 1
    return f"{base} ({n})"


def resolve_clashes(apps, schema_editor):
    Player = apps.get_model("games", "Player")
    GameSeat = apps.get_model("games", "GameSeat")
    clubs_to_recompute = set()
    groups: dict[tuple[int, str], list] = {}
    for player in Player.objects.order_by("club_id", "created_at", "pk"):
        groups.setdefault((player.club_id, player.name.strip().lower()), []).append(player)
    taken = {}
    for (club_id, _), players in groups.items():
        taken.setdefault(club_id, set()).update(p.name.strip().lower() for p in players)
    for (club_id, _key), players in groups.items():
        keep, *others = players
        if keep.name != keep.name.strip():
            print(f"  club {club_id}: player {keep.pk} {keep.name!r} trimmed")
            keep.name = keep.name.strip()
            keep.save(update_fields=["name"])
        for other in others:
            keep_games = set(GameSeat.objects.filter(player=keep).values_list("game_id", flat=True))
            other_games = set(GameSeat.objects.filter(player=other).values_list("game_id", flat=True))
            linked_apart = other.user_id and keep.user_id and other.user_id != keep.user_id
            if keep_games & other_games or linked_apart:
                new = _free_name(taken[club_id], keep.name)
                taken[club_id].add(new.lower())
                print(
                    f"  club {club_id}: player {other.pk} {other.name!r} renamed {new!r} "
                    f"(sat with {keep.name!r} or has another account)"
                )
                other.name = new
                other.save(update_fields=["name"])
                continue
            GameSeat.objects.filter(player=other).update(player=keep)
            if other.user_id and not keep.user_id:
                keep.user_id = other.user_id
                keep.save(update_fields=["user"])
            print(
                f"  club {club_id}: player {other.pk} {other.name!r} merged into {keep.pk} {keep.name!r} "
                f"({len(other_games)} games)"
            )
            other.delete()
            clubs_to_recompute.add(club_id)
    if clubs_to_recompute:
        ids = ", ".join(map(str, sorted(clubs_to_recompute)))
        print(f"  ratings to recompute (manage.py recompute_ratings --club ID --refold): clubs {ids}")


class Migration(migrations.Migration):
    # Data only: PostgreSQL cannot alter a table with pending (deferred) trigger events in the
    # same transaction, so the constraint comes in 0009.
    dependencies = [("games", "0007_game_played_at")]

    operations = [migrations.RunPython(resolve_clashes, migrations.RunPython.noop, elidable=False)]
