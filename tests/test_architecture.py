"""The shape of the code: imports run one way, no import circle, public APIs say what they
export, modules stay small.  ``shared/DESIGN.md``: symbolic imports no other package of
ours; numeric_checks may import symbolic; derivations imports both."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("symbolic", "numeric_checks", "derivations")
LAYER = {"symbolic": 0, "numeric_checks": 1, "derivations": 2}
MAX_LINES = 650
"""A generous ceiling, not a target (issue 42): a module holds one concept, and is split by
concept, never to get under a line count (twelve splits for size alone had fragmented
modules); past this a module has surely grown a second concept."""


def _modules() -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


MODULES = _modules()


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(path: Path, module: str) -> set[str]:
    """Every module of ours that ``path`` imports, at any depth (function-local imports
    count), except under ``if TYPE_CHECKING:``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    is_package = path.name == "__init__.py"

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking_only(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")
                anchor = anchor if is_package else anchor[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for a in node.names:
                sub = f"{base}.{a.name}"
                found.add(sub if sub in MODULES else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return {m for m in found if m.split(".")[0] in PACKAGES and m != module}


GRAPH = {m: _imports(p, m) for m, p in MODULES.items()}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_run_one_way(module: str) -> None:
    mine = LAYER[module.split(".")[0]]
    upward = sorted(m for m in GRAPH[module] if LAYER[m.split(".")[0]] > mine)
    assert not upward, f"{module} imports a higher layer: {upward}"


def test_the_dp_library_does_not_import_the_checking_engine() -> None:
    allowed = ("numeric_checks.dp", "numeric_checks.mp", "numeric_checks.validate", "symbolic")
    for module, targets in GRAPH.items():
        if module.startswith("numeric_checks.dp"):
            bad = sorted(t for t in targets if not t.startswith(allowed))
            assert not bad, f"{module} imports engine modules {bad}"


def test_the_verdict_vocabulary_and_errors_import_nothing_of_ours() -> None:
    assert GRAPH["symbolic.verdicts"] == set()
    assert GRAPH["symbolic.errors"] == set()


def test_no_import_circle() -> None:
    state: dict[str, int] = {}  # 1 on the stack, 2 done
    stack: list[str] = []

    def walk(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for n in sorted(GRAPH.get(m, ())):
            if n not in GRAPH:
                continue
            if state.get(n) == 1:
                cycle = [*stack[stack.index(n) :], n]
                raise AssertionError("import circle: " + " -> ".join(cycle))
            if n not in state:
                walk(n)
        stack.pop()
        state[m] = 2

    for m in sorted(GRAPH):
        if m not in state:
            walk(m)


def test_the_graph_is_not_vacuous() -> None:
    # The walker must see real edges, or the two tests above would pass on nothing.
    assert "symbolic.derivation" in GRAPH["numeric_checks.pipeline"]
    assert "numeric_checks" in GRAPH["derivations.app.cli"] or any(
        t.startswith("numeric_checks") for t in GRAPH["derivations.app.cli"]
    )


@pytest.mark.parametrize("module", sorted(MODULES))
def test_modules_stay_small(module: str) -> None:
    lines = MODULES[module].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{module} has {lines} lines: it holds more than one concept"


def _packages() -> list[str]:
    out = []
    for pkg in PACKAGES:
        out.append(pkg)
        mod = importlib.import_module(pkg)
        out += [
            info.name
            for info in pkgutil.walk_packages(mod.__path__, prefix=f"{pkg}.")
            if info.ispkg
        ]
    return out


@pytest.mark.parametrize("name", _packages())
def test_each_package_declares_its_public_api(name: str) -> None:
    """As Hypothesis checks its exports: ``__all__`` lists exactly the public names the
    package itself defines or re-exports (submodules aside), and each resolves."""
    pkg = importlib.import_module(name)
    exported = getattr(pkg, "__all__", None)
    assert exported is not None, f"{name} has no __all__"
    assert len(set(exported)) == len(exported), f"{name}.__all__ repeats a name"
    for n in exported:
        assert hasattr(pkg, n), f"{name}.__all__ names {n!r}, which is not defined"
    public = {
        n
        for n, v in vars(pkg).items()
        if not n.startswith("_") and type(v).__name__ != "module" and n not in {"annotations", "os"}
    }
    assert public <= set(exported), f"{name} defines public names not in __all__: " + str(
        sorted(public - set(exported))
    )


# -- the layers of issue 42: engine < readers < catalog < printing < app --------------------

ENGINE = ("symbolic", "numeric_checks")
READERS = "symbolic.readers"
PRINTING = "derivations.printing"
APP = ("derivations.app", "derivations.__main__")
NOT_CATALOG = (PRINTING, *APP, "derivations.audit")
"""What of ``derivations`` is not the catalog (its theorems, ``catalog``, ``lemma_verdicts``
and the helpers they share); the audit reads the catalog and writes its documents."""


def _importers(prefixes: tuple[str, ...], exclude: tuple[str, ...] = ()) -> list[str]:
    return [
        m
        for m in sorted(GRAPH)
        if m.startswith(prefixes) and not m.startswith(exclude) and m not in exclude
    ]


def _offending(importers: list[str], forbidden: tuple[str, ...]) -> dict[str, list[str]]:
    return {
        m: sorted(t for t in GRAPH[m] if t.startswith(forbidden))
        for m in importers
        if any(t.startswith(forbidden) for t in GRAPH[m])
    }


def test_the_engine_never_imports_the_printers() -> None:
    """The engine (symbolic's core and numeric_checks) hands records up; the words are the
    printing layer's (the display registry loads it by name, see symbolic.notebook)."""
    assert _offending(_importers(ENGINE), (PRINTING, "derivations")) == {}


def test_the_readers_import_the_engine_only() -> None:
    """What users type is read into the engine's objects without the catalog, the
    printers or the app (a proof's ``lemma:`` ids are given by the app)."""
    readers = _importers((READERS,))
    assert readers, "the readers package is empty"
    assert _offending(readers, ("derivations", "numeric_checks")) == {}


def test_the_printers_never_import_the_app() -> None:
    assert _offending(_importers((PRINTING,)), APP) == {}


def test_the_catalog_imports_neither_the_printers_nor_the_app() -> None:
    catalog = _importers(("derivations",), NOT_CATALOG)
    assert "derivations.laplace_ratio" in catalog and "derivations.lemma_verdicts" in catalog
    assert _offending(catalog, (PRINTING, *APP)) == {}


_READ_BACK = re.compile(
    r"\.(evidence|detail|method|basis|symbolic|nearest|worst_margin)\s*"
    r"\.\s*(split|rsplit|partition|startswith|endswith|find|index|count)\s*\("
    r"|\bin\s+[\w.]*\.(evidence|detail|method)\b"
)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_reads_the_evidence_words_back(module: str) -> None:
    """Records carry what stages and printers need (issue 42): no module splits, matches or
    searches a record's words (evidence, a referee's method or detail, a basis) to recover a
    number, a kind or a part."""
    text = MODULES[module].read_text(encoding="utf-8")
    found = [m.group(0) for m in _READ_BACK.finditer(text)]
    assert not found, f"{module} reads words back: {found}"


# -- words at the edge (issue 42): the engine records, the printing layer words ------------

ENGINE = ("symbolic", "numeric_checks")
WORDING = [ROOT / "derivations" / "printing" / f"{m}.py" for m in ("evidence", "records")]
RECORDS = ("symbolic.report", "symbolic.evidence")
"""The modules of the records a step's verdict rests on."""
_WORDING_METHODS = {"describe", "head", "how", "confirmation", "evidence", "text"}


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of ``tree`` (a docstring says what code does, in
    words; it is not a sentence the code writes)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        # a docstring, or an attribute's: a string standing alone as a statement
        body = getattr(node, "body", None)
        for child in body if isinstance(body, list) else []:
            if isinstance(child, ast.Expr) and isinstance(child.value, ast.Constant):
                found.add(id(child.value))
    return found


def _fragments(source: str) -> list[str]:
    """The literal text of ``source``'s strings, docstrings aside: each plain string, and
    each literal part of an f-string (between its placeholders)."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
    ]


def _phrases(source: str) -> set[str]:
    """The phrases of the evidence sentences ``source`` writes: each literal part of at
    least three words, trimmed of the punctuation that joins it to a placeholder."""
    out = set()
    for fragment in _fragments(source):
        phrase = fragment.strip(" ;:,.()[]\n")
        if len(re.findall(r"[A-Za-z'-]+", phrase)) >= 3:
            out.add(phrase)
    return out


PHRASES = set().union(*(_phrases(p.read_text(encoding="utf-8")) for p in WORDING))


ELSEWHERE = {
    ("numeric_checks.pipeline", "on its own"): "the conclusion's justification, not evidence",
    ("numeric_checks.general.mode", "on its own"): "the conclusion's justification, not evidence",
    ("numeric_checks.general.mode", "numeric checks at"): "a report's note on general mode",
    ("numeric_checks.stages", "every step is proved"): "a report's note on an induction",
    ("numeric_checks.conclusion", "on its own"): "an engine inconsistency's message",
    ("symbolic.scope", "certified by Arb"): "a report's scope note",
}
"""Phrases of the evidence that other texts of the engine share: a step's justification
and a report's notes, which are not a step's evidence (issue 42 left them strings)."""


def _worded_in(source: str, module: str = "") -> list[str]:
    """The evidence phrases that the strings of ``source`` spell out."""
    fragments = _fragments(source)
    found = {p for p in PHRASES for f in fragments if p in f}
    return sorted(p for p in found if (module, p) not in ELSEWHERE)


def test_the_evidence_phrases_are_found() -> None:
    """The guard below is not vacuous: it knows the printing layer's sentences, and it
    finds them in the code that wrote them before issue 42 (decide's words, kept here)."""
    assert len(PHRASES) >= 40, sorted(PHRASES)
    old_decide = (
        'evidence = f"no symbolic proof; numeric: {numeric}"\n'
        'evidence = f"a violation was seen and not confirmed: {note}; numeric: {numeric}"\n'
        'head = f"numeric only, no counterexample: {spot.evidence.head()}"\n'
    )
    assert len(_worded_in(old_decide)) >= 3, _worded_in(old_decide)


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.split(".")[0] in ENGINE))
def test_the_engine_writes_no_evidence_sentence(module: str) -> None:
    """No module of the engine spells a phrase of the evidence sentences (issue 42): the
    engine returns records (:mod:`symbolic.evidence`), and ``derivations.printing.evidence``
    words them."""
    found = _worded_in(MODULES[module].read_text(encoding="utf-8"), module)
    assert not found, f"{module} writes evidence words: {found}"


def _renders(f: ast.FunctionDef) -> bool:
    """``f`` asks the printing layer for its words (``render(...)``)."""
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "render"
        for n in ast.walk(f)
    )


@pytest.mark.parametrize("module", RECORDS)
def test_the_records_have_no_words(module: str) -> None:
    """The records of a verdict word nothing themselves: no ``describe``/``head``/``how``/
    ``confirmation`` method but one that asks the notebook hook (``render``), which the
    printing layer answers; no f-string."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    methods = [
        f"{c.name}.{f.name}"
        for c in ast.walk(tree)
        if isinstance(c, ast.ClassDef)
        for f in c.body
        if isinstance(f, ast.FunctionDef) and f.name in _WORDING_METHODS and not _renders(f)
    ]
    fstrings = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.JoinedStr)]
    assert not methods, f"{module} words its records: {methods}"
    assert not fstrings, f"{module} formats text at lines {fstrings}"
