// .npy reading and writing: NumPy's exact byte images, round trips for every dtype and both
// orders, hand-built 2.0/3.0 headers, and one test per class of malformed input.
#include "tenferro/core/npy.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>

#include <complex>
#include <cstring>
#include <filesystem>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace tenferro {
namespace {

using c32 = std::complex<float>;
constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
using c64 = std::complex<double>;

std::span<const std::byte> as_bytes(const std::string& image) {
  return {reinterpret_cast<const std::byte*>(image.data()), image.size()};
}

template <class T>
std::string raw(const std::vector<T>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

// Magic, version, little-endian header length of `width` bytes, then the header text as given
// (no padding added: the reader must not depend on numpy's alignment).
std::string image(int major, const std::string& header, const std::string& data = {}) {
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += '\0';
  const std::size_t width = major == 1 ? 2 : 4;
  for (std::size_t i = 0; i < width; ++i)
    out += static_cast<char>((header.size() >> (8 * i)) & 0xff);
  return out + header + data;
}

std::string v1(const std::string& header, const std::string& data = {}) {
  return image(1, header, data);
}

// The dict numpy writes, for a given descr / order / shape literal.
std::string dict(const std::string& descr, bool fortran, const std::string& shape) {
  return "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
         ", 'shape': " + shape + ", }";
}

// Expects parse(`bytes`) to throw a Validation error in phase Io from op "npy" whose message
// contains `needle`.
void expect_npy_error(const std::string& bytes, const std::string& needle) {
  try {
    npy::parse(as_bytes(bytes));
    ADD_FAILURE() << "parse accepted a malformed image; expected an error containing '" << needle
                  << "'";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Validation) << e.what();
    EXPECT_EQ(e.phase(), ErrorPhase::Io) << e.what();
    EXPECT_EQ(e.op(), "npy");
    EXPECT_NE(e.message().find(needle), std::string::npos)
        << "message '" << e.message() << "' lacks '" << needle << "'";
  }
}

// Same, for an arbitrary call.
template <class F>
void expect_npy_error_from(F&& f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "expected an error containing '" << needle << "'";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Validation) << e.what();
    EXPECT_EQ(e.phase(), ErrorPhase::Io) << e.what();
    EXPECT_NE(e.message().find(needle), std::string::npos) << e.message();
  }
}

// ---- NumPy's own byte images ------------------------------------------------------------

// np.save(f, np.arange(6.0).reshape(2, 3)) with numpy >= 1.24: C order, 21-digit growth space
// for axis 0, padded so the data starts at byte 128.
const std::string kNumpyCOrderHeader =
    "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }" + std::string(20, ' ') +
    std::string(38, ' ') + "\n";
// np.save(f, np.asfortranarray(np.arange(6.0).reshape(2, 3))): growth space for the last axis.
const std::string kNumpyFortranHeader =
    "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }" + std::string(20, ' ') +
    std::string(39, ' ') + "\n";

TEST(NpyNumpyImage, COrderArangeHasNumpyIndexOrder) {
  ASSERT_EQ(kNumpyCOrderHeader.size(), 118u);
  const std::string bytes = std::string("\x93NUMPY\x01\x00\x76\x00", 10) + kNumpyCOrderHeader +
                            raw(std::vector<double>{0, 1, 2, 3, 4, 5});
  ASSERT_EQ(bytes.size(), 128u + 48u);
  const Tensor t = npy::parse(as_bytes(bytes));
  ASSERT_EQ(t.dtype(), DType::F64);
  ASSERT_EQ(t.shape(), (Shape{2, 3}));
  EXPECT_TRUE(t.is_compact());
  for (std::int64_t i = 0; i < 2; ++i) {
    for (std::int64_t j = 0; j < 3; ++j) EXPECT_EQ(t.at<double>({i, j}), 3.0 * i + j);
  }
}

TEST(NpyNumpyImage, FortranOrderArangeHasNumpyIndexOrder) {
  const std::string bytes = std::string("\x93NUMPY\x01\x00\x76\x00", 10) + kNumpyFortranHeader +
                            raw(std::vector<double>{0, 3, 1, 4, 2, 5});
  const Tensor t = npy::parse(as_bytes(bytes));
  ASSERT_EQ(t.shape(), (Shape{2, 3}));
  for (std::int64_t i = 0; i < 2; ++i) {
    for (std::int64_t j = 0; j < 3; ++j) EXPECT_EQ(t.at<double>({i, j}), 3.0 * i + j);
  }
}

