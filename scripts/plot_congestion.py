#!/usr/bin/python3
"""A queue filling faster than it drains, from ubsim congestion's results: per point
its egress queue against time (measured; the fluid queue derived, dashed, where no
pause acts), the bytes dropped so far, the pause frames the switch sent, and each
sender's rate onto its link with the egress rate (right axis).

usage: plot_congestion.py congestion.json out.png
"""
import math

from plot_common import cli, plt, save


def scaled(values, unit):
    return [float(v) / unit for v in values]


def main(rows, png_path):
    rows = [r for r in rows if r.get("series")]
    n = max(1, len(rows))
    cols = min(4, n)
    nrows = math.ceil(n / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(4.6 * cols, 3.2 * nrows), squeeze=False)
    for ax, r in zip(axes.flat, rows):
        s = r["series"]
        t = [float(x) for x in s["t_us"]]
        unit, label = (1e6, "MB") if max(float(q) for q in s["queue_bytes"]) > 5e6 else (1e3, "KB")
        ax.plot(t, scaled(s["queue_bytes"], unit), color="tab:blue", label="queue")
        if s.get("queue_bytes_derived"):
            ax.plot(t, scaled(s["queue_bytes_derived"], unit), color="tab:blue", linestyle="--", linewidth=1,
                    label="queue, fluid (derived)")
        if float(s["dropped_bytes"][-1]) > 0:
            ax.plot(t, scaled(s["dropped_bytes"], unit), color="tab:red", label="dropped so far")
        xoff = [tt for tt, k in zip(t, s["xoff_frames"]) if float(k) > 0]
        if xoff:
            ax.plot(xoff, [0] * len(xoff), "|", color="black", markersize=8, label="XOFF sent")
        ax.set_ylabel(label, fontsize=8)
        ax.set_xlabel("time (µs)", fontsize=8)
        ax.set_title(f"{r['scenario']}: {r['point']}", fontsize=8)
        ax.tick_params(labelsize=7)
        rate = ax.twinx()
        for name, v in s["sender_GBps"].items():
            rate.plot(t, [float(x) for x in v], linewidth=0.6, alpha=0.7)
        rate.plot(t, [float(x) for x in s["egress_GBps"]], color="black", linewidth=0.8, alpha=0.6)
        rate.set_ylabel("GB/s (senders; egress black)", fontsize=7)
        rate.tick_params(labelsize=7)
        ax.legend(fontsize=6, loc="upper right")
    for ax in list(axes.flat)[len(rows):]:
        ax.axis("off")
    fig.suptitle("congestion: queue, drops and pauses against time, each sender's rate (right axis)", fontsize=10)
    save(fig, png_path)


if __name__ == "__main__":
    cli(main, __doc__)
