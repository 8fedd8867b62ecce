"""The import graph of the project's apps: no circle among the modules of ``games`` (an import
inside a function counts too: a circle held together by imports at call time is still a circle),
``accounts`` imports nothing from ``games``, and the layers of ``games`` import one another only
along the arrows of ``ALLOWED`` (STYLE.md habit 16; docs/ARCHITECTURE.md restates the table).

Every ``import`` statement of every module is read with ``ast`` (migrations and tests aside).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(app: str) -> dict[str, Path]:
    return {
        module_name(p): p
        for p in (ROOT / app).rglob("*.py")
        if "migrations" not in p.parts and "management" not in p.parts
    }


def imports(path: Path, known: set[str]) -> set[str]:
    """The project modules ``path`` imports (``from games import clock`` names games.clock)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name:
                out.add(name)
    return out


def graph(app: str) -> dict[str, set[str]]:
    mods = modules(app)
    known = set(mods)
    return {name: imports(path, known) - {name} for name, path in mods.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Each strongly connected component of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_games_has_no_import_circle():
    edges = graph("games")
    # A package imports its own modules to re-export them; that is not a circle of design.
    for name in edges:
        edges[name] = {t for t in edges[name] if not name.startswith(t + ".")}
    assert cycles(edges) == []


# The layers of ``games`` and what each may import (besides itself, Django, accounts and other
# libraries). engine <- ai <- jobs; models <- selectors <- views; presenters take plain data (no
# models, no selectors); services -> engine/models/selectors, queueing jobs by name (the package
# ``games.jobs`` only, never a task module) and nudging through live; live hangs off services.
# The notice registry (games.notices) reads models and selectors; the services that tell of
# an event, the jobs that send notices and the Notifications page read it.
ALLOWED: dict[str, set[str]] = {
    "games": set(),  # the package itself
    "games.engine": set(),
    "games.ai": {"games.engine"},
    "games.translations": {"games.engine"},
    "games.models": {"games.engine", "games.translations"},
    "games.selectors": {"games.engine", "games.models", "games.pairing", "games.translations"},
    "games.presenters": {"games.engine", "games.translations"},
    "games.live": {"games.models", "games.selectors", "games.translations", "games.metrics"},
    "games.notices": {"games.models", "games.selectors"},
    "games.services": {
        "games.engine",
        "games.models",
        "games.pairing",
        "games.selectors",
        "games.live",
        "games.jobs",  # exactly the package: games.jobs.queue(name, ...)
        "games.notices",
        "games.translations",
    },
    "games.jobs": {
        "games.engine",
        "games.ai",
        "games.models",
        "games.selectors",
        "games.services",
        "games.live",
        "games.health",
        "games.notices",
        "games.translations",
    },
    "games.health": set(),
    "games.pairing": set(),  # pure: tournament pairings and standings
    "games.metrics": {"games.models", "games.health"},
    "games.forms": {"games.engine", "games.models", "games.services", "games.translations"},
    "games.views": {
        "games.engine",
        "games.forms",
        "games.models",
        "games.notices",
        "games.presenters",
        "games.selectors",
        "games.services",
        "games.translations",
    },
    "games.admin": {"games.models", "games.services", "games.selectors"},
    "games.urls": {"games.views"},
    "games.templatetags": {"games.presenters", "games.translations"},
    "games.apps": {"games.jobs", "games.metrics"},
    # The bot bridge is a client of the API over HTTP: the pure engine and AI, nothing else.
    "games.bots": {"games.engine", "games.ai"},
}
# Arrows allowed only to one exact module of a layer (not to the rest of it).
EXACT = {("games.services", "games.jobs")}


def layer(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:2])


def wrong_arrows(edges: dict[str, set[str]]) -> list[str]:
    """Every import of ``edges`` that crosses layers against ``ALLOWED`` (and ``EXACT``)."""
    wrong = []
    for name, targets in sorted(edges.items()):
        source = layer(name)
        if source not in ALLOWED:
            wrong.append(f"{name}: a layer the table does not know")
            continue
        for target in sorted(targets):
            if target == "games" or layer(target) == source:
                continue
            allowed = layer(target) in ALLOWED[source]
            exact_only = {t for s, t in EXACT if s == source and layer(t) == layer(target)}
            if exact_only:
                allowed = target in exact_only
            if not allowed:
                wrong.append(f"{name} imports {target}")
    return wrong


def test_every_layer_imports_only_along_its_arrows():
    assert wrong_arrows(graph("games")) == []


def test_the_arrow_check_catches_wrong_arrows():
    """The check itself can fail: a presenter reading models, a service importing a task
    module instead of queueing by name, the engine importing Django's side of the app."""
    edges = {
        "games.presenters.game": {"games.models", "games.engine"},
        "games.services.actions": {"games.jobs.tasks", "games.jobs"},
        "games.engine.rules": {"games.models"},
        "games.gadgets": set(),
    }
    assert wrong_arrows(edges) == [
        "games.engine.rules imports games.models",
        "games.gadgets: a layer the table does not know",
        "games.presenters.game imports games.models",
        "games.services.actions imports games.jobs.tasks",
    ]


def test_accounts_imports_nothing_from_games():
    edges = graph("accounts")
    known = set(modules("games"))
    leaks = {
        name: sorted(imports(path, known))
        for name, path in modules("accounts").items()
        if imports(path, known)
    }
    assert edges and leaks == {}


def test_every_task_is_acknowledged_late_and_requeued_if_its_worker_dies():
    """Written once, in the settings (CELERY_TASK_ACKS_LATE, ..._REJECT_ON_WORKER_LOST): every
    task is idempotent and must come back if a worker dies mid-task."""
    from celery import current_app

    tasks = [t for name, t in current_app.tasks.items() if name.startswith("games.tasks.")]
    assert len(tasks) >= 6
    for task in tasks:
        assert task.acks_late and task.reject_on_worker_lost, task.name


def test_no_test_module_imports_another():
    """Shared helpers live in tests/support/ (and tests/engine/helpers.py), not in test modules."""
    offenders = []
    for path in (ROOT / "tests").rglob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                last = node.module.rpartition(".")[2]
                if node.module.startswith("tests.") and last.startswith("test_"):
                    offenders.append(f"{path.relative_to(ROOT)} imports {node.module}")
    assert offenders == []


# The API (api/): its endpoints and streams read through the selectors and write through the
# services, as games.views does; it never reaches the jobs, the AI, the views or the presenters
# (docs/ARCHITECTURE.md, "The API"). Nothing of games or accounts imports it.
API_ALLOWED = {
    "games",
    "games.forms",
    "games.live",
    "games.models",
    "games.selectors",
    "games.services",
    "games.translations",
}


def test_the_api_reaches_games_only_through_its_allowed_layers():
    known = set(modules("games"))
    wrong = {
        name: sorted(t for t in imports(path, known) if layer(t) not in API_ALLOWED)
        for name, path in modules("api").items()
    }
    assert modules("api") and {name: found for name, found in wrong.items() if found} == {}


def test_games_and_accounts_import_nothing_of_the_api():
    known = set(modules("api"))
    leaks = {
        name: sorted(imports(path, known))
        for app in ("games", "accounts")
        for name, path in modules(app).items()
        if imports(path, known)
    }
    assert leaks == {}


def test_the_bot_bridge_needs_no_django():
    """games.bots runs outside the site (a bot's own machine): it talks to the API over HTTP
    and imports neither Django nor a module that needs it."""
    offenders = []
    for name, path in modules("games").items():
        if not name.startswith("games.bots"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{name} imports {n}" for n in names if n.split(".")[0] == "django"]
    assert modules("games") and offenders == []
