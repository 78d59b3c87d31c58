#!/usr/bin/python3
"""The receiver's reorder limit against the spraying case, from ubsim reorder-limit's
results: completion time and reorder drops against the limit, with the measured
reorder peak marked, and the payload buffer the build maximum needs beside it.

usage: plot_reorder_limit.py reorder_limit.json out.png
"""
from plot_common import cli, plt, save


def main(rows, png_path):
    rows = sorted(rows, key=lambda r: float(r["reorder_limit_bytes"]))
    kib = [float(r["reorder_limit_bytes"]) / 1024 for r in rows]
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11, 3.8))
    ax.plot(kib, [float(r["done_us"]) for r in rows], marker="o", color="tab:blue")
    ax.set_yscale("log")
    ax.set_xlabel("reorder limit (KiB)")
    ax.set_ylabel("completion (µs, log)", color="tab:blue")
    peak = max(float(r["peak_reorder_bytes"]) for r in rows) / 1024
    ax.axvline(peak, color="grey", linestyle="--", linewidth=1)
    ax.text(peak, ax.get_ylim()[1], f" peak {peak:.0f} KiB", fontsize=8, va="top")
    twin = ax.twinx()
    twin.plot(kib, [float(r["reorder_drops"]) for r in rows], marker="s", color="tab:red")
    twin.set_ylabel("reorder drops (packets)", color="tab:red")
    ax.set_title("spraying case: completion and drops against the limit", fontsize=9)
    ax2.bar(range(len(rows)), [float(r["reorder_buffer_bytes_derived"]) / 1024 for r in rows], color="tab:green")
    ax2.set_xticks(range(len(rows)))
    ax2.set_xticklabels([f"{k:.0f}" for k in kib], fontsize=8)
    ax2.set_xlabel("reorder limit (KiB)")
    ax2.set_ylabel("payload buffer (KiB, derived)")
    cells = [r.get("receiver_cells") for r in rows]
    if all(c is not None for c in cells):
        for i, c in enumerate(cells):
            top = float(rows[i]["reorder_buffer_bytes_derived"]) / 1024
            ax2.text(i, top, f"{int(float(c))} cells", fontsize=7, ha="center", va="bottom")
    ax2.set_title("what the limit costs: buffer (derived), receiver logic (yosys)", fontsize=9)
    save(fig, png_path)


if __name__ == "__main__":
    cli(main, __doc__)
