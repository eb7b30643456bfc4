"""English dates as the site wrote them before it spoke other languages: ISO days in tables, the
month's short name in sentences. The other languages take Django's formats of their locale."""

DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y H:i"
SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
