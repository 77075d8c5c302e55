// Output files that appear whole or not at all (DESIGN §3: "files are written atomically").
//
// Every file the library or the `tenferro` command writes goes through here:
//   io::write_file_atomically(path, bytes, "npy.save");          // one file
//   io::AtomicFileSet files("linalg");                           // several, all-or-nothing
//   files.stage(prefix + ".q.npy", q_bytes);
//   files.stage(prefix + ".r.npy", r_bytes);
//   files.commit();
// A regular (or not yet existing) destination is written to a temporary in its own folder,
// flushed to the disk with fsync and closed, each step checked, and only then renamed over the
// destination, so a full disk, a file-size limit or an I/O error leaves the old file intact and
// no temporary behind. A set renames nothing until every one of its temporaries is complete.
// A destination that exists and is not a regular file (/dev/null, /dev/full, a FIFO, a
// terminal) cannot be replaced by a rename; it is written in place at commit, before any rename,
// with every write and the close checked (so `--json /dev/full` fails).
// Failures are ErrorKind::Validation in ErrorPhase::Io, like every other file error.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace tenferro::io {

class AtomicFileSet {
 public:
  // `op` names the caller in error messages ("npy.save", "linalg", "bench --json").
  explicit AtomicFileSet(std::string op);
  AtomicFileSet(const AtomicFileSet&) = delete;
  AtomicFileSet& operator=(const AtomicFileSet&) = delete;
  // Removes every temporary not yet renamed into place.
  ~AtomicFileSet();

  // Writes `bytes` completely to a temporary beside `destination` (or, for a destination that
  // is not a regular file, keeps them for commit). Throws on any failure; the set's earlier
  // temporaries stay staged until the set is committed or destroyed.
  void stage(const std::filesystem::path& destination, std::string_view bytes);
  // Writes the in-place destinations, then renames every temporary over its destination.
  void commit();

 private:
  struct Staged {
    std::filesystem::path destination;
    std::filesystem::path temporary;  // empty for an in-place destination
    std::string in_place_bytes;       // only for an in-place destination
  };
  void remove_temporaries() noexcept;

  std::string op_;
  std::vector<Staged> staged_;
};

// One file: stage + commit.
void write_file_atomically(const std::filesystem::path& destination, std::string_view bytes,
                           std::string op);

}  // namespace tenferro::io
