"""The verdicts of two ``check --all --json`` outputs, compared: every derivation whose
verdict, or one of whose steps' (or conclusion's) verdict, changed.  Printed, never
asserted.  ``python3 bench/verdict_diff.py BEFORE.json AFTER.json``."""

from __future__ import annotations

import json
import sys
from typing import Any


def _verdicts(path: str) -> dict[str, dict[str, Any]]:
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    rows = data if isinstance(data, list) else data.get("derivations", data.get("reports", []))
    out: dict[str, dict[str, Any]] = {}
    for r in rows:
        steps = {f"step {s['index']}": (s["verdict"], s.get("evidence", "")) for s in r["steps"]}
        if r.get("conclusion"):
            steps["conclusion"] = (r["conclusion"]["verdict"], r["conclusion"].get("evidence", ""))
        out[r["id"]] = {"verdict": r["verdict"], "steps": steps}
    return out


def main(before: str, after: str) -> int:
    a, b = _verdicts(before), _verdicts(after)
    changes = 0
    for i in sorted(set(a) | set(b)):
        if i not in a or i not in b:
            print(f"{i}: only in {'after' if i in b else 'before'}")
            changes += 1
            continue
        if a[i]["verdict"] != b[i]["verdict"]:
            print(f"{i}: {a[i]['verdict']} -> {b[i]['verdict']}")
            changes += 1
        for s in sorted(set(a[i]["steps"]) | set(b[i]["steps"])):
            va, vb = a[i]["steps"].get(s, ("-", "")), b[i]["steps"].get(s, ("-", ""))
            if va[0] != vb[0]:
                print(f"  {i} {s}: {va[0]} -> {vb[0]}")
                print(f"    before: {va[1][:200]}\n    after:  {vb[1][:200]}")
                changes += 1
    print(f"{changes} change(s) among {len(set(a) | set(b))} derivations")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
