// The malformed-input corpus of tests/corpus (issue 21): every malformed .npy file, einsum
// subscripts string and command line there is given to the `tenferro` command, which must
// answer each with exactly one kind of line: "tenferro: error: <Kind>: ..." and exit status 1,
// or "tenferro: usage error: ..." and exit status 2. Never a signal (a crash, or a sanitizer
// abort in the ASan+UBSan build), never an untyped message, never a sanitizer report, never a
// hang (each run has a timeout) and never a file written.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "support/run_command.hpp"
#include "tenferro/core/error.hpp"
#include "tenferro/core/npy.hpp"

namespace tenferro {
namespace {

namespace fs = std::filesystem;

const fs::path kCorpus = fs::path(TENFERRO_SOURCE_DIR) / "tests" / "corpus";

// Every name error_kind_name knows; read from the library so a new kind needs no test edit.
std::set<std::string> error_kind_names() {
  std::set<std::string> names;
  for (int k = 0; k < 256; ++k) {
    const std::string_view name = error_kind_name(static_cast<ErrorKind>(k));
    if (name != "?") names.emplace(name);
  }
  return names;
}

// Non-comment lines of a corpus text file.
std::vector<std::string> corpus_lines(const std::string& file) {
  std::ifstream in(kCorpus / file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') lines.push_back(line);
  return lines;
}

class MalformedCorpus : public ::testing::Test {
 protected:
  void SetUp() override {
    if (testing::cli_path().empty()) GTEST_SKIP() << "TENFERRO_CLI is not set (run via ctest)";
    root_ = fs::temp_directory_path() /
            ("tenferro_corpus_" + std::to_string(::getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    const fs::path in = root_ / "in";
    out_dir_ = root_ / "out";
    fs::create_directories(in / "folder");
    fs::create_directories(out_dir_);
    auto save = [&](const std::string& key, const Tensor& t) {
      npy::save(in / (key + ".npy"), t);
      stand_ins_["{" + key + "}"] = (in / (key + ".npy")).string();
    };
    constexpr std::int64_t k40 = std::int64_t{1} << 40;
    save("A", Tensor::from_col_major<double>({2, 2}, {4, 1, 1, 3}));
    save("V", Tensor::from_col_major<double>({4}, {1, 2, 3, 4}));
    save("S", Tensor::from_col_major<double>({}, {3}));
    save("C", Tensor::zeros(DType::C64, {2, 2}));
    save("E03", Tensor::zeros(DType::F64, {0, 3}));
    save("SINGULAR", Tensor::from_col_major<double>({2, 2}, {1, 2, 2, 4}));
    save("ROWS", Tensor::zeros(DType::F64, {k40, 0}));
    save("COLS", Tensor::zeros(DType::F64, {0, k40}));
    const fs::path fifo = in / "fifo.npy";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    stand_ins_["{FIFO}"] = fifo.string();
    stand_ins_["{INDIR}"] = (in / "folder").string();
    const fs::path sparse = in / "sparse.npy";
    std::ofstream(sparse).close();
    fs::resize_file(sparse, std::uintmax_t{100} << 30);  // 100 GiB, no block allocated
    stand_ins_["{SPARSE}"] = sparse.string();
    stand_ins_["{OUT}"] = (out_dir_ / "out.npy").string();
    stand_ins_["{OUTDIR}"] = out_dir_.string();
    stand_ins_["{EMPTY}"] = "";
  }
  void TearDown() override {
    if (!root_.empty()) fs::remove_all(root_);
  }

  // Replaces the stand-ins of one word ("{EMPTY}" by nothing).
  std::string substitute(std::string word) const {
    for (const auto& [key, value] : stand_ins_) {
      for (std::size_t at; (at = word.find(key)) != std::string::npos;)
        word.replace(at, key.size(), value);
    }
    return word;
  }

  // Runs one command line and checks the contract; `what` names the case in failures.
  void expect_typed_refusal(const std::vector<std::string>& args, const std::string& what) {
    testing::CommandLimits limits;
    limits.timeout_seconds = 120;  // a FIFO that blocks fails here instead of hanging the test
    const testing::ArgvResult r = testing::run_cli_argv(args, limits);
    ++runs_;
    const std::string line = r.err.substr(0, r.err.find('\n'));
    EXPECT_EQ(r.signal, 0) << what << ": killed by signal " << r.signal << "\n" << r.err;
    EXPECT_EQ(r.err.find("runtime error"), std::string::npos) << what << ": UBSan\n" << r.err;
    EXPECT_EQ(r.err.find("Sanitizer"), std::string::npos) << what << ": sanitizer\n" << r.err;
    if (r.status == 2) {
      EXPECT_EQ(line.rfind("tenferro: usage error: ", 0), 0u) << what << ": " << r.err;
    } else {
      EXPECT_EQ(r.status, 1) << what << ": exit status " << r.status << "\n" << r.err;
      const std::string prefix = "tenferro: error: ";
      const std::size_t colon = line.find(": ", prefix.size());
      const bool typed = line.rfind(prefix, 0) == 0 && colon != std::string::npos &&
                         kinds_.contains(line.substr(prefix.size(), colon - prefix.size()));
      EXPECT_TRUE(typed) << what << ": not a typed error line: " << r.err;
    }
    for (const auto& left : fs::directory_iterator(out_dir_)) {
      ADD_FAILURE() << what << ": left " << left.path();
      fs::remove_all(left.path());
    }
  }

  fs::path root_, out_dir_;
  std::map<std::string, std::string> stand_ins_;
  std::set<std::string> kinds_ = error_kind_names();
  int runs_ = 0;
};

TEST_F(MalformedCorpus, EveryMalformedNpyFileIsRefusedByEveryCommand) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(kCorpus / "npy")) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 40u) << "the .npy corpus is missing (tests/corpus/make_npy_corpus.py)";
  const std::string out = stand_ins_.at("{OUT}");
  for (const fs::path& file : files) {
    const std::string f = file.string(), name = file.filename().string();
    expect_typed_refusal({"einsum", "ij->ji", f, "-o", out}, "einsum " + name);
    expect_typed_refusal({"einsum", "ij,jk->ik", stand_ins_.at("{A}"), f, "-o", out},
                         "einsum (second operand) " + name);
    expect_typed_refusal({"linalg", "qr", f, "-o", out}, "linalg qr " + name);
    expect_typed_refusal({"fft", "fft", f, "-o", out}, "fft " + name);
  }
}

TEST_F(MalformedCorpus, EveryMalformedSubscriptsStringIsRefused) {
  const std::vector<std::string> lines = corpus_lines("subscripts.txt");
  ASSERT_GE(lines.size(), 30u);
  const std::string a = stand_ins_.at("{A}");
  for (const std::string& line : lines) {
    const std::string subscripts = line == "<empty>" ? "" : line;
    expect_typed_refusal({"einsum", subscripts, a, a, "-o", stand_ins_.at("{OUT}")},
                         "subscripts '" + line + "'");
  }
}

TEST_F(MalformedCorpus, EveryMalformedCommandLineIsRefused) {
  const std::vector<std::string> lines = corpus_lines("options.txt");
  ASSERT_GE(lines.size(), 100u);
  for (const std::string& line : lines) {
    std::vector<std::string> args;
    std::size_t start = 0;
    for (std::size_t space; (space = line.find(' ', start)) != std::string::npos; start = space + 1)
      args.push_back(substitute(line.substr(start, space - start)));
    args.push_back(substitute(line.substr(start)));
    for (const std::string& a : args)  // a misspelt stand-in would write where nobody looks
      ASSERT_EQ(a.find('{'), std::string::npos) << "unknown stand-in in '" << line << "'";
    expect_typed_refusal(args, "'" + line + "'");
  }
}

}  // namespace
}  // namespace tenferro
