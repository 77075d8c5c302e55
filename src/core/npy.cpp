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
//   arithmetic downstream can overflow on a shape we admitted. The saver applies the same
//   limits (file_shape_violation), so we never write a file that we, or NumPy, cannot read.
// - A header longer than 1 MiB is refused before it is read (numpy itself refuses more than
//   10000 bytes unless told otherwise; 1 MiB keeps hand-built 2.0 headers readable).
// load() reads bounded: it refuses anything but a regular file (a FIFO would block, /dev/zero
// never ends), checks the magic, version and header before reading further, compares the
// file's size with what the header declares, and then reads exactly those bytes into the
// tensor. save() writes atomically (core/atomic_file.hpp).
// Every rejection is ErrorKind::Validation in ErrorPhase::Io; no read leaves the input span.
#include "tenferro/core/npy.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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

#include "core/atomic_file.hpp"

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
constexpr std::size_t kMaxHeaderLength = std::size_t{1} << 20;
// Magic, version and the longest (4-byte) header length field.
constexpr std::size_t kLongestPreamble = kMagicAndVersionSize + 4;

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

// Why a tensor of `shape` and `dtype` cannot be stored in a .npy file, or "" when it can. The
// one limit the loader and the saver share: rank, and the byte count of the non-zero extents.
std::string file_shape_violation(const Shape& shape, DType dtype) {
  if (shape.size() > kMaxRank) {
    return ".npy readers allow at most " + std::to_string(kMaxRank) + " dimensions, not " +
           std::to_string(shape.size());
  }
  return shape_size_violation(shape, dtype_size(dtype));
}

// Bytes of a shape's data; rejects shapes beyond the file limits (see top).
std::size_t data_bytes(const Shape& shape, DType dtype) {
  if (const std::string why = file_shape_violation(shape, dtype); !why.empty()) {
    fail(why + " (descr '" + std::string(descr_of(dtype)) + "')");
  }
  const std::int64_t numel = checked_numel(shape);
  return static_cast<std::size_t>(numel) * dtype_size(dtype);  // fits: checked just above
}

// Where the header and the data of a .npy image lie, from its first bytes; checks the magic,
// the version and the header length against the file's size before anything else is read.
struct Preamble {
  std::size_t header_start = 0;
  std::size_t header_length = 0;
};

Preamble read_preamble(std::span<const std::byte> prefix, std::uint64_t file_size) {
  if (prefix.size() < kMagic.size() ||
      std::memcmp(prefix.data(), kMagic.data(), kMagic.size()) != 0) {
    fail("not a .npy file (missing the \\x93NUMPY magic)");
  }
  if (prefix.size() < kMagicAndVersionSize) fail("truncated before the format version");
  const auto major = static_cast<unsigned>(prefix[6]);
  const auto minor = static_cast<unsigned>(prefix[7]);
  if (minor != 0 || major < 1 || major > 3) {
    fail("unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor) +
         " (supported: 1.0, 2.0, 3.0)");
  }
  const std::size_t length_width = major == 1 ? 2 : 4;
  if (prefix.size() < kMagicAndVersionSize + length_width) fail("truncated header length");
  Preamble p;
  p.header_length = read_le(prefix, kMagicAndVersionSize, length_width);
  p.header_start = kMagicAndVersionSize + length_width;
  if (p.header_length > file_size - p.header_start) {
    fail("header length " + std::to_string(p.header_length) + " runs past the end of the " +
         std::to_string(file_size) + "-byte file");
  }
  if (p.header_length > kMaxHeaderLength) {
    fail("header length " + std::to_string(p.header_length) + " exceeds the " +
         std::to_string(kMaxHeaderLength) + "-byte limit");
  }
  return p;
}

// The data's byte count, checked against what the file holds after the header.
std::size_t checked_data_bytes(const Header& header, std::uint64_t available) {
  const std::size_t expected = data_bytes(header.shape, header.dtype);
  if (available < expected) {
    fail("truncated data: shape " + shape_to_string(header.shape) + " of " +
         std::string(descr_of(header.dtype)) + " needs " + std::to_string(expected) +
         " bytes, the file has " + std::to_string(available));
  }
  if (available > expected) {
    fail(std::to_string(available - expected) + " trailing bytes after the " +
         std::to_string(expected) + " data bytes the header describes");
  }
  return expected;
}

// The tensor the header describes, in storage order (C order is stored reversed, see below),
// with its bytes still to be filled.
Tensor storage_for(const Header& header) {
  Shape storage_shape = header.shape;
  if (!header.fortran_order) std::reverse(storage_shape.begin(), storage_shape.end());
  return Tensor::zeros(header.dtype, storage_shape);
}

