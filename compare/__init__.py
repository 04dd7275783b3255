"""The harness and the command-line interface: run methods, check answers, report gaps and timings."""
