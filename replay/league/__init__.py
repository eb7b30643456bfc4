"""The league and player pages (the website's): a club's league tables and settings, a player's
page, as HTML, JSON and CSV. The ratings themselves, and every query and chart these pages show,
are computed in games.ratings; nothing here rates or ranks."""
