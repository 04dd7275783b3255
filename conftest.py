"""Keep pytest's doctest collection away from the CLI entry module."""

collect_ignore = ["compare/__main__.py"]
