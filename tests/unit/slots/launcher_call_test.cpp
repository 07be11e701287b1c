// A launcher call as data (slot.hpp's slot_entry) and made by libffi (slots/launcher_call.hpp): each kind of
// argument reaches the function as the C type it was, integers and floats mixed past the registers that carry them.
#include "slots/launcher_call.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>

#include "cudalab/slot.hpp"

namespace {

struct seen_t {
  const float* in = nullptr;
  float* out = nullptr;
  unsigned long long n = 0;
  int offset = 0;
  unsigned block = 0;
  float scale = 0;
  double bias = 0;
  long long shift = 0;
  cudaStream_t stream = nullptr;
  const cudaStream_t* streams = nullptr;
  int count = 0;
} seen;

// Ten arguments: past the six integer registers and with floats between them (x86-64's calling convention).
extern "C" cudaError_t every_kind(const float* in, float* out, unsigned long long n, int offset, unsigned block,
                                  float scale, double bias, long long shift, cudaStream_t stream,
                                  const cudaStream_t* streams, int count) {
  seen = {in, out, n, offset, block, scale, bias, shift, stream, streams, count};
  return n == 0 ? cudaErrorInvalidValue : cudaSuccess;
}

// A slot_code that makes the call in this process, as a loaded launcher does.
class local_code final : public cudalab::slot_code {
 public:
  explicit local_code(void* f) : f_(f) {}
  cudalab::slot_kind kind() const override { return cudalab::slot_kind::launcher; }
  void launch(dim3, dim3, std::size_t, cudaStream_t, void**) const override {}
  cudaError_t call(const cudalab::slot_call& c) const override {
    last = c;
    return cudalab::host::call_launcher(f_, c);
  }
  mutable cudalab::slot_call last;

 private:
  void* f_;
};

using entry = cudaError_t(const float*, float*, unsigned long long, int, unsigned, float, double, long long,
                          cudaStream_t, const cudaStream_t*, int);

}  // namespace

TEST(LauncherCall, EveryKindReachesTheFunctionAsItsCType) {
  local_code code(reinterpret_cast<void*>(&every_kind));
  float a[2] = {}, b[2] = {};
  int somewhere = 0;  // any address stands for a stream handle here: the function only compares it
  const auto s1 = reinterpret_cast<cudaStream_t>(&somewhere);
  const cudaStream_t array[3] = {s1, nullptr, s1};
  const cudaError_t got =
      code.entry<entry>()(a, b, 1ull << 40, -7, 4000000000u, 1.5f, -2.25, -(1ll << 50), s1, array, 3);
  EXPECT_EQ(got, cudaSuccess);
  EXPECT_EQ(seen.in, a);
  EXPECT_EQ(seen.out, b);
  EXPECT_EQ(seen.n, 1ull << 40);
  EXPECT_EQ(seen.offset, -7);
  EXPECT_EQ(seen.block, 4000000000u);
  EXPECT_EQ(seen.scale, 1.5f);
  EXPECT_EQ(seen.bias, -2.25);
  EXPECT_EQ(seen.shift, -(1ll << 50));
  EXPECT_EQ(seen.stream, s1);
  EXPECT_EQ(seen.streams, array);
  EXPECT_EQ(seen.count, 3);
  // What the host was handed: the kinds in order, a stream array's length the argument after it.
  using k = cudalab::slot_arg_kind;
  const std::vector<k> kinds{k::pointer, k::pointer, k::u64,    k::i32,     k::u32, k::f32,
                             k::f64,     k::i64,     k::stream, k::streams, k::i32};
  ASSERT_EQ(code.last.args.size(), kinds.size());
  for (std::size_t i = 0; i < kinds.size(); ++i) EXPECT_EQ(code.last.args[i].kind, kinds[i]) << i;
}

TEST(LauncherCall, TheFunctionsReturnValueComesBack) {
  local_code code(reinterpret_cast<void*>(&every_kind));
  EXPECT_EQ(code.entry<entry>()(nullptr, nullptr, 0, 0, 0, 0.f, 0.0, 0, nullptr, nullptr, 0), cudaErrorInvalidValue);
}

namespace {
extern "C" cudaError_t streams_last(const cudaStream_t*) { return cudaSuccess; }
}  // namespace

TEST(LauncherCall, AStreamArrayWithoutItsLengthIsALabMistake) {
  local_code code(reinterpret_cast<void*>(&streams_last));
  const cudaStream_t array[1] = {nullptr};
  EXPECT_THROW(code.entry<cudaError_t(const cudaStream_t*)>()(array), std::logic_error);
}