TEST(NpyNumpyImage, SerializeWritesNumpysExactBytes) {
  const Tensor t = Tensor::from_row_major<double>({2, 3}, {0, 1, 2, 3, 4, 5});
  const std::string expected = std::string("\x93NUMPY\x01\x00\x76\x00", 10) + kNumpyFortranHeader +
                               raw(std::vector<double>{0, 3, 1, 4, 2, 5});
  EXPECT_EQ(npy::serialize(t), expected);
}

TEST(NpyNumpyImage, SerializeScalarAndVectorHeaders) {
  // np.save of np.float32(1.5) as a 0-d array, and of np.zeros(3, np.complex128).
  const std::string scalar = npy::serialize(Tensor::scalar<float>(1.5f));
  const std::string scalar_dict = "{'descr': '<f4', 'fortran_order': True, 'shape': (), }";
  ASSERT_EQ(scalar.size(), 128u + 4u);
  EXPECT_EQ(scalar.substr(0, 10), std::string("\x93NUMPY\x01\x00\x76\x00", 10));
  EXPECT_EQ(scalar.substr(10, scalar_dict.size()), scalar_dict);
  EXPECT_EQ(scalar[127], '\n');
  float value = 0;
  std::memcpy(&value, scalar.data() + 128, 4);
  EXPECT_EQ(value, 1.5f);

  const std::string vector = npy::serialize(Tensor::zeros(DType::C64, {3}));
  const std::string vector_dict = "{'descr': '<c16', 'fortran_order': True, 'shape': (3,), }";
  EXPECT_EQ(vector.substr(10, vector_dict.size()), vector_dict);
  EXPECT_EQ(vector.size() % 16, 0u);
  EXPECT_EQ((vector.size() - 48) % 64, 0u);  // data (3 * 16 bytes) starts on a 64-byte boundary
}

// ---- round trips ----------------------------------------------------------------------------

// Distinct values in column-major order (complex ones with distinct imaginary parts).
Tensor pattern(DType dtype, const Shape& shape) {
  const std::int64_t n = checked_numel(shape);
  return visit_dtype(dtype, [&](auto zero) {
    using T = decltype(zero);
    std::vector<T> values(static_cast<std::size_t>(n));
    for (std::int64_t k = 0; k < n; ++k) {
      if constexpr (is_complex(dtype_of_v<T>)) {
        using R = typename T::value_type;
        values[static_cast<std::size_t>(k)] = T(R(k) + R(0.25), -R(2 * k) - R(0.5));
      } else {
        values[static_cast<std::size_t>(k)] = T(k) + T(0.5);
      }
    }
    return Tensor::from_col_major<T>(shape, std::span<const T>(values));
  });
}

// The column-major values of `t` rearranged into row-major (C) order, computed by index
// arithmetic alone so it does not rely on the view machinery under test.
template <class T>
std::vector<T> row_major_values(const Tensor& t) {
  const std::vector<T> col = t.contiguous().to_vector<T>();
  const Shape& shape = t.shape();
  std::vector<T> row(col.size());
  for (std::size_t r = 0; r < row.size(); ++r) {
    std::size_t rest = r, c = 0, col_stride = 1;
    std::vector<std::size_t> index(shape.size());
    for (std::size_t a = shape.size(); a-- > 0;) {
      index[a] = rest % static_cast<std::size_t>(shape[a]);
      rest /= static_cast<std::size_t>(shape[a]);
    }
    for (std::size_t a = 0; a < shape.size(); ++a) {
      c += index[a] * col_stride;
      col_stride *= static_cast<std::size_t>(shape[a]);
    }
    row[r] = col[c];
  }
  return row;
}

std::string shape_literal(const Shape& shape) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

std::string descr(DType dtype) {
  switch (dtype) {
    case DType::F32:
      return "<f4";
    case DType::F64:
      return "<f8";
    case DType::C32:
      return "<c8";
    case DType::C64:
      return "<c16";
  }
  return "?";
}

void expect_same(const Tensor& actual, const Tensor& expected) {
  ASSERT_EQ(actual.dtype(), expected.dtype());
  ASSERT_EQ(actual.shape(), expected.shape());
  visit_dtype(expected.dtype(), [&](auto zero) {
    using T = decltype(zero);
    EXPECT_EQ(actual.to_vector<T>(), expected.to_vector<T>());
  });
}

const std::vector<Shape> kShapes = {{},     {0},       {1},       {5},         {2, 3},
                                    {3, 0}, {0, 4, 2}, {2, 3, 4}, {1, 1, 1, 2}};

TEST(NpyRoundTrip, FortranOrderAllDTypesAndShapes) {
  for (const DType dtype : kAllDTypes) {
    for (const Shape& shape : kShapes) {
      SCOPED_TRACE(std::string(dtype_name(dtype)) + " " + shape_literal(shape));
      const Tensor t = pattern(dtype, shape);
      const std::string bytes = npy::serialize(t);
      expect_same(npy::parse(as_bytes(bytes)), t);
    }
  }
}

