#!/usr/bin/python3
"""Plot effective bandwidth vs request slots: measured points and the
smallest derived bound as a line, per size; one panel per path.

usage: plot_throughput.py throughput.json out.png
"""
from collections import OrderedDict

from plot_common import cli, plt, save, size_text



def main(rows, png_path):
    paths = OrderedDict()
    for row in rows:
        paths.setdefault(row["path"], OrderedDict()).setdefault(int(row["size_bytes"]), []).append(row)
    fig, axes = plt.subplots(1, len(paths), figsize=(4.6 * len(paths), 4.2), squeeze=False)
    for ax, (path, sizes) in zip(axes[0], paths.items()):
        for size, pts in sizes.items():
            x = [int(r["slots"]) for r in pts]
            line = ax.plot(x, [float(r["gbytes_per_s"]) for r in pts], marker="o",
                           label=f"{size_text(size)} measured")[0]
            ax.plot(x, [float(r["bound_gbytes_per_s"]) for r in pts], linestyle="--",
                    color=line.get_color(), alpha=0.6, label=f"{size_text(size)} smallest bound")
            last = pts[-1]
            ax.annotate(last["bound"], (x[-1], float(last["bound_gbytes_per_s"])), fontsize=7,
                        xytext=(3, 3), textcoords="offset points")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("request slots N")
        ax.set_ylabel("payload bandwidth (GB/s)")
        ax.set_title(path, fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle("effective bandwidth vs slots (closed loop): measured, and the smallest bound", fontsize=10)
    save(fig, png_path)


if __name__ == "__main__":
    cli(main, __doc__)
