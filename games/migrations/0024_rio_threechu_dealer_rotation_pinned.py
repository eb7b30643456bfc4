"""Threechu under the `rio` preset now passes the deal to the left (`dealer_rotation` `previous`,
spec/rules.md, as the Rio Grande text 001 says: "The shuffle (and partnership with the dummy)
passes to the left after each hand"); until now `rio` passed it to the next player (`next`).

The games stored before this change were played, and checked, under `next`: each of them gets
`dealer_rotation: "next"` written into its options, so its record folds exactly as it was recorded
(the engine enforces who shuffles each hand) and its export says which rule it was played under.
Only Threechu games whose preset is `rio` (named, or by default) and that set no rotation of their
own are touched; each is printed.

Reverse: takes the pinned option out again (a game that named `next` itself before this migration
is not told apart: both read the same under the old code, where `rio` meant `next`).
"""

from django.db import migrations

PINNED = {"dealer_rotation": "next"}


def _is_rio_without_rotation(options) -> bool:
    options = options if isinstance(options, dict) else {}
    return options.get("preset", "rio") == "rio" and "dealer_rotation" not in options


def pin_next(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.filter(variant="threechu").order_by("pk"):
        if _is_rio_without_rotation(game.options):
            game.options = {**(game.options or {}), **PINNED}
            game.save(update_fields=["options"])
            print(f"  game {game.pk}: Threechu under rio keeps dealer_rotation 'next', as it was played")


def unpin(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.filter(variant="threechu").order_by("pk"):
        options = game.options if isinstance(game.options, dict) else {}
        if options.get("preset", "rio") == "rio" and options.get("dealer_rotation") == "next":
            game.options = {k: v for k, v in options.items() if k != "dealer_rotation"}
            game.save(update_fields=["options"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0023_ratings_pool_bayes_state"),
    ]

    operations = [
        migrations.RunPython(pin_next, unpin),
    ]