TEST(NpyRoundTrip, COrderAllDTypesAndShapes) {
  for (const DType dtype : kAllDTypes) {
    for (const Shape& shape : kShapes) {
      SCOPED_TRACE(std::string(dtype_name(dtype)) + " " + shape_literal(shape));
      const Tensor t = pattern(dtype, shape);
      const std::string data =
          visit_dtype(dtype, [&](auto zero) { return raw(row_major_values<decltype(zero)>(t)); });
      const Tensor parsed =
          npy::parse(as_bytes(v1(dict(descr(dtype), false, shape_literal(shape)), data)));
      expect_same(parsed, t);
      EXPECT_TRUE(parsed.is_compact());
    }
  }
}

TEST(NpyRoundTrip, COrderMatchesFromRowMajor) {
  const std::vector<c32> values = {{1, 2}, {3, 4}, {5, 6}, {7, 8}, {9, 10}, {11, 12}};
  const Tensor parsed = npy::parse(as_bytes(v1(dict("<c8", false, "(3, 2)"), raw(values))));
  expect_same(parsed, Tensor::from_row_major<c32>({3, 2}, std::span<const c32>(values)));
  EXPECT_EQ(parsed.at<c32>({2, 0}), c32(9, 10));
  EXPECT_EQ(parsed.at<c32>({0, 1}), c32(3, 4));
}

TEST(NpyRoundTrip, StridedViewsSerializeTheirLogicalOrder) {
  const Tensor t = pattern(DType::F64, {3, 4, 2});
  const Tensor view = t.permute({2, 0, 1}).slice(2, 1, 4, 2);
  expect_same(npy::parse(as_bytes(npy::serialize(view))), view.contiguous());
}

TEST(NpyRoundTrip, SpecialFloatValuesAreBitExact) {
  const std::vector<double> values = {-0.0, std::numeric_limits<double>::infinity(),
                                      std::numeric_limits<double>::quiet_NaN(),
                                      std::numeric_limits<double>::denorm_min()};
  const Tensor t = Tensor::from_col_major<double>({4}, std::span<const double>(values));
  const Tensor back = npy::parse(as_bytes(npy::serialize(t)));
  ASSERT_EQ(back.numel(), 4);
  EXPECT_EQ(std::memcmp(back.raw_data(), values.data(), 4 * sizeof(double)), 0);
}

// ---- accepted header variants ---------------------------------------------------------------

TEST(NpyHeader, Version2HeaderBuiltByHand) {
  const Tensor t = npy::parse(as_bytes(
      image(2, dict("<f4", false, "(2, 2)") + "   \n", raw(std::vector<float>{1, 2, 3, 4}))));
  ASSERT_EQ(t.shape(), (Shape{2, 2}));
  EXPECT_EQ(t.at<float>({0, 1}), 2.0f);
  EXPECT_EQ(t.at<float>({1, 0}), 3.0f);
}

TEST(NpyHeader, Version3Utf8HeaderBuiltByHand) {
  const Tensor t = npy::parse(as_bytes(
      image(3, dict("<c16", true, "(2,)") + "\n", raw(std::vector<c64>{{1, -1}, {2, -2}}))));
  ASSERT_EQ(t.shape(), (Shape{2}));
  EXPECT_EQ(t.at<c64>({1}), c64(2, -2));
}

TEST(NpyHeader, Version2WithLengthAbove65535) {
  const std::string header = dict("<f8", true, "(1,)") + std::string(70000, ' ') + "\n";
  const Tensor t = npy::parse(as_bytes(image(2, header, raw(std::vector<double>{7}))));
  EXPECT_EQ(t.at<double>({0}), 7.0);
}

TEST(NpyHeader, KeysInAnyOrderQuotesWhitespaceAndNoTrailingComma) {
  const std::string data = raw(std::vector<double>{1, 2, 3, 4, 5, 6});
  const std::vector<std::string> headers = {
      "{'shape': (3, 2), 'fortran_order': True, 'descr': '<f8'}",
      "{\"fortran_order\": True, \"descr\": \"<f8\", \"shape\": (3,2,)}",
      "\t{ 'descr' :'<f8' ,\n 'shape' : ( 3 , 2 ) , 'fortran_order' : True , }\r\n  \n",
      "{'descr': '=f8', 'fortran_order': True, 'shape': (3, 2)}",  // native == little here
  };
  for (const std::string& header : headers) {
    SCOPED_TRACE(header);
    const Tensor t = npy::parse(as_bytes(v1(header, data)));
    ASSERT_EQ(t.shape(), (Shape{3, 2}));
    EXPECT_EQ(t.at<double>({2, 1}), 6.0);
    EXPECT_EQ(t.at<double>({0, 1}), 4.0);
  }
}

