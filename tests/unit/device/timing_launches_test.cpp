// time_launches on the fake CUDA runtime. A held sample whose blocking kernel ran out before its launches were
// queued is counted in the timing (hold_timeouts), so that a figure paced by the host says so (on the H100 the
// graded launchers of mapped-overlap were timed at 10 ms for 3 ms of work, with nothing in the results to say
// why). A launcher's handshake is calibrated before the first timed sample, and said to be done then.
#include <gtest/gtest.h>

#include "cudalab/cuda_error.hpp"
#include "cudalab/device_buffer.hpp"
#include "cudalab/stream.hpp"
#include "device/timing.hpp"

namespace cudalab::host {
namespace {

measure_settings few_samples() {
  measure_settings m;
  m.repetitions = 6;
  m.max_repetitions = 6;
  m.warmup_ms = 0;
  m.l2_flush = true;
  return m;
}

// What a launch enqueues: 1 MB written, 0.1 ms on the fake's 10 GB/s.
struct work {
  cudalab::device_buffer<unsigned char> buffer{1 << 20};
  void enqueue(cudaStream_t s) { CUDALAB_CUDA_CHECK(cudaMemsetAsync(buffer.data(), 0, 1 << 20, s)); }
};

// `launch` timed as a launcher in another process is: every sample held, after `handshake`'s calibration.
std::optional<timing> time_as_remote(const launch_fn& launch,
                                     const remote_handshake& handshake = {[](cudaStream_t) {}, {}}) {
  const cudalab::stream stream;
  return time_launches(launch, {}, stream.get(), few_samples(), 1 << 20, nullptr, &handshake);
}

TEST(TimingLaunches, ALaunchThatWaitsForItsHeldStreamIsCounted) {
  work w;
  const launch_fn waits = [&w](cudaStream_t s) {
    w.enqueue(s);
    CUDALAB_CUDA_CHECK(cudaStreamSynchronize(s));
  };
  // A handshake holds every sample; the launch waits for its stream, which the blocker holds.
  const std::optional<timing> t = time_as_remote(waits);
  ASSERT_TRUE(t);
  EXPECT_GT(t->hold_timeouts, 0u);
  EXPECT_FALSE(t->held) << "every held sample timed out: they are paced by the host";
}

TEST(TimingLaunches, OneTimeoutDoesNotEndTheHold) {
  // A one-off wait (the calibration peer's start) once made every later sample of its result host-paced.
  work w;
  int calls = 0;
  const launch_fn once = [&](cudaStream_t s) {  // the first is the warm-up's, host-paced; the second is held
    w.enqueue(s);
    if (++calls == 2) CUDALAB_CUDA_CHECK(cudaStreamSynchronize(s));
  };
  const std::optional<timing> t = time_as_remote(once);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->hold_timeouts, 1u);
  EXPECT_TRUE(t->held);
}

TEST(TimingLaunches, ALaunchThatQueuesOnlyHasNone) {
  work w;
  const std::optional<timing> t = time_as_remote([&w](cudaStream_t s) { w.enqueue(s); });
  ASSERT_TRUE(t);
  EXPECT_EQ(t->hold_timeouts, 0u);
  EXPECT_TRUE(t->held);
}

TEST(TimingLaunches, TheCalibrationEndsBeforeTheFirstTimedSample) {
  // The calibration peer is ended once the handshake is timed: no third process is alive while the launcher is.
  work w;
  int handshakes = 0, launches = 0, handshakes_when_done = -1, launches_when_done = -1;
  const remote_handshake calibration{[&](cudaStream_t) { ++handshakes; },
                                     [&] {
                                       handshakes_when_done = handshakes;
                                       launches_when_done = launches;
                                     }};
  const launch_fn launch = [&](cudaStream_t s) {
    ++launches;
    w.enqueue(s);
  };
  const std::optional<timing> t = time_as_remote(launch, calibration);
  ASSERT_TRUE(t);
  EXPECT_EQ(handshakes_when_done, 3 + handshake_samples) << "three to warm up, then the calibration's";
  EXPECT_EQ(handshakes, handshakes_when_done) << "no handshake after the calibration";
  EXPECT_EQ(launches_when_done, 1) << "the warm-up's launch only";
  EXPECT_GT(launches, 1);
}

}  // namespace
}  // namespace cudalab::host
