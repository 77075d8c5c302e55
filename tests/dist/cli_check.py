"""`tenferro dist` under mpirun, end to end with the Python standard library only: the root
reads .npy files written here, the ranks compute, the root writes the results, which are
checked here against naive products and the factorisations' defining identities; an
unreadable input fails every rank with exit status 1 (no hang: the ctest timeout bounds it).

    python3 cli_check.py MPIRUN TENFERRO RANKS WORKDIR [WITH_ELPA: 1 or 0]
"""
import ast
import os
import random
import struct
import subprocess
import sys


def save(path, rows):  # a C-order float64 matrix
    m, n = len(rows), len(rows[0])
    header = "{'descr': '<f8', 'fortran_order': False, 'shape': (%d, %d), }" % (m, n)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%dd" % (m * n), *[x for r in rows for x in r]))


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:6] == b"\x93NUMPY", path
    if data[6] == 1:
        hlen, start = struct.unpack("<H", data[8:10])[0], 10
    else:
        hlen, start = struct.unpack("<I", data[8:12])[0], 12
    meta = ast.literal_eval(data[start:start + hlen].decode())
    assert meta["descr"] == "<f8", meta
    shape = meta["shape"]
    m, n = (tuple(shape) + (1, 1))[:2]  # a scalar is 1 x 1, a vector a column
    values = struct.unpack("<%dd" % (m * n), data[start + hlen:start + hlen + 8 * m * n])
    if meta["fortran_order"]:
        return [[values[j * m + i] for j in range(n)] for i in range(m)]
    return [[values[i * n + j] for j in range(n)] for i in range(m)]


def matmul(a, b):
    return [[sum(a[i][p] * b[p][j] for p in range(len(b))) for j in range(len(b[0]))]
            for i in range(len(a))]


def worst(x, y):
    return max(abs(u - v) for rx, ry in zip(x, y) for u, v in zip(rx, ry))


def main():
    mpirun, tenferro, ranks, work = sys.argv[1:5]
    with_elpa = len(sys.argv) > 5 and sys.argv[5] == "1"
    os.makedirs(work, exist_ok=True)
    run = [mpirun, "--oversubscribe", "--allow-run-as-root", "-np", ranks, tenferro, "dist"]
    rng = random.Random(7)
    a = [[rng.uniform(-1, 1) for _ in range(5)] for _ in range(7)]
    b = [[rng.uniform(-1, 1) for _ in range(3)] for _ in range(5)]
    save(f"{work}/a.npy", a)
    save(f"{work}/b.npy", b)
    failures = []

    subprocess.run(run + ["einsum", "ij,jk->ik", f"{work}/a.npy", f"{work}/b.npy", "-o",
                          f"{work}/c.npy", "--memory-limit", "40"], check=True)
    if worst(load(f"{work}/c.npy"), matmul(a, b)) > 1e-12:
        failures.append("dist einsum differs from the naive product")

    subprocess.run(run + ["linalg", "matmul", f"{work}/a.npy", f"{work}/b.npy", "-o",
                          f"{work}/p", "--block", "2"], check=True)
    if worst(load(f"{work}/p.c.npy"), matmul(a, b)) > 1e-12:
        failures.append("dist linalg matmul differs from the naive product")

    spd = matmul([list(r) for r in zip(*a)], a)  # 5 x 5, A^T A + 5 I
    for i in range(5):
        spd[i][i] += 5
    save(f"{work}/spd.npy", spd)
    subprocess.run(run + ["linalg", "cholesky", f"{work}/spd.npy", "-o", f"{work}/f", "--block",
                          "2"], check=True)
    lower = load(f"{work}/f.l.npy")
    if worst(matmul(lower, [list(r) for r in zip(*lower)]), spd) > 1e-12:
        failures.append("dist linalg cholesky does not reconstruct")

    subprocess.run(run + ["linalg", "lu", f"{work}/a.npy", "-o", f"{work}/lu", "--block", "2"],
                   check=True)
    perm = [int(p[0]) for p in load(f"{work}/lu.perm.npy")]
    if sorted(perm) != list(range(7)) or worst(
            matmul(load(f"{work}/lu.l.npy"), load(f"{work}/lu.u.npy")), [a[p] for p in perm]) > 1e-12:
        failures.append("dist linalg lu: L U is not A with its rows permuted")

    # Truncated to rank 3 in the canonical gauge: U^T A = S Vh and A Vh^T = U S hold for the
    # kept triples, the dropped weight is what the kept values leave of |A|_F^2.
    subprocess.run(run + ["linalg", "svd", f"{work}/a.npy", "-o", f"{work}/svd", "--block", "2",
                          "--max-rank", "3", "--canonical"], check=True)
    u, vh = load(f"{work}/svd.u.npy"), load(f"{work}/svd.vh.npy")
    sv = [r[0] for r in load(f"{work}/svd.s.npy")]
    dropped = load(f"{work}/svd.discarded_weight.npy")[0][0]
    ut = [list(r) for r in zip(*u)]
    s_vh = [[sv[i] * x for x in vh[i]] for i in range(3)]
    u_s = [[r[j] * sv[j] for j in range(3)] for r in u]
    frob = sum(x * x for r in a for x in r)
    if (len(sv) != 3 or sv != sorted(sv, reverse=True) or worst(matmul(ut, a), s_vh) > 1e-12 or
            worst(matmul(a, [list(r) for r in zip(*vh)]), u_s) > 1e-12 or
            abs(frob - sum(x * x for x in sv) - dropped) > 1e-12 or
            any(max(col, key=abs) <= 0 for col in ut)):
        failures.append("dist linalg svd --max-rank 3 --canonical: not a truncated SVD")

    # Both eigensolvers; a build without ELPA must refuse --solver elpa (exit 1, saying why).
    for solver in ("scalapack", "elpa"):
        done = subprocess.run(run + ["linalg", "eigh", f"{work}/spd.npy", "-o", f"{work}/e",
                                     "--block", "2", "--solver", solver],
                              capture_output=True, text=True, timeout=120)
        if solver == "elpa" and not with_elpa:
            if done.returncode != 1 or "built without ELPA" not in done.stderr:
                failures.append(f"--solver elpa without ELPA: exit {done.returncode}")
            continue
        if done.returncode != 0:
            failures.append(f"dist linalg eigh --solver {solver}: {done.stderr!r}")
            continue
        w, v = [r[0] for r in load(f"{work}/e.w.npy")], load(f"{work}/e.v.npy")
        if worst(matmul(spd, v), [[x * w[j] for j, x in enumerate(r)] for r in v]) > 1e-10:
            failures.append(f"dist linalg eigh --solver {solver}: A V != V diag(w)")

    missing = subprocess.run(run + ["linalg", "cholesky", f"{work}/nope.npy", "-o", f"{work}/g"],
                             capture_output=True, text=True, timeout=120)
    if missing.returncode != 1 or "nope.npy" not in missing.stderr:
        failures.append(f"a missing input: exit {missing.returncode}, stderr {missing.stderr!r}")

    for f in failures:
        print("FAILED:", f)
    print(f"tenferro dist on {ranks} rank(s): {'ok' if not failures else 'FAILED'}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
