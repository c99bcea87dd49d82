from derivations.app.cli import main

raise SystemExit(main())
