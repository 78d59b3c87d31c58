#!/usr/bin/python3
"""Relative difference (candidate vs base) of the figures that differ, from
ubsim compare's results (the 30 largest by magnitude).

usage: plot_compare.py compare.json out.png
"""
from plot_common import cli, plt, save


def main(rows, png_path):
    rows = [r for r in rows if float(r["diff"]) != 0]
    rows.sort(key=lambda r: -abs(float(r["rel"])))
    rows = rows[:30][::-1]
    fig, ax = plt.subplots(figsize=(9, 0.3 * max(len(rows), 4) + 1.5))
    labels = [f"{r['experiment']} {r['row']} {r['figure']}"[:70] for r in rows]
    vals = [100 * float(r["rel"]) for r in rows]
    ax.barh(range(len(rows)), vals, color=["tab:red" if v > 0 else "tab:green" for v in vals])
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(labels, fontsize=7)
    ax.axvline(0, color="k", linewidth=0.8)
    ax.set_xlabel("candidate vs base (%)")
    ax.set_title("figures that differ (measured, both runs)", fontsize=9)
    ax.grid(True, axis="x", alpha=0.3)
    save(fig, png_path)


if __name__ == "__main__":
    cli(main, __doc__)
