#!/usr/bin/python3
"""Plot PCIe contention (textbook figure 7-29): per direction of the NIC's
link, the delivered posted-write and read bandwidth vs the offered write
load, with K x m / RTT_loaded and the direction's payload capacity.

usage: plot_pcie_contention.py pcie-contention.json out.png
"""
from collections import OrderedDict

from plot_common import cli, plt, save

TITLE = {"into-nic": "into the NIC: host writes vs completions of the NIC's reads (in arrival order)",
         "out-of-nic": "out of the NIC: its writes vs completions it returns (round-robin)"}


def main(rows, png_path):
    dirs = OrderedDict()
    for row in rows:
        dirs.setdefault(row["direction"], []).append(row)
    fig, axes = plt.subplots(1, len(dirs), figsize=(5.2 * len(dirs), 4.2), squeeze=False)
    for ax, (d, pts) in zip(axes[0], dirs.items()):
        x = [float(r["offered_gbytes_per_s"]) for r in pts]
        ax.plot(x, [float(r["writes_gbytes_per_s"]) for r in pts], marker="o", label="posted writes delivered")
        ax.plot(x, [float(r["reads_gbytes_per_s"]) for r in pts], marker="s", label="reads delivered")
        ax.plot(x, [float(r["derived_reads_gbytes_per_s"]) for r in pts], linestyle=":", color="grey",
                label="K x m / RTT loaded (derived)")
        cap = float(pts[0]["link_payload_gbytes_per_s"])
        ax.axhline(cap, linestyle="--", color="black", alpha=0.5, linewidth=1, label="link payload capacity")
        ax.axhline(cap / 2, linestyle="-.", color="black", alpha=0.3, linewidth=1, label="half the link")
        ax.set_xlabel("offered posted-write load (GB/s)")
        ax.set_ylabel("delivered (GB/s)")
        ax.set_title(TITLE.get(d, d), fontsize=8)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle(f"PCIe contention, {int(rows[0]['size_bytes'])} B TLPs, "
                 f"{int(rows[0]['outstanding_reads'])} reads in flight", fontsize=10)
    save(fig, png_path)


if __name__ == "__main__":
    cli(main, __doc__)
