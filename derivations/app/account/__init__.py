"""``dpderive account FILE.toml``: the verb (:mod:`.command`), its TOML files
(:mod:`.files`) and its plot (:mod:`.plot`)."""

from derivations.app.account.command import HELP, add_arguments, run

__all__ = ["HELP", "add_arguments", "run"]
