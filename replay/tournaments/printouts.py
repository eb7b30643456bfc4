"""The tournament director's paper as PDF (ReportLab; QR codes from segno drawn as vector squares):
table cards with each table's code, pairings by table and by name, blank score sheets with the
100-point check column and the round's hands numbered, standings and crosstable.

Each function takes plain data (what the pages show) and returns the PDF's bytes; the views in
`table_cards.py` gather the data."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any, Iterable
from xml.sax.saxutils import escape

import segno
from django.utils.translation import get_language, gettext_lazy, ngettext, pgettext, pgettext_lazy
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import (
    Flowable,
    KeepTogether,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from games import engine
from games import tournament as core


def _fonts() -> tuple[str, str]:
    """ReportLab's built-in Helvetica has no Cyrillic (a Ukrainian sheet came out as black boxes):
    DejaVu Sans where the system has it (Debian's fonts-dejavu-core), else Helvetica."""
    for folder in ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu", "/usr/share/fonts/TTF"):
        regular, bold = Path(folder) / "DejaVuSans.ttf", Path(folder) / "DejaVuSans-Bold.ttf"
        if regular.exists() and bold.exists():
            pdfmetrics.registerFont(TTFont("DejaVuSans", str(regular)))
            pdfmetrics.registerFont(TTFont("DejaVuSans-Bold", str(bold)))
            return "DejaVuSans", "DejaVuSans-Bold"
    return "Helvetica", "Helvetica-Bold"


FONT, BOLD = _fonts()
STYLES = getSampleStyleSheet()
for _style in STYLES.byName.values():
    if getattr(_style, "fontName", "").startswith("Helvetica"):
        _style.fontName = BOLD if "Bold" in _style.fontName else FONT
HEADING = ParagraphStyle("sheet-heading", parent=STYLES["Normal"], fontName=BOLD, fontSize=8, leading=9.5)
GRID = TableStyle(
    [
        ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8e8")),
        ("FONTNAME", (0, 0), (-1, -1), FONT),
        ("FONTNAME", (0, 0), (-1, 0), BOLD),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
    ]
)


def _pdf(flowables: list, *, title: str, pagesize=A4) -> bytes:
    out = io.BytesIO()
    doc = SimpleDocTemplate(
        out,
        pagesize=pagesize,
        title=title,
        leftMargin=15 * mm,
        rightMargin=15 * mm,
        topMargin=15 * mm,
        bottomMargin=15 * mm,
    )
    doc.build(flowables)
    return out.getvalue()


def _p(text: str, style: str = "Normal") -> Paragraph:
    return Paragraph(escape(str(text)), STYLES[style])


def draw_qr(canvas, url: str, x: float, y: float, size: float) -> None:
    """The QR code of `url` drawn on `canvas` at (x, y) as one filled path (a rectangle per run of
    dark modules in a row: a few hundred, where a square per module was ten times slower)."""
    matrix = [list(row) for row in segno.make(url, error="m").matrix]
    border = 2
    cell = size / (len(matrix) + 2 * border)
    path = canvas.beginPath()
    for row_index, row in enumerate(matrix):
        top = y + size - (row_index + border + 1) * cell
        start = None
        for col, dark in enumerate(row + [0]):
            if dark and start is None:
                start = col
            elif not dark and start is not None:
                path.rect(x + (start + border) * cell, top, (col - start) * cell, cell)
                start = None
    canvas.saveState()
    canvas.setFillColor(colors.black)
    canvas.drawPath(path, fill=1, stroke=0)
    canvas.restoreState()


class _Card(Flowable):
    """One table card: a framed block with the table, who sits where, the code and its QR code."""

    def __init__(self, card: dict[str, Any], round_number: int, title: str) -> None:
        super().__init__()
        self.card, self.round, self.title = card, round_number, title
        self.width, self.height = 85 * mm, 62 * mm

    def wrap(self, *_args):
        return self.width, self.height

    def draw(self) -> None:
        c, card = self.canv, self.card
        c.rect(0, 0, self.width, self.height)
        c.setFont(BOLD, 16)
        c.drawString(4 * mm, self.height - 9 * mm, _("Table %(table)s") % {"table": card["table"]})
        c.setFont(FONT, 8)
        c.drawString(
            4 * mm, self.height - 14 * mm, _("%(title)s - round %(round)s") % {"title": self.title, "round": self.round}
        )
        c.setFont(FONT, 9)
        c.drawString(4 * mm, self.height - 20 * mm, (_("N/S: %(names)s") % {"names": card["ns"]})[:48])
        c.drawString(4 * mm, self.height - 25 * mm, (_("E/W: %(names)s") % {"names": card["ew"]})[:48])
        if card.get("code"):
            c.setFont(FONT, 8)
            c.drawString(4 * mm, 20 * mm, _("Table code"))
            c.setFont("Courier-Bold", 16)
            c.drawString(4 * mm, 13 * mm, card["code"])
            c.setFont(FONT, 6)
            c.drawString(4 * mm, 4 * mm, card["url"][:60])
            draw_qr(c, card["url"], self.width - 35 * mm, 4 * mm, 32 * mm)


def table_cards_pdf(
    title: str, round_number: int, cards: list[dict[str, Any]], entry_slips: list[dict[str, Any]] | None = None
) -> bytes:
    """Two cards a row, as many rows as fit an A4 page."""
    rows = [[_Card(card, round_number, title) for card in cards[i : i + 2]] for i in range(0, len(cards), 2)]
    if rows and len(rows[-1]) == 1:
        rows[-1].append("")
    flow: list = [_p(_("%(title)s: table cards, round %(round)s") % {"title": title, "round": round_number}, "Title")]
    if rows:
        flow.append(Table(rows, colWidths=[90 * mm, 90 * mm], rowHeights=[66 * mm] * len(rows)))
    slips = [
        [_pin_slip(card, round_number, "ns"), _pin_slip(card, round_number, "ew")]
        for card in cards
        if card.get("ns_pin")
    ]
    if slips:  # on a page of their own: each side gets its slip, apart from the table card
        flow += [
            PageBreak(),
            _p(_("Side PINs: cut and hand each side its slip"), "Title"),
            Table(slips, colWidths=[90 * mm, 90 * mm], style=GRID),
        ]
    if entry_slips:  # each entry's PIN for the evening (issue 33), on a page of their own
        cells = [_entry_slip(slip) for slip in entry_slips]
        if len(cells) % 2:
            cells.append("")
        flow += [
            PageBreak(),
            _p(_("PINs for the evening: cut and hand each entry its slip"), "Title"),
            Table([cells[i : i + 2] for i in range(0, len(cells), 2)], colWidths=[90 * mm, 90 * mm], style=GRID),
        ]
    return _pdf(flow, title=f"{title} table cards round {round_number}")


def _entry_slip(slip: dict[str, Any]) -> Paragraph:
    head = _("%(name)s: your PIN for the evening") % {"name": slip["name"]}
    return Paragraph(f"{escape(head)}<br/><b>{escape(slip['pin'])}</b>", STYLES["Normal"])


def _pin_slip(card: dict[str, Any], round_number: int, side: str) -> Paragraph:
    who = (_("N/S: %(names)s") if side == "ns" else _("E/W: %(names)s")) % {"names": card[side]}
    head = _("Table %(table)s, round %(round)s") % {"table": card["table"], "round": round_number}
    label = _("Your side's PIN")
    return Paragraph(
        f"{escape(head)}<br/>{escape(who)}<br/>{escape(label)} <b>{escape(card[side + '_pin'])}</b>", STYLES["Normal"]
    )


def pairings_pdf(
    title: str, round_number: int, tables: list[dict[str, Any]], byes: Iterable[str], seats: list[dict[str, Any]]
) -> bytes:
    """By table (table, N/S, E/W), then by player's name (table and seat: replay.tournaments.seat_list)."""
    byes = list(byes)
    ns, ew = _("North/South"), _("East/West")
    by_table = [[_("Table"), ns, ew]] + [[t["table"], t["ns"], t["ew"]] for t in tables]
    by_name = [[_("Name"), _("Table"), _("Seat")]] + [[r["name"], r["table"], r["sits"]] for r in seats]
    at = {"title": title, "round": round_number}
    flow = [
        _p(_("%(title)s: round %(round)s pairings by table") % at, "Title"),
        Table(by_table, colWidths=[20 * mm, 75 * mm, 75 * mm], style=GRID, repeatRows=1),
    ]
    if byes:
        flow += [Spacer(1, 4 * mm), _p(_("Bye: %(names)s") % {"names": ", ".join(byes)})]
    flow += [
        PageBreak(),
        _p(_("%(title)s: round %(round)s seats by name") % at, "Title"),
        Table(by_name, colWidths=[90 * mm, 25 * mm, 40 * mm], style=GRID, repeatRows=1),
    ]
    return _pdf(flow, title=f"{title} pairings round {round_number}")


SHEET_COLUMNS = [
    "Hand",
    "Calls N/S",
    "Calls E/W",
    "Card pts N/S",
    "Card pts E/W",
    "Check = 100",
    "Bonus N/S",
    "Bonus E/W",
    "Hand N/S",
    "Hand E/W",
    "Total N/S",
    "Total E/W",
]
#: the columns a sheet adds where VP are counted hand by hand (DTM)
VP_COLUMNS = ["VP N/S", "VP E/W"]


def sheet_columns(header: dict[str, Any]) -> list[str]:
    """The score sheet's columns (English, translated where drawn): a VP column per side when the
    preset counts VP per hand."""
    return SHEET_COLUMNS + (VP_COLUMNS if core.PRESETS[header["scoring"]].unit == "hand" else [])


def sheet_rules(header: dict[str, Any]) -> list[str]:
    """The rules a sheet prints above its grid, in the active language, from the tournament's game
    options (the engine's hand_line_rules): what a double victory scores, whether Grand Tichu is
    called, and how VP are counted per hand under DTM."""
    rules = engine.hand_line_rules(core.engine_options(header))
    said = {"double": rules["double_victory_points"], "tichu": rules["tichu"], "grand": rules["grand_tichu_points"]}
    if rules["grand_tichu"]:
        lines = [
            _(
                "Card points of the two sides add up to 100 (the Check column); a double victory scores "
                "%(double)s and no card points. Tichu ±%(tichu)s, Grand Tichu ±%(grand)s."
            )
            % said
        ]
    else:
        lines = [
            _(
                "Card points of the two sides add up to 100 (the Check column); a double victory scores "
                "%(double)s and no card points. Tichu ±%(tichu)s; no Grand Tichu."
            )
            % said
        ]
    if core.PRESETS[header["scoring"]].unit == "hand":
        win, draw, double = core.hand_vp(1, 0, None)[0], core.hand_vp(0, 0, None)[0], core.hand_vp(0, 0, 0)[0]
        lines.append(
            _(
                "VP per hand: %(win)s to the side with more points, %(draw)s each on a draw, %(double)s for "
                "a double victory (its opponents 0)."
            )
            % {"win": win, "draw": draw, "double": double}
        )
    return lines


def score_sheets_pdf(title: str, round_number: int, tables: list[dict[str, Any]], header: dict[str, Any]) -> bytes:
    """One blank sheet per table: the round's hands numbered 1..hands, card points of both sides,
    the check column and, under DTM, the VP of each hand; the rules of the tournament's game above."""
    hands = header["hands_per_round"] or 0
    columns = sheet_columns(header)
    width = (252 * mm - 16 * mm) / (len(columns) - 1)
    flow: list = []
    for i, table in enumerate(tables):
        # the headings wrap in their cells: "Оголошення Пн/Пд" is twice "Calls N/S"
        rows = [[Paragraph(escape(_(c)), HEADING) for c in columns]] + [
            [n] + [""] * (len(columns) - 1) for n in range(1, hands + 1)
        ]
        rows.append([_("Sum")] + [""] * (len(columns) - 1))
        grid = Table(
            rows,
            colWidths=[16 * mm] + [width] * (len(columns) - 1),
            rowHeights=[12 * mm] + [9 * mm] * (len(rows) - 1),
            style=GRID,
            repeatRows=1,
        )
        flow += [
            KeepTogether(
                [
                    _p(
                        _("%(title)s: score sheet, round %(round)s, table %(table)s")
                        % {"title": title, "round": round_number, "table": table["table"]},
                        "Heading2",
                    ),
                    _p(_("North/South: %(ns)s    East/West: %(ew)s") % {"ns": table["ns"], "ew": table["ew"]}),
                    *[_p(line) for line in sheet_rules(header)],
                    Spacer(1, 3 * mm),
                    grid,
                    Spacer(1, 6 * mm),
                    _p(_("Signed N/S: ____________________    Signed E/W: ____________________")),
                ]
            )
        ]
        if i < len(tables) - 1:
            flow.append(PageBreak())
    return _pdf(flow, title=f"{title} score sheets round {round_number}", pagesize=landscape(A4))


def standings_pdf(
    title: str, unit: str, standings: list[dict[str, Any]], crosstable: list[dict[str, Any]], rounds: list[int]
) -> bytes:
    """Standings (rank, entry, VP or points, points, difference) then the crosstable (per round:
    table, opponents, score and VP of each entry)."""
    head = ["#", _("Entry"), unit, _("Points"), pgettext("point difference", "Diff."), _("Played")]
    vp = unit == _("VP")  # the unit comes translated (replay/tournaments/views.py)
    rows = [head] + [
        [
            r["rank"] if r["rank"] is not None else "–",
            r["name"],  # no rank before the first result
            r["vp"] if vp else r["points"],
            r["points"],
            r["difference"],
            r.get("played", ""),
        ]
        for r in standings
    ]
    cross = [[_("Entry")] + [_("R%(round)s") % {"round": n} for n in rounds]]
    for line in crosstable:
        cells = []
        for cell in line["cells"]:
            if cell.get("kind") == "table" and cell.get("points") is not None:
                cells.append(
                    _p(
                        _("T%(table)s v %(opponents)s: %(points)s:%(against)s, %(vp)s VP")
                        % {
                            "table": cell["table"],
                            "opponents": cell.get("opponent_names", ""),
                            "points": cell["points"],
                            "against": cell["against"],
                            "vp": cell["vp"],
                        },
                        "BodyText",
                    )
                )
            elif cell.get("kind") == "table":
                cells.append(
                    _p(
                        _("T%(table)s v %(opponents)s: playing")
                        % {"table": cell["table"], "opponents": cell.get("opponent_names", "")},
                        "BodyText",
                    )
                )
            else:
                kind = cell.get("kind", "")
                cells.append(
                    _("bye")
                    if kind == "bye"
                    else _("late entry")
                    if kind == "late"
                    else "–"
                    if kind == "absent"
                    else kind
                )
        cross.append([line["name"]] + cells)
    width = (250 * mm) / max(1, len(rounds))
    flow = [
        _p(_("%(title)s: standings") % {"title": title}, "Title"),
        Table(rows, colWidths=[12 * mm, 80 * mm, 20 * mm, 20 * mm, 20 * mm, 20 * mm], style=GRID, repeatRows=1),
        PageBreak(),
        _p(_("%(title)s: crosstable") % {"title": title}, "Title"),
        Table(cross, colWidths=[45 * mm] + [min(width, 50 * mm)] * len(rounds), style=GRID, repeatRows=1),
    ]
    return _pdf(flow, title=f"{title} standings", pagesize=landscape(A4))


#: The suits' names (docs/glossary.md), translated when a sheet is drawn.
SUIT_NAMES = (
    ("j", pgettext_lazy("suit", "Jade")),
    ("s", pgettext_lazy("suit", "Swords")),
    ("p", pgettext_lazy("suit", "Pagodas")),
    ("r", pgettext_lazy("suit", "Stars")),
)
#: The seats as duplicate.SEATS names them, in the pages' words for a place at the table.
SEAT_NAMES = {
    "North": pgettext_lazy("place at the table", "North"),
    "East": pgettext_lazy("place at the table", "East"),
    "South": pgettext_lazy("place at the table", "South"),
    "West": pgettext_lazy("place at the table", "West"),
}
RANK_ORDER = "AKQJT98765432"
SPECIALS = ("Dragon", "Phoenix", "Mahjong", "Dog")


def hand_lines(cards: list[str]) -> list[str]:
    """A board's hand for a sheet: one line per suit (highest first), then the special cards."""
    lines = []
    said = engine.words(get_language())
    for letter, name in SUIT_NAMES:
        ranks = sorted((c[:-1] for c in cards if c not in SPECIALS and c[-1] == letter), key=RANK_ORDER.index)
        lines.append(
            _("%(suit)s: %(cards)s") % {"suit": name, "cards": " ".join("10" if r == "T" else r for r in ranks) or "-"}
        )
    specials = [c for c in SPECIALS if c in cards]
    lines.append(_("Special: %(cards)s") % {"cards": " ".join(said.card_name(c) for c in specials) or "-"})
    return lines


TRAVELLER_COLUMNS = [
    gettext_lazy("Table"),
    gettext_lazy("North/South"),
    gettext_lazy("East/West"),
    gettext_lazy("Pts N/S"),
    gettext_lazy("Pts E/W"),
    gettext_lazy("N/S - E/W"),
    gettext_lazy("MP N/S"),
    gettext_lazy("MP E/W"),
]


def board_sheets_pdf(title: str, boards: list[dict[str, Any]]) -> bytes:
    """A sheet per board, for the TD who deals real cards and keeps the travellers: the board's
    number, round and dealer, the four hands (North at the top, as at the table), and its
    traveller: a line per table of the round (filled in with points and matchpoints where a
    result is in)."""
    flow: list = []
    for i, board in enumerate(boards):
        hands = {
            seat: "<br/>".join(escape(line) for line in hand_lines(cards)) for seat, cards in board["hands"].items()
        }
        if board.get("packets"):  # Grand Tichu allowed: the first eight cards, then the last six
            first_words, then_words = escape(_("First eight:")), escape(_("Then six:"))
            hands = {
                seat: "<br/>".join(
                    [f"<i>{first_words}</i>", *map(escape, hand_lines(first))]
                    + [f"<i>{then_words}</i>", *map(escape, hand_lines(last))]
                )
                for seat, (first, last) in board["packets"].items()
            }

        def cell(seat: str, hands: dict[str, str] = hands) -> Paragraph:  # this board's hands, bound now
            return Paragraph(f"<b>{escape(str(SEAT_NAMES[seat]))}</b><br/>{hands[seat]}", STYLES["BodyText"])

        compass = Table(
            [["", cell("North"), ""], [cell("West"), "", cell("East")], ["", cell("South"), ""]],
            colWidths=[60 * mm] * 3,
            style=TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP")]),
        )
        rows = [[str(c) for c in TRAVELLER_COLUMNS]] + [
            [r["table"], r["ns"], r["ew"], *r.get("cells", [""] * 5)] for r in board["traveller"]
        ]
        traveller = Table(
            rows,
            colWidths=[14 * mm, 45 * mm, 45 * mm, 16 * mm, 16 * mm, 20 * mm, 16 * mm, 16 * mm],
            style=GRID,
            repeatRows=1,
        )
        flow += [
            KeepTogether(
                [
                    _p(
                        _("%(title)s: board %(board)s (round %(round)s), dealer %(dealer)s")
                        % {
                            "title": title,
                            "board": board["board"],
                            "round": board["round"],
                            "dealer": SEAT_NAMES.get(board["dealer"], board["dealer"]),
                        },
                        "Heading2",
                    ),
                    compass,
                    Spacer(1, 4 * mm),
                    _p(
                        _("Traveller of board %(board)s: matchpoints on N/S - E/W, top %(top)s")
                        % {"board": board["board"], "top": board["top"]}
                    ),
                    Spacer(1, 2 * mm),
                    traveller,
                ]
            )
        ]
        if i < len(boards) - 1:
            flow.append(PageBreak())
    if not flow:
        flow = [_p(_("%(title)s: no boards yet (pair round 1 first)") % {"title": title}, "Title")]
    return _pdf(flow, title=f"{title} board sheets")


def results_pdf(summary: dict[str, Any]) -> bytes:
    """The results to post (replay/tournaments/results_post.py) on A4: the standings, then each
    entry's rounds (table, partners, opponents, score, VP) with a link to each table's replay."""
    tournament, unit = summary["tournament"], summary["unit"]
    title = _("%(name)s: results") % {"name": tournament.name}
    played = summary["rounds_played"]
    state = (
        _("final results")
        if summary["finished"]
        else ngettext("after %(rounds)s round", "after %(rounds)s rounds", played) % {"rounds": played}
    )
    meta = " · ".join([summary["club"].name, str(summary["system_label"]), str(summary["scoring_label"]), state])
    rows = [["#", _("Entry"), unit, _("Points"), pgettext("point difference", "Diff.")]] + [
        ["–" if r["unranked"] else r["rank"], _p(r["name"], "BodyText"), r["vp"], r["points"], r["difference"]]
        for r in summary["standings"]
    ]
    flow: list = [
        _p(title, "Title"),
        _p(meta),
        Spacer(1, 4 * mm),
        _p(_("Standings"), "Heading2"),
        Table(rows, colWidths=[12 * mm, 100 * mm, 22 * mm, 22 * mm, 22 * mm], style=GRID, repeatRows=1),
        PageBreak(),
    ]
    individuals = summary["individuals"]
    head = [_("Round"), _("Table")] + ([_("Partner")] if individuals else []) + [_("Opponents"), _("Score"), unit, ""]
    widths = ([14 * mm, 14 * mm, 38 * mm, 60 * mm] if individuals else [14 * mm, 14 * mm, 98 * mm]) + [
        22 * mm,
        14 * mm,
        18 * mm,
    ]
    word = pgettext("link to a game's replay", "replay")
    for entry in summary["entries"]:
        name = f"{entry['rank']}. {entry['name']}" if entry["rank"] else entry["name"]
        if not individuals:
            name += f" ({entry['players']})"
        lines = [head]
        for c in entry["rounds"]:
            link = (
                Paragraph(f'<a href="{escape(c["replay"])}" color="blue">{escape(word)}</a>', STYLES["BodyText"])
                if c["replay"]
                else ""
            )
            if c["kind"] in ("table", "pending"):
                cells = (
                    [c["round"], c["table"]]
                    + ([_p(c["partners"], "BodyText")] if individuals else [])
                    + [_p(c["opponents"], "BodyText"), c["score"] or c["what"], c["vp"] if c["score"] else "", link]
                )
            else:
                cells = [c["round"], c["what"]] + ([""] if individuals else []) + ["", "", c["vp"], ""]
            lines.append(cells)
        flow += [
            KeepTogether([_p(name, "Heading3"), Table(lines, colWidths=widths, style=GRID, repeatRows=1)]),
            Spacer(1, 3 * mm),
        ]
    return _pdf(flow, title=title)


#: evenings per table of a season's PDF (a landscape A4 holds this many columns, an evening's
#: name wrapping between its words)
SEASON_EVENINGS_PER_TABLE = 8


def season_pdf(club: str, view: dict[str, Any], rows: list[dict[str, Any]], rules: str) -> bytes:
    """A season's table on landscape A4 (replay/tournaments/seasons.py): the table (rank, player,
    score, evenings played, won, best place), then each evening's place and points per player,
    eight evenings a table, the evenings that count in bold."""
    title = _("%(name)s: season table") % {"name": view["name"]}
    head = ["#", _("Player"), _("Score"), _("Evenings"), _("Won"), _("Best place")]
    table = [head] + [
        [
            r["rank"] if r["rank"] is not None else "–",
            _p(r["name"], "BodyText"),
            r["score"],
            r["evenings_played"],
            r["evenings_won"],
            r["best_place"] if r["best_place"] is not None else "",
        ]
        for r in rows
    ]
    flow: list = [
        _p(title, "Title"),
        _p(f"{club} · {rules}"),
        Spacer(1, 4 * mm),
        Table(table, colWidths=[12 * mm, 90 * mm, 22 * mm, 22 * mm, 22 * mm, 24 * mm], style=GRID, repeatRows=1),
    ]
    evenings = view["evenings"]
    for first in range(0, len(evenings), SEASON_EVENINGS_PER_TABLE):
        part = evenings[first : first + SEASON_EVENINGS_PER_TABLE]
        lines = [[_("Player")] + [_p(e["name"], "BodyText") for e in part]]
        for r in rows:
            cells: list[Any] = [_p(r["name"], "BodyText")]
            for cell in r["cells"][first : first + SEASON_EVENINGS_PER_TABLE]:
                if cell is None:
                    cells.append("–")
                    continue
                said = escape(f"{cell['rank']}. · {cell['score']:g}")
                cells.append(Paragraph(f"<b>{said}</b>" if cell["counts"] else said, STYLES["BodyText"]))
            lines.append(cells)
        flow += [
            PageBreak(),
            _p(_("%(name)s: evenings") % {"name": view["name"]}, "Heading2"),
            _p(_("Per evening: place · points; the evenings that count are in bold.")),
            Spacer(1, 2 * mm),
            Table(lines, colWidths=[55 * mm] + [25 * mm] * len(part), style=GRID, repeatRows=1),
        ]
    if not rows:
        flow.append(_p(_("No evening with results yet.")))
    return _pdf(flow, title=title, pagesize=landscape(A4))


def bracket_pdf(club: str, name: str, rules: str, sections: list[dict[str, Any]], winners: list[str]) -> bytes:
    """A knockout bracket on A4 (replay/tournaments/brackets.py): each bracket (the main one, the
    consolation), round by round, a line per match: its id, both sides with their seeds and the
    games won, the winner in bold; a bye says so. The page's sections, drawn for paper."""
    flow: list = [_p(name, "Title"), _p(f"{club} · {rules}")]
    flow += [_p(w, "Heading3") for w in winners]
    for section in sections:
        flow.append(_p(section["title"], "Heading2"))
        for rnd in section["rounds"]:
            lines = [[_p(rnd["title"], "Heading4"), "", "", ""]]
            for m in rnd["matches"]:
                cells = []
                for side in m["side_list"]:
                    if side["entry"] is None:
                        said = escape(_("bye") if m.get("bye") else "…")
                    else:
                        seed = f"({side['seed']}) " if side["seed"] is not None else ""
                        said = escape(f"{seed}{side['name']}")
                        if side["players"]:
                            said += f"<br/><font size=8>{escape(side['players'])}</font>"
                    cells.append(Paragraph(f"<b>{said}</b>" if side["won"] else said, STYLES["BodyText"]))
                wins = " : ".join(str(s["wins"]) for s in m["side_list"]) if m["games_text"] else ""
                lines.append([m["match"], cells[0], cells[1], wins])
            flow.append(KeepTogether([Table(lines, colWidths=[16 * mm, 72 * mm, 72 * mm, 20 * mm], style=GRID)]))
            flow.append(Spacer(1, 3 * mm))
    return _pdf(flow, title=name)
