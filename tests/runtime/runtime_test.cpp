#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "support/test_device_backend.hpp"
#include "support/test_family.hpp"
#include "tenferro/tenferro.hpp"

namespace tenferro {
namespace {

TEST(EngineIdGrammar, AcceptsNamespacedLowerCaseIds) {
  for (const char* ok : {"tenferro.cpu.v1", "tenferro.cuda.d0.v1", "a.b", "x_1.y2"}) {
    EXPECT_TRUE(EngineId::is_valid(ok)) << ok;
    EXPECT_EQ(EngineId(ok).str(), ok);
  }
}

TEST(EngineIdGrammar, RejectsMalformedIdsWithValidationErrors) {
  for (const char* bad : {"", "cpu", "Tenferro.cpu", "tenferro..cpu", ".a.b", "a.b.", "a.1b",
                          "a b.c", "a.b-c", "a.B"}) {
    EXPECT_FALSE(EngineId::is_valid(bad)) << bad;
    try {
      EngineId id(bad);
      FAIL() << "accepted " << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Validation);
    }
  }
}

TEST(Runtime, IdentityIsUniqueAndTargetComesFromTheBackend) {
  auto a = EagerRuntime::cpu();
  auto b = EagerRuntime::cpu();
  EXPECT_NE(a->id(), b->id());
  EXPECT_EQ(a->backend_kind(), BackendKind::Cpu);
  EXPECT_EQ(a->engine_id().str(), "tenferro.cpu.v1");
  EXPECT_EQ(a->extension_target().backend_kind, BackendKind::Cpu);
  EXPECT_NE(a->backend().placement().allocation_domain, b->backend().placement().allocation_domain);
  EXPECT_EQ(a->stats().backend_constructions, 1u);  // its own, and nothing built since
}

TEST(Runtime, OfBuildsEveryBackendKindOrFailsTyped) {
  // EagerRuntime::of is the one switch that builds runtimes by kind: each kind gives a runtime
  // of that kind, or (not compiled in, no device) a typed Unsupported or Backend error.
  for (BackendKind kind : kAllBackendKinds) {
    try {
      const auto rt = EagerRuntime::of(kind);
      EXPECT_EQ(rt->backend_kind(), kind) << backend_kind_name(kind);
    } catch (const Error& e) {
      EXPECT_NE(kind, BackendKind::Cpu) << e.what();
      EXPECT_TRUE(e.kind() == ErrorKind::Unsupported || e.kind() == ErrorKind::Backend)
          << backend_kind_name(kind) << ": " << e.what();
    }
  }
  // Every kind has its own name, and the name parses back to it (placement.cpp's table
  // follows the enum).
  for (BackendKind kind : kAllBackendKinds) {
    BackendKind parsed{};
    ASSERT_TRUE(parse_backend_kind(backend_kind_name(kind), parsed)) << backend_kind_name(kind);
    EXPECT_EQ(parsed, kind);
  }
}

TEST(Runtime, BackendConstructionsAreCountedProcessWide) {
  const auto before = process_backend_constructions();
  auto a = EagerRuntime::cpu();
  auto b = testing::make_test_device_runtime();
  EXPECT_EQ(process_backend_constructions(), before + 2);
  a->upload(Tensor::zeros(DType::F32, {3}));
  EXPECT_EQ(process_backend_constructions(), before + 2);
}

TEST(Runtime, EveryBackendObjectIsCountedEvenWithoutARuntime) {
  const auto before = process_backend_constructions();
  { testing::TestDeviceBackend orphan; }
  EXPECT_EQ(process_backend_constructions(), before + 1);
}

// The regression the construction counters exist to show: an executor that builds a backend
// behind its caller's back, on every call.
ModulePtr backend_building_module(const EagerExtensionTarget& target) {
  auto module = std::make_shared<ExtensionModule>("tenferro.test.builds_backends");
  module->register_executor(
      std::string(testing::kTestFamily), target.engine_id,
      [](const ExecutionContext&, const ExtensionOp&, std::span<const EagerTensor> inputs) {
        testing::TestDeviceBackend hidden;
        return std::vector<EagerTensor>{inputs[0]};
      });
  return module;
}

TEST(Runtime, ABackendBuiltInsideAnEagerCallIsChargedToThatRuntime) {
  auto caller = EagerRuntime::cpu();
  auto bystander = EagerRuntime::cpu();
  const EagerTensor x = caller->upload(Tensor::zeros(DType::F64, {2}));
  const auto before = process_backend_constructions();
  const testing::ScaleOp op(1);
  for (int i = 0; i < 3; ++i) {
    (void)apply_eager_with_targeted_extension_session(op, {&x, 1}, backend_building_module);
  }
  EXPECT_EQ(caller->stats().backend_constructions, 4u) << "its own backend and three hidden ones";
  EXPECT_EQ(bystander->stats().backend_constructions, 1u);
  EXPECT_EQ(process_backend_constructions(), before + 3);
  // A well-behaved call charges nothing.
  (void)einsum("i,i->", {x, x});
  EXPECT_EQ(caller->stats().backend_constructions, 4u);
}

TEST(Runtime, ExplicitTransfersAreCounted) {
  auto rt = EagerRuntime::cpu();
  Tensor host = Tensor::from_row_major<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  EagerTensor x = rt->upload(host);
  Tensor back = x.download();
  const RuntimeStats s = rt->stats();
  EXPECT_EQ(s.uploads, 1u);
  EXPECT_EQ(s.upload_bytes, 24u);
  EXPECT_EQ(s.downloads, 1u);
  EXPECT_EQ(s.download_bytes, 24u);
  EXPECT_EQ(back.at<float>({1, 2}), 6.0f);
  // host_view is free and not a transfer on the CPU.
  EXPECT_EQ(x.host_view().at<float>({0, 1}), 2.0f);
  EXPECT_EQ(rt->stats().downloads, 1u);
}

TEST(Runtime, UploadCopiesSoLaterHostWritesDoNotLeakIn) {
  auto rt = EagerRuntime::cpu();
  Tensor host = Tensor::from_col_major<double>({2}, {1, 2});
  EagerTensor x = rt->upload(host);
  host.at<double>({0}) = 99;
  EXPECT_EQ(x.download().at<double>({0}), 1.0);
}

TEST(Runtime, DeviceValuesRoundTripAllDtypesAndRefuseHostAccess) {
  auto dev = testing::make_test_device_runtime();
  Tensor c = Tensor::from_row_major<std::complex<double>>({2, 2}, {{1, 2}, {3, 4}, {5, 6}, {7, 8}});
  EagerTensor x = dev->upload(c);
  EXPECT_FALSE(x.is_host_resident());
  EXPECT_THROW(x.host_view(), Error);
  Tensor back = x.download();
  EXPECT_EQ(back.at<std::complex<double>>({1, 0}), std::complex<double>(5, 6));
  for (DType d : kAllDTypes) {
    EagerTensor z = dev->upload(Tensor::zeros(d, {3, 0}));
    EXPECT_EQ(z.download().shape(), (Shape{3, 0}));
  }
}

TEST(Runtime, StridedViewsDownloadTheirLogicalElements) {
  auto dev = testing::make_test_device_runtime();
  Tensor host = Tensor::from_row_major<double>({2, 3}, {1, 2, 3, 4, 5, 6});
  EagerTensor t = dev->upload(host).permute(std::vector<std::int64_t>{1, 0});
  Tensor back = t.download();
  EXPECT_EQ(back.shape(), (Shape{3, 2}));
  EXPECT_EQ(back.at<double>({2, 1}), 6.0);
  EXPECT_EQ(back.at<double>({0, 1}), 4.0);
}

TEST(Runtime, EmptyHandleIsATypedError) {
  EagerTensor empty;
  EXPECT_FALSE(empty.defined());
  EXPECT_THROW(empty.download(), Error);
  EXPECT_THROW(empty.placement(), Error);
}

// Every build asks both device runtimes: one not compiled in is Unsupported; one compiled
// in is either built or refused for a missing device (Backend), never Unsupported.
void expect_compiled_or_unsupported(const char* name, bool compiled,
                                    const std::function<void()>& make_runtime) {
  SCOPED_TRACE(name);
  try {
    make_runtime();
    EXPECT_TRUE(compiled) << "a runtime of a backend that is not compiled in was built";
  } catch (const Error& e) {
    if (compiled) {
      EXPECT_EQ(e.kind(), ErrorKind::Backend) << e.what();
    } else {
      EXPECT_EQ(e.kind(), ErrorKind::Unsupported) << e.what();
      EXPECT_NE(std::string(e.what()).find("configure with"), std::string::npos) << e.what();
    }
  }
}

TEST(Runtime, RuntimesOfBackendsNotCompiledInAreUnsupported) {
  expect_compiled_or_unsupported("cuda", TENFERRO_HAS_CUDA, [] { EagerRuntime::cuda(); });
  expect_compiled_or_unsupported("webgpu", TENFERRO_HAS_WEBGPU, [] { EagerRuntime::webgpu(); });
}

TEST(Admission, TableChecksAndRenders) {
  AdmissionTable t("tenferro.demo.v1", {"add", "mul"});
  t.admit("add", BackendKind::Cpu, {DType::F32, DType::F64})
      .note(BackendKind::WebGpu, "no f64 in WGSL");
  EXPECT_TRUE(t.admits("add", BackendKind::Cpu, DType::F64));
  EXPECT_FALSE(t.admits("add", BackendKind::Cpu, DType::C32));
  EXPECT_FALSE(t.admits("mul", BackendKind::Cpu, DType::F32));
  EXPECT_FALSE(t.admits("nope", BackendKind::Cpu, DType::F32));
  try {
    t.check("add", BackendKind::WebGpu, DType::F64);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
    EXPECT_NE(std::string(e.what()).find("no f64 in WGSL"), std::string::npos);
  }
  EXPECT_NE(t.to_text().find("F32,F64"), std::string::npos);
  EXPECT_NE(t.to_json().find("\"add\": {\"cpu\": [\"F32\", \"F64\"]"), std::string::npos);
}

}  // namespace
}  // namespace tenferro
