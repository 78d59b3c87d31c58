#!/usr/bin/python3
"""Plot PCIe DMA operations per second vs outstanding operations K (like
the textbook's figure 7-28): measured points per verb and the derived
ceilings (link, TLP overhead, tags, credits) as horizontal lines.

usage: plot_pcie.py pcie.json out.png
"""
from collections import OrderedDict

from plot_common import cli, plt, save

STYLE = {"link": ":", "overhead": "--", "tags": "-.", "credits": (0, (5, 1, 1, 1))}


def main(rows, png_path):
    verbs = OrderedDict()
    for row in rows:
        verbs.setdefault(row["verb"], []).append(row)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    top = 1.25 * max(float(r["ceilings_ops_per_s"]["link"]) for r in rows) / 1e6
    drawn = set()
    for verb, pts in verbs.items():
        ks = [int(r["outstanding"]) for r in pts]
        line = ax.plot(ks, [float(r["ops_per_s"]) / 1e6 for r in pts], marker="o", label=f"{verb}s measured")[0]
        for name, style in STYLE.items():
            v = pts[0]["ceilings_ops_per_s"].get(name)
            if v is None or float(v) / 1e6 > top or (name, round(float(v))) in drawn:
                continue   # off the chart, or the same line for both verbs
            drawn.add((name, round(float(v))))
            ax.axhline(float(v) / 1e6, linestyle=style, color=line.get_color(), alpha=0.6, linewidth=1)
            ax.annotate(f"{name} {float(v) / 1e6:.0f} M/s", (ks[-1], float(v) / 1e6), fontsize=7, ha="right",
                        xytext=(0, 2), textcoords="offset points", color=line.get_color())
    size = int(rows[0]["size_bytes"])
    ax.set_ylim(0, top)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("outstanding DMA operations K")
    ax.set_ylabel("M operations / s")
    ax.set_title(f"PCIe DMA of {size} B at random host addresses: measured and the ceilings", fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="upper left")
    save(fig, png_path)


if __name__ == "__main__":
    cli(main, __doc__)
