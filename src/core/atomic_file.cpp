#include "core/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <system_error>
#include <utility>

#include "tenferro/core/error.hpp"

namespace tenferro::io {
namespace {

[[noreturn]] void fail(const std::string& op, std::string message) {
  throw_error(ErrorKind::Validation, ErrorPhase::Io, op, std::move(message));
}

std::string quoted(const std::filesystem::path& p) {
  return "'" + p.string() + "'";
}

// Writes all of `bytes`, retrying short writes and EINTR; 0 on success, else the errno.
int write_all(int fd, std::string_view bytes) {
  const char* p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return 0;
}

// close() that reports its errno (0 on success). Not retried on EINTR: on Linux the
// descriptor is released either way, and a retry could close someone else's.
int close_checked(int fd) {
  return ::close(fd) == 0 ? 0 : errno;
}

// A name no other writer uses: hidden, derived from the destination so a temporary left by a
// killed process is recognisable, unique per process and call.
std::filesystem::path temporary_name(const std::filesystem::path& target, unsigned attempt) {
  static std::atomic<unsigned long> counter{0};
  std::filesystem::path folder = target.parent_path();
  if (folder.empty()) folder = ".";
  return folder / ("." + target.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" +
                   std::to_string(counter.fetch_add(1)) + "-" + std::to_string(attempt));
}

}  // namespace

AtomicFileSet::AtomicFileSet(std::string op) : op_(std::move(op)) {}

AtomicFileSet::~AtomicFileSet() {
  remove_temporaries();
}

void AtomicFileSet::remove_temporaries() noexcept {
  for (const Staged& s : staged_)
    if (!s.temporary.empty()) ::unlink(s.temporary.c_str());
  staged_.clear();
}

void AtomicFileSet::stage(const std::filesystem::path& destination, std::string_view bytes) {
  if (destination.empty() || !destination.has_filename())
    fail(op_, "output path " + quoted(destination) + " does not name a file");
  struct stat st {};
  const bool exists = ::stat(destination.c_str(), &st) == 0;  // follows symbolic links
  if (exists && S_ISDIR(st.st_mode))
    fail(op_, "cannot write " + quoted(destination) + ": it is a directory");
  if (exists && !S_ISREG(st.st_mode)) {
    // A device or FIFO: no rename can replace it, and replacing it is never what was meant.
    staged_.push_back(Staged{destination, {}, std::string(bytes)});
    return;
  }
  // Rename replaces a symbolic link itself, so write beside (and over) what it points to.
  std::filesystem::path target = destination;
  std::error_code ec;
  if (std::filesystem::is_symlink(std::filesystem::symlink_status(destination, ec))) {
    target = std::filesystem::weakly_canonical(destination, ec);
    if (ec) fail(op_, "cannot resolve the link " + quoted(destination) + ": " + ec.message());
  }

  std::filesystem::path temporary;
  int fd = -1;
  for (unsigned attempt = 0; fd < 0; ++attempt) {
    temporary = temporary_name(target, attempt);
    // 0666 minus the umask, the mode fopen("w") would give a new file.
    fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && (errno != EEXIST || attempt == 100)) {
      fail(op_, "cannot write " + quoted(destination) + ": cannot create a temporary file in " +
                    quoted(temporary.parent_path()) + ": " + std::strerror(errno));
    }
  }
  // Replacing a file keeps its permissions, as writing it in place did. Best effort: a file we
  // may replace but do not own cannot be fchmod'ed, and then the new file keeps the umask mode.
  if (exists) (void)::fchmod(fd, st.st_mode & 07777);
  int error = write_all(fd, bytes);
  // fsync: a delayed-allocation file system reports a full disk only here or at close.
  if (error == 0 && ::fsync(fd) != 0) error = errno;
  const int close_error = close_checked(fd);
  if (error == 0) error = close_error;
  if (error != 0) {
    ::unlink(temporary.c_str());
    fail(op_, "cannot write " + quoted(destination) + ": " + std::strerror(error) +
                  " (the destination was left unchanged)");
  }
  staged_.push_back(Staged{target, temporary, {}});
}

void AtomicFileSet::commit() {
  for (const Staged& s : staged_) {
    if (!s.temporary.empty()) continue;
    const int fd = ::open(s.destination.c_str(), O_WRONLY | O_CLOEXEC);
    int error = fd < 0 ? errno : write_all(fd, s.in_place_bytes);
    if (fd >= 0) {
      const int close_error = close_checked(fd);
      if (error == 0) error = close_error;
    }
    if (error != 0) {
      remove_temporaries();
      fail(op_, "cannot write " + quoted(s.destination) + ": " + std::strerror(error));
    }
  }
  // Every temporary is complete: rename them all. A rename within one folder only fails for
  // reasons creating the temporary already ruled out, but if one does, say what was replaced.
  std::string replaced;
  for (Staged& s : staged_) {
    if (s.temporary.empty()) continue;
    if (::rename(s.temporary.c_str(), s.destination.c_str()) != 0) {
      const int error = errno;
      remove_temporaries();
      fail(op_, "cannot rename the complete temporary onto " + quoted(s.destination) + ": " +
                    std::strerror(error) +
                    (replaced.empty() ? std::string(" (no file was replaced)")
                                      : " (already replaced:" + replaced + ")"));
    }
    replaced += " " + quoted(s.destination);
    s.temporary.clear();
  }
  staged_.clear();
}

void write_file_atomically(const std::filesystem::path& destination, std::string_view bytes,
                           std::string op) {
  AtomicFileSet file(std::move(op));
  file.stage(destination, bytes);
  file.commit();
}

}  // namespace tenferro::io
