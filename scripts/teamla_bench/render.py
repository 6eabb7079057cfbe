# SPDX-License-Identifier: Apache-2.0
"""Rendering: markdown tables and matplotlib figures (headless)."""
import sys


def markdown_table(header, rows):
    """The lines of a markdown table: the header, its rule, then one line per row."""
    lines = ["| " + " | ".join(str(h) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines


def pyplot(script=None):
    """matplotlib.pyplot on the Agg backend (no display), or None without matplotlib (then a
    note names the script)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        if script:
            sys.stderr.write(f"{script}: no matplotlib: no PNG\n")
        return None
    return plt


def figure(script, *args, **kwargs):
    """(pyplot, figure, axes) from plt.subplots, or (None, None, None) without matplotlib."""
    plt = pyplot(script)
    if plt is None:
        return None, None, None
    fig, axes = plt.subplots(*args, **kwargs)
    return plt, fig, axes


def save(fig, path, dpi, title=None, tight=True):
    """Gives the figure its title, lays it out and writes it; closes it."""
    if title:
        fig.suptitle(title)
    if tight:
        fig.tight_layout()
    fig.savefig(path, dpi=dpi)
    import matplotlib.pyplot as plt
    plt.close(fig)
    quantize(path)
    return path


def quantize(path):
    """Rewrites a PNG with a 256-colour palette: line plots lose nothing visible and the
    records in docs/perf/ take a third of the bytes. Deterministic, so a re-render of a record
    is byte-identical. Left as written where Pillow is missing (matplotlib depends on it)."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as image:
        paletted = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    paletted.save(path, optimize=True)
