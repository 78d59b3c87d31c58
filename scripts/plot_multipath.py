#!/usr/bin/python3
"""One transfer over several paths, from ubsim multipath's results: per case (SACK) a
Gantt chart of its packets like the textbook's figures 7-45..7-47 -- each packet's
serialization on its path, its flight, and the wait in the receiver until it is
delivered in order -- with the completion measured and derived.

usage: plot_multipath.py multipath.json out.png
"""
import math

from plot_common import cli, plt, save


def main(rows, png_path):
    cases = [r for r in rows if r["transport"] == "sack" and r.get("gantt")]
    n = max(1, len(cases))
    cols = min(3, n)
    fig, axes = plt.subplots(math.ceil(n / cols), cols, figsize=(5.2 * cols, 3.4 * math.ceil(n / cols)), squeeze=False)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    t_pkt = 0.08256
    for ax, r in zip(axes.flat, cases):
        g = r["gantt"]
        for psn, path, sent, arrived, delivered in g:
            psn, path = int(float(psn)), int(float(path))
            sent, arrived, delivered = float(sent), float(arrived), float(delivered)
            c = colors[path % len(colors)]
            ax.barh(psn, t_pkt, left=sent, color=c, height=0.8)                       # on the wire
            ax.plot([sent + t_pkt, arrived], [psn, psn], color=c, linewidth=0.8)        # in flight
            if delivered > arrived + 1e-3:
                ax.plot([arrived, delivered], [psn, psn], color="black", linewidth=2)   # held after a hole
        derived = r.get("done_us_derived")
        ax.axvline(float(r["done_us"]), color="tab:red", linewidth=1)
        title = f"{r['case']}: done {float(r['done_us']):.3f} µs"
        if derived is not None:
            title += f" (derived {float(derived):.3f})"
        if len(g) < int(float(r["packets"])):
            title += f", first {len(g)} of {int(float(r['packets']))} packets"
        ax.set_title(title, fontsize=8)
        ax.set_xlabel("time (µs)", fontsize=8)
        ax.set_ylabel("PSN", fontsize=8)
        ax.invert_yaxis()
        ax.grid(True, alpha=0.3)
    for ax in list(axes.flat)[len(cases):]:
        ax.axis("off")
    fig.suptitle("one transfer over several paths (SACK; colour: path; black: held after a hole until delivered in order)",
                 fontsize=10)
    save(fig, png_path)


if __name__ == "__main__":
    cli(main, __doc__)