TEST(NpyHeader, ZeroDimensionalAndZeroSize) {
  const Tensor scalar =
      npy::parse(as_bytes(v1(dict("<c8", false, "()"), raw(std::vector<c32>{{3, 4}}))));
  EXPECT_EQ(scalar.rank(), 0);
  EXPECT_EQ(scalar.at<c32>({}), c32(3, 4));
  const Tensor empty = npy::parse(as_bytes(v1(dict("<f4", false, "(4, 0, 2)"))));
  EXPECT_EQ(empty.shape(), (Shape{4, 0, 2}));
  EXPECT_EQ(empty.numel(), 0);
}

// ---- malformed input: one test per class ------------------------------------------------

TEST(NpyMalformed, EmptyAndBadMagic) {
  expect_npy_error("", "magic");
  expect_npy_error("\x93NUMP", "magic");
  expect_npy_error("\x93NUMPz\x01\x00\x10\x00", "magic");
  expect_npy_error("PK\x03\x04 a zip file", "magic");
}

TEST(NpyMalformed, UnsupportedVersion) {
  const std::string header = dict("<f8", true, "()");
  for (int major : {0, 4, 255}) expect_npy_error(image(major, header), "version");
  std::string minor = v1(header);
  minor[7] = '\x01';
  expect_npy_error(minor, "version 1.1");
}

TEST(NpyMalformed, TruncatedBeforeHeaderLength) {
  expect_npy_error(std::string("\x93NUMPY\x01", 7), "truncated");
  expect_npy_error(std::string("\x93NUMPY\x01\x00\x10", 9), "truncated");
  expect_npy_error(std::string("\x93NUMPY\x02\x00\x10\x00\x00", 11), "truncated");
}

TEST(NpyMalformed, HeaderLengthBeyondFile) {
  std::string bytes = v1(dict("<f8", true, "()"), raw(std::vector<double>{1}));
  bytes[8] = '\xff';
  bytes[9] = '\xff';
  expect_npy_error(bytes, "past the end");
  std::string v2 = image(2, dict("<f8", true, "()"), raw(std::vector<double>{1}));
  v2[11] = '\x80';  // header length ~ 2 GiB
  expect_npy_error(v2, "past the end");
}

TEST(NpyMalformed, EveryTruncationOfAValidFileIsRejected) {
  const std::string full = npy::serialize(pattern(DType::C32, {2, 3}));
  ASSERT_NO_THROW(npy::parse(as_bytes(full)));
  for (std::size_t n = 0; n < full.size(); ++n) {
    SCOPED_TRACE(n);
    // Copy into an exactly sized buffer so ASan catches any read past the end.
    const std::vector<std::byte> prefix(as_bytes(full).begin(), as_bytes(full).begin() + n);
    EXPECT_THROW(npy::parse(prefix), Error);
  }
}

TEST(NpyMalformed, TruncatedData) {
  expect_npy_error(v1(dict("<f8", false, "(2, 3)"), raw(std::vector<double>{0, 1, 2, 3, 4})),
                   "truncated data");
  expect_npy_error(v1(dict("<c16", false, "()")), "truncated data");
}

TEST(NpyMalformed, TrailingBytesAfterData) {
  expect_npy_error(v1(dict("<f4", true, "(2,)"), raw(std::vector<float>{1, 2, 3})), "trailing");
  expect_npy_error(v1(dict("<f4", true, "(0,)"), "x"), "trailing");
}

TEST(NpyMalformed, OtherDTypes) {
  for (const char* d : {"<i8", "<i4", "|u1", "|b1", "<f2", "<f16", "<c32", "<U3", "|S4", "<M8[s]",
                        "<m8[s]", "|V8", "<d", "<f", "", "<", "<F8", "<f08"}) {
    SCOPED_TRACE(d);
    expect_npy_error(v1(dict(d, true, "()"), std::string(8, '\0')), "unsupported descr");
  }
}

TEST(NpyMalformed, BigEndian) {
  for (const char* d : {">f4", ">f8", ">c8", ">c16", "!f8"}) {
    SCOPED_TRACE(d);
    expect_npy_error(v1(dict(d, true, "()"), std::string(16, '\0')), "unsupported descr");
  }
}

TEST(NpyMalformed, NotApplicableOrBareByteOrderForMultiByteTypes) {
  for (const char* d : {"|f4", "|f8", "|c8", "|c16", "f8", "c16"}) {
    SCOPED_TRACE(d);
    expect_npy_error(v1(dict(d, true, "()"), std::string(16, '\0')), "unsupported descr");
  }
}

