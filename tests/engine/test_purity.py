"""The engine is pure: no Django, no global random state, no I/O outside its command line."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"
COMMAND_LINE = {"cli.py", "__main__.py"}  # the only modules that read files or print


def modules():
    return sorted(ENGINE.glob("*.py"))


def imported_names(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module or "")
    return names


def test_no_engine_module_imports_django():
    for path in modules():
        assert not any(n.split(".")[0] == "django" for n in imported_names(path)), path.name


def test_importing_the_engine_loads_no_django():
    code = "import sys, games.engine; print(any(m.startswith('django') for m in sys.modules))"
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ENGINE.parents[1],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "False"


def test_no_global_random_state_and_no_io():
    for path in modules():
        names = imported_names(path)
        assert "random" not in names, f"{path.name} uses the random module"
        if path.name in COMMAND_LINE:
            continue
        tree = ast.parse(path.read_text())
        calls = {
            node.func.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        }
        assert not calls & {"open", "print", "input"}, path.name
        assert not names & {"os", "sys", "io", "pathlib", "socket"}, path.name


def test_a_new_game_seed_comes_from_secrets():
    from games.engine import new_game

    games = [new_game(mode="shuffle") for _ in range(5)]
    assert len({g.seed for g in games}) == 5
    assert all(len(g.seed) == 64 and len(g.salt) == 32 for g in games)  # 256 and 128 bits
    assert "secrets" in imported_names(ENGINE / "cards.py")
