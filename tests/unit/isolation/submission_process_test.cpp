// The two-process harness on the fake CUDA runtime (isolation/submission_process.hpp): a launcher called from
// this process runs in `cudalab __submission`, on this process's device and pinned host buffers, its work
// ordered on this process's stream; what cannot cross is refused naming the argument; bytes the launcher
// writes on its descriptor 3 end the call.
#include "isolation/submission_process.hpp"

#include <dirent.h>
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

#include "cudalab/device_buffer.hpp"
#include "cudalab/pinned_buffer.hpp"

using cudalab::host::submission_process;

namespace {

submission_process start(const char* entry) { return submission_process(CUDALAB_EXECUTABLE, CUDALAB_LAUNCHERS, entry); }

// How many processes this one has started that still run (not yet reaped): /proc's parent ids.
int children() {
  int count = 0;
  DIR* proc = opendir("/proc");
  if (proc == nullptr) return -1;
  while (const dirent* e = readdir(proc)) {
    std::ifstream stat(std::string("/proc/") + e->d_name + "/stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    const std::size_t close = line.rfind(')');  // the name, in parentheses, may hold spaces
    if (close == std::string::npos || close + 4 > line.size()) continue;
    char state = 0;
    long parent = 0;
    if (std::sscanf(line.c_str() + close + 1, " %c %ld", &state, &parent) == 2 && parent == getpid() && state != 'Z')
      ++count;
  }
  closedir(proc);
  return count;
}

// The session stream and three streams a lab hands a launcher, destroyed with it.
struct lab_streams {
  cudaStream_t session = nullptr;
  cudaStream_t streams[3] = {};
  lab_streams() {
    if (cudaStreamCreate(&session) != cudaSuccess) throw std::runtime_error("cudaStreamCreate");
    for (cudaStream_t& s : streams)
      if (cudaStreamCreate(&s) != cudaSuccess) throw std::runtime_error("cudaStreamCreate");
  }
  ~lab_streams() {
    for (cudaStream_t s : streams) (void)cudaStreamDestroy(s);
    (void)cudaStreamDestroy(session);
  }
  lab_streams(const lab_streams&) = delete;
  lab_streams& operator=(const lab_streams&) = delete;
};
// The test launcher fill_on_streams: fills n bytes with a value, a slice on each stream.
using fill_on_streams = cudaError_t(unsigned char*, unsigned long long, int, const cudaStream_t*, int);

// fill_on_streams in its own process, called on a lab's three streams over 999 bytes of this process's.
struct filling {
  static constexpr std::size_t n = 999;
  submission_process code = start("fill_on_streams");
  lab_streams lab;
  cudalab::device_buffer<unsigned char> device{n};
  cudaError_t fill(int value) { return code.entry<fill_on_streams>()(device.data(), n, value, lab.streams, 3); }
  /// The bytes as later work on `stream` finds them.
  std::string seen_on(cudaStream_t stream) const {
    std::string seen(n, '\0');
    if (cudaMemcpyAsync(seen.data(), device.data(), n, cudaMemcpyDeviceToHost, stream) != cudaSuccess ||
        cudaStreamSynchronize(stream) != cudaSuccess)
      throw std::runtime_error("reading the filled bytes back");
    return seen;
  }
};

}  // namespace

TEST(SubmissionProcess, ALauncherWorksOnThisProcesssBuffersInItsOwn) {
  const submission_process code(CUDALAB_EXECUTABLE, CUDALAB_LAUNCHERS, "fill_and_copy");
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  const std::size_t n = 1000;
  cudalab::device_buffer<unsigned char> device(n + 64);
  cudalab::pinned_buffer<unsigned char> host(n);
  std::memset(host.data(), 0, n);
  using entry = cudaError_t(unsigned char*, unsigned long long, int, unsigned char*, cudaStream_t);
  // Into the middle of the allocation: the offset crosses with the handle.
  EXPECT_EQ(code.entry<entry>()(device.data() + 32, n, 0x5a, host.data(), stream), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  std::string seen(n + 64, '\0');
  ASSERT_EQ(cudaMemcpy(seen.data(), device.data(), n + 64, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(seen.substr(32, n), std::string(n, '\x5a'));
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(host.data()), n), std::string(n, '\x5a'));
  // Again, with the same buffers (held open there) and another value, after a handshake alone.
  code.handshake(stream);
  EXPECT_EQ(code.entry<entry>()(device.data() + 32, n, 0x11, host.data(), stream), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_EQ(host[0], 0x11);
  EXPECT_EQ(host[n - 1], 0x11);
  ASSERT_EQ(cudaStreamDestroy(stream), cudaSuccess);
}

TEST(SubmissionProcess, OneStreamOfThisProcessWaitsOnTheOtherWhateverTheStreamsHandedOver) {
  // Each stream of the harness that waits on the other process keeps the GPU switching between the two: three
  // made the handshake 2.3 ms on the H100, one 0.28 ms. The streams meet on the first, which alone waits.
  const auto waiting = reinterpret_cast<int (*)()>(dlsym(RTLD_DEFAULT, "fakecuda_streams_waiting_across"));
  ASSERT_NE(waiting, nullptr) << "runs on the fake CUDA runtime";
  const int before = waiting();
  filling f;  // no session stream said: the hub is the first stream handed over
  EXPECT_EQ(f.fill(0x3c), cudaSuccess);
  EXPECT_EQ(waiting() - before, 1);
  // Every stream handed over is after the other process's work: the last slice, read on the last stream.
  EXPECT_EQ(f.seen_on(f.lab.streams[2]), std::string(filling::n, '\x3c'));
}

TEST(SubmissionProcess, TheSessionStreamAloneWaitsOnTheOtherOnceSaid) {
  // The lab forks its streams from the session stream, hands them over, and joins them back. When the hub was the
  // first of them, the session stream waited on a stream that waited on the other process: in a standalone
  // two-process program on the H100 that made every copy and kernel cost two switches (48: 35.9 ms for 5.6).
  const auto waited = reinterpret_cast<int (*)(cudaStream_t)>(dlsym(RTLD_DEFAULT, "fakecuda_stream_waited_across"));
  ASSERT_NE(waited, nullptr) << "runs on the fake CUDA runtime";
  filling f;
  f.code.order_through(f.lab.session);
  EXPECT_EQ(f.fill(0x5e), cudaSuccess);
  EXPECT_EQ(waited(f.lab.session), 1);
  for (cudaStream_t s : f.lab.streams) EXPECT_EQ(waited(s), 0);
  // The session stream and every stream handed over are after the other process's work.
  for (cudaStream_t after : {f.lab.session, f.lab.streams[1]})
    EXPECT_EQ(f.seen_on(after), std::string(filling::n, '\x5e'));
}

TEST(SubmissionProcess, TheStreamsHandedOverWaitOnTheHubAfterADeviceToHostCopy) {
  // The streams handed over wait on the hub after the other process's work, as a lab's later work on them must.
  // On the H100 a stream that waits behind that work holds the compute engine each time the other process turns
  // to it unless its last work was a device-to-host copy: mapped-overlap's launcher took 34.5 ms for 6.0 (16
  // chunks on one stream) and 9.9 ms for 3.6 (four streams) in a two-process program, until each stream had
  // made such a copy.
  const auto held = reinterpret_cast<int (*)()>(dlsym(RTLD_DEFAULT, "fakecuda_waits_holding_gpu"));
  ASSERT_NE(held, nullptr) << "runs on the fake CUDA runtime";
  filling f;
  f.code.order_through(f.lab.session);
  const int before = held();
  for (int call = 0; call < 2; ++call) {
    EXPECT_EQ(f.fill(0x21 + call), cudaSuccess);
    // The lab's own work on a stream between calls (a kernel's, here a fill's) does not undo it.
    ASSERT_EQ(cudaMemsetAsync(f.device.data(), 0, 1, f.lab.streams[1]), cudaSuccess);
  }
  EXPECT_EQ(held() - before, 0);
  EXPECT_EQ(f.seen_on(f.lab.streams[2]).substr(1), std::string(filling::n - 1, '\x22'));
}

TEST(SubmissionProcess, TheCalibrationPeerEndsWhenTheHandshakesDo) {
  // While a launcher is timed, no process but the harness's and the submission's is to be on the GPU.
  const int before = children();
  const submission_process code(CUDALAB_EXECUTABLE, CUDALAB_LAUNCHERS, "returns");
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  EXPECT_EQ(children(), before + 1);
  code.handshake(stream);
  EXPECT_EQ(children(), before + 2) << "the handshake's peer";
  code.end_handshakes();
  EXPECT_EQ(children(), before + 1);
  code.handshake(stream);  // a later calibration starts another
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_EQ(children(), before + 2);
  ASSERT_EQ(cudaStreamDestroy(stream), cudaSuccess);
}

TEST(SubmissionProcess, TheLaunchersReturnValueComesBack) {
  const submission_process code(CUDALAB_EXECUTABLE, CUDALAB_LAUNCHERS, "returns");
  EXPECT_EQ(code.entry<cudaError_t(int)>()(int(cudaErrorInvalidValue)), cudaErrorInvalidValue);
  EXPECT_EQ(code.entry<cudaError_t(int)>()(0), cudaSuccess);
}

TEST(SubmissionProcess, PageableHostMemoryIsRefusedNamingTheArgument) {
  const submission_process code(CUDALAB_EXECUTABLE, CUDALAB_LAUNCHERS, "fill_and_copy");
  cudalab::device_buffer<unsigned char> device(16);
  unsigned char pageable[16] = {};
  using entry = cudaError_t(unsigned char*, unsigned long long, int, unsigned char*, cudaStream_t);
  try {
    code.entry<entry>()(device.data(), 16, 1, pageable, nullptr);
    FAIL() << "pageable memory crossed";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("argument 4 of the launcher"), std::string::npos) << e.what();
  }
}

TEST(SubmissionProcess, AnAnswerOnDescriptor3EndsTheCallAndEveryLaterOne) {
  // The launcher writes a well-formed reply, without the call's nonce, ahead of the real one.
  const submission_process code(CUDALAB_EXECUTABLE, CUDALAB_LAUNCHERS, "writes_on_fd3");
  for (int call = 0; call < 2; ++call) {
    try {
      code.entry<cudaError_t(int)>()(0);
      FAIL() << "a line written on the socket was taken for the reply";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("not the reply to this call"), std::string::npos) << e.what();
    }
  }
}

TEST(SubmissionProcess, TheHandshakeIsMadeWithAPeerThatRunsNoStudentCode) {
  // The launcher's process is gone (it ended in its call, said so), and the handshake still works: it never
  // went through that process, which could otherwise slow it down to have more taken off its times.
  const submission_process code(CUDALAB_EXECUTABLE, CUDALAB_LAUNCHERS, "exits");
  try {
    code.entry<cudaError_t(int)>()(3);
    FAIL() << "the call came back from a process that ended";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("ended with exit code 3"), std::string::npos) << e.what();
  }
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  EXPECT_NO_THROW(code.handshake(stream));
  EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  ASSERT_EQ(cudaStreamDestroy(stream), cudaSuccess);
}

TEST(SubmissionProcess, AProcessThatClosesItsSocketAndLivesOnIsEnded) {
  const submission_process code(CUDALAB_EXECUTABLE, CUDALAB_LAUNCHERS, "closes_its_socket");
  try {
    code.entry<cudaError_t(int)>()(0);
    FAIL() << "the call came back";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("closed its socket (and was ended)"), std::string::npos) << e.what();
  }
}

TEST(SubmissionProcess, AMissingEntryIsSaidWhenItStarts) {
  try {
    (void)start("no_such_launcher");
    FAIL() << "started without its entry";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("no_such_launcher"), std::string::npos) << e.what();
  }
}
