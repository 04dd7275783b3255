"""Draw how the construction joins its pieces: docs/tour-pieces.png.

Run from the repository root:

    python bench/plot_tour_pieces.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from knightcert.heuristics.tour_divide import (  # noqa: E402
    block_plan,
    build_table,
    local_table,
    strip_plan,
)


def piece_edges(plan) -> tuple[set, dict]:
    """Edges of the pieces before joining, and the block of every square."""
    edges, block_of = set(), {}
    for k, key in enumerate(sorted(plan.blocks)):
        h, w = (int(x) for x in key.split(":")[1].split("x"))
        table = local_table(key)
        for b, (r0, c0) in enumerate(plan.origins(key).tolist()):
            for q in range(h * w):
                u = (r0 + q // w) * plan.cols + c0 + q % w
                block_of[u] = (k, b)
                for v in table[q]:
                    if v >= 0:
                        g = (r0 + v // w) * plan.cols + c0 + v % w
                        edges.add((min(u, g), max(u, g)))
    return edges, block_of


def draw(ax, plan, title: str) -> None:
    table = build_table(plan)
    final = {(min(u, int(v)), max(u, int(v))) for u in range(len(table)) for v in table[u] if v >= 0}
    before, block_of = piece_edges(plan)
    blocks = sorted(set(block_of.values()))
    colours = plt.cm.tab20(np.linspace(0, 1, max(len(blocks), 2)))
    colour = {b: colours[i % len(colours)] for i, b in enumerate(blocks)}
    C = plan.cols

    def xy(u):
        return (u % C, -(u // C))

    for u, v in final & before:
        (x1, y1), (x2, y2) = xy(u), xy(v)
        ax.plot([x1, x2], [y1, y2], color=colour[block_of[u]], lw=1.2)
    for u, v in before - final:
        (x1, y1), (x2, y2) = xy(u), xy(v)
        ax.plot([x1, x2], [y1, y2], color="0.4", lw=1.5, ls=":")
    for u, v in final - before:
        (x1, y1), (x2, y2) = xy(u), xy(v)
        ax.plot([x1, x2], [y1, y2], color="black", lw=2.6)
    ends = [u for u in range(len(table)) if (table[u] < 0).any()]
    for u in ends:
        ax.plot(*xy(u), "o", color="red", ms=7)
    for key in plan.blocks:
        h, w = (int(x) for x in key.split(":")[1].split("x"))
        for r0, c0 in plan.origins(key).tolist():
            ax.add_patch(plt.Rectangle((c0 - 0.5, -(r0 + h) + 0.5), w, h, fill=False, lw=2, ec="0.2"))
            ax.text(c0 + w / 2 - 0.5, -r0 + 0.75, key.split(":")[0], ha="center", fontsize=8)
    ax.set_title(title, fontsize=10, pad=16)
    ax.set_aspect("equal")
    ax.axis("off")


def main() -> None:
    fig, axes = plt.subplots(3, 1, figsize=(9, 13), gridspec_kw={"height_ratios": [13, 4, 4]})
    draw(
        axes[0],
        block_plan(13, 17, None, None),
        "13 x 17, open: block rows 8, 5 and columns 6, 6, 5; the odd 5 x 5 block holds the open path",
    )
    draw(axes[1], strip_plan(3, 30, closed=True), "3 x 30, closed: left, middle2..., right (two lanes)")
    draw(axes[2], strip_plan(4, 29, closed=False), "4 x 29, open: ends (both free ends), middle2..., right")
    fig.text(
        0.5, 0.01,
        "colour: moves of each piece's stored tour; dotted: moves given up at a join; black: new moves "
        "across a cut; red: ends of the open tour",
        ha="center", fontsize=9,
    )  # fmt: skip
    fig.tight_layout(rect=(0, 0.02, 1, 1))
    out = ROOT / "docs" / "tour-pieces.png"
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
