// NumPy .npy reading and writing.
//
// Format (numpy/lib/format.py): "\x93NUMPY", major, minor, a little-endian header length
// (uint16 for 1.0, uint32 for 2.0/3.0), then a Python dict literal with exactly the keys
// 'descr', 'fortran_order' and 'shape', padded with spaces and a newline, then the raw data.
//
// What we accept, and why:
// - Versions exactly 1.0, 2.0 and 3.0 (as numpy). 3.0 only changes the header encoding to
//   UTF-8; every token we accept is ASCII, so any non-ASCII byte is rejected either way.
// - descr '<f4' '<f8' '<c8' '<c16' (what numpy writes for our dtypes), and the '=' (native)
//   spelling of the same, which numpy reads as little-endian on a little-endian host. Big-endian
//   ('>', '!'), "not applicable" ('|', which numpy only uses for one-byte types), bare codes
//   ('f8'), aliases ('<d'), structured descrs and every other dtype are rejected.
// - The dict is parsed by a strict parser of Python's literal subset numpy writes: single or
//   double quoted strings without escapes or prefixes, True/False, and a tuple of non-negative
//   decimal ints; keys in any order, each exactly once, an optional trailing comma, whitespace
//   between tokens, and only whitespace after the closing brace.
// - The data must be exactly numel * itemsize bytes: a shorter file is truncated, a longer one
//   has trailing bytes the header does not describe; both are errors (the header lies).
// - At most 64 dimensions (NumPy 2's limit; NumPy 1 allows 32).
// - A shape whose byte count overflows is rejected even when another extent is 0 (the product
//   of the non-zero extents times the item size must fit in int64), so that no layout
//   arithmetic downstream can overflow on a shape we admitted.
// Every rejection is ErrorKind::Validation in ErrorPhase::Io; no read leaves the input span.
#include "tenferro/core/npy.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace tenferro::npy {
namespace {

static_assert(std::endian::native == std::endian::little,
              "the .npy reader and writer assume a little-endian host");

constexpr std::string_view kMagic = "\x93NUMPY";
constexpr std::size_t kMagicAndVersionSize = 8;   // numpy's MAGIC_LEN
constexpr std::size_t kHeaderAlignment = 64;      // numpy's ARRAY_ALIGN
constexpr std::size_t kGrowthAxisMaxDigits = 21;  // numpy's GROWTH_AXIS_MAX_DIGITS
constexpr std::size_t kMaxVersion1HeaderLength = 65535;
constexpr std::size_t kMaxRank = 64;  // NumPy 2's NPY_MAXDIMS

[[noreturn]] void fail(std::string message) {
  throw_error(ErrorKind::Validation, ErrorPhase::Io, "npy", std::move(message));
}

std::string_view descr_of(DType dtype) {
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
  return "<c16";
}

std::optional<DType> dtype_of_descr(std::string_view descr) {
  if (descr.empty() || (descr.front() != '<' && descr.front() != '=')) return std::nullopt;
  const std::string_view code = descr.substr(1);
  if (code == "f4") return DType::F32;
  if (code == "f8") return DType::F64;
  if (code == "c8") return DType::C32;
  if (code == "c16") return DType::C64;
  return std::nullopt;
}

// What the header dict says.
struct Header {
  DType dtype = DType::F64;
  bool fortran_order = false;
  Shape shape;
};

// A strict recursive-descent-free parser of the header dict: every step consumes input or
// fails, so it runs in time linear in the header and never reads outside it.
class HeaderParser {
 public:
  explicit HeaderParser(std::string_view text) : text_(text) {}

