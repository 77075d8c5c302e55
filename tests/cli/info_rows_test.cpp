// `tenferro info --json` lists exactly the rows of the registration tables this build compiled
// (and the differentiable-op table derived from them):
// every (family, op, backend, dtype) a row registers, and nothing else. The expected set is
// built by walking the tables in this process; the listing comes from the command.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "ops/einsum/registration.hpp"
#include "ops/fft/registration.hpp"
#include "ops/linalg/registration.hpp"
#include "support/json_value.hpp"
#include "support/run_command.hpp"
#include "tenferro/ad.hpp"
#include "tenferro/prims.hpp"

namespace tenferro {
namespace {

using Cells = std::set<std::string>;  // "family op backend dtype"

std::string cell(const std::string& family, const std::string& op, BackendKind b, DType d) {
  return family + " " + op + " " + std::string(backend_kind_name(b)) + " " +
         std::string(dtype_name(d));
}

Cells rows_of(const runtime_internal::RegistrationTable& t) {
  Cells out;
  for (const runtime_internal::Registration& r : t.rows())
    for (DType d : kAllDTypes)
      if (r.dtypes & runtime_internal::dtypes({d}))
        out.insert(cell(t.family(), t.ops()[r.op], r.backend, d));
  return out;
}

// Prims' table is its kernel sets, AD's the list of differentiable ops crossed with their
// forward ops' rows; both admission tables are derived from those.
Cells admitted_cells(const AdmissionTable& t) {
  Cells out;
  for (const std::string& op : t.ops())
    for (BackendKind b : {BackendKind::Cpu, BackendKind::Cuda, BackendKind::WebGpu})
      for (DType d : kAllDTypes)
        if (t.admits(op, b, d)) out.insert(cell(t.family(), op, b, d));
  return out;
}

Cells listed(const testing::JsonValue& family) {
  Cells out;
  const std::string name = family["family"].string();
  for (const auto& [op, backends] : family["ops"].object()) {
    for (const auto& [backend, dtypes] : backends.object()) {
      BackendKind b{};
      EXPECT_TRUE(parse_backend_kind(backend, b)) << backend;
      for (const auto& d : dtypes.array()) {
        DType dtype{};
        EXPECT_TRUE(parse_dtype(d.string(), dtype)) << d.string();
        out.insert(cell(name, op, b, dtype));
      }
    }
  }
  return out;
}

TEST(InfoRows, JsonListsExactlyTheRegistrationTablesRows) {
  if (testing::cli_path().empty())
    GTEST_SKIP() << "TENFERRO_CLI is not set: this build has no tenferro command";
  const auto r = testing::run_cli("info --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto doc = testing::parse_json(r.out);
  const std::pair<std::string, Cells> expected[] = {
      {einsum_internal::registration_table().family(),
       rows_of(einsum_internal::registration_table())},
      {linalg_internal::registration_table().family(),
       rows_of(linalg_internal::registration_table())},
      {fft_internal::registration_table().family(), rows_of(fft_internal::registration_table())},
      {std::string(prims_family::kFamily), admitted_cells(prims_family::admission_table())},
      {ad::admission_table().family(), admitted_cells(ad::admission_table())},
  };
  std::set<std::string> seen;
  for (const auto& family : doc["families"].array()) {
    const std::string name = family["family"].string();
    seen.insert(name);
    bool known = false;
    for (const auto& [want_name, want] : expected) {
      if (want_name != name) continue;
      known = true;
      EXPECT_EQ(listed(family), want) << name;
    }
    EXPECT_TRUE(known) << "info lists a family no table registers: " << name;
  }
  for (const auto& [want_name, want] : expected) EXPECT_EQ(seen.count(want_name), 1u) << want_name;
  // Not vacuous: the CPU runs einsum on every dtype in every build.
  EXPECT_EQ(
      expected[0].second.count(cell(expected[0].first, "einsum", BackendKind::Cpu, DType::F64)),
      1u);
}

}  // namespace
}  // namespace tenferro
