// HostStorage over foreign memory (what the Python package's zero-copy DLPack import uses):
// views read the caller's bytes in place, the owner lives exactly as long as the storage, and
// the bytes are never freed by tenferro.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "tenferro/core/tensor.hpp"

namespace tenferro {
namespace {

TEST(ForeignStorage, ViewsTheCallersBytesAndReleasesTheOwnerLast) {
  auto owned = std::make_shared<std::vector<double>>(std::vector<double>{1, 2, 3, 4, 5, 6});
  std::weak_ptr<std::vector<double>> watch = owned;
  auto* bytes = reinterpret_cast<std::byte*>(owned->data());
  auto storage = std::make_shared<HostStorage>(bytes, owned->size() * sizeof(double), owned);
  owned.reset();
  ASSERT_FALSE(watch.expired());  // the storage keeps the owner alive
  EXPECT_EQ(storage->data(), bytes);

  // A row-major (C-order) 2 x 3 view of the same bytes: strides (3, 1).
  Tensor t = Tensor::view_of(storage, TensorLayout{DType::F64, {2, 3}, {3, 1}, 0});
  EXPECT_EQ(t.at<double>({1, 0}), 4.0);
  watch.lock()->at(3) = -4.0;  // a write through the owner is seen by the view: no copy
  EXPECT_EQ(t.at<double>({1, 0}), -4.0);

  storage.reset();
  EXPECT_FALSE(watch.expired());  // t still holds the storage
  t = Tensor();
  EXPECT_TRUE(watch.expired());  // the last view gone: the owner is released
}

TEST(ForeignStorage, RefusesMemoryWithoutOwner) {
  double x = 0;
  EXPECT_THROW(HostStorage(reinterpret_cast<std::byte*>(&x), sizeof x, nullptr), Error);
}

}  // namespace
}  // namespace tenferro
