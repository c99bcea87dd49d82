"""Store every user-visible output of the command line in a folder, to compare a refactor's
outputs with the code before it (issue 42's safety net).

    python bench/snapshot.py OUT_DIR            # write the outputs
    python bench/snapshot.py --diff OLD NEW     # list the files that differ
    python bench/snapshot.py --diff OLD NEW --drop proof_tree   # JSON without a new field

The outputs: ``check --all`` (text and ``--json --seed 0``), ``audit --json``, ``errata``,
``verify`` (text and ``--json``) of every proof file under ``docs/examples/`` and ``tests/``,
``claim --json`` of every claim file there, and ``explain``/``latex`` of every derivation.
Commands run one at a time (the machine has two cores); each file records the exit code on
its first line.  Elapsed times in the outputs are masked before comparing, since they differ
from run to run.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMES = re.compile(r"\d+(\.\d+)? ?(s|ms|seconds)\b")
RESUME = False
"""Keep the outputs a folder already holds (a snapshot stopped half-way)."""


def _proof_files() -> tuple[list[Path], list[Path]]:
    """Proof files (checked by ``verify``) and claim files (checked by ``claim``)."""
    proofs, claims = [], []
    for folder in (ROOT / "docs" / "examples", ROOT / "tests"):
        for path in sorted(folder.rglob("*")):
            if path.suffix not in {".toml", ".tex"} or "__pycache__" in path.parts:
                continue
            text = path.read_text(errors="replace")
            if path.suffix == ".toml" and re.search(r"^\[claim\]", text, re.M):
                claims.append(path)
            elif path.suffix == ".toml" or "golden" not in path.parts:
                proofs.append(path)
    return proofs, claims


def _name(path: Path, out: Path, kind: str) -> Path:
    return out / kind / (str(path.relative_to(ROOT)).replace("/", "__") + ".json")


def _ids() -> list[str]:
    out = subprocess.run(
        [sys.executable, "-m", "derivations", "list", "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return [entry["id"] for entry in json.loads(out.stdout)]


def _run(args: list[str], target: Path) -> None:
    if RESUME and target.exists():
        return
    done = subprocess.run(
        [sys.executable, "-m", "derivations", *args], capture_output=True, text=True, cwd=ROOT
    )
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(f"exit {done.returncode}\n{done.stdout}\n--- stderr\n{done.stderr}")


def snapshot(out: Path, claims_from: Path | None = None) -> None:
    """Every output into ``out``; of the claim files only those ``claims_from`` holds, when
    given (a sample: the 400 claim files take an hour on two loaded cores)."""
    proofs, claims = _proof_files()
    if claims_from is not None:
        claims = [c for c in claims if _name(c, claims_from, "claim").exists()]
    _run(["check", "--all", "--json", "--seed", "0"], out / "check_all.json")
    _run(["check", "--all", "--seed", "0"], out / "check_all.txt")
    _run(["audit", "--json"], out / "audit.json")
    _run(["errata"], out / "errata.txt")
    for path in proofs:
        name = str(path.relative_to(ROOT)).replace("/", "__")
        _run(["verify", str(path), "--json"], out / "verify" / f"{name}.json")
        _run(["verify", str(path)], out / "verify" / f"{name}.txt")
    for path in claims:
        _run(["claim", str(path), "--json"], _name(path, out, "claim"))
    for ident in _ids():
        _run(["explain", ident], out / "explain" / f"{ident}.txt")
        _run(["latex", ident], out / "latex" / f"{ident}.tex")


def _without(value: object, drop: frozenset[str]) -> object:
    """``value`` (JSON data) without the keys ``drop`` and with its ``seconds`` masked."""
    if isinstance(value, dict):
        return {
            k: "<t>" if k == "seconds" else _without(v, drop)
            for k, v in value.items()
            if k not in drop
        }
    if isinstance(value, list):
        return [_without(v, drop) for v in value]
    return value


def _lines(text: str, drop: frozenset[str]) -> list[str]:
    """A stored output's lines, times masked; with ``drop``, a JSON output is read and
    written again without those keys (fields a change adds on purpose)."""
    if drop:
        head, _, rest = text.partition("\n")
        body, sep, tail = rest.rpartition("\n--- stderr\n")
        try:
            data = json.loads(body if sep else rest)
        except ValueError:
            pass
        else:
            shown = json.dumps(_without(data, drop), indent=2, ensure_ascii=False)
            text = f"{head}\n{shown}\n--- stderr\n{tail if sep else ''}"
    return TIMES.sub("<t>", text).splitlines()


def diff(old: Path, new: Path, drop: frozenset[str] = frozenset()) -> int:
    changed = 0
    for path in sorted(old.rglob("*")):
        if path.is_dir():
            continue
        other = new / path.relative_to(old)
        before = _lines(path.read_text(), drop)
        after = _lines(other.read_text(), drop) if other.exists() else []
        if before != after:
            changed += 1
            print(f"== {path.relative_to(old)}")
            for line in list(difflib.unified_diff(before, after, lineterm="", n=1))[2:40]:
                print(line)
    print(f"{changed} file(s) differ")
    return 1 if changed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--diff", action="store_true", help="compare two snapshot folders")
    parser.add_argument("--resume", action="store_true", help="keep the outputs already there")
    parser.add_argument(
        "--drop",
        action="append",
        default=[],
        metavar="KEY",
        help="with --diff: compare JSON outputs without this key (a field added on purpose; "
        "repeatable); their 'seconds' are masked too",
    )
    parser.add_argument(
        "--claims-from",
        type=Path,
        help="check only the claim files whose outputs this other snapshot holds",
    )
    args = parser.parse_args()
    if args.diff:
        return diff(*args.folders, drop=frozenset(args.drop))
    global RESUME
    RESUME = args.resume
    snapshot(args.folders[0], args.claims_from)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
