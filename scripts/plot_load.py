#!/usr/bin/python3
"""Plot latency (mean and p99) vs offered load, one panel per path.

usage: plot_load.py load.csv out.png
"""
import csv
from collections import OrderedDict

from plot_common import cli, plt, save


def main(csv_path, png_path):
    paths = OrderedDict()
    with open(csv_path, newline="") as f:
        for row in csv.DictReader(f):
            paths.setdefault(row["path"], []).append(row)
    fig, axes = plt.subplots(1, len(paths), figsize=(4.2 * len(paths), 4), squeeze=False)
    for ax, (path, rows) in zip(axes[0], paths.items()):
        x = [float(r["offered_per_us"]) for r in rows]
        ax.plot(x, [float(r["mean_ns"]) for r in rows], marker="o", label="mean")
        ax.plot(x, [float(r["p99_ns"]) for r in rows], marker="^", label="p99")
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
