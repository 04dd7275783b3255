"""``python -m knightcert`` starts the command line."""

from knightcert.compare.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
