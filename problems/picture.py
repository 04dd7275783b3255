"""A picture of any answer as one self-contained SVG (no dependency past numpy).

Boards up to ``VECTOR_SIDE`` squares a side are drawn square by square (``class="sq"``, a
removed one also ``hole``) with the moves as one ``<path class="moves">`` (a move across a
torus edge leaves the board and re-enters it), tour move numbers, the first and last squares
marked, knights (``class="kn"``) with the squares they attack shaded and the matching
certificate's edges (``class="cert"``). Larger boards are one embedded PNG, a square per pixel
(a tour's squares coloured by move order, from blue to red), averaged down to at most
``MAX_PIXELS`` a side when a square would be smaller than a pixel, so that 1000 x 1000 stays a
few hundred KB.
"""

from __future__ import annotations

import base64
import html
import itertools
import re
import struct
import zlib
from typing import Any

import numpy as np

__all__ = ["MAX_PIXELS", "VECTOR_SIDE", "answer_svg", "png_bytes"]

#: Largest side (in squares) drawn square by square, with move numbers on tours.
VECTOR_SIDE = 32
#: Largest side (in pixels) of the picture of a larger board.
MAX_PIXELS = 480
#: Largest number of moves drawn as lines over a larger board (a lost knight's path, a jump path).
MAX_LINES = 5000
_KNIGHT = np.array([(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)])
_COLOURS = {"light": (244, 241, 234), "dark": (222, 214, 198), "hole": (80, 80, 80)}
_COLOURS |= {"attacked": (240, 190, 180), "knight": (30, 30, 30), "visited": (90, 140, 200)}


def answer_svg(
    problem: str, solution: Any, instance: Any = None, *, certificate: Any = None, size: int = 640
) -> str:
    """The SVG picture of ``solution`` (lists or an ``(n, 2)`` array of ``[row, col]``, or a jump
    game's dict), on ``instance``'s board when given, else on the board named in ``instance``
    (``"8x8"``) or the smallest one holding the squares; ``""`` when there is nothing to draw.

    Examples
    --------
    >>> svg = answer_svg("tour", [[0, 0], [1, 2], [2, 0]], "3x3")
    >>> svg.count('class="sq') , svg.count(" L")
    (9, 2)
    >>> answer_svg("tour", "not squares")
    ''
    """
    board = _board(problem, solution, instance)
    if board is None:
        return ""
    rows, cols, blocked, torus, array = board
    big = max(rows, cols) > VECTOR_SIDE
    few = not big or len(array) <= MAX_LINES  # else only the first and last squares are marked
    squares = [(r, c) for r, c in (array if few else array[[0, -1]]).tolist()]
    cell = max(1.0, min(40.0, size / max(rows, cols))) if not big else min(size, MAX_PIXELS) / max(rows, cols)
    width, height = cols * cell, rows * cell
    body = [
        _raster(problem, rows, cols, blocked, array, torus) if big else _squares(rows, cols, blocked, cell)
    ]
    if problem == "knights":
        body += _knights(rows, cols, blocked, squares, torus, cell, big, certificate)
    elif problem == "tour" and not big and squares:
        body += _tour(squares, instance, rows, cols, cell, torus)
    elif problem in ("path", "jump") and few:
        body.append(_moves(squares, rows, cols, cell, torus and problem == "path"))
    body += [_ring(kind, r, c, cell, big) for kind, (r, c) in _marks(problem, instance, squares)]
    edge = ' stroke-dasharray="6 4"' if torus else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.1f} {height:.1f}"><title>{html.escape(problem)} {rows}x{cols}'
        f'{" torus" if torus else ""}</title><defs><clipPath id="board"><rect width="{width:.1f}" '
        f'height="{height:.1f}"/></clipPath></defs><g clip-path="url(#board)">{"".join(body)}</g>'
        f'<rect class="edge" width="{width:.1f}" height="{height:.1f}" fill="none" stroke="#333"{edge}/>'
        "</svg>"
    )


def _tour(squares: list, instance: Any, rows: int, cols: int, cell: float, torus: bool) -> list[str]:
    """A tour's moves (back to the first square when it is closed) and its move numbers."""
    closed = getattr(instance, "closed", isinstance(instance, str) and "closed" in instance)
    font = cell * (0.38 if len(squares) < 100 else 0.3)
    return [
        _moves(squares + squares[:1] if closed and len(squares) > 2 else squares, rows, cols, cell, torus),
        f'<g font-size="{font:.1f}" text-anchor="middle" dominant-baseline="central">'
        + "".join(f"<text {_at(r, c, cell, 'x', 'y')}>{i + 1}</text>" for i, (r, c) in enumerate(squares))
        + "</g>",
    ]


