from derivations.cli import main

raise SystemExit(main())
