"""``--svg FILE`` and ``--png FILE``: a picture of the answer (:mod:`knightcert.problems.picture`)."""

from __future__ import annotations

import argparse
import importlib.util
from typing import Any

from knightcert.cli.options import output_file
from knightcert.problems.result import Result

__all__ = ["add_picture_arguments", "write_pictures"]


def png_file(text: str) -> str:
    """``--png``: a writable ``.png`` path, and cairosvg installed, checked before any work."""
    path = output_file((".png",), "--png")(text)
    if importlib.util.find_spec("cairosvg") is None:
        raise argparse.ArgumentTypeError("--png needs cairosvg: pip install 'knightcert[picture]'")
    return path


def add_picture_arguments(parser: argparse.ArgumentParser, certificate: bool = False) -> None:
    """``--svg FILE``, ``--png FILE`` (and ``--draw-certificate`` where an answer has one to draw)."""
    parser.add_argument(
        "--svg", type=output_file((".svg",), "--svg"), metavar="FILE", help="write a picture of the answer"
    )
    parser.add_argument(
        "--png", type=png_file, metavar="FILE", help="write it as PNG (needs cairosvg: knightcert[picture])"
    )
    if certificate:
        parser.add_argument(
            "--draw-certificate", action="store_true", help="draw the certificate (the matching's edges) too"
        )


def write_pictures(args: argparse.Namespace, problem: str, instance: Any, result: Result) -> None:
    """Write ``--svg`` and ``--png`` (nothing without them): the answer on ``instance``'s board, or
    the board alone when there is no answer."""
    if not (getattr(args, "svg", None) or getattr(args, "png", None)):
        return
    from knightcert.problems.output_file import atomic_output
    from knightcert.problems.picture import answer_svg

    certificate = result.certificate if getattr(args, "draw_certificate", False) else None
    svg = answer_svg(problem, result.solution, instance, certificate=certificate)
    outputs = [(args.svg, svg.encode())]
    if args.png:
        import cairosvg  # the picture extra: Cairo renders the same SVG

        outputs.append((args.png, bytes(cairosvg.svg2png(bytestring=svg.encode()) or b"")))
    for path, data in outputs:
        if path:
            with atomic_output(path, binary=True) as stream:
                stream.write(data)
