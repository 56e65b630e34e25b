#!/usr/bin/env python3
"""Recounts docs/parity.md's summary table from its section tables (the status column of each row:
full, partial or missing) and rewrites the table, the total row and the sentence after it.
usage: python3 scripts/parity_count.py [--check]   (--check: exit 1 when the file is not up to date)"""
import re
import sys
from pathlib import Path

path = Path(__file__).resolve().parent.parent / "docs" / "parity.md"
text = path.read_text()
lines = text.split("\n")

counts = {}  # section title -> [full, partial, missing]
section = None
for line in lines:
    m = re.match(r"^## (.+)$", line)
    if m:
        section = m.group(1).strip()
        continue
    if section is None or not line.startswith("| ") or line.startswith("| ---") or line.startswith("| burn item"):
        continue
    cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]  # \| is a literal bar
    if len(cells) < 5:
        continue
    status = cells[3]
    if status in ("full", "partial", "missing"):
        counts.setdefault(section, [0, 0, 0])[("full", "partial", "missing").index(status)] += 1

out, total, in_summary = [], [0, 0, 0], False
for line in lines:
    m = re.match(r"^\| \[(.+?)\]\((#[^)]+)\) \| \d+ \|", line)
    if m and m.group(1) in counts:
        f, p, mi = counts[m.group(1)]
        n = f + p + mi
        total = [total[0] + f, total[1] + p, total[2] + mi]
        line = f"| [{m.group(1)}]({m.group(2)}) | {n} | {f} | {p} | {mi} | {round(100 * f / n)}% |"
        in_summary = True
    elif in_summary and line.startswith("| **total**"):
        n = sum(total)
        line = f"| **total** | **{n}** | **{total[0]}** | **{total[1]}** | **{total[2]}** | **{round(100 * total[0] / n)}%** |"
        in_summary = False
    out.append(line)
new = "\n".join(out)

# The sentence under the table: the count without Vision and RL.
vis = counts.get("Vision (burn-vision)", [0, 0, 0])
rl = counts.get("Reinforcement learning (burn-rl)", [0, 0, 0])
rest = [total[i] - vis[i] - rl[i] for i in range(3)]
new = re.sub(
    r"Between them they hold \d+ items \(\d+ missing, \d+ partial\)\. Without those two areas the count is "
    r"\d+ of \d+ full \(\d+%\), \d+ partial and \d+ missing\.",
    f"Between them they hold {sum(vis) + sum(rl)} items ({vis[2] + rl[2]} missing, {vis[1] + rl[1]} partial). "
    f"Without those two areas the count is {rest[0]} of {sum(rest)} full ({round(100 * rest[0] / sum(rest))}%), "
    f"{rest[1]} partial and {rest[2]} missing.",
    new,
)
if "--check" in sys.argv:
    sys.exit(0 if new == text else 1)
path.write_text(new)
print(f"docs/parity.md: {sum(total)} items, {total[0]} full ({round(100 * total[0] / sum(total))}%), "
      f"{total[1]} partial, {total[2]} missing")