def _ring(kind: str, r: int, c: int, cell: float, big: bool) -> str:
    """The ring around a first (``start``, green) or last (``end``, red) square."""
    colour = "#2a2" if kind == "start" else "#d22"
    radius, stroke = max(6.0 if big else 1.5, cell * 0.42), max(2.5 if big else 1.0, cell / 10)
    return (
        f'<circle class="{kind}" {_at(r, c, cell)} r="{radius:.1f}" '
        f'fill="{"#fff" if big else "none"}" stroke="{colour}" stroke-width="{stroke:.1f}"/>'
    )


def _board(problem: str, solution: Any, instance: Any) -> tuple[int, int, Any, bool, np.ndarray] | None:
    """Rows, columns, removed squares (a boolean array or None), torus, and the squares drawn."""
    if solution is None and (instance is None or isinstance(instance, str)):
        return None
    points = solution.get("path") if problem == "jump" and isinstance(solution, dict) else solution
    points = np.zeros((0, 2), int) if points is None else points
    try:
        array = np.zeros((0, 2), int) if len(points) == 0 else np.asarray(points)
    except (TypeError, ValueError):
        return None
    if array.dtype.kind not in "iu" or array.shape[1:] != (2,) or (array.size and array.min() < 0):
        return None
    board = getattr(instance, "board", None)
    if board is not None:
        rows, cols, blocked, torus = board.rows, board.cols, board.blocked, board.torus
    elif hasattr(instance, "values"):  # the jump game
        rows, cols, blocked, torus = instance.rows, instance.cols, None, False
    else:
        named = re.search(r"(\d+)x(\d+)", instance) if isinstance(instance, str) else None
        low = array.max(axis=0) + 1 if array.size else (1, 1)
        rows, cols = (int(named[1]), int(named[2])) if named else (int(low[0]), int(low[1]))
        blocked, torus = None, isinstance(instance, str) and "torus" in instance
    if array.size and (array[:, 0].max() >= rows or array[:, 1].max() >= cols):
        return None
    return rows, cols, blocked, torus, array


def _marks(problem: str, instance: Any, squares: list) -> list[tuple[str, Any]]:
    """The squares to ring: the first (green) and last (red) of a tour or path, a jump game's starts
    and goal."""
    if problem == "jump":
        starts = list(getattr(instance, "starts", ()))
        goal = getattr(instance, "goal", squares[-1] if squares else None)
        return [("start", s) for s in starts] + ([("end", goal)] if goal is not None else [])
    if problem == "path" and instance is not None and hasattr(instance, "start"):
        return [("start", instance.start), ("end", instance.exit)]
    return [("start", squares[0]), ("end", squares[-1])] if problem in ("tour", "path") and squares else []


def _at(r: float, c: float, cell: float, x: str = "cx", y: str = "cy") -> str:
    """The attributes placing a point at the centre of square ``(r, c)``."""
    return f'{x}="{(c + 0.5) * cell:.1f}" {y}="{(r + 0.5) * cell:.1f}"'


def _square(r: int, c: int, cell: float) -> str:
    return f'x="{c * cell:.1f}" y="{r * cell:.1f}" width="{cell:.1f}" height="{cell:.1f}"'


def _squares(rows: int, cols: int, blocked: Any, cell: float) -> str:
    def fill(r: int, c: int) -> str:
        if blocked is not None and blocked[r, c]:
            return 'class="sq hole" fill="rgb{}"'.format(_COLOURS["hole"])
        return 'class="sq" fill="rgb{}"'.format(_COLOURS["dark" if (r + c) % 2 else "light"])

    return (
        '<g stroke="#bbb" stroke-width="0.5">'
        + "".join(f"<rect {fill(r, c)} {_square(r, c, cell)}/>" for r in range(rows) for c in range(cols))
        + "</g>"
    )


