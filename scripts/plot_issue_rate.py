#!/usr/bin/python3
"""Plot the sustained request rate vs burst length for both stacks.

usage: plot_issue_rate.py issue_rate.json out.png
"""
from plot_common import cli, plt, save


def main(rows, png_path):
    series = {}
    for row in rows:
        series.setdefault(row["stack"], []).append((int(row["burst"]), float(row["rate_per_us"]),
                                                    float(row["interval_ns"])))
    fig, ax = plt.subplots(figsize=(7, 4))
    for stack, pts in series.items():
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o",
                label=f"{stack} (measured steady-state δ = {pts[-1][2]:.2f} ns)")
    ax.set_xscale("log")
    ax.set_xlabel("burst length N (requests offered back-to-back)")
    ax.set_ylabel("delivered requests per µs")
    ax.set_title("send-pipeline issue rate vs burst length (RTL, first flit out)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    save(fig, png_path)


if __name__ == "__main__":
    cli(main, __doc__)