TEST(NpyMalformed, ObjectArray) {
  expect_npy_error(v1(dict("|O", false, "(2,)"), std::string(16, '\0')), "unsupported descr '|O'");
}

TEST(NpyMalformed, StructuredDescr) {
  expect_npy_error(
      v1("{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (1,)}", std::string(8, '\0')),
      "'descr' value");
}

TEST(NpyMalformed, MissingKeys) {
  expect_npy_error(v1("{'fortran_order': False, 'shape': ()}", std::string(8, '\0')),
                   "missing the key 'descr'");
  expect_npy_error(v1("{'descr': '<f8', 'shape': ()}", std::string(8, '\0')),
                   "missing the key 'fortran_order'");
  expect_npy_error(v1("{'descr': '<f8', 'fortran_order': False}", std::string(8, '\0')),
                   "missing the key 'shape'");
  expect_npy_error(v1("{}"), "missing the key");
}

TEST(NpyMalformed, DuplicateKeys) {
  expect_npy_error(v1("{'descr': '<f8', 'fortran_order': False, 'shape': (), 'descr': '<f8'}",
                      std::string(8, '\0')),
                   "duplicate header key 'descr'");
  expect_npy_error(v1("{'shape': (1,), 'descr': '<f8', 'fortran_order': False, 'shape': (1,)}",
                      std::string(8, '\0')),
                   "duplicate header key 'shape'");
}

TEST(NpyMalformed, UnknownKey) {
  expect_npy_error(
      v1("{'descr': '<f8', 'fortran_order': False, 'shape': (), 'extra': 1}", std::string(8, '\0')),
      "unexpected header key 'extra'");
}

TEST(NpyMalformed, NegativeDimension) {
  expect_npy_error(v1(dict("<f8", false, "(2, -3)")), "negative dimension");
  expect_npy_error(v1(dict("<f8", false, "(-1,)")), "negative dimension");
}

TEST(NpyMalformed, DimensionNotAPlainInteger) {
  for (const char* shape : {"(2.0,)", "(+2,)", "(0x2,)", "(1_0,)", "(02,)", "(2L,)", "('2',)",
                            "(True,)", "(,)", "(2,,)", "(2 3)"}) {
    SCOPED_TRACE(shape);
    expect_npy_error(v1(dict("<f8", false, shape)), "malformed header");
  }
}

TEST(NpyMalformed, ShapeNotATuple) {
  expect_npy_error(v1(dict("<f8", false, "(3)"), std::string(24, '\0')), "not a tuple");
  expect_npy_error(v1(dict("<f8", false, "3"), std::string(24, '\0')), "a tuple '('");
  expect_npy_error(v1(dict("<f8", false, "[3]"), std::string(24, '\0')), "a tuple '('");
  expect_npy_error(v1(dict("<f8", false, "(3,"), std::string(24, '\0')), "malformed header");
}

TEST(NpyMalformed, FortranOrderNotABool) {
  for (const char* value : {"1", "true", "'True'", "None", "Tru"}) {
    SCOPED_TRACE(value);
    expect_npy_error(
        v1(std::string("{'descr': '<f8', 'fortran_order': ") + value + ", 'shape': ()}",
           std::string(8, '\0')),
        "True or False");
  }
}

TEST(NpyMalformed, HeaderIsNotADict) {
  expect_npy_error(v1("['descr', '<f8']"), "start with '{'");
  expect_npy_error(v1(""), "start with '{'");
  expect_npy_error(v1("{'descr': '<f8', 'fortran_order': False, 'shape': ()"), "',' or '}'");
  expect_npy_error(v1("{'descr': '<f8' 'fortran_order': False, 'shape': ()}"), "',' or '}'");
  expect_npy_error(v1("{'descr' '<f8', 'fortran_order': False, 'shape': ()}"), "':'");
}

TEST(NpyMalformed, GarbageAfterTheDict) {
  const std::string data(8, '\0');
  expect_npy_error(v1(dict("<f8", false, "()") + "  x\n", data), "only padding");
  expect_npy_error(v1(dict("<f8", false, "()") + "# comment\n", data), "only padding");
  expect_npy_error(v1(dict("<f8", false, "()") + std::string(1, '\0'), data), "only padding");
}

TEST(NpyMalformed, BadStrings) {
  expect_npy_error(v1("{'descr: '<f8', 'fortran_order': False, 'shape': ()}"), "malformed header");
  expect_npy_error(v1("{'descr': '<f8\\'', 'fortran_order': False, 'shape': ()}"), "plain ASCII");
  expect_npy_error(v1("{b'descr': '<f8', 'fortran_order': False, 'shape': ()}"), "a dict key");
  expect_npy_error(v1("{'descr': '<f8"), "closing quote");
}

