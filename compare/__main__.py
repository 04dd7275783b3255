"""``python -m compare`` starts the knightcert command line."""

from compare.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
