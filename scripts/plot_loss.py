#!/usr/bin/python3
"""SACK vs GoBackN under random loss, from ubsim loss's results: goodput (measured,
with each mode's derived model as a line) and p99 message latency vs loss.

usage: plot_loss.py loss.json out.png
"""
from collections import OrderedDict

from plot_common import cli, plt, save


def main(rows, png_path):
    modes = OrderedDict()
    for row in rows:
        modes.setdefault((row["mode"], row["window"]), []).append(row)
    several = len({w for _, w in modes}) > 1
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.3))
    colors = {"sack": "tab:blue", "gbn": "tab:red"}
    names = {"sack": "SACK", "gbn": "GoBackN"}
    shades = ["tab:blue", "tab:red", "tab:green", "tab:purple", "tab:orange", "tab:brown", "tab:olive", "tab:cyan"]
    for n, ((mode, window), rows) in enumerate(modes.items()):
        rows.sort(key=lambda r: float(r["loss"]))
        x = [100 * float(r["loss"]) for r in rows]
        c = shades[n % len(shades)] if several else colors.get(mode, None)
        label = f"{names.get(mode, mode)}" + (f" w={window}" if several else "")
        axes[0].plot(x, [float(r["goodput_gbps"]) for r in rows], marker="o", color=c,
                     label=f"{label} measured")
        axes[0].plot(x, [float(r["derived_goodput_gbps"]) for r in rows], linestyle="--", color=c,
                     label=f"{label} derived")
        axes[1].plot(x, [float(r["latency_ns"]["p99"]) / 1e3 for r in rows], marker="o", color=c,
                     label=f"{label} p99")
        axes[1].plot(x, [float(r["latency_ns"]["p50"]) / 1e3 for r in rows], marker=".", linestyle=":", color=c,
                     label=f"{label} p50")
        line = float(rows[0]["line_gbps"])
    axes[0].axhline(line, color="k", linewidth=0.8, linestyle=":", label=f"line (payload) {line:.0f} Gbit/s")
    axes[0].set_xlabel("data and ack loss (%)")
    axes[0].set_ylabel("goodput (Gbit/s)")
    axes[0].set_title("goodput vs loss", fontsize=9)
    axes[1].set_yscale("log")
    axes[1].set_xlabel("data and ack loss (%)")
    axes[1].set_ylabel("message latency (µs, taken -> delivered in order)")
    axes[1].set_title("message latency vs loss", fontsize=9)
    for ax in axes:
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7.5)
    fig.suptitle("SACK engine vs GoBackN (measured on the verilated engine; dashed: derived models)", fontsize=10)
    save(fig, png_path)


if __name__ == "__main__":
    cli(main, __doc__)