  Header parse() {
    bool have_descr = false, have_order = false, have_shape = false;
    Header header;
    skip_space();
    expect('{', "the header dict to start with '{'");
    skip_space();
    while (!at('}')) {
      const std::size_t key_pos = pos_;
      const std::string key = parse_string("a dict key");
      skip_space();
      expect(':', "':' after a dict key");
      skip_space();
      if (key == "descr") {
        mark_seen(have_descr, key, key_pos);
        const std::string descr = parse_string("the 'descr' value");
        const auto dtype = dtype_of_descr(descr);
        if (!dtype) {
          fail("unsupported descr '" + descr +
               "' (supported: little-endian '<f4', '<f8', '<c8', '<c16')");
        }
        header.dtype = *dtype;
      } else if (key == "fortran_order") {
        mark_seen(have_order, key, key_pos);
        header.fortran_order = parse_bool();
      } else if (key == "shape") {
        mark_seen(have_shape, key, key_pos);
        header.shape = parse_shape();
      } else {
        fail("unexpected header key '" + key + "' at header offset " + std::to_string(key_pos));
      }
      skip_space();
      if (at(',')) {
        ++pos_;
        skip_space();
      } else if (!at('}')) {
        fail_expected("',' or '}' after a dict value");
      }
    }
    ++pos_;  // '}'
    skip_space();
    if (pos_ != text_.size()) fail_expected("only padding after the header dict");
    if (!have_descr) fail("header is missing the key 'descr'");
    if (!have_order) fail("header is missing the key 'fortran_order'");
    if (!have_shape) fail("header is missing the key 'shape'");
    return header;
  }

 private:
  bool at(char c) const { return pos_ < text_.size() && text_[pos_] == c; }

  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  [[noreturn]] void fail_expected(std::string_view what) const {
    std::string found = "the end of the header";
    if (pos_ < text_.size()) {
      const auto byte = static_cast<unsigned char>(text_[pos_]);
      if (byte >= 0x20 && byte < 0x7f) {
        found = std::string("'") + text_[pos_] + "'";
      } else {
        found = "byte " + std::to_string(byte);
      }
    }
    fail("malformed header: expected " + std::string(what) + " at header offset " +
         std::to_string(pos_) + ", found " + found);
  }

  void expect(char c, std::string_view what) {
    if (!at(c)) fail_expected(what);
    ++pos_;
  }

  static void mark_seen(bool& seen, const std::string& key, std::size_t key_pos) {
    if (seen)
      fail("duplicate header key '" + key + "' at header offset " + std::to_string(key_pos));
    seen = true;
  }

  // A quoted string without escapes; its content must be printable ASCII.
  std::string parse_string(std::string_view what) {
    if (!at('\'') && !at('"')) fail_expected(what);
    const char quote = text_[pos_++];
    const std::size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      const auto byte = static_cast<unsigned char>(text_[pos_]);
      if (byte < 0x20 || byte >= 0x7f || byte == '\\')
        fail_expected("a plain ASCII string character");
      ++pos_;
    }
    if (pos_ == text_.size()) fail_expected("a closing quote");
    std::string value(text_.substr(start, pos_ - start));
    ++pos_;
    return value;
  }

  bool parse_bool() {
    if (text_.substr(pos_).starts_with("True")) {
      pos_ += 4;
      return true;
    }
    if (text_.substr(pos_).starts_with("False")) {
      pos_ += 5;
      return false;
    }
    fail_expected("True or False for 'fortran_order'");
  }

  // A non-negative decimal integer without sign, underscores or leading zeros.
  std::int64_t parse_dim() {
    if (at('-')) fail("negative dimension in 'shape' at header offset " + std::to_string(pos_));
    if (pos_ >= text_.size() || text_[pos_] < '0' || text_[pos_] > '9') {
      fail_expected("a dimension (a non-negative integer)");
    }
    if (text_[pos_] == '0' && pos_ + 1 < text_.size() && text_[pos_ + 1] >= '0' &&
        text_[pos_ + 1] <= '9') {
      fail_expected("a dimension without leading zeros");
    }
    std::int64_t value = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      const int digit = text_[pos_] - '0';
      if (value > (std::numeric_limits<std::int64_t>::max() - digit) / 10) {
        fail("dimension in 'shape' does not fit in int64 at header offset " + std::to_string(pos_));
      }
      value = value * 10 + digit;
      ++pos_;
    }
    return value;
  }

  // "()", "(n,)" or "(n, m, ...)" with an optional trailing comma; "(n)" is not a tuple.
  Shape parse_shape() {
    expect('(', "a tuple '(' for 'shape'");
    skip_space();
    Shape shape;
    bool saw_comma = false;
    while (!at(')')) {
      if (shape.size() == kMaxRank)
        fail("'shape' has more than " + std::to_string(kMaxRank) + " dimensions");
      shape.push_back(parse_dim());
      skip_space();
      if (at(',')) {
        ++pos_;
        saw_comma = true;
        skip_space();
      } else if (!at(')')) {
        fail_expected("',' or ')' in 'shape'");
      } else {
        saw_comma = false;
      }
    }
    if (shape.size() == 1 && !saw_comma) {
      fail("'shape' is an integer in parentheses, not a tuple (write '(n,)')");
    }
    ++pos_;  // ')'
    return shape;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

std::uint32_t read_le(std::span<const std::byte> bytes, std::size_t at, std::size_t width) {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < width; ++i) {
    value |= static_cast<std::uint32_t>(bytes[at + i]) << (8 * i);
  }
  return value;
}

