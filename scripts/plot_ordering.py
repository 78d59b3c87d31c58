#!/usr/bin/python3
"""Order-tracker scenarios from ubsim ordering's results: a request behind n
predecessors (submit-to-wire cycles per tag), isolation of five initiators
(UB vs RoCE RC, with and without the held request) and the end-to-end SO read.

usage: plot_ordering.py ordering.json out.png
"""
from collections import OrderedDict

from plot_common import cli, plt, save


def main(rows, png_path):
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.3))

    wait = OrderedDict()
    for r in rows:
        if r["scenario"] == "wait-after-predecessors":
            wait.setdefault(r["tag"], []).append(r)
    for tag, rs in wait.items():
        axes[0].plot([int(r["predecessors"]) for r in rs], [int(r["submit_to_wire_cycles"]) for r in rs],
                     marker="o", label=f"{tag} (extra after completion: "
                     f"{max(int(r['extra_wait_cycles']) for r in rs)} cyc)")
    axes[0].set_xlabel("outstanding reads ahead in the Jetty (complete at cycle 200, 210, ...)")
    axes[0].set_ylabel("submit -> first flit (cycles, measured)")
    axes[0].set_title("a request behind n predecessors (UB, ROI)", fontsize=9)

    iso = [r for r in rows if r["scenario"] == "isolation"]
    if iso:
        labels = [f"{r['stack']}\n{'SO held' if r['held'] == '1' else 'nothing held'}" for r in iso]
        vals = [int(r["last_unordered_delivery_cycles"]) for r in iso]
        colors = ["tab:orange" if r["stack"] == "ub" else "tab:blue" for r in iso]
        bars = axes[1].bar(labels, vals, color=colors)
        for b, v in zip(bars, vals):
            axes[1].annotate(str(v), (b.get_x() + b.get_width() / 2, v), ha="center", va="bottom", fontsize=8)
        axes[1].set_ylabel("8 NO requests of initiators 1-4 on the wire within (cycles)")
        axes[1].set_title("isolation: initiator 0's SO held (UB: own Jetty; RoCE RC: shared QP)", fontsize=9)

    e2e = [r for r in rows if r["scenario"] == "end-to-end-so"]
    if e2e:
        n = [int(r["predecessors"]) for r in e2e]
        axes[2].plot(n, [float(r["latency_ns"]) for r in e2e], marker="o", label="SO read latency")
        axes[2].plot(n, [float(r["wait_ns"]) for r in e2e], marker="s", label="held at the tracker")
        axes[2].set_xlabel("outstanding reads ahead (two-node model, ub-async)")
        axes[2].set_ylabel("ns (measured)")
        axes[2].set_title("end-to-end: SO read with the real round trip", fontsize=9)
    for ax in axes:
        ax.grid(True, alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7.5)
    fig.suptitle("order tracker (measured from the RTL's handshakes)", fontsize=10)
    save(fig, png_path)


if __name__ == "__main__":
    cli(main, __doc__)
