"""Exit codes of ``dpderive`` (a public interface; never renumber them).

>>> from collections.abc import Sequence

from symbolic.report import DerivationReport
from symbolic.verdicts import Verdict
>>> [for_verdict(v) for v in (Verdict.PROVED, Verdict.REFUTED, Verdict.UNDECIDED)]
[0, 1, 3]
"""

from __future__ import annotations

from collections.abc import Sequence

from symbolic.report import DerivationReport
from symbolic.verdicts import Verdict

EXIT_OK = 0
"""Proved, certified or checked (and every erratum refuted as expected)."""
EXIT_REFUTED = 1
"""A counterexample (or an erratum that was not refuted)."""
EXIT_BAD_INPUT = 2
"""Bad arguments or input files; the message says what is wrong."""
EXIT_UNDECIDED = 3
"""Nothing refuted, but something could not be decided."""
EXIT_INTERNAL = 4
"""A bug of dpderive (reported without a traceback)."""
EXIT_INTERRUPTED = 130
"""Interrupted from the keyboard (the shell's convention, 128 + SIGINT); SIGTERM and SIGHUP
end the command with 143 and 129 the same way (128 + the signal)."""


def for_verdict(verdict: Verdict) -> int:
    """The exit code of a single verdict: refuted 1, undecided 3, anything else 0."""
    if verdict is Verdict.REFUTED:
        return EXIT_REFUTED
    if verdict is Verdict.UNDECIDED:
        return EXIT_UNDECIDED
    return EXIT_OK


def for_reports(reports: Sequence[DerivationReport]) -> int:
    """The exit code of several checked derivations, as ``check`` ends: 1 when one is not
    as expected (refuted, or an erratum not refuted), else 3 when one is undecided, else 0.
    ``latex`` and ``html`` end with it too, so that a written document of a refuted proof
    is no success to a script (issue 43)."""
    if any(not r.as_expected for r in reports):
        return EXIT_REFUTED
    if any(r.verdict is Verdict.UNDECIDED for r in reports):
        return EXIT_UNDECIDED
    return EXIT_OK


MEANINGS: dict[int, str] = {
    EXIT_OK: "ok: proved, certified or checked (and every erratum refuted as expected)",
    EXIT_REFUTED: "refuted: a counterexample (or an erratum that was not refuted)",
    EXIT_BAD_INPUT: "bad input: arguments or files; the message says what is wrong",
    EXIT_UNDECIDED: "undecided: nothing refuted, something not decided (or the budget spent)",
    EXIT_INTERNAL: "internal error: a bug of dpderive (or a crash), reported without a traceback",
}
"""One line per exit code, for each verb's ``--help``."""