TEST(NpyMalformed, NonAsciiHeaderBytes) {
  // UTF-8 'é' inside a key of a 3.0 (UTF-8) header, and a Latin-1 byte in a 1.0 header.
  expect_npy_error(image(3, "{'d\xc3\xa9scr': '<f8', 'fortran_order': False, 'shape': ()}",
                         std::string(8, '\0')),
                   "plain ASCII");
  expect_npy_error(
      v1("{'descr': '<f8', 'fortran_order': False, 'shape': ()}\xa0", std::string(8, '\0')),
      "only padding");
}

TEST(NpyMalformed, DimensionOverflowsInt64) {
  expect_npy_error(v1(dict("<f8", false, "(9223372036854775808,)")), "does not fit in int64");
  expect_npy_error(v1(dict("<f8", false, "(99999999999999999999999999,)")),
                   "does not fit in int64");
}

TEST(NpyMalformed, ByteCountOverflows) {
  // Each extent fits in int64; the byte count does not.
  expect_npy_error(v1(dict("<f8", false, "(9223372036854775807,)")), "overflows");
  expect_npy_error(v1(dict("<c16", false, "(4294967296, 4294967296)")), "overflows");
  expect_npy_error(v1(dict("<f4", true, "(2, 3037000500, 3037000500)")), "overflows");
  // A zero extent does not excuse an absurd shape.
  expect_npy_error(v1(dict("<f8", false, "(0, 4294967296, 4294967296)")), "overflows");
}

TEST(NpyMalformed, HugeButRepresentableShapeIsTruncatedData) {
  // 2^40 elements fit in the arithmetic; the file simply lacks the data (nothing is allocated).
  expect_npy_error(v1(dict("<f8", false, "(1048576, 1048576)")), "truncated data");
}

TEST(NpyMalformed, TooManyDimensions) {
  std::string shape = "(";
  for (int i = 0; i < 65; ++i) shape += "1, ";
  expect_npy_error(v1(dict("<f8", false, shape + ")"), std::string(8, '\0')), "more than 64");
  std::string ok = "(";
  for (int i = 0; i < 64; ++i) ok += "1, ";
  EXPECT_EQ(npy::parse(as_bytes(v1(dict("<f8", false, ok + ")"), std::string(8, '\0')))).rank(),
            64);
}

TEST(NpyMalformed, SerializeRefusesWhatItCouldNotReadBack) {
  const Tensor rank65 = Tensor::zeros(DType::F32, Shape(65, 1));
  expect_npy_error_from([&] { npy::serialize(rank65); }, "at most 64");
  EXPECT_NO_THROW(npy::parse(as_bytes(npy::serialize(Tensor::zeros(DType::F32, Shape(64, 1))))));
}

// Issue 21 item 7: the saver applies the loader's limits, so it never writes a file that the
// loader (or NumPy) refuses. (0, 2^63-1) complex128 is a valid empty tensor in memory; its
// non-zero extent times 16 bytes overflows, so the loader rejects it.
TEST(NpyMalformed, SerializeRefusesAShapeTheLoaderRejects) {
  const Tensor empty_but_huge = Tensor::zeros(DType::C64, Shape{0, kInt64Max});
  expect_npy_error_from([&] { npy::serialize(empty_but_huge); }, "overflows");
  const std::string as_loaded = v1(dict("<c16", true, "(0, 9223372036854775807)"));
  expect_npy_error(as_loaded, "overflows");
  // The largest storable extent next to a zero still round-trips.
  const Tensor storable = Tensor::zeros(DType::C64, Shape{0, kInt64Max / 16});
  EXPECT_EQ(npy::parse(as_bytes(npy::serialize(storable))).shape(), storable.shape());
}

// Issue 21 item 5: a header is bounded before it is read (numpy's own reader allows 10000
// bytes by default); 70000 bytes (NpyHeader.Version2WithLengthAbove65535) stays readable.
TEST(NpyMalformed, HeaderAboveOneMebibyteIsRefused) {
  const std::string header = dict("<f8", true, "(1,)") + std::string(std::size_t{1} << 20, ' ');
  expect_npy_error(image(2, header + "\n", raw(std::vector<double>{7})), "1048576-byte limit");
}

TEST(NpyMalformed, RandomByteFlipsNeverCrash) {
  // Flipped bytes either still parse or give a typed Error; ASan runs prove no bad reads.
  const std::string valid = v1(dict("<c8", false, "(2, 3)"), std::string(48, '\x01'));
  std::mt19937 rng(12345);
  int parsed = 0, rejected = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::string bytes = valid;
    const int flips = 1 + static_cast<int>(rng() % 3);
    for (int f = 0; f < flips; ++f) bytes[rng() % bytes.size()] = static_cast<char>(rng() & 0xff);
    const std::vector<std::byte> exact(as_bytes(bytes).begin(), as_bytes(bytes).end());
    try {
      npy::parse(exact);
      ++parsed;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Validation);
      ++rejected;
    }
  }
  EXPECT_GT(rejected, 0);
  EXPECT_GT(parsed, 0);  // flips in the data bytes keep the file valid
}

