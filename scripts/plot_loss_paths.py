#!/usr/bin/python3
"""Loss inside the three paths, from ubsim loss --path's results: p99 latency (with p50
dotted) and goodput vs loss, one line per path, transport mode, probe and number of
requests outstanding.

usage: plot_loss_paths.py loss_paths.json out.png
"""
from collections import OrderedDict

from plot_common import cli, plt, save


def main(rows, png_path):
    series = OrderedDict()
    for row in rows:
        key = (row["path"], row["transport"], row["probe_after"], int(float(row["outstanding"])))
        series.setdefault(key, []).append(row)
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.6))
    colors = {"pcie-nic": "tab:red", "ub-async": "tab:blue", "ub-load": "tab:green"}
    styles = ["-", "--", "-.", ":"]
    variants = OrderedDict()
    for (path, transport, probe, k), pts in series.items():
        variants.setdefault((transport, probe, k), len(variants))
    for (path, transport, probe, k), pts in series.items():
        pts.sort(key=lambda r: float(r["loss"]))
        x = [100 * float(r["loss"]) for r in pts]
        style = styles[variants[(transport, probe, k)] % len(styles)]
        name = f"{path} {transport.upper()}" + ("" if probe in ("0ns", "0") else f" probe {probe}") + f", {k} out"
        c = colors.get(path)
        # a point where no request succeeded has no latency (null): a gap in the line
        axes[0].plot(x, [float("nan") if r["latency_ns"]["p99"] is None else max(float(r["latency_ns"]["p99"]), 1.0) / 1e3
                         for r in pts], marker="o", linestyle=style,
                     color=c, label=name)
        axes[1].plot(x, [float(r["goodput_gbps"]) for r in pts], marker="o", linestyle=style, color=c, label=name)
    axes[0].set_yscale("log")
    axes[0].set_ylabel("p99 read latency (µs)")
    axes[0].set_title("p99 latency vs loss (measured)", fontsize=9)
    axes[1].set_yscale("log")
    axes[1].set_ylabel("goodput (Gbit/s, message bytes delivered)")
    axes[1].set_title("goodput vs loss (measured)", fontsize=9)
    for ax in axes:
        ax.set_xscale("symlog", linthresh=0.1)   # 0 %, then 0.1 ... 10 % spread out
        ax.set_xlabel("loss of data and acks on the wire (%)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle("Loss inside the paths: SACK engine per TP channel (ub-*) vs GoBackN per QP (pcie-nic)",
                 fontsize=10)
    save(fig, png_path)


if __name__ == "__main__":
    cli(main, __doc__)
