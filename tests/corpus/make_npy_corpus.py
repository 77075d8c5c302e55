#!/usr/bin/env python3
"""Writes tests/corpus/npy/: one malformed .npy file per defect, named after the defect.

Every file must be refused by `tenferro` with a typed error (malformed_corpus_test.cpp runs the
command on each). Pure Python, no NumPy: the bytes are spelled out so each defect is exact.
Run from anywhere: python3 tests/corpus/make_npy_corpus.py
"""
import pathlib
import struct

OUT = pathlib.Path(__file__).resolve().parent / "npy"
MAGIC = b"\x93NUMPY"


def image(header: str, data: bytes = b"", major: int = 1, length=None) -> bytes:
    text = header.encode("latin-1")
    n = len(text) if length is None else length
    size = struct.pack("<H", n) if major == 1 else struct.pack("<I", n)
    return MAGIC + bytes([major, 0]) + size + text + data


def dict_(descr="<f8", fortran="False", shape="(2, 2)"):
    return "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }\n" % (descr, fortran, shape)


F8x4 = struct.pack("<4d", 1.0, 2.0, 3.0, 4.0)

CORPUS = {
    # Not a .npy file at all.
    "empty": b"",
    "text_file": b"hello, this is not an array\n",
    "magic_only": MAGIC,
    "bad_magic": b"\x93NUMPZ\x01\x00" + b"\x00" * 8,
    "magic_then_nothing_else_v2": MAGIC + b"\x02\x00\x10",
    # Preamble.
    "version_4_0": image(dict_(), F8x4, major=4),
    "version_1_1": MAGIC + b"\x01\x01" + image(dict_(), F8x4)[8:],
    "version_0_0": MAGIC + b"\x00\x00" + image(dict_(), F8x4)[8:],
    "truncated_header_length": MAGIC + b"\x01\x00\x40",
    "header_length_past_end": image(dict_(), b"", length=4000),
    "header_length_4gib_v2": image(dict_(), F8x4, major=2, length=0xFFFFFFFF),
    # The header dict.
    "header_not_a_dict": image("['descr', '<f8']\n", F8x4),
    "header_unterminated_string": image("{'descr: '<f8', }\n", F8x4),
    "header_missing_descr": image("{'fortran_order': False, 'shape': (2, 2), }\n", F8x4),
    "header_missing_shape": image("{'descr': '<f8', 'fortran_order': False, }\n", F8x4),
    "header_missing_fortran_order": image("{'descr': '<f8', 'shape': (2, 2), }\n", F8x4),
    "header_duplicate_key": image(
        "{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }\n", F8x4),
    "header_unknown_key": image(
        "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), 'x': 1, }\n", F8x4),
    "header_fortran_order_not_bool": image(dict_(fortran="1"), F8x4),
    "header_non_ascii": image(dict_(descr="<f\xe98"), F8x4),
    "header_nul_byte": image(dict_().replace("descr", "de\0scr"), F8x4),
    "header_garbage_after_dict": image(dict_().rstrip("\n") + " x\n", F8x4),
    "header_empty": image("", F8x4),
    # dtypes we do not read.
    "descr_big_endian_f8": image(dict_(descr=">f8"), F8x4),
    "descr_int64": image(dict_(descr="<i8"), F8x4),
    "descr_object": image(dict_(descr="|O"), F8x4),
    "descr_bool": image(dict_(descr="|b1"), b"\x01" * 4),
    "descr_structured": image(
        "{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (4,), }\n", F8x4),
    "descr_bare_code": image(dict_(descr="f8"), F8x4),
    # Shapes.
    "shape_negative": image(dict_(shape="(-2, 2)"), F8x4),
    "shape_not_a_tuple": image(dict_(shape="(4)"), F8x4),
    "shape_list": image(dict_(shape="[2, 2]"), F8x4),
    "shape_float": image(dict_(shape="(2.0, 2)"), F8x4),
    "shape_leading_zero": image(dict_(shape="(02, 2)"), F8x4),
    "shape_extent_overflows_int64": image(dict_(shape="(9223372036854775808,)")),
    "shape_byte_count_overflows": image(dict_(shape="(9223372036854775807,)")),
    "shape_zero_extent_byte_count_overflows": image(dict_(shape="(0, 4294967296, 4294967296)")),
    "shape_rank_65": image(dict_(shape="(" + "1, " * 65 + ")"), struct.pack("<d", 1.0)),
    "shape_huge_without_data": image(dict_(shape="(1048576, 1048576)")),
    # Data.
    "data_truncated": image(dict_(), F8x4[:8]),
    "data_missing": image(dict_()),
    "data_trailing_bytes": image(dict_(), F8x4 + b"\x00"),
    "data_truncated_complex": image(dict_(descr="<c16", shape="(3,)"), b"\x00" * 40),
}


def main():
    OUT.mkdir(exist_ok=True)
    for old in OUT.glob("*.npy"):
        old.unlink()
    for name, data in sorted(CORPUS.items()):
        (OUT / (name + ".npy")).write_bytes(data)
    print(f"wrote {len(CORPUS)} files to {OUT}")


if __name__ == "__main__":
    main()