// ---- files ----------------------------------------------------------------------------------

class NpyFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("tenferro_npy_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(NpyFiles, SaveThenLoadAllDTypes) {
  for (const DType dtype : kAllDTypes) {
    const Tensor t = pattern(dtype, {3, 2, 2});
    const auto path = dir_ / (std::string(dtype_name(dtype)) + ".npy");
    npy::save(path, t);
    EXPECT_EQ(std::filesystem::file_size(path), npy::serialize(t).size());
    expect_same(npy::load(path), t);
  }
}

TEST_F(NpyFiles, MissingFileIsAnIoError) {
  const auto path = dir_ / "does_not_exist.npy";
  try {
    npy::load(path);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Validation);
    EXPECT_EQ(e.phase(), ErrorPhase::Io);
    EXPECT_EQ(e.op(), "npy.load");
    EXPECT_NE(e.message().find(path.string()), std::string::npos) << e.message();
  }
}

TEST_F(NpyFiles, LoadingADirectoryIsAnIoError) {
  try {
    npy::load(dir_);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.phase(), ErrorPhase::Io);
    EXPECT_NE(e.message().find(dir_.string()), std::string::npos) << e.message();
  }
}

TEST_F(NpyFiles, SaveIntoMissingDirectoryIsAnIoError) {
  const auto path = dir_ / "no" / "such" / "dir.npy";
  try {
    npy::save(path, Tensor::zeros(DType::F32, {2}));
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Validation);
    EXPECT_EQ(e.phase(), ErrorPhase::Io);
    EXPECT_EQ(e.op(), "npy.save");
    EXPECT_NE(e.message().find(path.string()), std::string::npos) << e.message();
  }
}

TEST_F(NpyFiles, MalformedFileNamesThePathAndNestsTheCause) {
  const auto path = dir_ / "big_endian.npy";
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    const std::string bytes = v1(dict(">f8", false, "()"), std::string(8, '\0'));
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
  }
  try {
    npy::load(path);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.op(), "npy.load");
    EXPECT_NE(e.message().find(path.string()), std::string::npos) << e.message();
    EXPECT_EQ(reason(e), &e);
    const Error* root = root_reason(e);
    ASSERT_NE(root, nullptr);
    EXPECT_EQ(root->op(), "npy");
    EXPECT_EQ(root->kind(), ErrorKind::Validation);
    EXPECT_NE(root->message().find("'>f8'"), std::string::npos) << root->message();
  }
}

// ---- bounded reads (issue 21 item 5) ---------------------------------------------------------

// Expects npy::load(path) to throw a Validation/Io error from npy.load whose message, or whose
// root cause's message, contains `needle`.
void expect_load_error(const std::filesystem::path& path, const std::string& needle) {
  try {
    npy::load(path);
    ADD_FAILURE() << "load accepted " << path;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Validation) << e.what();
    EXPECT_EQ(e.phase(), ErrorPhase::Io) << e.what();
    EXPECT_EQ(e.op(), "npy.load");
    const std::string root = root_reason(e)->message();
    EXPECT_TRUE(e.message().find(needle) != std::string::npos ||
                root.find(needle) != std::string::npos)
        << "'" << e.message() << "' / '" << root << "' lack '" << needle << "'";
  }
}

TEST_F(NpyFiles, FifoIsRefusedWithoutBlocking) {
  // Before: fopen blocked forever waiting for a writer that never comes.
  const auto fifo = dir_ / "pipe.npy";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_load_error(fifo, "is a FIFO");
}

TEST_F(NpyFiles, EndlessDeviceIsRefusedBeforeReading) {
  // Before: /dev/zero was read to the end (never), memory growing until it failed.
  expect_load_error("/dev/zero", "is a character device");
}

TEST_F(NpyFiles, DirectoryIsRefusedAsNotARegularFile) {
  expect_load_error(dir_, "is a directory");
}

// A sparse file: 100 GiB long, a few bytes on disk.
void write_sparse(const std::filesystem::path& path, const std::string& head, off_t size) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::write(fd, head.data(), head.size()), static_cast<ssize_t>(head.size()));
  ASSERT_EQ(::ftruncate(fd, size), 0);
  ::close(fd);
}

