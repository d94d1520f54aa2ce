from tahqiq.cli import main

raise SystemExit(main())
