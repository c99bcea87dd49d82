"""``dpderive audit`` and ``dpderive errata``: the seed texts' statements audited one by one,
and the errata among them (data in :mod:`derivations.audit`, printing in
:mod:`derivations.printing.audit`)."""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from derivations import audit
from derivations.app.exitcodes import EXIT_OK
from derivations.printing.audit import audit_json, audit_text, errata_json, errata_text
from symbolic.errors import DpderiveError

__all__ = [
    "AUDIT_HELP",
    "ERRATA_HELP",
    "audit_arguments",
    "errata_arguments",
    "run_audit",
    "run_errata",
]

AUDIT_HELP = "the seed texts' statements, audited one by one"
ERRATA_HELP = "the errata found in the seed texts"


def _write_json(data: object, out: TextIO) -> None:
    json.dump(data, out, indent=2, ensure_ascii=False)
    out.write("\n")


def audit_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("seed", nargs="?", help="a seed number (000..004) or file name; default all")
    p.add_argument("--json", action="store_true", help="print JSON: the seeds and their entries")


def errata_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("ids", nargs="*", metavar="ID", help="erratum ids (default: all)")
    p.add_argument("--json", action="store_true", help="print a JSON list, one object per erratum")


def run_audit(args: argparse.Namespace, out: TextIO) -> int:
    chosen = audit.entries(args.seed)
    names = audit.seed_names()
    seeds = {s: names[s] for s in names if any(e.seed == s for e in chosen)}
    if args.json:
        _write_json(audit_json(chosen, seeds), out)
    else:
        out.write(audit_text(chosen, seeds))
    return EXIT_OK


def run_errata(args: argparse.Namespace, out: TextIO) -> int:
    listed = audit.errata()
    if args.ids:
        # A merged duplicate's id still names its erratum (listed under the first id).
        names = {i: x.id for _, x in listed for i in (x.id, *x.aliases)}
        unknown = [i for i in args.ids if i not in names]
        if unknown:
            known = ", ".join(sorted({x.id for _, x in listed}))
            raise DpderiveError(f"unknown erratum id(s) {unknown}; known ids: {known}")
        wanted = {names[i] for i in args.ids}
        listed = tuple((e, x) for e, x in listed if x.id in wanted)
    if args.json:
        _write_json(errata_json(listed), out)
    else:
        out.write(errata_text(listed))
    return EXIT_OK