// NumPy's logical order from the filled storage tensor.
Tensor logical_order(const Header& header, Tensor stored) {
  // C-order data of shape (a, b, c) is column-major data of shape (c, b, a); reading it as
  // that and reversing the axes gives NumPy's logical order.
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
  const Preamble p =
      read_preamble(bytes.first(std::min(bytes.size(), kLongestPreamble)), bytes.size());
  const std::string_view header_text(reinterpret_cast<const char*>(bytes.data() + p.header_start),
                                     p.header_length);
  const Header header = HeaderParser(header_text).parse();
  const std::size_t data_start = p.header_start + p.header_length;
  const std::size_t expected = checked_data_bytes(header, bytes.size() - data_start);
  Tensor stored = storage_for(header);
  // memcpy: the image's data need not be aligned for the element type.
  if (expected > 0) std::memcpy(stored.raw_data(), bytes.data() + data_start, expected);
  return logical_order(header, std::move(stored));
}

std::string serialize(const Tensor& tensor) {
  // The dict exactly as numpy >= 1.24 writes it (sorted keys, repr values, spare spaces for
  // growing the last axis), then padding so the data starts on a 64-byte boundary.
  const Shape& shape = tensor.shape();
  if (const std::string why = file_shape_violation(shape, tensor.dtype()); !why.empty()) {
    fail("cannot write a " + std::string(dtype_name(tensor.dtype())) +
         " tensor no .npy reader could load back: " + why);
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

namespace {

[[noreturn]] void fail_load(const std::filesystem::path& path, const std::string& what) {
  throw_error(ErrorKind::Validation, ErrorPhase::Io, "npy.load", "'" + path.string() + "' " + what);
}

// Closes the descriptor on every exit path.
struct FileDescriptor {
  int fd;
  ~FileDescriptor() {
    if (fd >= 0) ::close(fd);
  }
};

std::string file_type_name(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// Reads exactly `size` bytes at `offset` (retrying short reads and EINTR); returns how many
// were read, fewer only at the end of the file.
std::size_t read_at(const std::filesystem::path& path, int fd, std::uint64_t offset, std::byte* dst,
                    std::size_t size) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(fd, dst + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      fail_load(path, std::string("cannot be read: ") + std::strerror(errno));
    }
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  return done;
}

}  // namespace

Tensor load(const std::filesystem::path& path) {
  // O_NONBLOCK: opening a FIFO without a writer would otherwise block before fstat can refuse
  // it. It changes nothing for the regular files we go on to read.
  const FileDescriptor file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (file.fd < 0) fail_load(path, std::string("cannot be opened: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(file.fd, &st) != 0)
    fail_load(path, std::string("cannot be inspected: ") + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) {
    fail_load(path, "is " + file_type_name(st.st_mode) +
                        ": .npy inputs must be regular files, whose size is known before reading");
  }
  const auto file_size = static_cast<std::uint64_t>(st.st_size);
  try {
    std::array<std::byte, kLongestPreamble> prefix{};
    const std::size_t prefix_size =
        read_at(path, file.fd, 0, prefix.data(),
                static_cast<std::size_t>(std::min<std::uint64_t>(file_size, prefix.size())));
    const Preamble p = read_preamble(std::span(prefix).first(prefix_size), file_size);
    std::string header_text(p.header_length, '\0');
    if (read_at(path, file.fd, p.header_start, reinterpret_cast<std::byte*>(header_text.data()),
                p.header_length) != p.header_length) {
      fail("the file shrank while its header was read");
    }
    const Header header = HeaderParser(header_text).parse();
    const std::uint64_t data_start = p.header_start + p.header_length;
    const std::size_t expected = checked_data_bytes(header, file_size - data_start);
    // Only now, with the size confirmed by the header and the file, is memory allocated.
    Tensor stored = storage_for(header);
    if (read_at(path, file.fd, data_start, stored.raw_data(), expected) != expected) {
      fail("truncated data: the file shrank while it was read");
    }
    return logical_order(header, std::move(stored));
  } catch (const Error& e) {
    if (e.op() != "npy") throw;  // a read error of this file, not a format error
    std::throw_with_nested(Error(ErrorKind::Validation, ErrorPhase::Io, "npy.load",
                                 "'" + path.string() + "' is not a supported .npy file"));
  }
}

void save(const std::filesystem::path& path, const Tensor& tensor) {
  io::write_file_atomically(path, serialize(tensor), "npy.save");
}

}  // namespace tenferro::npy
