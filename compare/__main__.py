"""``python -m knightcert.compare`` starts the command line (same as ``python -m knightcert``)."""

from knightcert.compare.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
