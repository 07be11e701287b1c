// The fake CUDA runtime's CUDA IPC across two processes (fake_cudart.cpp): device memory, events and a memfd's
// pinned pages that one process shares and the other opens. The program runs itself again as that other process
// (`--child <scenario> <arguments>`), which checks what it sees and exits non-zero, saying why, where it differs.
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern char** environ;

namespace {

std::string self;  // this program, to run again as the child

// ---- handles and their text, for the child's command line -------------------------------------------------------

template <class Handle>
std::string hex_of(const Handle& handle) {
  std::string text;
  const auto* bytes = reinterpret_cast<const unsigned char*>(&handle);
  for (std::size_t i = 0; i < sizeof handle; ++i) {
    char two[3];
    std::snprintf(two, sizeof two, "%02x", bytes[i]);
    text += two;
  }
  return text;
}

template <class Handle>
Handle from_hex(const std::string& text) {
  Handle handle{};
  auto* bytes = reinterpret_cast<unsigned char*>(&handle);
  for (std::size_t i = 0; i < sizeof handle && 2 * i + 1 < text.size(); ++i)
    bytes[i] = static_cast<unsigned char>(std::stoul(text.substr(2 * i, 2), nullptr, 16));
  return handle;
}

// The pattern the parent writes (salt 0) and the one the child writes back (salt 1).
unsigned char pattern(std::size_t i, int salt) { return static_cast<unsigned char>((i * 7 + 3 + salt * 101) % 251); }

// The name of the shared-memory object behind a memory handle: the fake's handle carries it after its 16 bytes
// of magic and size (fake_ipc.cpp, mem_handle).
std::string object_name(const cudaIpcMemHandle_t& handle) { return std::string(handle.reserved + 16); }

// ---- the child ---------------------------------------------------------------------------------------------------

#define CHILD_CHECK(condition)                                                           \
  do {                                                                                   \
    if (!(condition)) {                                                                  \
      std::fprintf(stderr, "child: %s:%d: %s failed\n", __FILE__, __LINE__, #condition); \
      return 1;                                                                          \
    }                                                                                    \
  } while (0)

// Any host function serves as a kernel on the fake: it runs nothing and advances the stream by FAKECUDA_MS.
void empty_kernel() {}

cudaError_t launch_empty_kernel(cudaStream_t stream) {
  return cudaLaunchKernel(reinterpret_cast<const void*>(&empty_kernel), dim3(1), dim3(1), nullptr, 0, stream);
}

// Opens the parent's allocation, checks what the parent wrote and what the runtime says of it, writes its own.
int child_memory(const std::string& handle_text, std::size_t bytes) {
  const auto handle = from_hex<cudaIpcMemHandle_t>(handle_text);
  void* d_shared = nullptr;
  CHILD_CHECK(cudaIpcOpenMemHandle(&d_shared, handle, cudaIpcMemLazyEnablePeerAccess) == cudaSuccess);
  void* d_again = nullptr;
  CHILD_CHECK(cudaIpcOpenMemHandle(&d_again, handle, cudaIpcMemLazyEnablePeerAccess) == cudaSuccess);
  CHILD_CHECK(d_again == d_shared);
  cudaPointerAttributes attributes{};
  CHILD_CHECK(cudaPointerGetAttributes(&attributes, static_cast<char*>(d_shared) + 10) == cudaSuccess);
  CHILD_CHECK(attributes.type == cudaMemoryTypeDevice);
  // The driver's cuMemGetAddressRange finds an opened allocation as it finds one of this process.
  using address_range_fn = int (*)(unsigned long long*, std::size_t*, unsigned long long);
  void* function = nullptr;
  cudaDriverEntryPointQueryResult found{};
  CHILD_CHECK(cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &function, 13000, cudaEnableDefault, &found) ==
              cudaSuccess);
  CHILD_CHECK(found == cudaDriverEntryPointSuccess && function != nullptr);
  unsigned long long base = 0;
  std::size_t size = 0;
  const auto inside = reinterpret_cast<unsigned long long>(d_shared) + bytes - 1;
  CHILD_CHECK(reinterpret_cast<address_range_fn>(function)(&base, &size, inside) == 0);
  CHILD_CHECK(base == reinterpret_cast<unsigned long long>(d_shared) && size == bytes);

  std::vector<unsigned char> h_seen(bytes);
  CHILD_CHECK(cudaMemcpy(h_seen.data(), d_shared, bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (std::size_t i = 0; i < bytes; ++i) CHILD_CHECK(h_seen[i] == pattern(i, 0));
  std::vector<unsigned char> h_mine(bytes);
  for (std::size_t i = 0; i < bytes; ++i) h_mine[i] = pattern(i, 1);
  CHILD_CHECK(cudaMemcpy(d_shared, h_mine.data(), bytes, cudaMemcpyHostToDevice) == cudaSuccess);
  CHILD_CHECK(cudaFree(d_shared) == cudaErrorInvalidValue);  // not this process's allocation
  CHILD_CHECK(cudaIpcCloseMemHandle(d_again) == cudaSuccess);
  CHILD_CHECK(cudaIpcCloseMemHandle(d_shared) == cudaSuccess);
  CHILD_CHECK(cudaIpcCloseMemHandle(d_shared) == cudaErrorInvalidValue);  // closed as often as opened
  return 0;
}

// Opens the handle of an allocation the parent has freed since: there is nothing left to map.
int child_open_freed(const std::string& handle_text) {
  void* d_gone = nullptr;
  const cudaError_t refused =
      cudaIpcOpenMemHandle(&d_gone, from_hex<cudaIpcMemHandle_t>(handle_text), cudaIpcMemLazyEnablePeerAccess);
  CHILD_CHECK(refused == cudaErrorMapBufferObjectFailed);
  CHILD_CHECK(std::string(cudaGetErrorString(refused)) == "mapping of buffer object failed");
  return 0;
}

// Waits on the parent's "go", runs one kernel, records "done": the parent's clock then holds the kernel.
int child_events(const std::string& go_text, const std::string& done_text) {
  cudaEvent_t go = nullptr;
  cudaEvent_t done = nullptr;
  CHILD_CHECK(cudaIpcOpenEventHandle(&go, from_hex<cudaIpcEventHandle_t>(go_text)) == cudaSuccess);
  CHILD_CHECK(cudaIpcOpenEventHandle(&done, from_hex<cudaIpcEventHandle_t>(done_text)) == cudaSuccess);
  cudaStream_t stream = nullptr;
  CHILD_CHECK(cudaStreamCreate(&stream) == cudaSuccess);
  CHILD_CHECK(cudaStreamWaitEvent(stream, go, 0) == cudaSuccess);
  CHILD_CHECK(launch_empty_kernel(stream) == cudaSuccess);
  CHILD_CHECK(cudaEventRecord(done, stream) == cudaSuccess);
  CHILD_CHECK(cudaEventQuery(done) == cudaSuccess);
  CHILD_CHECK(cudaEventSynchronize(done) == cudaSuccess);
  float ms = 0;
  CHILD_CHECK(cudaEventElapsedTime(&ms, go, done) == cudaErrorInvalidResourceHandle);  // opened: no timing
  CHILD_CHECK(cudaEventDestroy(go) == cudaSuccess);
  CHILD_CHECK(cudaEventDestroy(done) == cudaSuccess);
  CHILD_CHECK(cudaStreamDestroy(stream) == cudaSuccess);
  return 0;
}

// Maps the parent's memfd, pins it, reads the parent's bytes through the device pointer and writes its own.
int child_pinned(int fd, std::size_t bytes) {
  void* h_shared = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  CHILD_CHECK(h_shared != MAP_FAILED);
  CHILD_CHECK(cudaHostRegister(h_shared, bytes, cudaHostRegisterMapped) == cudaSuccess);
  void* d_view = nullptr;
  CHILD_CHECK(cudaHostGetDevicePointer(&d_view, h_shared, 0) == cudaSuccess);
  std::vector<unsigned char> h_seen(bytes);
  CHILD_CHECK(cudaMemcpy(h_seen.data(), d_view, bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (std::size_t i = 0; i < bytes; ++i) CHILD_CHECK(h_seen[i] == pattern(i, 0));
  void* d_mine = nullptr;
  CHILD_CHECK(cudaMalloc(&d_mine, bytes) == cudaSuccess);
  std::vector<unsigned char> h_mine(bytes);
  for (std::size_t i = 0; i < bytes; ++i) h_mine[i] = pattern(i, 1);
  CHILD_CHECK(cudaMemcpy(d_mine, h_mine.data(), bytes, cudaMemcpyHostToDevice) == cudaSuccess);
  CHILD_CHECK(cudaMemcpy(d_view, d_mine, bytes, cudaMemcpyDeviceToDevice) == cudaSuccess);
  CHILD_CHECK(cudaFree(d_mine) == cudaSuccess);
  CHILD_CHECK(cudaHostUnregister(h_shared) == cudaSuccess);
  CHILD_CHECK(munmap(h_shared, bytes) == 0);
  return 0;
}

// Allocates, tells the parent its handle and dies before cudaFree, as a killed process does.
int child_killed() {
  void* d_left = nullptr;
  CHILD_CHECK(cudaMalloc(&d_left, 4096) == cudaSuccess);
  cudaIpcMemHandle_t handle{};
  CHILD_CHECK(cudaIpcGetMemHandle(&handle, d_left) == cudaSuccess);
  std::printf("%s\n", hex_of(handle).c_str());
  std::fflush(stdout);
  std::raise(SIGKILL);
  return 1;
}

// Allocates and frees (a later process's first allocation, which clears what dead ones left).
int child_allocate() {
  void* d_mine = nullptr;
  CHILD_CHECK(cudaMalloc(&d_mine, 4096) == cudaSuccess);
  CHILD_CHECK(cudaFree(d_mine) == cudaSuccess);
  return 0;
}

// Where shm_open fails (a read-only /dev/shm): memory and events work, only their IPC handles are refused.
int child_without_shared_memory() {
  void* d_mine = nullptr;
  CHILD_CHECK(cudaMalloc(&d_mine, 4096) == cudaSuccess);
  CHILD_CHECK(cudaMemset(d_mine, 7, 4096) == cudaSuccess);
  cudaIpcMemHandle_t memory{};
  const cudaError_t refused = cudaIpcGetMemHandle(&memory, d_mine);
  CHILD_CHECK(refused == cudaErrorNotSupported);
  CHILD_CHECK(std::string(cudaGetErrorString(refused)) == "operation not supported");
  CHILD_CHECK(cudaFree(d_mine) == cudaSuccess);
  cudaEvent_t event = nullptr;
  CHILD_CHECK(cudaEventCreateWithFlags(&event, cudaEventInterprocess | cudaEventDisableTiming) == cudaSuccess);
  CHILD_CHECK(cudaEventRecord(event, nullptr) == cudaSuccess);
  cudaIpcEventHandle_t shared{};
  CHILD_CHECK(cudaIpcGetEventHandle(&shared, event) == cudaErrorNotSupported);
  CHILD_CHECK(cudaEventDestroy(event) == cudaSuccess);
  return 0;
}

// In a /dev/shm of 64 KiB: an allocation that fits is shared, a larger one is memory of this process alone (tmpfs
// would kill it with SIGBUS when it wrote past the 64 KiB).
int child_small_dev_shm() {
  void* d_small = nullptr;
  void* d_large = nullptr;
  CHILD_CHECK(cudaMalloc(&d_small, 4096) == cudaSuccess);
  CHILD_CHECK(cudaMalloc(&d_large, 1 << 20) == cudaSuccess);
  CHILD_CHECK(cudaMemset(d_large, 7, 1 << 20) == cudaSuccess);
  cudaIpcMemHandle_t handle{};
  CHILD_CHECK(cudaIpcGetMemHandle(&handle, d_small) == cudaSuccess);
  CHILD_CHECK(cudaIpcGetMemHandle(&handle, d_large) == cudaErrorNotSupported);
  CHILD_CHECK(cudaFree(d_large) == cudaSuccess);
  CHILD_CHECK(cudaFree(d_small) == cudaSuccess);
  return 0;
}

int child_main(const std::vector<std::string>& args) {
  const std::string& scenario = args.at(0);
  if (scenario == "memory") return child_memory(args.at(1), std::stoul(args.at(2)));
  if (scenario == "open_freed") return child_open_freed(args.at(1));
  if (scenario == "events") return child_events(args.at(1), args.at(2));
  if (scenario == "pinned") return child_pinned(std::stoi(args.at(1)), std::stoul(args.at(2)));
  if (scenario == "killed") return child_killed();
  if (scenario == "allocate") return child_allocate();
  if (scenario == "without_shared_memory") return child_without_shared_memory();
  if (scenario == "small_dev_shm") return child_small_dev_shm();
  std::fprintf(stderr, "child: no scenario %s\n", scenario.c_str());
  return 2;
}

// ---- the parent ----------------------------------------------------------------------------------------------------

struct finished {
  int status = -1;  // waitpid's
  std::string out;  // its stdout
};

// Runs `program args` with `more_env` added to this environment, its stdout read back (stderr stays the test's).
finished run(const std::vector<std::string>& command, const std::vector<std::string>& more_env = {}) {
  std::vector<std::string> env_text(more_env);
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    bool replaced = false;
    for (const std::string& m : more_env)
      replaced = replaced || entry.compare(0, m.find('=') + 1, m, 0, m.find('=') + 1) == 0;
    if (!replaced) env_text.push_back(entry);
  }
  std::vector<char*> argv, envp;
  for (const std::string& a : command) argv.push_back(const_cast<char*>(a.c_str()));
  for (const std::string& e : env_text) envp.push_back(const_cast<char*>(e.c_str()));
  argv.push_back(nullptr);
  envp.push_back(nullptr);
  int out[2];
  if (pipe(out) != 0) return {};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, out[0]);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  finished f;
  char buffer[4096];
  for (ssize_t n = 0; spawned == 0 && (n = read(out[0], buffer, sizeof buffer)) != 0;)
    if (n > 0) f.out.append(buffer, std::size_t(n));
  close(out[0]);
  if (spawned == 0) waitpid(pid, &f.status, 0);
  return f;
}

finished run_child(const std::vector<std::string>& args, const std::vector<std::string>& more_env = {}) {
  std::vector<std::string> command{self, "--child"};
  command.insert(command.end(), args.begin(), args.end());
  return run(command, more_env);
}

bool exited_cleanly(const finished& f) { return WIFEXITED(f.status) && WEXITSTATUS(f.status) == 0; }

bool exists_in_dev_shm(const std::string& name) { return access(("/dev/shm" + name).c_str(), F_OK) == 0; }

// Whether bubblewrap is here and may make namespaces (CI's container may forbid them).
bool have_bubblewrap() { return exited_cleanly(run({"bwrap", "--dev-bind", "/", "/", "true"})); }

TEST(FakeIpc, RunsOnTheFakeRuntime) {
  ASSERT_NE(dlsym(RTLD_DEFAULT, "fakecuda_set_activity_hook"), nullptr)
      << "the real CUDA runtime is loaded: put the fake's folder (build/tests/fakecuda) first on LD_LIBRARY_PATH";
}

TEST(FakeIpc, DeviceMemoryWrittenByOneProcessIsReadByTheOther) {
  const std::size_t bytes = 10000;
  void* d_shared = nullptr;
  ASSERT_EQ(cudaMalloc(&d_shared, bytes), cudaSuccess);
  std::vector<unsigned char> h_mine(bytes);
  for (std::size_t i = 0; i < bytes; ++i) h_mine[i] = pattern(i, 0);
  ASSERT_EQ(cudaMemcpy(d_shared, h_mine.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
  cudaIpcMemHandle_t handle{};
  ASSERT_EQ(cudaIpcGetMemHandle(&handle, d_shared), cudaSuccess);

  EXPECT_TRUE(exited_cleanly(run_child({"memory", hex_of(handle), std::to_string(bytes)})));

  std::vector<unsigned char> h_seen(bytes);
  ASSERT_EQ(cudaMemcpy(h_seen.data(), d_shared, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  for (std::size_t i = 0; i < bytes; ++i) ASSERT_EQ(h_seen[i], pattern(i, 1)) << "byte " << i;
  const std::string name = object_name(handle);
  EXPECT_TRUE(exists_in_dev_shm(name)) << name;
  ASSERT_EQ(cudaFree(d_shared), cudaSuccess);
  EXPECT_FALSE(exists_in_dev_shm(name)) << name << " outlived its cudaFree";
}

TEST(FakeIpc, AHandleIsOfAnAllocationsBaseOnly) {
  void* d_buffer = nullptr;
  ASSERT_EQ(cudaMalloc(&d_buffer, 4096), cudaSuccess);
  cudaIpcMemHandle_t handle{};
  EXPECT_EQ(cudaIpcGetMemHandle(&handle, static_cast<char*>(d_buffer) + 256), cudaErrorInvalidValue);
  int on_host = 0;
  EXPECT_EQ(cudaIpcGetMemHandle(&handle, &on_host), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaIpcGetMemHandle(&handle, d_buffer), cudaSuccess);
  ASSERT_EQ(cudaFree(d_buffer), cudaSuccess);
}

// The real driver answers CUDA_ERROR_INVALID_CONTEXT, which the runtime's enum calls cudaErrorDeviceUninitialized.
TEST(FakeIpc, AProcessCannotOpenItsOwnHandles) {
  void* d_buffer = nullptr;
  ASSERT_EQ(cudaMalloc(&d_buffer, 4096), cudaSuccess);
  cudaIpcMemHandle_t memory{};
  ASSERT_EQ(cudaIpcGetMemHandle(&memory, d_buffer), cudaSuccess);
  void* d_opened = nullptr;
  const cudaError_t refused = cudaIpcOpenMemHandle(&d_opened, memory, cudaIpcMemLazyEnablePeerAccess);
  EXPECT_EQ(refused, cudaErrorDeviceUninitialized);
  EXPECT_STREQ(cudaGetErrorName(refused), "cudaErrorDeviceUninitialized");
  EXPECT_STREQ(cudaGetErrorString(refused), "invalid device context");
  ASSERT_EQ(cudaFree(d_buffer), cudaSuccess);

  cudaEvent_t event = nullptr;
  ASSERT_EQ(cudaEventCreateWithFlags(&event, cudaEventInterprocess | cudaEventDisableTiming), cudaSuccess);
  cudaIpcEventHandle_t shared{};
  ASSERT_EQ(cudaIpcGetEventHandle(&shared, event), cudaSuccess);
  cudaEvent_t opened = nullptr;
  EXPECT_EQ(cudaIpcOpenEventHandle(&opened, shared), cudaErrorDeviceUninitialized);
  ASSERT_EQ(cudaEventDestroy(event), cudaSuccess);
}

TEST(FakeIpc, AHandleOfAFreedAllocationMapsNothing) {
  void* d_buffer = nullptr;
  ASSERT_EQ(cudaMalloc(&d_buffer, 4096), cudaSuccess);
  cudaIpcMemHandle_t handle{};
  ASSERT_EQ(cudaIpcGetMemHandle(&handle, d_buffer), cudaSuccess);
  ASSERT_EQ(cudaFree(d_buffer), cudaSuccess);
  EXPECT_TRUE(exited_cleanly(run_child({"open_freed", hex_of(handle)})));
}

TEST(FakeIpc, TheDriversAddressRangeGivesAnAllocationsBaseAndSize) {
  using address_range_fn = int (*)(unsigned long long*, std::size_t*, unsigned long long);
  void* function = nullptr;
  cudaDriverEntryPointQueryResult found{};
  ASSERT_EQ(cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &function, 12000, cudaEnableDefault, &found),
            cudaSuccess);
  ASSERT_EQ(found, cudaDriverEntryPointSuccess);
  ASSERT_NE(function, nullptr);
  const auto address_range = reinterpret_cast<address_range_fn>(function);

  void* d_buffer = nullptr;
  ASSERT_EQ(cudaMalloc(&d_buffer, 5000), cudaSuccess);
  unsigned long long base = 0;
  std::size_t size = 0;
  EXPECT_EQ(address_range(&base, &size, reinterpret_cast<unsigned long long>(d_buffer) + 4321), 0);
  EXPECT_EQ(base, reinterpret_cast<unsigned long long>(d_buffer));
  EXPECT_EQ(size, 5000u);
  EXPECT_EQ(address_range(&base, nullptr, reinterpret_cast<unsigned long long>(d_buffer)), 0);  // either is optional
  EXPECT_EQ(address_range(&base, &size, reinterpret_cast<unsigned long long>(d_buffer) + 5000), 1);  // just past it
  int on_host = 0;
  EXPECT_EQ(address_range(&base, &size, reinterpret_cast<unsigned long long>(&on_host)), 1);  // INVALID_VALUE
  ASSERT_EQ(cudaFree(d_buffer), cudaSuccess);

  // As documented: another name is no error, but no function; a version above the driver's is.
  function = &on_host;
  EXPECT_EQ(cudaGetDriverEntryPointByVersion("cuNoSuchFunction", &function, 13000, cudaEnableDefault, &found),
            cudaSuccess);
  EXPECT_EQ(found, cudaDriverEntryPointSymbolNotFound);
  EXPECT_EQ(function, nullptr);
  EXPECT_EQ(cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &function, 13010, cudaEnableDefault, &found),
            cudaErrorInvalidValue);
}

TEST(FakeIpc, InterprocessEventsHaveNoTiming) {
  cudaEvent_t event = nullptr;
  EXPECT_EQ(cudaEventCreateWithFlags(&event, cudaEventInterprocess), cudaErrorInvalidValue);
  cudaEvent_t plain = nullptr;
  ASSERT_EQ(cudaEventCreate(&plain), cudaSuccess);
  cudaIpcEventHandle_t handle{};
  EXPECT_EQ(cudaIpcGetEventHandle(&handle, plain), cudaErrorInvalidResourceHandle);
  ASSERT_EQ(cudaEventCreateWithFlags(&event, cudaEventInterprocess | cudaEventDisableTiming), cudaSuccess);
  ASSERT_EQ(cudaEventRecord(plain, nullptr), cudaSuccess);
  ASSERT_EQ(cudaEventRecord(event, nullptr), cudaSuccess);
  float ms = 0;
  EXPECT_EQ(cudaEventElapsedTime(&ms, plain, event), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaEventQuery(event), cudaSuccess);
  ASSERT_EQ(cudaEventDestroy(event), cudaSuccess);
  ASSERT_EQ(cudaEventDestroy(plain), cudaSuccess);
}

// Within one process: a stream that waits on another's event starts its work after that record, and the join
// brings the first stream's clock past the second's work (today's fork and join of overlapped streams).
TEST(FakeIpc, AStreamWaitingOnAnEventStartsAfterItsRecord) {
  cudaStream_t first = nullptr;
  cudaStream_t second = nullptr;
  ASSERT_EQ(cudaStreamCreate(&first), cudaSuccess);
  ASSERT_EQ(cudaStreamCreate(&second), cudaSuccess);
  cudaEvent_t start = nullptr, fork = nullptr, join = nullptr, stop = nullptr;
  for (cudaEvent_t* e : {&start, &fork, &join, &stop}) ASSERT_EQ(cudaEventCreate(e), cudaSuccess);
  ASSERT_EQ(cudaEventRecord(start, first), cudaSuccess);
  ASSERT_EQ(launch_empty_kernel(first), cudaSuccess);
  ASSERT_EQ(launch_empty_kernel(first), cudaSuccess);
  ASSERT_EQ(cudaEventRecord(fork, first), cudaSuccess);
  ASSERT_EQ(cudaStreamWaitEvent(second, fork, 0), cudaSuccess);
  ASSERT_EQ(launch_empty_kernel(second), cudaSuccess);
  ASSERT_EQ(cudaEventRecord(join, second), cudaSuccess);
  ASSERT_EQ(cudaStreamWaitEvent(first, join, 0), cudaSuccess);
  ASSERT_EQ(cudaEventRecord(stop, first), cudaSuccess);
  float ms = 0;
  ASSERT_EQ(cudaEventElapsedTime(&ms, start, stop), cudaSuccess);
  EXPECT_FLOAT_EQ(ms, 1.5f);  // two kernels on the first stream, then the second stream's one after them
  ASSERT_EQ(cudaEventElapsedTime(&ms, fork, join), cudaSuccess);
  EXPECT_FLOAT_EQ(ms, 0.5f);
  for (cudaEvent_t e : {start, fork, join, stop}) ASSERT_EQ(cudaEventDestroy(e), cudaSuccess);
  ASSERT_EQ(cudaStreamDestroy(first), cudaSuccess);
  ASSERT_EQ(cudaStreamDestroy(second), cudaSuccess);
}

// The parent records "go" at T (three kernels in), the child waits on it and runs a kernel of 2 ms (its
// FAKECUDA_MS), records "done"; the parent waits on "done": its elapsed time from T is the child's kernel.
TEST(FakeIpc, TheParentsTimingSeesTheChildsKernelBetweenGoAndDone) {
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  cudaEvent_t start = nullptr, stop = nullptr, go = nullptr, done = nullptr;
  ASSERT_EQ(cudaEventCreate(&start), cudaSuccess);
  ASSERT_EQ(cudaEventCreate(&stop), cudaSuccess);
  ASSERT_EQ(cudaEventCreateWithFlags(&go, cudaEventInterprocess | cudaEventDisableTiming), cudaSuccess);
  ASSERT_EQ(cudaEventCreateWithFlags(&done, cudaEventInterprocess | cudaEventDisableTiming), cudaSuccess);
  cudaIpcEventHandle_t go_handle{}, done_handle{};
  ASSERT_EQ(cudaIpcGetEventHandle(&go_handle, go), cudaSuccess);
  ASSERT_EQ(cudaIpcGetEventHandle(&done_handle, done), cudaSuccess);
  for (int i = 0; i < 3; ++i) ASSERT_EQ(launch_empty_kernel(stream), cudaSuccess);
  ASSERT_EQ(cudaEventRecord(start, stream), cudaSuccess);
  ASSERT_EQ(cudaEventRecord(go, stream), cudaSuccess);

  EXPECT_TRUE(exited_cleanly(run_child({"events", hex_of(go_handle), hex_of(done_handle)}, {"FAKECUDA_MS=2"})));

  ASSERT_EQ(cudaStreamWaitEvent(stream, done, 0), cudaSuccess);
  ASSERT_EQ(cudaEventRecord(stop, stream), cudaSuccess);
  ASSERT_EQ(cudaEventSynchronize(stop), cudaSuccess);
  float ms = 0;
  ASSERT_EQ(cudaEventElapsedTime(&ms, start, stop), cudaSuccess);
  EXPECT_FLOAT_EQ(ms, 2.0f);
  for (cudaEvent_t e : {start, stop, go, done}) ASSERT_EQ(cudaEventDestroy(e), cudaSuccess);
  ASSERT_EQ(cudaStreamDestroy(stream), cudaSuccess);
}

TEST(FakeIpc, PinnedMemoryOfAMemfdIsSharedThroughCopies) {
  const std::size_t bytes = 3 * 4096;
  const int fd = memfd_create("fake_ipc_test", 0);  // no MFD_CLOEXEC: the child inherits it
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, off_t(bytes)), 0);
  auto* h_shared = static_cast<unsigned char*>(mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0));
  ASSERT_NE(h_shared, MAP_FAILED);
  ASSERT_EQ(cudaHostRegister(h_shared, bytes, cudaHostRegisterMapped), cudaSuccess);
  void* d_view = nullptr;
  ASSERT_EQ(cudaHostGetDevicePointer(&d_view, h_shared, 0), cudaSuccess);
  std::vector<unsigned char> h_mine(bytes);
  for (std::size_t i = 0; i < bytes; ++i) h_mine[i] = pattern(i, 0);
  ASSERT_EQ(cudaMemcpy(d_view, h_mine.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);

  EXPECT_TRUE(exited_cleanly(run_child({"pinned", std::to_string(fd), std::to_string(bytes)})));

  std::vector<unsigned char> h_seen(bytes);
  ASSERT_EQ(cudaMemcpy(h_seen.data(), d_view, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  for (std::size_t i = 0; i < bytes; ++i) ASSERT_EQ(h_seen[i], pattern(i, 1)) << "byte " << i;
  ASSERT_EQ(cudaHostUnregister(h_shared), cudaSuccess);
  ASSERT_EQ(munmap(h_shared, bytes), 0);
  close(fd);
}

// A killed process cannot free: its objects stay in /dev/shm until the next process's first allocation.
TEST(FakeIpc, WhatAKilledProcessLeftIsRemovedByTheNext) {
  const finished killed = run_child({"killed"});
  ASSERT_TRUE(WIFSIGNALED(killed.status) && WTERMSIG(killed.status) == SIGKILL);
  const std::string name = object_name(from_hex<cudaIpcMemHandle_t>(killed.out));
  ASSERT_TRUE(exists_in_dev_shm(name)) << name;
  ASSERT_TRUE(exited_cleanly(run_child({"allocate"})));
  EXPECT_FALSE(exists_in_dev_shm(name)) << name << " was left behind";
}

TEST(FakeIpc, WithoutSharedMemoryOnlyTheHandlesAreRefused) {
  if (!have_bubblewrap()) GTEST_SKIP() << "no bubblewrap that may make namespaces: no read-only /dev/shm to try";
  const finished f = run({"bwrap", "--dev-bind", "/", "/", "--tmpfs", "/dev/shm", "--remount-ro", "/dev/shm", self,
                          "--child", "without_shared_memory"});
  EXPECT_TRUE(exited_cleanly(f));
}

TEST(FakeIpc, ASmallDevShmSharesOnlyWhatFits) {
  if (!have_bubblewrap()) GTEST_SKIP() << "no bubblewrap that may make namespaces: no small /dev/shm to try";
  const finished f = run(
      {"bwrap", "--dev-bind", "/", "/", "--size", "65536", "--tmpfs", "/dev/shm", self, "--child", "small_dev_shm"});
  EXPECT_TRUE(exited_cleanly(f));
}

// As a harness and a submission will run: both in one sandbox, a private /dev/shm and pid namespace.
TEST(FakeIpc, TwoProcessesShareInsideOneSandbox) {
  if (!have_bubblewrap()) GTEST_SKIP() << "no bubblewrap that may make namespaces";
  const finished f = run({"bwrap", "--dev-bind", "/", "/", "--tmpfs", "/dev/shm", "--unshare-pid", "--proc", "/proc",
                          self, "--gtest_filter=FakeIpc.DeviceMemory*:FakeIpc.TheParents*:FakeIpc.AProcess*"});
  EXPECT_TRUE(exited_cleanly(f)) << f.out;
  EXPECT_NE(f.out.find("[  PASSED  ] 3 tests."), std::string::npos) << f.out;
}

}  // namespace

int main(int argc, char** argv) {
  self = "/proc/self/exe";
  char path[4096] = {};
  if (readlink("/proc/self/exe", path, sizeof path - 1) > 0) self = path;
  if (argc > 2 && std::string(argv[1]) == "--child") return child_main(std::vector<std::string>(argv + 2, argv + argc));
  // Every kernel takes the default 0.5 ms here, whatever the caller's environment says; a child is told its own.
  setenv("FAKECUDA_MS", "0.5", 1);
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
