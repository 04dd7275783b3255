"""``python -m knightcert.cli`` runs the command line (the same as ``python -m knightcert``)."""

from knightcert.cli.main import main

if __name__ == "__main__":
    raise SystemExit(main())
