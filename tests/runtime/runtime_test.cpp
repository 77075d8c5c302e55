#include <gtest/gtest.h>

#include "support/test_device_backend.hpp"
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
  EXPECT_EQ(a->stats().backend_constructions, 1u);
}

TEST(Runtime, BackendConstructionsAreCountedProcessWide) {
  const auto before = process_backend_constructions();
  auto a = EagerRuntime::cpu();
  auto b = testing::make_test_device_runtime();
  EXPECT_EQ(process_backend_constructions(), before + 2);
  a->upload(Tensor::zeros(DType::F32, {3}));
  EXPECT_EQ(process_backend_constructions(), before + 2);
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

TEST(Runtime, RuntimesOfBackendsNotCompiledInAreUnsupported) {
#if !TENFERRO_HAS_CUDA
  try {
    EagerRuntime::cuda();
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
  }
#endif
#if !TENFERRO_HAS_WEBGPU
  try {
    EagerRuntime::webgpu();
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
  }
#endif
  SUCCEED();
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
