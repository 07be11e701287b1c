// host_session on the fake CUDA runtime: the preparation of a timed run never waits for its stream. A timed
// sample is enqueued behind the blocking kernel; a wait there holds it until the kernel's timeout, and the
// sample is host-paced (on the H100 every graded launcher of mapped-overlap was, for its pageable output).
#include "runner/host_session.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "cudalab/device_buffer.hpp"
#include "device/blocking_kernel.hpp"

namespace cudalab::host {
namespace {

TEST(HostSession, PreparingATimedRunLeavesAHeldStreamHeld) {
  host_session session(device_info{}, 1);
  std::vector<unsigned char> pageable(1000, 7);  // the CPU fills it
  cudalab::device_buffer<unsigned char> device(1000);
  session.register_output(pageable.data(), pageable.size(), memory_kind::host, output_init::poison);
  session.register_output(device.data(), 1000, memory_kind::device, output_init::poison);
  const cudaStream_t stream = session.context().stream;
  stream_blocker blocker;
  blocker.block(stream, 200.0);
  session.prepare_timed_run(stream, true);
  blocker.release();
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_FALSE(blocker.timed_out()) << "the preparation waited for the held stream";
  EXPECT_EQ(pageable, std::vector<unsigned char>(1000, static_cast<unsigned char>(poison_byte)));
}

}  // namespace
}  // namespace cudalab::host