def _moves(squares: list, rows: int, cols: int, cell: float, torus: bool) -> str:
    """One path through the squares' centres; a move across a torus edge is drawn leaving the board
    and re-entering it (the clip path cuts the parts outside)."""

    def at(r: float, c: float) -> str:
        return f"{(c + 0.5) * cell:.1f} {(r + 0.5) * cell:.1f}"

    parts = [f"M{at(*squares[0])}"] if squares else []
    for (r0, c0), (r1, c1) in itertools.pairwise(squares):
        dr, dc = r1 - r0, c1 - c0
        if torus and sorted((abs(dr), abs(dc))) != [1, 2]:
            dr = dr - rows if dr > rows // 2 else dr + rows if dr < -(rows // 2) else dr
            dc = dc - cols if dc > cols // 2 else dc + cols if dc < -(cols // 2) else dc
            parts.append(f" L{at(r0 + dr, c0 + dc)} M{at(r1 - dr, c1 - dc)}")
        parts.append(f" L{at(r1, c1)}")
    width = max(0.6 if cell >= 8 else 2.0, min(3.0, cell / 8))
    return (
        f'<path class="moves" d="{"".join(parts)}" fill="none" stroke="#c33" stroke-width="{width:.1f}" '
        'stroke-linejoin="round" stroke-opacity="0.85"/>'
    )


def _attacked(rows: int, cols: int, knights: np.ndarray, torus: bool) -> np.ndarray:
    attacked = np.zeros((rows, cols), bool)
    for dr, dc in _KNIGHT:
        r, c = knights[:, 0] + dr, knights[:, 1] + dc
        if torus:
            attacked[r % rows, c % cols] = True
        else:
            inside = (r >= 0) & (r < rows) & (c >= 0) & (c < cols)
            attacked[r[inside], c[inside]] = True
    return attacked


def _knights(
    rows: int, cols: int, blocked: Any, squares: list, torus: bool, cell: float, big: bool, certificate: Any
) -> list[str]:
    """Shaded attacked squares, the knights, and the matching's edges (vector boards only)."""
    if big or not squares:
        return []
    attacked = _attacked(rows, cols, np.array(squares), torus)
    if blocked is not None:
        attacked &= ~blocked
    shade = "".join(f"<rect {_square(r, c, cell)}/>" for r, c in zip(*np.nonzero(attacked), strict=True))
    out = [f'<g class="attacked" fill="rgb{_COLOURS["attacked"]}" fill-opacity="0.7">{shade}</g>']
    edges = certificate.get("matching") if isinstance(certificate, dict) else None
    if edges is not None and np.ndim(edges) == 3:
        out.append(
            f'<g stroke="#36c" stroke-width="{max(0.6, cell / 12):.1f}">'
            + "".join(
                f'<line class="cert" {_at(r0, c0, cell, "x1", "y1")} {_at(r1, c1, cell, "x2", "y2")}/>'
                for (r0, c0), (r1, c1) in np.asarray(edges).tolist()
            )
            + "</g>"
        )
    out.append("".join(f'<circle class="kn" {_at(r, c, cell)} r="{cell * 0.3:.1f}"/>' for r, c in squares))
    return out


def _raster(problem: str, rows: int, cols: int, blocked: Any, squares: np.ndarray, torus: bool) -> str:
    """A larger board as one PNG image: a pixel a square, averaged down past ``MAX_PIXELS``."""
    rgb = np.empty((rows, cols, 3), np.float32)
    rgb[:] = _COLOURS["light"]
    at = tuple(squares.astype(np.int64).T)
    if problem == "tour" and len(squares):
        order = np.linspace(0.0, 1.0, len(squares), dtype=np.float32)[:, None]
        rgb[at] = (1 - order) * np.array([40, 90, 220]) + order * np.array([220, 50, 40])
    elif problem == "knights" and len(squares):
        rgb[_attacked(rows, cols, squares, torus)] = _COLOURS["attacked"]
        rgb[at] = _COLOURS["knight"]
    else:
        rgb[at] = _COLOURS["visited"]
    if blocked is not None:
        rgb[blocked] = _COLOURS["hole"]
    step = -(-max(rows, cols) // MAX_PIXELS)
    if step > 1:  # average step x step blocks (edges padded by repeating the last square)
        padded = np.pad(rgb, ((0, -rows % step), (0, -cols % step), (0, 0)), mode="edge")
        shape = (padded.shape[0] // step, step, padded.shape[1] // step, step, 3)
        rgb = padded.reshape(shape).mean(axis=(1, 3))
    data = base64.b64encode(png_bytes(np.round(rgb).astype(np.uint8))).decode()
    return (
        f'<image class="raster" width="100%" height="100%" preserveAspectRatio="none" '
        f'style="image-rendering:pixelated" href="data:image/png;base64,{data}"/>'
    )


def png_bytes(rgb: np.ndarray) -> bytes:
    """An ``(h, w, 3)`` uint8 array as a PNG file (zlib from the standard library)."""
    height, width = rgb.shape[:2]
    rows = np.concatenate([np.zeros((height, 1), np.uint8), rgb.reshape(height, width * 3)], axis=1)

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows.tobytes(), 9))
        + chunk(b"IEND", b"")
    )
