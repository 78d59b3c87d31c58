#!/usr/bin/python3
"""Plot latency (mean and p99) vs offered load, one panel per path.

usage: plot_load.py load.json out.png
"""
from collections import OrderedDict

from plot_common import cli, plt, save


def main(rows, png_path):
    paths = OrderedDict()
    for row in rows:
        paths.setdefault(row["path"], []).append(row)
    fig, axes = plt.subplots(1, len(paths), figsize=(4.2 * len(paths), 4), squeeze=False)
    for ax, (path, rows) in zip(axes[0], paths.items()):  # noqa: B020
        x = [float(r["offered_per_us"]) for r in rows]
        ax.plot(x, [float(r["latency_ns"]["mean"]) for r in rows], marker="o", label="mean")
        ax.plot(x, [float(r["latency_ns"]["p99"]) for r in rows], marker="^", label="p99")
        ax.set_yscale("log")
        ax.set_xlabel("offered load (requests / µs)")
        ax.set_ylabel("latency (ns)")
        last = rows[-1]
        ax.set_title(f"{path}\nsaturates at {float(last['achieved_per_us']):.2f}/µs: {last['bottleneck']}",
                     fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("latency vs offered load (open loop, Poisson arrivals)", fontsize=10)
    save(fig, png_path)


if __name__ == "__main__":
    cli(main, __doc__)
