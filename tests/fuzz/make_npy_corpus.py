#!/usr/bin/env python3
"""Writes the seed corpus for npy_fuzz (tests/fuzz/corpus/npy_fuzz/): small valid .npy files
for every dtype, order and header version, and one file per class of malformed input.
Needs only the standard library; the output is committed, so run it only to change the seeds."""
import pathlib
import struct

OUT = pathlib.Path(__file__).resolve().parent / "corpus" / "npy_fuzz"


def npy(header, data=b"", major=1, length=None):
    header = header.encode("utf-8") if isinstance(header, str) else header
    width = "<H" if major == 1 else "<I"
    size = len(header) if length is None else length
    return b"\x93NUMPY" + bytes([major, 0]) + struct.pack(width, size) + header + data


def padded(header, major=1):
    # numpy's layout: spaces and a newline so the data starts on a 64-byte boundary.
    prefix = 10 if major == 1 else 12
    total = prefix + len(header) + 1
    return header + " " * ((64 - total % 64) % 64) + "\n"


def dict_(descr, fortran, shape):
    return "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, shape)


def f8(*values):
    return struct.pack("<%dd" % len(values), *values)


def f4(*values):
    return struct.pack("<%df" % len(values), *values)


SEEDS = {
    # valid
    "valid_f8_c_2x3.npy": npy(padded(dict_("<f8", False, "(2, 3)")), f8(0, 1, 2, 3, 4, 5)),
    "valid_f8_f_2x3.npy": npy(padded(dict_("<f8", True, "(2, 3)")), f8(0, 3, 1, 4, 2, 5)),
    "valid_f4_c_2x2x2.npy": npy(padded(dict_("<f4", False, "(2, 2, 2)")), f4(*range(8))),
    "valid_c8_f_3.npy": npy(padded(dict_("<c8", True, "(3,)")), f4(1, -1, 2, -2, 3, -3)),
    "valid_c16_c_scalar.npy": npy(padded(dict_("<c16", False, "()")), f8(1.5, -2.5)),
    "valid_f8_zero_size.npy": npy(padded(dict_("<f8", False, "(4, 0, 2)"))),
    "valid_native_order.npy": npy("{'shape': (2,), 'descr': '=f4', 'fortran_order': False}\n", f4(1, 2)),
    "valid_v2.npy": npy(padded(dict_("<f8", True, "(1,)"), 2), f8(7), major=2),
    "valid_v3.npy": npy(padded(dict_("<c8", False, "(1, 1)"), 3), f4(1, 2), major=3),
    # invalid
    "bad_magic.npy": b"\x93NUMPX\x01\x00" + b"\x00" * 8,
    "bad_version.npy": npy(dict_("<f8", True, "()"), f8(1), major=4),
    "big_endian.npy": npy(padded(dict_(">f8", False, "(1,)")), struct.pack(">d", 1)),
    "object_array.npy": npy(padded(dict_("|O", False, "(1,)")), b"\x00" * 8),
    "int64.npy": npy(padded(dict_("<i8", False, "(1,)")), b"\x00" * 8),
    "truncated_data.npy": npy(padded(dict_("<f8", False, "(2, 3)")), f8(0, 1, 2)),
    "trailing_bytes.npy": npy(padded(dict_("<f8", False, "(1,)")), f8(1, 2)),
    "header_len_past_end.npy": npy(dict_("<f8", False, "(1,)"), f8(1), length=0xFFFF),
    "duplicate_key.npy": npy("{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': ()}", f8(1)),
    "missing_key.npy": npy("{'descr': '<f8', 'shape': ()}", f8(1)),
    "negative_dim.npy": npy(padded(dict_("<f8", False, "(-1, 2)"))),
    "overflow_shape.npy": npy(padded(dict_("<c16", False, "(4294967296, 4294967296)"))),
    "shape_not_tuple.npy": npy(padded(dict_("<f8", False, "(1)")), f8(1)),
}

OUT.mkdir(parents=True, exist_ok=True)
for name, content in SEEDS.items():
    (OUT / name).write_bytes(content)
print("wrote %d seeds to %s" % (len(SEEDS), OUT))