TEST_F(NpyFiles, HugeSparseFileIsRejectedFromItsHeaderAlone) {
  // Before: the whole size was reserved (100 GiB: bad_alloc, an untyped error) and then read.
  constexpr off_t k100GiB = off_t{100} << 30;
  const auto no_magic = dir_ / "zeros.npy";
  write_sparse(no_magic, "", k100GiB);
  expect_load_error(no_magic, "missing the \\x93NUMPY magic");
  const auto trailing = dir_ / "trailing.npy";
  write_sparse(trailing, v1(dict("<f8", false, "(2,)"), raw(std::vector<double>{1, 2})), k100GiB);
  expect_load_error(trailing, "trailing bytes");
}

TEST_F(NpyFiles, LoadReadsExactlyTheDeclaredBytes) {
  const Tensor t = pattern(DType::C32, {3, 5});
  const auto path = dir_ / "t.npy";
  npy::save(path, t);
  expect_same(npy::load(path), t);
  // One byte more or less than the header declares: both refused, with the counts.
  const std::string image = npy::serialize(t);
  const auto longer = dir_ / "longer.npy", shorter = dir_ / "shorter.npy";
  write_sparse(longer, image + "x", static_cast<off_t>(image.size() + 1));
  write_sparse(shorter, image.substr(0, image.size() - 1), static_cast<off_t>(image.size() - 1));
  expect_load_error(longer, "1 trailing bytes");
  expect_load_error(shorter, "truncated data");
}

// ---- atomic saves (issue 21 item 2) ----------------------------------------------------------

std::string read_all(const std::filesystem::path& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return "<missing>";
  std::string out;
  char buffer[4096];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) out.append(buffer, n);
  std::fclose(f);
  return out;
}

std::vector<std::string> names_in(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST_F(NpyFiles, FailedSaveKeepsTheOldFileAndLeavesNoTemporary) {
  // Before: fopen("wb") truncated the old file first, so a write that failed (here: the
  // file-size limit, as a full disk would) left a truncated file and the old one was lost.
  const auto path = dir_ / "result.npy";
  const Tensor old_value = pattern(DType::F64, {2});
  npy::save(path, old_value);
  const std::string old_bytes = read_all(path);
  const Tensor big = pattern(DType::F64, {64, 64});  // 32 KiB of data
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::signal(SIGXFSZ, SIG_IGN);  // a write past the limit fails with EFBIG instead
    const rlimit limit{4096, 4096};
    if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) ::_exit(10);
    try {
      npy::save(path, big);
    } catch (const Error& e) {
      const bool typed =
          e.kind() == ErrorKind::Validation && e.phase() == ErrorPhase::Io && e.op() == "npy.save";
      ::_exit(typed ? 0 : 11);
    } catch (...) {
      ::_exit(12);
    }
    ::_exit(13);  // the save claimed success
  }
  int raw_status = 0;
  ASSERT_EQ(::waitpid(child, &raw_status, 0), child);
  ASSERT_TRUE(WIFEXITED(raw_status));
  EXPECT_EQ(WEXITSTATUS(raw_status), 0) << "10: setrlimit, 11: untyped kind, 12: not an Error, "
                                           "13: no error";
  EXPECT_EQ(read_all(path), old_bytes);
  EXPECT_EQ(names_in(dir_), std::vector<std::string>{"result.npy"});
}

TEST_F(NpyFiles, SaveToAFullDeviceIsAnIoError) {
  expect_npy_error_from([] { npy::save("/dev/full", Tensor::zeros(DType::F32, {4})); },
                        "No space left on device");
}

TEST_F(NpyFiles, SaveThroughASymbolicLinkReplacesItsTarget) {
  const auto target = dir_ / "target.npy", link = dir_ / "link.npy";
  npy::save(target, pattern(DType::F32, {1}));
  std::filesystem::create_symlink(target, link);
  const Tensor t = pattern(DType::F32, {2, 3});
  npy::save(link, t);
  EXPECT_TRUE(std::filesystem::is_symlink(link));
  expect_same(npy::load(target), t);
  EXPECT_EQ(names_in(dir_), (std::vector<std::string>{"link.npy", "target.npy"}));
}

TEST_F(NpyFiles, ReplacingAFileKeepsItsPermissions) {
  const auto path = dir_ / "mode.npy";
  npy::save(path, pattern(DType::F32, {1}));
  std::filesystem::permissions(path, std::filesystem::perms::owner_read |
                                         std::filesystem::perms::owner_write |
                                         std::filesystem::perms::group_read);
  npy::save(path, pattern(DType::F32, {2}));
  EXPECT_EQ(std::filesystem::status(path).permissions() & std::filesystem::perms::all,
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write |
                std::filesystem::perms::group_read);
}

}  // namespace
}  // namespace tenferro
