"""The game page in plain words (issue #16): the game's name, places at the table with the
players' names, and every house rule of every game with its one-line explanation from the
engine's registry, the preset described."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from games import engine
from replay.game_page import _value_words

from .conftest import import_game
from .dom import parse
from .test_tzq_replay import tzq_record

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu"]


def _record(info: engine.GameInfo, preset: str = "tiki") -> dict:
    return {
        "format": engine.FORMAT,
        "variant": info.name,
        "options": {"preset": preset},
        "players": NAMES[: info.seat_counts[0]],
        "events": [],
    }


@pytest.mark.parametrize("name", engine.GAME_NAMES)
def test_every_option_of_every_game_is_explained_on_the_game_page(client, public_club, name):
    info = engine.game_info(name)
    game = import_game(public_club, _record(info))
    root = parse(client.get(reverse("replay:game-detail", args=[game.pk])).content)
    assert root.by_id("variant").text() == info.label
    rows = {tr.attrs["data-option"]: tr for tr in root.by_id("house-rules").find_all("tr") if "data-option" in tr.attrs}
    assert set(rows) == {"preset"} | {o.name for o in info.options}
    for option in info.options:
        row = rows[option.name]
        assert row.find("th").text() == option.label
        assert row.find("td", cls="doc").text() == option.help
        assert option.help.endswith(".") and "\n" not in option.help and len(option.help) < 200
    preset = rows["preset"]
    assert preset.find("td", cls="value").text().startswith("TIKI edition")
    assert "French TIKI edition" in preset.find("td", cls="doc").text()


@pytest.mark.parametrize("lang", ["fr", "de", "uk"])
@pytest.mark.parametrize("name", engine.GAME_NAMES)
def test_the_house_rules_are_explained_in_the_readers_language(client, public_club, name, lang):
    """Labels, help lines, choices and the preset in the engine's words for the request's language
    (engine.option_words / preset_words), none of them left in English."""
    info = engine.game_info(name)
    game = import_game(public_club, _record(info))
    page = client.get(reverse("replay:game-detail", args=[game.pk]), HTTP_ACCEPT_LANGUAGE=lang)
    root = parse(page.content)
    assert root.by_id("variant").text() == engine.variant_name(name, lang)
    rows = {tr.attrs["data-option"]: tr for tr in root.by_id("house-rules").find_all("tr") if "data-option" in tr.attrs}
    worded = {o.name: o for o in engine.option_words(name, lang)}
    assert list(worded) == [o.name for o in info.options]
    for option in info.options:
        said = worded[option.name]
        assert rows[option.name].find("th").text() == said.label  # may be the English word ("Points")
        assert rows[option.name].find("td", cls="doc").text() == said.help != option.help
        assert [c.value for c in said.kind.choices] == [c.value for c in option.kind.choices]
        assert all(c.label != e.label for c, e in zip(said.kind.choices, option.kind.choices))
    assert sum(o.label != worded[o.name].label for o in info.options) >= len(info.options) - 1
    tiki = {p.name: p for p in engine.preset_words(lang)}["tiki"]
    assert rows["preset"].find("td", cls="value").text().startswith(tiki.label)
    assert tiki.label != "TIKI edition" and "TIKI" in tiki.label


def test_option_values_are_told_in_words(client, public_club):
    record = _record(engine.game_info("nanking"), preset="abacus")
    record["options"].update(deal_method="western", hands=4)
    game = import_game(public_club, record)
    root = parse(client.get(reverse("replay:game-detail", args=[game.pk])).content)
    value = {
        tr.attrs["data-option"]: tr.find("td", cls="value").text()
        for tr in root.by_id("house-rules").find_all("tr")
        if "data-option" in tr.attrs
    }
    assert value["deal_method"].startswith("8 cards, then 6")  # with the badge "set for this game"
    assert value["pass_is_final"] == "yes" and value["bsw_grand_tichu_quirk"] == "no"
    assert value["hands"].startswith("4") and value["preset"].startswith("Abacus edition")


def _values(client, game, lang: str) -> dict[str, tuple[str, str]]:
    """The house rules' rows of a game's page in ``lang``: option -> (label, value)."""
    root = parse(client.get(reverse("replay:game-detail", args=[game.pk]), HTTP_ACCEPT_LANGUAGE=lang).content)
    return {
        tr.attrs["data-option"]: (tr.find("th").text(), tr.find("td", cls="value").text())
        for tr in root.by_id("house-rules").find_all("tr")
        if "data-option" in tr.attrs
    }


@pytest.mark.parametrize("lang", ["fr", "de", "uk"])
def test_option_values_are_told_in_the_readers_words(client, public_club, lang):
    """The game page's own words for a value (yes, no, none: the new-game form's) and the preset's
    row are in the reader's language, and a Tien Zi Que deck is counted with the language's plural
    (the page once said "Preset", "yes", "no", "—" and "54 cards" in every language)."""
    record = _record(engine.game_info("nanking"), preset="abacus")
    values = _values(client, import_game(public_club, record), lang)
    deck = _values(client, import_game(public_club, tzq_record()), lang)["deck"][1]
    with translation.override(lang):
        yes, no, none = (translation.pgettext("an option's value", w) for w in ("yes", "no", "none"))
        preset = translation.gettext("House rules preset")
        cards = translation.ngettext("%(count)s card", "%(count)s cards", 54) % {"count": 54}
    assert {yes, no, none, preset, cards}.isdisjoint({"yes", "no", "none", "House rules preset", "54 cards"})
    assert values["pass_is_final"][1] == yes and values["bsw_grand_tichu_quirk"][1] == no
    assert values["double_victory_points"][1] == none  # unset: the variant's own value
    assert values["preset"][0] == preset
    assert deck.startswith(cards)  # with the badge "set for this game"


@pytest.mark.parametrize(
    "count, said",
    [
        (1, "1 карта"),
        (21, "21 карта"),
        (2, "2 карти"),
        (54, "54 карти"),
        (5, "5 карт"),
        (11, "11 карт"),
        (12, "12 карт"),
        (100, "100 карт"),
    ],
)
def test_a_deck_is_counted_with_the_ukrainian_plural(count, said):
    """Ukrainian has three plural forms of whole numbers (карта, карти, карт): one sentence with
    a number in it would be wrong for most of them."""
    deck = next(o for o in engine.option_words("tien-zi-que", "uk") if o.name == "deck")
    with translation.override("uk"):
        assert _value_words(deck, ["C1b"] * count) == said


@pytest.mark.parametrize(
    "name, places",
    [
        ("nanking", ["South", "East", "North", "West"]),
        ("tientsin", ["South", "South-East", "North-East", "North", "North-West", "South-West"]),
        ("tien-zi-que", ["South", "North"]),
        ("threechu", ["1.", "2.", "3.", "4."]),  # the dummy sits opposite the dealer: no fixed places
    ],
)
def test_players_are_shown_by_their_place_at_the_table(client, public_club, name, places):
    info = engine.game_info(name)
    game = import_game(public_club, _record(info))
    root = parse(client.get(reverse("replay:game-detail", args=[game.pk])).content)
    rows = root.by_id("players").find_all("tr")
    shown = [
        (tr.find("td", cls="place").text(), tr.find("td", cls="name").text())
        for tr in rows
        if tr.find("td", cls="place")
    ]
    names = engine.seat_names(name, NAMES[: info.seat_counts[0]])
    assert shown == list(zip(places, names))
    replay = client.get(reverse("replay:game-replay", args=[game.pk])).content.decode()
    assert ", ".join(engine.seat_labels(name, names)) in replay
    if info.fixed_seating:
        assert f"{places[0]} — Anna" in replay


def test_clockwise_play_puts_the_next_player_on_the_left():
    assert engine.seat_labels("nanking", NAMES[:4], "clockwise") == [
        "South — Anna",
        "West — Ben",
        "North — Cleo",
        "East — Dan",
    ]


@pytest.mark.parametrize(
    "word, phrase",
    [
        ("8", "an 8"),
        ("Ace", "an Ace"),
        ("11", "an 11"),
        ("18", "an 18"),
        ("10", "a 10"),
        ("King", "a King"),
        ("180", "a 180"),
        ("80", "an 80"),
    ],
)
def test_the_article_goes_by_the_spoken_number(word, phrase):
    assert engine.with_article(word) == phrase


def test_a_wish_is_told_with_its_article():
    from replay import frames

    event = {"type": "play", "seat": 0, "cards": ["Mahjong"], "wish": "8"}
    assert frames.describe(event, {"trick": []}, ["Anna", "Ben", "Cleo", "Dan"]).endswith("and wishes for an 8")
    event["wish"] = "T"
    assert frames.describe(event, {"trick": []}, ["Anna", "Ben", "Cleo", "Dan"]).endswith("and wishes for a 10")


def test_the_replay_counts_events_in_words(client, bot_game):
    page = client.get(reverse("replay:game-replay", args=[bot_game.pk]) + "?at=52").content.decode()
    assert f'aria-valuetext="move 52 of {bot_game.seq:,}"' in page  # the panel's words are the script's alike
    assert "Position" not in page


@pytest.mark.parametrize(
    "lang, left", [("en", "the player on the dealer's left"), ("fr", "le joueur à gauche du donneur")]
)
@pytest.mark.parametrize("preset, rotation", [("rio", "previous"), ("abacus", "next")])
def test_a_threechu_games_page_says_who_deals_next_as_its_preset_does(
    client, public_club, lang, left, preset, rotation
):
    """001 (the Rio text), Threechu: "The shuffle (and partnership with the dummy) passes to the left
    after each hand": a `rio` game's page says the deal goes to the dealer's left; `abacus` keeps
    the next player in order of play ("tournant dans le sens du jeu")."""
    record = _record(engine.game_info("threechu"), preset=preset)
    label, value = _values(client, import_game(public_club, record), lang)["dealer_rotation"]
    assert (value == left) == (rotation == "previous"), (preset, value)
