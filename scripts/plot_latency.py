#!/usr/bin/python3
"""Plot the latency breakdown (derived vs measured, stacked by category).

usage: plot_latency.py latency.json out.png
Uses Debian's matplotlib (Agg backend, no display needed).
"""
from collections import OrderedDict

from plot_common import cli, plt, save, size_text

COLORS = {"software": "#4c72b0", "PCIe": "#dd8452", "bus": "#55a868", "NIC": "#c44e52",
          "wire": "#8172b3", "memory": "#937860", "completion": "#da8bc3",
          "message stream (derived)": "#bbbbbb"}


def main(rows, png_path):
    data = OrderedDict()  # path -> {"derived": {cat: ns}, "measured": {cat: ns}}
    sizes, verbs = set(), set()
    no_latency = []
    for row in rows:
        d = data.setdefault(row["path"], {"derived": OrderedDict(), "measured": OrderedDict()})
        if row["measured_total_ns"].get("mean") is None:   # every request failed: no measured bar
            no_latency.append(row["path"])
        for stage in row["stages"]:
            for kind in ("derived", "measured"):
                if stage[kind + "_ns"] is None:
                    continue
                cat = stage["category"]
                d[kind][cat] = d[kind].get(cat, 0.0) + float(stage[kind + "_ns"])
        sizes.add(int(row.get("size_bytes", 64)))
        verbs.add(row.get("verb", "read"))
        # a message of several packets: the derived time to stream them
        # through the slowest resource (the measured bar holds the wait for
        # them in the stage where packet 0 waited: the end of its segment)
        if int(row.get("packets", 1)) > 1:
            d["derived"]["message stream (derived)"] = float(row["derived_stream_ns"])
    fig, ax = plt.subplots(figsize=(9, 4.5))
    labels, y = [], 0
    for path, d in data.items():
        for kind in ("derived", "measured"):
            left = 0.0
            for cat, ns in d[kind].items():
                ax.barh(y, ns, left=left, color=COLORS.get(cat, "#999999"),
                        label=cat if cat not in [h.get_label() for h in ax.patches[:-1]] else None)
                left += ns
            shown = "- (no request succeeded)" if kind == "measured" and path in no_latency else f"{left:.1f} ns"
            ax.text(left + 15, y, shown, va="center", fontsize=8)
            labels.append(f"{path} ({kind})")
            y += 1
        y += 0.5
    ticks = []
    pos = 0
    for _ in data:
        ticks += [pos, pos + 1]
        pos += 2.5
    ax.set_yticks(ticks)
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    handles, names = ax.get_legend_handles_labels()
    uniq = OrderedDict((n, h) for h, n in zip(handles, names) if n)
    ax.legend(uniq.values(), uniq.keys(), fontsize=8, loc="lower right")
    what = " or ".join(size_text(s) for s in sorted(sizes))
    ax.set_xlabel(f"latency of one {what} remote {'/'.join(sorted(verbs))} (ns)")
    ax.set_title("ubsim latency breakdown: derived (configured) vs measured (simulated)")
    save(fig, png_path)


if __name__ == "__main__":
    cli(main, __doc__)
