"""``python -m compare`` starts the knightcert command line."""

from compare.cli import main

raise SystemExit(main())
