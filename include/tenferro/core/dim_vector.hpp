// SmallVector<T, N>: a vector of trivially copyable values that keeps up to N of them inside
// the object; DimVector, the int64 sequence that holds a shape or strides, is one of them.
//
// Up to N entries live inside the object, so building, copying and destroying the metadata of a
// tensor of rank <= DimVector::kInline allocates nothing. With std::vector every layout copy
// allocated twice (shape and strides), and those allocations were about half the time of a warm
// eager call on a small tensor. Longer sequences move to the heap, as a vector's would.
//
// The interface is the part of std::vector's that shapes use, and it converts implicitly from
// and to std::vector<T>, so code written against a vector shape keeps compiling. One difference:
// moving or swapping a SmallVector whose entries are inline moves the entries, so a pointer or
// span into them (data(), begin()) does not follow the move as it would with std::vector. Keep
// spans of a shape only while the tensor that owns it stays where it is.
#pragma once

#include <algorithm>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <stdexcept>
#include <type_traits>
#include <vector>

// The public API: exported from the shared library (the rest of it is hidden).
#pragma GCC visibility push(default)

namespace tenferro {

template <class T, std::size_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T> && N > 0,
                "SmallVector copies its inline block with memcpy");

 public:
  using value_type = T;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using reference = value_type&;
  using const_reference = const value_type&;
  using pointer = value_type*;
  using const_pointer = const value_type*;
  using iterator = value_type*;
  using const_iterator = const value_type*;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;

  static constexpr size_type kInline = N;

  SmallVector() noexcept = default;
  explicit SmallVector(size_type n) { resize(n); }
  SmallVector(size_type n, value_type value) { assign(n, value); }
  template <std::input_iterator It>
  SmallVector(It first, It last) {
    assign(first, last);
  }
  SmallVector(std::initializer_list<value_type> values) { assign(values.begin(), values.end()); }
  // Implicit both ways: a std::vector shape is accepted wherever a SmallVector is, and the other
  // way round (each such conversion copies).
  SmallVector(const std::vector<value_type>& values) { assign(values.begin(), values.end()); }
  operator std::vector<value_type>() const { return std::vector<value_type>(begin(), end()); }

  SmallVector(const SmallVector& other) { copy_from(other); }
  SmallVector(SmallVector&& other) noexcept { take(other); }
  SmallVector& operator=(const SmallVector& other) {
    if (this != &other) copy_from(other);
    return *this;
  }
  SmallVector& operator=(SmallVector&& other) noexcept {
    if (this != &other) {
      release();
      take(other);
    }
    return *this;
  }
  SmallVector& operator=(std::initializer_list<value_type> values) {
    assign(values.begin(), values.end());
    return *this;
  }
  ~SmallVector() {
    if (data_ != inline_) delete[] data_;
  }

  void assign(size_type n, value_type value) {
    clear();
    reserve(n);
    std::fill_n(data_, n, value);
    size_ = n;
  }
  template <std::input_iterator It>
  void assign(It first, It last) {
    clear();
    if constexpr (std::forward_iterator<It>) {
      const auto n = static_cast<size_type>(std::distance(first, last));
      reserve(n);
      std::copy(first, last, data_);
      size_ = n;
    } else {
      for (; first != last; ++first) push_back(*first);
    }
  }
  void assign(std::initializer_list<value_type> values) { assign(values.begin(), values.end()); }

  size_type size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  size_type capacity() const noexcept { return capacity_; }
  pointer data() noexcept { return data_; }
  const_pointer data() const noexcept { return data_; }

  reference operator[](size_type i) noexcept { return data_[i]; }
  const_reference operator[](size_type i) const noexcept { return data_[i]; }
  reference at(size_type i) {
    check_index(i);
    return data_[i];
  }
  const_reference at(size_type i) const {
    check_index(i);
    return data_[i];
  }
  reference front() noexcept { return data_[0]; }
  const_reference front() const noexcept { return data_[0]; }
  reference back() noexcept { return data_[size_ - 1]; }
  const_reference back() const noexcept { return data_[size_ - 1]; }

  iterator begin() noexcept { return data_; }
  iterator end() noexcept { return data_ + size_; }
  const_iterator begin() const noexcept { return data_; }
  const_iterator end() const noexcept { return data_ + size_; }
  const_iterator cbegin() const noexcept { return begin(); }
  const_iterator cend() const noexcept { return end(); }
  reverse_iterator rbegin() noexcept { return reverse_iterator(end()); }
  reverse_iterator rend() noexcept { return reverse_iterator(begin()); }
  const_reverse_iterator rbegin() const noexcept { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const noexcept { return const_reverse_iterator(begin()); }

  void clear() noexcept { size_ = 0; }
  void reserve(size_type n) {
    if (n > capacity_) grow_to(n);
  }
  void resize(size_type n, value_type value = 0) {
    grow_for(n);
    if (n > size_) std::fill(data_ + size_, data_ + n, value);
    size_ = n;
  }
  void push_back(value_type value) {
    if (size_ == capacity_) grow_to(2 * capacity_);
    data_[size_++] = value;
  }
  reference emplace_back(value_type value) {
    push_back(value);
    return back();
  }
  void pop_back() noexcept { --size_; }

  iterator insert(const_iterator pos, value_type value) { return insert(pos, size_type{1}, value); }
  iterator insert(const_iterator pos, size_type n, value_type value) {
    const size_type at = open_gap(pos, n);
    std::fill_n(data_ + at, n, value);
    return data_ + at;
  }
  template <std::input_iterator It>
  iterator insert(const_iterator pos, It first, It last) {
    // Copied first: the range may be part of this vector, which open_gap may move.
    const SmallVector values(first, last);
    const size_type at = open_gap(pos, values.size());
    std::copy(values.begin(), values.end(), data_ + at);
    return data_ + at;
  }
  iterator insert(const_iterator pos, std::initializer_list<value_type> values) {
    return insert(pos, values.begin(), values.end());
  }
  iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
  iterator erase(const_iterator first, const_iterator last) {
    const auto at = static_cast<size_type>(first - data_);
    const auto n = static_cast<size_type>(last - first);
    std::copy(data_ + at + n, data_ + size_, data_ + at);
    size_ -= n;
    return data_ + at;
  }

  void swap(SmallVector& other) noexcept {
    SmallVector tmp(std::move(other));
    other = std::move(*this);
    *this = std::move(tmp);
  }

  // A plain loop: std::equal calls memcmp for integers, whose call cost more than comparing
  // the few extents of a shape (five shape compares were 2 % of a warm 1024-element add).
  friend bool operator==(const SmallVector& a, const SmallVector& b) noexcept {
    if (a.size_ != b.size_) return false;
    for (size_type i = 0; i < a.size_; ++i) {
      if (!(a.data_[i] == b.data_[i])) return false;
    }
    return true;
  }
  friend std::strong_ordering operator<=>(const SmallVector& a, const SmallVector& b) noexcept {
    return std::lexicographical_compare_three_way(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  // Room for n entries, growing geometrically (as push_back does), so that building a long
  // vector by insert or resize is not quadratic.
  void grow_for(size_type n) {
    if (n > capacity_) grow_to(std::max(n, 2 * capacity_));
  }
  void grow_to(size_type n) {
    n = std::max(n, 2 * kInline);
    auto* grown = new value_type[n];
    std::copy(data_, data_ + size_, grown);
    release();
    data_ = grown;
    capacity_ = n;
  }
  void release() noexcept {
    if (data_ != inline_) delete[] data_;
    data_ = inline_;
    capacity_ = kInline;
  }
  // Copies of up to kInline entries move the whole inline block, a fixed-size copy the compiler
  // inlines (a copy of `size` entries is a call to memmove). Every SmallVector has room for
  // kInline entries, so the source can always be read that far. GCC 12 at -O2 reports these
  // copies as out of bounds or overflowing when they are inlined into std::vector's reallocation of
  // tensors (a false positive: it mixes up the objects of the old and new storage).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
  void copy_from(const SmallVector& other) {
    if (other.size_ <= kInline && data_ == inline_) {
      std::memcpy(inline_, other.data_, sizeof inline_);
      size_ = other.size_;
    } else {
      assign(other.begin(), other.end());
    }
  }
  // Takes `other`'s entries (its heap block, or a copy of its inline ones) and empties it.
  void take(SmallVector& other) noexcept {
    if (other.data_ == other.inline_) {
      std::memcpy(inline_, other.data_, sizeof inline_);
    } else {
      data_ = other.data_;
      capacity_ = other.capacity_;
      other.data_ = other.inline_;
      other.capacity_ = kInline;
    }
    size_ = other.size_;
    other.size_ = 0;
  }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
  // Makes room for n entries before `pos`; returns the index of the first of them.
  size_type open_gap(const_iterator pos, size_type n) {
    const auto at = static_cast<size_type>(pos - data_);
    grow_for(size_ + n);
    std::copy_backward(data_ + at, data_ + size_, data_ + size_ + n);
    size_ += n;
    return at;
  }
  void check_index(size_type i) const {
    if (i >= size_) throw std::out_of_range("SmallVector::at: index out of range");
  }

  value_type* data_ = inline_;
  size_type size_ = 0;
  size_type capacity_ = kInline;
  value_type inline_[kInline];
};

template <class T, std::size_t N>
void swap(SmallVector<T, N>& a, SmallVector<T, N>& b) noexcept {
  a.swap(b);
}

// Ranks up to 6 cover the tensors of everyday code and of most tensor networks.
using DimVector = SmallVector<std::int64_t, 6>;

}  // namespace tenferro

#pragma GCC visibility pop
