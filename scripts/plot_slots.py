#!/usr/bin/python3
"""Plot the slot-release experiment as a Gantt chart (textbook figures
7-38 / 7-39): per operation, submit -> transfer done (solid), then the
completion waiting to be handled -> slot freed (hatched); one panel per
slot count.

usage: plot_slots.py slots.json out.png
"""
from plot_common import cli, plt, save


def main(rows, png_path):
    fig, axes = plt.subplots(len(rows), 1, figsize=(8, 2.8 + 0.22 * max(len(r["ops"]) for r in rows) * len(rows)),
                             squeeze=False)
    for ax, row in zip(axes[:, 0], rows):
        ops = row["ops"]
        for i, op in enumerate(ops):
            s, d, f = float(op["submit_us"]), float(op["done_us"]), float(op["freed_us"])
            ax.barh(i, d - s, left=s, color="tab:blue", height=0.7,
                    label="submit -> transfer done" if i == 0 else None)
            ax.barh(i, f - d, left=d, color="none", edgecolor="tab:orange", hatch="///", height=0.7,
                    label="waiting for handling -> slot freed" if i == 0 else None)
        for x, name in ((float(row["transfers_done_us"]), "all transfers done"),
                        (float(row["all_free_us"]), "all slots free")):
            ax.axvline(x, color="grey", linestyle=":", linewidth=1)
            ax.annotate(f"{name}\n{x:.2f} us", (x, -0.6), fontsize=7, ha="center", va="bottom",
                        annotation_clip=False)
        ax.set_yticks(range(len(ops)))
        ax.set_yticklabels([str(int(op["op"])) for op in ops], fontsize=6)
        ax.invert_yaxis()
        ax.set_ylabel("operation")
        ax.set_xlabel("time (us)")
        ax.set_title(f"{row['path']}: {int(row['slots'])} slots, {int(row['size_bytes'])} B per operation", fontsize=9,
                     pad=22)
        ax.grid(True, axis="x", alpha=0.3)
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=2)
    fig.suptitle("slot release: a slot is freed only when software has handled its completion", fontsize=10)
    save(fig, png_path)


if __name__ == "__main__":
    cli(main, __doc__)
