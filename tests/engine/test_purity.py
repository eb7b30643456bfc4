"""The engine and the tournament core are pure: importing them in a fresh interpreter loads no
Django, DRF or Celery."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_engine_and_tournament_core_import_nothing_from_django():
    code = (
        "import sys, games.engine, games.engine.cli, games.engine.bot, games.engine.legal, games.engine.bsw\n"
        "import games.tournament, games.tournament.cli, games.tournament.pairing.swiss\n"
        "import games.tournament.pairing.round_robin, games.tournament.pairing.individual\n"
        "import games.tournament.pairing.evaluate\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'django', 'rest_framework', 'celery'})\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                            env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)})
    assert result.stdout.strip() == ""


def test_engine_keeps_no_module_level_mutable_state_between_games():
    from games.engine import fold, random_game, state_json

    a = random_game(11)
    b = random_game(12)
    first = state_json(fold(a))
    fold(b)
    assert state_json(fold(a)) == first
