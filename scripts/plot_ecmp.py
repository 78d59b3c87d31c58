#!/usr/bin/python3
"""ECMP: from ubsim ecmp's results, per case the distribution of the busiest uplink's
flow count L_max over the hash seeds (measured bars, the uniform balls-into-bins mean
as a line), and the group's speed relative to no collision: from the hash counts,
derived, and from the packet-level runs.

usage: plot_ecmp.py ecmp.json out.png
"""
from plot_common import cli, plt, save


def main(rows, png_path):
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.6))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, r in enumerate(rows):
        n, m = int(float(r["flows"])), int(float(r["uplinks"]))
        hist = [(int(float(k)), float(p)) for k, p in r["lmax_histogram"]]
        c = colors[i % len(colors)]
        axes[0].plot([k for k, _ in hist], [p for _, p in hist], marker="o", color=c,
                     label=f"n={n}, m={m}: E[L_max] {float(r['e_lmax']):.3f} (derived {float(r['e_lmax_derived']):.3f})")
        axes[0].axvline(float(r["e_lmax_derived"]), color=c, linestyle=":", linewidth=1)
    axes[0].set_xscale("log", base=2)
    axes[0].set_xlabel("L_max: flows on the busiest uplink")
    axes[0].set_ylabel("share of hash seeds")
    axes[0].set_title("L_max over the seeds (measured; dotted: derived mean)", fontsize=9)
    labels = [f"{int(float(r['flows']))}/{int(float(r['uplinks']))}" for r in rows]
    x = range(len(rows))
    w = 0.27
    axes[1].bar([i - w for i in x], [100 * float(r["speed_hash"]) for r in rows], w, label="ceil(n/m) / E[L_max] (hash counts)")
    axes[1].bar(list(x), [100 * float(r["speed_derived"]) for r in rows], w, label="derived (uniform)")
    axes[1].bar([i + w for i in x], [100 * float(r["speed_sim"]) if r.get("speed_sim") is not None else 0 for r in rows], w,
                label="T_free / mean T (packet level)")
    axes[1].set_xticks(list(x))
    axes[1].set_xticklabels(labels)
    axes[1].set_xlabel("flows n / uplinks m")
    axes[1].set_ylabel("speed relative to no collision (%)")
    axes[1].set_title("the group's speed", fontsize=9)
    for ax in axes:
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle("ECMP: n equal flows hashed onto m uplinks (spec §16)", fontsize=10)
    save(fig, png_path)


if __name__ == "__main__":
    cli(main, __doc__)
