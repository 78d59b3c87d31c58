#!/usr/bin/python3
"""A fabric run, from ubsim fabric's results: each flow's span (first packet sent to
last delivered), and the output-queue occupancy over time of every link whose queue
held more than the frame in serialization.

usage: plot_fabric.py fabric.json out.png
"""
from plot_common import cli, plt, save


def main(rows, png_path):
    flows = [r for r in rows if r["row"] == "flow"]
    # a queue that held more than the one frame in serialization
    links = [r for r in rows if r["row"] == "link" and float(r["frames"]) > 0 and r.get("queue_series")
             and float(r["queue_max_bytes"]) > float(r["bytes"]) / float(r["frames"])]
    links.sort(key=lambda r: -float(r["queue_max_bytes"]))
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.6))
    for i, f in enumerate(flows):
        if f["done_us"] is None:
            continue
        start, done = float(f["start_us"]), float(f["done_us"])
        axes[0].barh(i, done - start, left=start, color="tab:blue")
    axes[0].set_yticks(range(len(flows)))
    axes[0].set_yticklabels([f["name"] for f in flows], fontsize=7)
    axes[0].set_xlabel("time (µs)")
    axes[0].set_title("flows: first packet sent to last delivered (measured)", fontsize=9)
    for r in links[:6]:
        s = r["queue_series"]
        axes[1].step([float(t) for t, _ in s], [float(b) / 1024 for _, b in s], where="post", label=r["name"])
    axes[1].set_xlabel("time (µs)")
    axes[1].set_ylabel("output queue (KiB, waiting + in serialization)")
    axes[1].set_title("queues that built up (measured; the six largest)", fontsize=9)
    for ax in axes:
        ax.grid(True, alpha=0.3)
    if links:
        axes[1].legend(fontsize=7)
    fig.suptitle("fabric: traffic sources over the configured topology", fontsize=10)
    save(fig, png_path)


if __name__ == "__main__":
    cli(main, __doc__)
