"""The ``knightcert`` command line: one module per command, the dispatcher and shared helpers.

- :mod:`knightcert.cli.main` parses the command line and runs the chosen command
  (:mod:`knightcert.cli.commands` lists them; only the chosen one is imported);
- one module per command: ``path``, ``jump``, ``knights``, ``tour``, ``compare``,
  ``report``, ``check``, ``instance``, ``demo``;
- :mod:`knightcert.cli.session` holds the running command's clock and stopping signal;
- :mod:`knightcert.cli.options` the option types and shared options,
  :mod:`knightcert.cli.output` the printed answers, :mod:`knightcert.cli.render`
  and :mod:`knightcert.cli.tour_output` the board pictures.

The command line is the top layer: nothing else in the package imports it.
"""