// Bytes of a shape's data; rejects shapes whose non-zero extents overflow (see top).
std::size_t data_bytes(const Shape& shape, DType dtype) {
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  std::uint64_t nonzero_product = dtype_size(dtype);
  bool has_zero = false;
  for (const std::int64_t dim : shape) {
    if (dim == 0) {
      has_zero = true;
      continue;
    }
    const auto extent = static_cast<std::uint64_t>(dim);
    if (nonzero_product > kMax / extent) {
      fail("shape " + shape_to_string(shape) + " of " + std::string(descr_of(dtype)) +
           " is too large: its byte count overflows");
    }
    nonzero_product *= extent;
  }
  const std::uint64_t bytes = has_zero ? 0 : nonzero_product;
  if (bytes > std::numeric_limits<std::size_t>::max()) fail("array does not fit in memory");
  return static_cast<std::size_t>(bytes);
}

// Builds the tensor from raw little-endian data in NumPy's order for `header`.
Tensor tensor_from_data(const Header& header, std::span<const std::byte> data) {
  // C-order data of shape (a, b, c) is column-major data of shape (c, b, a); reading it as
  // that and reversing the axes gives NumPy's logical order. memcpy avoids unaligned access.
  Shape storage_shape = header.shape;
  if (!header.fortran_order) std::reverse(storage_shape.begin(), storage_shape.end());
  Tensor stored = Tensor::zeros(header.dtype, storage_shape);
  if (!data.empty()) std::memcpy(stored.raw_data(), data.data(), data.size());
  if (header.fortran_order || header.shape.size() < 2) return stored;
  std::vector<std::int64_t> reversed_axes(header.shape.size());
  for (std::size_t i = 0; i < reversed_axes.size(); ++i) {
    reversed_axes[i] = static_cast<std::int64_t>(reversed_axes.size() - 1 - i);
  }
  return stored.permute(reversed_axes).contiguous();
}

std::string shape_repr(const Shape& shape) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(shape[i]);
  }
  if (shape.size() == 1) text += ",";
  return text + ")";
}

}  // namespace

Tensor parse(std::span<const std::byte> bytes) {
  if (bytes.size() < kMagic.size() ||
      std::memcmp(bytes.data(), kMagic.data(), kMagic.size()) != 0) {
    fail("not a .npy file (missing the \\x93NUMPY magic)");
  }
  if (bytes.size() < kMagicAndVersionSize) fail("truncated before the format version");
  const auto major = static_cast<unsigned>(bytes[6]);
  const auto minor = static_cast<unsigned>(bytes[7]);
  if (minor != 0 || major < 1 || major > 3) {
    fail("unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor) +
         " (supported: 1.0, 2.0, 3.0)");
  }
  const std::size_t length_width = major == 1 ? 2 : 4;
  if (bytes.size() < kMagicAndVersionSize + length_width) fail("truncated header length");
  const std::size_t header_length = read_le(bytes, kMagicAndVersionSize, length_width);
  const std::size_t header_start = kMagicAndVersionSize + length_width;
  if (header_length > bytes.size() - header_start) {
    fail("header length " + std::to_string(header_length) + " runs past the end of the " +
         std::to_string(bytes.size()) + "-byte file");
  }
  const std::string_view header_text(reinterpret_cast<const char*>(bytes.data() + header_start),
                                     header_length);
  const Header header = HeaderParser(header_text).parse();

  const std::size_t expected = data_bytes(header.shape, header.dtype);
  const std::size_t data_start = header_start + header_length;
  const std::size_t available = bytes.size() - data_start;
  if (available < expected) {
    fail("truncated data: shape " + shape_to_string(header.shape) + " of " +
         std::string(descr_of(header.dtype)) + " needs " + std::to_string(expected) +
         " bytes, the file has " + std::to_string(available));
  }
  if (available > expected) {
    fail(std::to_string(available - expected) + " trailing bytes after the " +
         std::to_string(expected) + " data bytes the header describes");
  }
  return tensor_from_data(header, bytes.subspan(data_start, expected));
}

