"""Keep pytest's doctest collection away from the CLI entry module."""

collect_ignore = ["knightcert/__main__.py", "knightcert/cli/__main__.py"]
