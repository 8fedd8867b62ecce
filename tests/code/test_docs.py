"""The repository explains itself (STYLE.md habit 21): what the code cites is in the repository.

* Every rule id (``R6.5``, ``R2.4a``, the sections ``R8``, ``R10``) written in code, templates,
  tests, catalogs, the bench or the documents is defined in docs/RULES.md.
* Every repository path that a comment, a docstring, a template, a script or a document names
  (``games/ai/mcts/``, ``tests/ai/fake_gtp.py``, ``templates/games/play.html``) exists.
* A document named without its folder (``RULES.md``, ``RECORD.md``, ``STYLE.md``,
  ``ARCHITECTURE.md``) is the one in docs/, and it exists; a habit cited by number
  ("STYLE.md habit 7") is one of docs/STYLE.md's; nothing sends the reader to a folder outside
  the repository.
* A comment gives its reason in words, not the number of the issue that asked for it: the number
  belongs in the commit message, and a clone has no issue tracker.

Files are read as text (Python's comments and docstrings through ``tokenize`` and ``ast``): no
database, no Django, a second or two.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

# Where citations are looked for: the project's own folders and the files at its root.
TOP = (
    "games",
    "accounts",
    "api",
    "config",
    "templates",
    "static",
    "tests",
    "bench",
    "docs",
    "locale",
)
ROOT_FILES = ("README.md", "Makefile", "pyproject.toml", ".ci/run")
SUFFIXES = {".py", ".md", ".html", ".txt", ".js", ".css", ".po", ".toml"}
# Not the project's words: third-party files kept as they came (axe-core, htmx) and what the
# benchmarks write (ignored by git).
NOT_OURS = ("tests/e2e/vendor/", "bench/out/")

# A rule id: R, the section, optionally the rule and a letter (R2.4a). Possessive quantifiers:
# "R2.4ab" is no id at all rather than a shorter one ("R2"). ASCII neighbours only,
# so that an id next to Japanese text is still found, and SECP256R1 or ALL_R10 are not ids.
RULE_ID = re.compile(r"(?<![A-Za-z0-9_])R\d++(?:\.\d++[a-z]?+)?+(?![A-Za-z0-9_])")
# Where docs/RULES.md defines an id: a heading "## R8 End and scoring" or an item "- R8.1 ...".
RULE_DEFINED = re.compile(r"^(?:#{2,}[ \t]+|-[ \t]+)(R\d+(?:\.\d+[a-z]?)?)\b", re.MULTILINE)

# A repository path: a top-level folder, a slash, then path characters; placeholders (<code>,
# {a,b}) and globs (*) are taken in so that the whole token can be recognised as a pattern.
# Not after a word character, a dot, a slash or a dash: /work/..., https://.../games/..., a
# URL path (/games/new/) or a longer word are not repository paths.
PATH = re.compile(r"(?<![\w./~-])(?:" + "|".join(TOP) + r")/(?:[\w.*-]|/|<\w+>|\{[\w,]+\})*")
FILE_LIKE = re.compile(r"(?:/|\.[A-Za-z0-9]+)$")  # ends as a folder or with an extension
PATTERN = ("*", "<", "{")  # a glob or a placeholder: a shape of paths, not one path
# Django names templates from templates/: "games/play.html" is templates/games/play.html.
TEMPLATE_SUFFIXES = (".html", ".txt")

BARE_DOC = re.compile(r"(?<![\w./-])(RULES|RECORD|STYLE|ARCHITECTURE)\.md\b")
HABIT = re.compile(r"STYLE(?:\.md)?(?:'s)? habits? (\d+)(?:\s*[–-]\s*(\d+))?")
HABIT_DEFINED = re.compile(r"^(\d+)\. \*\*", re.MULTILINE)
# A folder beside the repository, which a clone does not have (written in two parts so that
# this line does not cite it).
OUTSIDE = re.compile(r"(?:\.\./|/work/)" + "shared")
# An issue cited by its number: the word issue (or Issues) and a number with or without its hash
# sign, or a hash sign and a number in brackets.
ISSUE = re.compile(r"\b[Ii]ssues? #?\d+|\(#\d+\)")


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def files() -> list[Path]:
    found = [ROOT / name for name in ROOT_FILES if (ROOT / name).is_file()]
    for top in TOP:
        for path in sorted((ROOT / top).rglob("*")):
            name = relative(path)
            if (
                path.is_file()
                and path.suffix in SUFFIXES
                and "__pycache__" not in path.parts
                and not name.endswith(".min.js")
                and not name.startswith(NOT_OURS)
            ):
                found.append(path)
    return found


def python_prose(text: str) -> list[tuple[int, str]]:
    """(line number, text) of every comment and every string statement (docstrings) of a
    Python source; its code and other strings are left out (URL routes, output files)."""
    out = []
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            out.append((token.start[0], token.string))
    lines = text.splitlines()
    for node in ast.walk(ast.parse(text)):
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            for number in range(node.lineno, node.end_lineno + 1):
                out.append((number, lines[number - 1]))
    return sorted(out)


def prose_problems(name: str, text: str, check) -> list[str]:
    """``check(name, lines)`` over the prose of a file. The whole text first: nearly every
    citation resolves, and only a Python file with a problem somewhere is parsed to see whether
    the problem is in its prose (the same answer as parsing every file, in a fraction of the
    time)."""
    problems = check(name, list(enumerate(text.splitlines(), start=1)))
    if problems and name.endswith(".py"):
        problems = check(name, python_prose(text))
    return problems


def defined_rules(rules_text: str) -> list[str]:
    return RULE_DEFINED.findall(rules_text)


def rule_problems(name: str, text: str, defined: set[str]) -> list[str]:
    """Every rule id of ``text`` (the whole file: refusals quote rules in code strings) that
    ``defined`` lacks."""
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        for match in RULE_ID.finditer(line):
            if match.group() not in defined:
                out.append(f"{name}:{number}: rule {match.group()} is not in docs/RULES.md")
    return out


def resolves(token: str) -> bool:
    target = ROOT / token
    if token.endswith("/"):
        return target.is_dir()
    if target.is_file():
        return True
    return token.endswith(TEMPLATE_SUFFIXES) and (ROOT / "templates" / token).is_file()


def path_problems(name: str, lines: list[tuple[int, str]]) -> list[str]:
    out = []
    for number, line in lines:
        for match in PATH.finditer(line):
            token = match.group().rstrip(".")
            if any(mark in token for mark in PATTERN) or not FILE_LIKE.search(token):
                continue
            if token.startswith(NOT_OURS) or resolves(token):
                continue
            out.append(f"{name}:{number}: {token} does not exist")
    return out


def bare_doc_problems(name: str, lines: list[tuple[int, str]], docs: Path = DOCS) -> list[str]:
    return [
        f"{name}:{number}: {match.group()} is read as docs/{match.group()}, which does not exist"
        for number, line in lines
        for match in BARE_DOC.finditer(line)
        if not (docs / match.group()).is_file()
    ]


def habit_problems(name: str, text: str, defined: set[int]) -> list[str]:
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        for match in HABIT.finditer(line):
            first = int(match.group(1))
            last = int(match.group(2) or first)
            missing = [n for n in range(first, last + 1) if n not in defined]
            if missing:
                out.append(f"{name}:{number}: docs/STYLE.md has no habit {missing[0]}")
    return out


def outside_problems(name: str, text: str) -> list[str]:
    return [
        f"{name}:{number}: cites a folder outside the repository ({match.group()})"
        for number, line in enumerate(text.splitlines(), start=1)
        for match in OUTSIDE.finditer(line)
    ]


def issue_problems(name: str, text: str) -> list[str]:
    """Every issue number of ``text`` (the whole file: a message or a test's name is read too)."""
    return [
        f"{name}:{number}: cites {match.group()!r}: say the reason in words"
        for number, line in enumerate(text.splitlines(), start=1)
        for match in ISSUE.finditer(line)
    ]


def journal(name: str) -> bool:
    """A results file of the bench: a dated record of measurements, each on the code of its day
    (an entry names its commit), so the paths it names are that day's. Its rule ids still count."""
    return name.startswith("bench/") and name.endswith("RESULTS.md")


@cache
def all_texts() -> list[tuple[str, str]]:
    return [(relative(p), p.read_text(encoding="utf-8")) for p in files()]


def report(problems: list[str]) -> str:
    return "\n" + "\n".join(problems)


# -- the checks ---------------------------------------------------------------------------------


def test_docs_hold_the_four_documents_and_their_index():
    for name in ("README.md", "RULES.md", "RECORD.md", "STYLE.md", "ARCHITECTURE.md"):
        assert (DOCS / name).is_file(), f"docs/{name} is missing"


def test_rules_define_each_id_once_sections_r1_to_r11_included():
    ids = defined_rules((DOCS / "RULES.md").read_text(encoding="utf-8"))
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    assert {f"R{n}" for n in range(1, 12)} <= set(ids)
    assert {"R2.4a", "R6.9", "R8.5", "R9.4", "R11.3"} <= set(ids)


def test_every_rule_id_cited_is_defined_in_docs_rules():
    defined = set(defined_rules((DOCS / "RULES.md").read_text(encoding="utf-8")))
    problems = [p for name, text in all_texts() for p in rule_problems(name, text, defined)]
    assert not problems, report(problems)


def test_every_repository_path_cited_exists():
    problems = [
        p
        for name, text in all_texts()
        if not name.endswith(".po") and not journal(name)  # catalogs: translators' location hints
        for p in prose_problems(name, text, path_problems)
    ]
    assert not problems, report(problems)


def test_a_document_named_alone_is_the_one_in_docs():
    problems = [
        p for name, text in all_texts() for p in prose_problems(name, text, bare_doc_problems)
    ]
    assert not problems, report(problems)


def test_every_style_habit_cited_exists():
    defined = {int(n) for n in HABIT_DEFINED.findall((DOCS / "STYLE.md").read_text("utf-8"))}
    assert defined == set(range(1, len(defined) + 1)), "habits are numbered 1, 2, 3 ..."
    problems = [p for name, text in all_texts() for p in habit_problems(name, text, defined)]
    assert not problems, report(problems)


def test_nothing_cites_a_folder_outside_the_repository():
    problems = [p for name, text in all_texts() for p in outside_problems(name, text)]
    assert not problems, report(problems)


def test_comments_give_reasons_not_issue_numbers():
    """The bench's dated journals, the catalogs (their words come from the templates) and docs/
    are not read."""
    problems = [
        problem
        for name, text in all_texts()
        if not (name.endswith(".po") or journal(name) or name.startswith("docs/"))
        for problem in issue_problems(name, text)
    ]
    assert not problems, report(problems)


def test_the_checks_can_fail(tmp_path):
    """Each check finds what it is for in a made-up file, and passes over what it must not take
    for a citation (kept here so that a looser or stricter pattern shows up at once)."""
    bogus_rule, japanese_rule = "R" + "12.9", "R" + "99"  # split: this file is scanned too
    source = "\n".join(
        [
            '"""Cites games/ai/' + 'nowhere.py, games/ai/mcts/ and bench/out/any.json."""',
            "# R4.3 and " + bogus_rule + "; docs/" + "NOWHERE.md; templates are games/play.html",
            "ROUTE = 'games/" + "no_such_route/'  # code, not prose: not a citation",
            "# patterns: locale/<code>/LC_MESSAGES/django.po, games/ai/mcts/{a,b}.py, bench/*.py",
            "# not ids: SECP256R1, ALL_R10, R2.4ab; an id by Japanese text: 手番" + japanese_rule,
        ]
    )
    defined = {"R4", "R4.3", "R6", "R6.5"}
    assert rule_problems("x.py", source, defined) == [
        f"x.py:2: rule {bogus_rule} is not in docs/RULES.md",
        f"x.py:5: rule {japanese_rule} is not in docs/RULES.md",
    ]
    assert prose_problems("x.py", source, path_problems) == [
        "x.py:1: games/ai/nowhere.py does not exist",
        "x.py:2: docs/NOWHERE.md does not exist",
    ]
    lines = [(1, "see RULES.md, docs/RULES.md, x/STYLE.md"), (2, "README.md, RECORD.md")]
    assert bare_doc_problems("x.md", lines, docs=tmp_path) == [
        "x.md:1: RULES.md is read as docs/RULES.md, which does not exist",
        "x.md:2: RECORD.md is read as docs/RECORD.md, which does not exist",
    ]
    (tmp_path / "RECORD.md").write_text("")
    assert len(bare_doc_problems("x.md", lines, docs=tmp_path)) == 1
    assert habit_problems("x.py", "# STYLE.md habits 4–" + "99", set(range(1, 24))) == [
        "x.py:1: docs/STYLE.md has no habit 24"
    ]
    assert outside_problems("x.md", "from ../" + "shared/RULES.md") != []
    assert journal("bench/AI_RESULTS.md") and not journal("bench/README.md")
    hash_, issue14 = "#", "Issue" + " 14"  # split: this file is scanned too
    cited = "\n".join(
        [
            f"# one query fewer (issue {hash_}25); {issue14}: a slow choice; ({hash_}27)",
            f"# not issues: {hash_}222, colour {hash_}fff, issue-free, tissue {hash_}3, issues",
        ]
    )
    assert issue_problems("x.py", cited) == [
        f"x.py:1: cites 'issue {hash_}25': say the reason in words",
        f"x.py:1: cites '{issue14}': say the reason in words",
        f"x.py:1: cites '({hash_}27)': say the reason in words",
    ]


def test_the_architecture_page_restates_the_import_graph_table():
    """docs/ARCHITECTURE.md's table of layers is the import-graph test's ``ALLOWED``, row for
    row: a new arrow in the code's table is a new word on the page, and the other way round."""
    # Read from the test's source: a test module imports no other (test_import_graph.py).
    source = (ROOT / "tests" / "code" / "test_import_graph.py").read_text(encoding="utf-8")
    node = next(
        n
        for n in ast.parse(source).body
        if isinstance(n, ast.Assign | ast.AnnAssign)
        and getattr(n.targets[0] if isinstance(n, ast.Assign) else n.target, "id", "") == "ALLOWED"
    )
    ALLOWED = ast.literal_eval(node.value)

    page = (DOCS / "ARCHITECTURE.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `(games\.\w+)` \| (.*?) \|$", page, re.M))
    written = {
        layer: {f"games.{name}" for name in re.findall(r"`(\w+(?:\.\w+)?)`", arrows)}
        - {"games.games.jobs"}
        for layer, arrows in rows.items()
    }
    for layer, arrows in rows.items():
        if "`games.jobs`" in arrows:  # "the package games.jobs itself"
            written[layer].add("games.jobs")
    # (the package's own __init__, which imports nothing, is not a layer of the page)
    assert written == {layer: set(a) for layer, a in ALLOWED.items() if layer != "games"}
