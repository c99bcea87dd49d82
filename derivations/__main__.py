from derivations.app.watchdog import entry

raise SystemExit(entry())
