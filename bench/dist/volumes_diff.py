"""Reads OpenMPI monitoring profiles (PREFIX.run.R.prof, PREFIX.dry.R.prof per rank R) and prints
one JSON line: the bytes and messages each rank sent in the run minus those in the dry run.
Lines 'E' (the program's point-to-point) and 'I' (messages collectives are made of) are both
counted: together they are what went over the wire. Usage: volumes_diff.py CASE RANKS N PREFIX"""
import json
import sys


def sent(path):
    total_bytes = total_msgs = 0
    with open(path) as f:
        for line in f:
            if line.startswith("# OSC"):
                break  # the point-to-point section ends here
            fields = line.split("\t")
            if fields[0] in ("E", "I"):
                total_bytes += int(fields[3].split()[0])
                total_msgs += int(fields[4].split()[0])
    return total_bytes, total_msgs


case, ranks, n, prefix = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
per_rank = []
for r in range(ranks):
    rb, rm = sent(f"{prefix}.run.{r}.prof")
    db, dm = sent(f"{prefix}.dry.{r}.prof")
    per_rank.append((rb - db, rm - dm))
print(json.dumps({"case": case, "ranks": ranks, "n": n,
                  "bytes_sent": [b for b, _ in per_rank], "messages_sent": [m for _, m in per_rank],
                  "max_bytes": max(b for b, _ in per_rank),
                  "max_messages": max(m for _, m in per_rank)}))
