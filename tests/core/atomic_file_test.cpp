// io::AtomicFileSet: a set of output files appears whole or not at all, and leaves no temporary.
#include "core/atomic_file.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tenferro/core/error.hpp"

namespace tenferro {
namespace {

namespace fs = std::filesystem;

class AtomicFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("tenferro_atomic_file_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
  }
  std::string read(const std::string& name) {
    std::ifstream in(dir_ / name, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  std::vector<std::string> names() {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }

  fs::path dir_;
};

TEST_F(AtomicFiles, NothingChangesBeforeCommitAndAllChangesAtCommit) {
  write("a", "old a");
  io::AtomicFileSet files("test");
  files.stage(dir_ / "a", "new a");
  files.stage(dir_ / "b", "new b");
  EXPECT_EQ(read("a"), "old a");
  EXPECT_FALSE(fs::exists(dir_ / "b"));
  files.commit();
  EXPECT_EQ(read("a"), "new a");
  EXPECT_EQ(read("b"), "new b");
  EXPECT_EQ(names(), (std::vector<std::string>{"a", "b"}));
}

TEST_F(AtomicFiles, AFailedStageLeavesEveryDestinationAsItWas) {
  write("a", "old a");
  fs::create_directory(dir_ / "sub");
  try {
    io::AtomicFileSet files("test");
    files.stage(dir_ / "a", "new a");
    files.stage(dir_ / "sub", "cannot replace a folder");
    FAIL() << "staging over a folder succeeded";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Validation);
    EXPECT_EQ(e.phase(), ErrorPhase::Io);
    EXPECT_EQ(e.op(), "test");
    EXPECT_NE(e.message().find("is a directory"), std::string::npos) << e.message();
  }
  EXPECT_EQ(read("a"), "old a");
  EXPECT_EQ(names(), (std::vector<std::string>{"a", "sub"}));  // the temporary of "a" is gone
}

TEST_F(AtomicFiles, AFailedInPlaceWriteRenamesNothing) {
  // /dev/full cannot be replaced, only written; the failure comes at commit, before any rename.
  write("a", "old a");
  io::AtomicFileSet files("test");
  files.stage(dir_ / "a", "new a");
  files.stage("/dev/full", "no room");
  try {
    files.commit();
    FAIL() << "writing /dev/full succeeded";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("No space left on device"), std::string::npos) << e.message();
  }
  EXPECT_EQ(read("a"), "old a");
  EXPECT_EQ(names(), std::vector<std::string>{"a"});
}

TEST_F(AtomicFiles, InPlaceDestinationsAreWrittenNotReplaced) {
  io::write_file_atomically("/dev/null", "discarded", "test");
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

TEST_F(AtomicFiles, EmptyOrFolderPathsAreRefused) {
  EXPECT_THROW(io::write_file_atomically("", "x", "test"), Error);
  EXPECT_THROW(io::write_file_atomically(dir_ / "", "x", "test"), Error);
  EXPECT_EQ(names(), std::vector<std::string>{});
}

}  // namespace
}  // namespace tenferro
