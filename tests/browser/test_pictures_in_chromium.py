"""Pictures and the HTML report as a person sees them: rendered by a real headless Chromium.

Each page is loaded once by ``chromium --headless``; a script in the page writes what the browser
built (squares, moves, pictures) into its title, read back with ``--dump-dom``, and a screenshot
must not be blank. Skipped when no Chromium is on PATH (Debian: ``apt-get install chromium``).
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess

import pytest

from knightcert.cli.main import main

BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(BROWSER is None, reason="no chromium on PATH (apt-get install chromium)")
COUNT = (
    "<script>addEventListener('load', () => {{ const n = s => document.querySelectorAll(s).length;"
    "document.title = [n('svg'), n('rect.sq'), n('rect.hole'), n('circle.kn'), n('text'),"
    "(document.querySelector('path.moves')?.getAttribute('d').match(/L/g) || []).length,"
    "n('details'), n('img.plot'), n('figure')].join(' '); }});</script>"
)


def browse(tmp_path, page, name: str) -> tuple[list[int], bytes]:
    """Load ``page`` in Chromium: the counts its script put in the title, and a screenshot."""
    (tmp_path / f"{name}.html").write_text(page.replace("</body>", COUNT + "</body>"))
    url = (tmp_path / f"{name}.html").as_uri()
    shot = tmp_path / f"{name}.png"
    options = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=900,900"]
    browser = [BROWSER, *options, "--dump-dom", f"--screenshot={shot}", url]  # one start for both
    dom = subprocess.run(browser, capture_output=True, text=True, timeout=120).stdout
    assert shot.exists(), "no screenshot"
    title = re.search(r"<title>([\d ]+)</title>", dom)
    assert title is not None, dom[:500]
    return [int(v) for v in title[1].split()], shot.read_bytes()


def not_blank(png: bytes) -> bool:
    """Several colours, and a twentieth of the screenshot not the background's."""
    import io

    image = pytest.importorskip("PIL.Image").open(io.BytesIO(png)).convert("RGB")
    colours = image.getcolors(maxcolors=1 << 20) or []
    common = max(count for count, _ in colours)
    return len(colours) > 2 and common < 0.95 * image.width * image.height


@pytest.mark.heavy
def test_a_tour_and_a_placement_with_holes_as_chromium_draws_them(tmp_path, capsys):
    assert main(["tour", "6", "--svg", str(tmp_path / "t.svg")]) == 0
    board = tmp_path / "holes.txt"
    board.write_text("......\n.x....\n..x...\n...x..\n....x.\n......\n")
    assert main(["knights", "--board", str(board), "--svg", str(tmp_path / "k.svg")]) == 0
    knights = int(capsys.readouterr().out.splitlines()[-1].split(": ")[1].split()[0])
    page = "<!DOCTYPE html><html><head><title>-</title></head><body>{}</body></html>"
    counts, shot = browse(tmp_path, page.format((tmp_path / "t.svg").read_text()), "tour")
    assert counts[:6] == [1, 36, 0, 0, 36, 35] and not_blank(shot)  # 36 squares numbered, 35 moves
    counts, shot = browse(tmp_path, page.format((tmp_path / "k.svg").read_text()), "knights")
    assert counts[:5] == [1, 36, 4, knights, 0] and not_blank(shot)


@pytest.mark.heavy
def test_the_html_report_as_chromium_draws_it(tmp_path, capsys):
    report, answers = tmp_path / "r.json", tmp_path / "answers"
    argv = ["compare", "knights", "--suite", "random", "--sizes", "5,6", "--seeds", "1", "--holes", "0.2"]
    assert (
        main([*argv, "--methods", "greedy", "--out", str(report), "--answers", str(answers), "--quiet"]) == 0
    )
    assert main(["report", str(report), "--html", str(tmp_path / "r.html")]) == 0
    capsys.readouterr()
    counts, shot = browse(tmp_path, (tmp_path / "r.html").read_text(), "report")
    svgs, details, plots, figures = counts[0], counts[6], counts[7], counts[8]
    assert details == 2 and figures == svgs == 2 and not_blank(shot)  # one answer drawn per instance
    assert plots == (2 if importlib.util.find_spec("matplotlib") else 0)  # curves and profiles