std::string serialize(const Tensor& tensor) {
  // The dict exactly as numpy >= 1.24 writes it (sorted keys, repr values, spare spaces for
  // growing the last axis), then padding so the data starts on a 64-byte boundary.
  const Shape& shape = tensor.shape();
  if (shape.size() > kMaxRank) {
    fail("cannot write a tensor of rank " + std::to_string(shape.size()) +
         ": .npy readers allow at most " + std::to_string(kMaxRank) + " dimensions");
  }
  std::string dict = "{'descr': '" + std::string(descr_of(tensor.dtype())) +
                     "', 'fortran_order': True, 'shape': " + shape_repr(shape) + ", }";
  if (!shape.empty()) {
    const std::size_t digits = std::to_string(shape.back()).size();
    if (digits < kGrowthAxisMaxDigits) dict.append(kGrowthAxisMaxDigits - digits, ' ');
  }
  auto padded_length = [&](std::size_t length_width) {
    const std::size_t unpadded = dict.size() + 1;  // + '\n'
    const std::size_t pad =
        kHeaderAlignment - (kMagicAndVersionSize + length_width + unpadded) % kHeaderAlignment;
    return unpadded + pad;
  };
  const bool version1 = padded_length(2) <= kMaxVersion1HeaderLength;
  const std::size_t length_width = version1 ? 2 : 4;
  const std::size_t header_length = padded_length(length_width);
  if (header_length > std::numeric_limits<std::uint32_t>::max()) fail("header too long");

  const Tensor compact = tensor.contiguous();
  std::string out;
  out.reserve(kMagicAndVersionSize + length_width + header_length + compact.nbytes());
  out += kMagic;
  out += static_cast<char>(version1 ? 1 : 2);
  out += '\0';
  for (std::size_t i = 0; i < length_width; ++i) {
    out += static_cast<char>((header_length >> (8 * i)) & 0xff);
  }
  out += dict;
  out.append(header_length - dict.size() - 1, ' ');
  out += '\n';
  if (compact.nbytes() > 0) {
    out.append(reinterpret_cast<const char*>(compact.raw_data()), compact.nbytes());
  }
  return out;
}

Tensor load(const std::filesystem::path& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    throw_error(ErrorKind::Validation, ErrorPhase::Io, "npy.load",
                "cannot open '" + path.string() + "': " + std::strerror(errno));
  }
  std::vector<std::byte> bytes;
  std::error_code size_error;
  const auto size_hint = std::filesystem::file_size(path, size_error);
  if (!size_error) bytes.reserve(size_hint);  // a hint only: the loop below reads to EOF
  std::array<std::byte, 1 << 16> chunk;
  std::size_t got = 0;
  while ((got = std::fread(chunk.data(), 1, chunk.size(), file)) > 0) {
    bytes.insert(bytes.end(), chunk.begin(), chunk.begin() + static_cast<std::ptrdiff_t>(got));
  }
  const bool read_failed = std::ferror(file) != 0;
  const int read_errno = errno;
  std::fclose(file);
  if (read_failed) {
    throw_error(ErrorKind::Validation, ErrorPhase::Io, "npy.load",
                "cannot read '" + path.string() + "': " + std::strerror(read_errno));
  }
  try {
    return parse(bytes);
  } catch (const Error&) {
    std::throw_with_nested(Error(ErrorKind::Validation, ErrorPhase::Io, "npy.load",
                                 "'" + path.string() + "' is not a supported .npy file"));
  }
}

void save(const std::filesystem::path& path, const Tensor& tensor) {
  const std::string image = serialize(tensor);
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) {
    throw_error(ErrorKind::Validation, ErrorPhase::Io, "npy.save",
                "cannot open '" + path.string() + "' for writing: " + std::strerror(errno));
  }
  const bool wrote = std::fwrite(image.data(), 1, image.size(), file) == image.size();
  const int write_errno = errno;
  const bool closed = std::fclose(file) == 0;
  if (!wrote || !closed) {
    throw_error(
        ErrorKind::Validation, ErrorPhase::Io, "npy.save",
        "cannot write '" + path.string() + "': " + std::strerror(wrote ? errno : write_errno));
  }
}

}  // namespace tenferro::npy
