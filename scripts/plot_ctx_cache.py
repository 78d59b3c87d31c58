#!/usr/bin/python3
"""Context-cache overflow curves (spec 6) from ubsim ctx-cache's results.

Writes two figures:
  OUT.png        measured 64 B read latency (mean, p99), hit rate and refills
                 per read vs active endpoints N (log x), one line per path
                 (skipped with --bytes: then OUT.png is the state figure)
  OUT_state.png  derived state bytes vs N (log-log) for both schemes, with the
                 byte budget (cache.bytes) and the two entry caches' bytes

usage: plot_ctx_cache.py ctx_cache.json OUT.png
"""
import os
from collections import OrderedDict

from plot_common import cli, plt, save


def state_figure(rows, png_path):
    summary = next(r for r in rows if r.get("scenario") == "byte-model")
    curves = OrderedDict()  # label -> {N: bytes}
    for r in rows:
        if r.get("scenario") == "byte-model-n":   # the byte model per N (derived)
            curves.setdefault("pair", {})[int(r["endpoints"])] = float(r["pair_state_bytes"])
            curves.setdefault("ub", {})[int(r["endpoints"])] = float(r["ub_state_bytes"])
        elif "stack" in r:                         # a simulated point carries its scheme's bytes
            key = "pair" if r["stack"] == "roce" else "ub"
            curves.setdefault(key, {})[int(r["endpoints"])] = float(r["state_bytes"])
    fig, ax = plt.subplots(figsize=(6.4, 4.6))
    names = {"pair": "per-connection contexts (RoCE RC): $S_{pair}$",
             "ub": "endpoint records + shared TP channels (UB): $S_{UB}$"}
    for key, marker in (("pair", "o"), ("ub", "s")):
        if key in curves:
            ns = sorted(curves[key])
            ax.plot(ns, [curves[key][n] for n in ns], marker=marker, label=names[key])
    budget = float(summary["cache_bytes"])
    ax.axhline(budget, color="k", linestyle="--", linewidth=1,
               label=f"on-chip budget cache.bytes = {budget / 1024:.0f} KiB")
    if "ub_cache_bytes" in summary:
        roce_b, ub_b = float(summary["roce_cache_bytes"]), float(summary["ub_cache_bytes"])
        ax.axhline(ub_b, color="tab:orange", linestyle=":", linewidth=1,
                   label=f"UB entry cache ({ub_b / 1024:.0f} KiB of TP-channel records)")
        if abs(roce_b - budget) > 1:
            ax.axhline(roce_b, color="tab:blue", linestyle=":", linewidth=1,
                       label=f"RoCE entry cache ({roce_b / 1024:.0f} KiB of QP contexts)")
    for key, label, color, dx in (("pair_overflow_n", "pair", "tab:blue", 4),
                                  ("ub_overflow_n", "UB", "tab:orange", -100)):
        n = int(summary[key] or 0)
        if n:
            ax.axvline(n, color=color, linestyle="-.", linewidth=0.8)
            ax.annotate(f"{label} overflows\nthe budget at N >= {n}", (n, budget), textcoords="offset points",
                        xytext=(dx, -34), fontsize=7, color=color)
    ax.text(0.98, 0.03, f"at the RoCE cache's bytes, UB would hold "
            f"{int(float(summary['ub_entries_at_roce_bytes']))} entries", transform=ax.transAxes, ha="right",
            fontsize=7.5)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    ax.set_xlabel("endpoints N (= M remote endpoints)")
    ax.set_ylabel("state bytes (derived)")
    ax.set_title("controller state vs endpoints (derived from the record sizes)", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7.5, loc="upper left")
    save(fig, png_path)


def latency_figure(points, png_path):
    paths = OrderedDict()
    for r in points:
        paths.setdefault(r["path"], []).append(r)
    fig, axes = plt.subplots(1, 3, figsize=(14, 4.3))
    for path, rows in paths.items():
        rows.sort(key=lambda r: int(r["endpoints"]))
        x = [int(r["endpoints"]) for r in rows]
        line, = axes[0].plot(x, [float(r["latency_ns"]["mean"]) for r in rows], marker="o",
                             label=f"{path} ({rows[0]['cache_entries']} entries) mean")
        axes[0].plot(x, [float(r["latency_ns"]["p99"]) for r in rows], linestyle="--", color=line.get_color(),
                     label=f"{path} p99")
        axes[1].plot(x, [100 * float(r["hit_rate"]) for r in rows], marker="o", color=line.get_color(), label=path)
        axes[2].plot(x, [float(r["refills_per_op"]) for r in rows], marker="o", color=line.get_color(), label=path)
    axes[0].set_ylabel("64 B read latency (ns, measured)")
    axes[1].set_ylabel("hit rate (%, records found on chip)")
    axes[2].set_ylabel("refills per read (both ends)")
    for ax in axes:
        ax.set_xscale("log", base=2)
        ax.set_xlabel("active endpoints N (all-to-all, N local x N remote)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7.5)
    axes[0].set_yscale("log")
    fig.suptitle("context-cache overflow: latency, hit rate and refills vs active endpoints (measured)", fontsize=10)
    save(fig, png_path)


def main(rows, png_path):
    stem, ext = os.path.splitext(png_path)
    points = [r for r in rows if "path" in r]
    state_figure(rows, stem + "_state" + ext)
    if points:
        latency_figure(points, png_path)
    else:
        state_figure(rows, png_path)


if __name__ == "__main__":
    cli(main, __doc__)
