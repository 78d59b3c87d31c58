#!/usr/bin/python3
"""Plot effective bandwidth vs request slots: measured points and the
smallest derived bound as a line, per size; one panel per path. With rows
recorded by --timeline N, a second figure (out_timeline.png): slots in use
and the payload link's busy time over the first 4 x T0 of those runs.

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
    timelines = [r for r in rows if r.get("timeline")]
    if timelines:
        plot_timelines(timelines[:6], png_path.replace(".png", "_timeline.png"))


def plot_timelines(rows, png_path):
    fig, axes = plt.subplots(len(rows), 1, figsize=(8, 2.4 * len(rows)), squeeze=False)
    for ax, row in zip(axes[:, 0], rows):
        t = row["timeline"]
        steps = t["slots_in_use"]
        xs = [p[0] for p in steps] + [t["horizon_us"]]
        ys = [p[1] for p in steps] + [steps[-1][1] if steps else 0]
        ax.step(xs, ys, where="post", color="tab:blue", label="slots in use")
        ax.set_ylabel("slots in use")
        ax.set_ylim(0, int(row["slots"]) * 1.15)
        twin = ax.twinx()
        for start, end in t["link_busy_us"]:
            twin.axvspan(start, end, ymin=0, ymax=0.12, color="tab:orange", alpha=0.8, linewidth=0)
        twin.set_yticks([])
        ax.axvline(float(row["t0_ns"]) / 1e3, color="grey", linestyle=":", linewidth=1)
        ax.annotate("T0", (float(row["t0_ns"]) / 1e3, int(row["slots"]) * 1.05), fontsize=7)
        ax.set_xlim(0, t["horizon_us"])
        ax.set_title(f"{row['path']}, {size_text(int(row['size_bytes']))}, {int(row['slots'])} slots: "
                     f"{float(row['gbytes_per_s']):.2f} GB/s (bound: {row['bound']}); "
                     f"orange = {t['link']} busy", fontsize=8)
        ax.grid(True, alpha=0.3)
    axes[-1, 0].set_xlabel("time from the start (us)")
    fig.suptitle("slot occupancy and link busy time: slots used up, then the link idles until slots are freed",
                 fontsize=9)
    save(fig, png_path)


if __name__ == "__main__":
    cli(main, __doc__)
