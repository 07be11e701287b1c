// The harness's side of a launcher run in the submission's own process (submission_process.hpp).
#include "isolation/submission_process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <type_traits>

#include "cudalab/cuda_error.hpp"
#include "cudalab/pinned_buffer.hpp"
#include "isolation/submission_wire.hpp"
#include "results/census.hpp"
#include "results/console_text.hpp"

extern char** environ;

namespace cudalab::host {

namespace {

// cuMemGetAddressRange, from the driver through the runtime (no libcuda link): the allocation a device
// pointer lies in, whose base an IPC handle maps.
using address_range_fn = int (*)(unsigned long long* base, std::size_t* size, unsigned long long ptr);

address_range_fn address_range() {
  static const address_range_fn fn = [] {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult found{};
    CUDALAB_CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &f, 12000, cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || !f)
      throw std::runtime_error("the CUDA driver has no cuMemGetAddressRange");
    return reinterpret_cast<address_range_fn>(f);
  }();
  return fn;
}

// A pinned_buffer's memfd that holds `p`: the mapping's start and file offset from /proc/self/maps, the
// descriptor from /proc/self/fd (the same inode). nullopt when `p` is in no pinned_buffer.
struct host_mapping {
  int fd = -1;
  std::uint64_t offset = 0;  ///< of `p` in the memfd
  std::uint64_t bytes = 0;   ///< the memfd's size
  dev_t dev = 0;
  ino_t ino = 0;
};
std::optional<host_mapping> pinned_mapping_of(const void* p) {
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  std::ifstream maps("/proc/self/maps");
  const std::string wanted = std::string("/memfd:") + pinned_memfd_name;
  for (std::string line; std::getline(maps, line);) {
    std::istringstream in(line);
    std::string range, perms, offset, device, inode, path;
    in >> range >> perms >> offset >> device >> inode;
    std::getline(in >> std::ws, path);
    if (path.rfind(wanted, 0) != 0) continue;
    const std::size_t dash = range.find('-');
    const std::uintptr_t start = std::stoull(range.substr(0, dash), nullptr, 16);
    const std::uintptr_t end = std::stoull(range.substr(dash + 1), nullptr, 16);
    if (addr < start || addr >= end) continue;
    const ino_t ino = std::stoull(inode);
    for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
      const int fd = std::atoi(entry.path().filename().c_str());
      struct stat st {};
      if (fstat(fd, &st) != 0 || st.st_ino != ino) continue;
      return host_mapping{fd, std::stoull(offset, nullptr, 16) + (addr - start), std::uint64_t(st.st_size), st.st_dev,
                          st.st_ino};
    }
    return std::nullopt;
  }
  return std::nullopt;
}

// A pointer or stream handle from the 64 bits a slot_arg carries (copied, not cast: an integer-to-pointer cast
// would hide the pointer's provenance from the optimiser).
template <class T>
T from_bits(std::uint64_t bits) {
  static_assert(std::is_pointer_v<T>, "a pointer or a handle, 64 bits like the argument");
  T value;
  std::memcpy(&value, &bits, sizeof(std::uint64_t));
  return value;
}

std::string handle_key(const cudaIpcMemHandle_t& h) { return std::string(h.reserved, sizeof h.reserved); }

}  // namespace

// One call's wire message, being built: the harness's streams by index, the descriptors to send.
struct submission_process::exchange {
  wire_call call;
  std::vector<int> fds;
  std::vector<cudaStream_t> streams;
  std::set<std::uint64_t> sent_device, sent_host;  // buffers whose handle or memfd this call carries

  std::uint64_t stream_index(cudaStream_t s) {
    for (std::size_t i = 0; i < streams.size(); ++i)
      if (streams[i] == s) return i;
    streams.push_back(s);
    return streams.size() - 1;
  }
};

submission_process::submission_process(const std::string& executable, const std::string& artifact,
                                       const std::string& entry)
    : executable_(executable), peer_only_(artifact.empty()) {
  // Nothing of this process (its memory, its descriptors: the results pipe) is reachable from another
  // process of the same user once it is undumpable: ptrace and /proc/PID/{mem,fd,environ} are refused.
  if (prctl(PR_SET_DUMPABLE, 0) != 0)
    throw std::runtime_error(std::string("cannot make the harness undumpable: ") + std::strerror(errno));
  int ends[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends) != 0)
    throw std::runtime_error(std::string("cannot make a socket for the submission's process: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, ends[1], 3);
  posix_spawn_file_actions_addclosefrom_np(&actions, 4);  // the results pipe (3 here) among them: never inherited
  const std::string parent = std::to_string(getpid());
  std::vector<std::string> args{executable, submission_entry, artifact, entry, parent};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int spawned = posix_spawn(&pid_, executable.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(ends[1]);
  socket_ = ends[0];
  if (spawned != 0) {
    close(socket_);
    socket_ = -1;
    pid_ = -1;
    throw std::runtime_error("cannot start the submission's process: " + std::string(std::strerror(spawned)));
  }
  const std::optional<received_message> hello = receive_message(socket_);
  if (!hello) throw std::runtime_error("the submission's process " + ended());
  for (int fd : hello->fds) close(fd);
  const wire_reply r = parse_reply(hello->text);
  if (!r.error.empty()) throw std::runtime_error(r.error);
}

submission_process::~submission_process() {
  if (socket_ >= 0) close(socket_);  // the other process reads the end of its socket and exits
  if (pid_ > 0) {
    int status = 0;
    for (int i = 0; i < 50 && waitpid(pid_, &status, WNOHANG) == 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (waitpid(pid_, &status, WNOHANG) == 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
    }
  }
  for (const stream_pair& e : events_) {
    CUDALAB_CUDA_LOG(cudaEventDestroy(e.go));
    CUDALAB_CUDA_LOG(cudaEventDestroy(e.done));
  }
  for (cudaEvent_t e : joins_) CUDALAB_CUDA_LOG(cudaEventDestroy(e));
}

std::string submission_process::ended() const {
  // Its socket is closed: it has ended, or is about to - or it closed its descriptor 3 and lives on, and is
  // ended here after a second, so that the harness never waits on it.
  int status = 0;
  pid_t reaped = 0;
  for (int i = 0; i < 100 && pid_ > 0 && (reaped = waitpid(pid_, &status, WNOHANG)) == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  if (pid_ > 0 && reaped == 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return "closed its socket (and was ended)";
  }
  if (pid_ > 0 && reaped == pid_) {
    pid_ = -1;
    if (WIFSIGNALED(status)) return "was killed by signal " + std::to_string(WTERMSIG(status));
    return "ended with exit code " + std::to_string(WEXITSTATUS(status));
  }
  return "closed its socket";
}

cudaError_t submission_process::call(const slot_call& c) const {
  if (peer_only_) throw std::logic_error("a calibration peer makes handshakes only");
  exchange x;
  for (std::size_t i = 0; i < c.args.size(); ++i) {
    const slot_arg& a = c.args[i];
    wire_arg w{a.kind, wire_where::value, a.bits, 0};
    if (a.kind == slot_arg_kind::stream) {
      w.where = wire_where::stream;
      w.buffer = x.stream_index(from_bits<cudaStream_t>(a.bits));
    } else if (a.kind == slot_arg_kind::streams) {
      // Each stream of the array gets an index of its own, in order (the array's length is the next argument).
      const std::uint64_t count = c.args.at(i + 1).bits & 0xffffffffu;
      const auto* array = from_bits<const cudaStream_t*>(a.bits);
      w.where = wire_where::streams;
      w.buffer = x.streams.size();
      w.bits = count;
      for (std::uint64_t k = 0; k < count; ++k) x.streams.push_back(array[k]);
    } else if (a.kind == slot_arg_kind::pointer && a.bits != 0) {
      const void* p = from_bits<const void*>(a.bits);
      cudaPointerAttributes attributes{};
      CUDALAB_CUDA_CHECK(cudaPointerGetAttributes(&attributes, p));
      if (attributes.type == cudaMemoryTypeDevice) {
        unsigned long long base = 0;
        std::size_t size = 0;
        if (address_range()(&base, &size, a.bits) != 0)
          throw std::runtime_error("argument " + std::to_string(i + 1) + " of the launcher is in no device allocation");
        cudaIpcMemHandle_t handle{};
        CUDALAB_CUDA_CHECK(cudaIpcGetMemHandle(&handle, from_bits<void*>(base)));
        auto [it, fresh] = device_ids_.emplace(handle_key(handle), next_id_);
        if (fresh) ++next_id_;
        if (!held_device_.count(it->second) && !x.sent_device.count(it->second)) {
          x.call.new_device.push_back({it->second, handle});  // new to it, or let go since it last had it
          x.sent_device.insert(it->second);
        }
        w.where = wire_where::device;
        w.buffer = it->second;
        w.bits = a.bits - base;
        x.call.keep_device.push_back(it->second);
      } else if (const std::optional<host_mapping> m =
                     attributes.type == cudaMemoryTypeHost ? pinned_mapping_of(p) : std::nullopt) {
        auto [it, fresh] = host_ids_.emplace(std::make_pair(m->dev, m->ino), next_id_);
        if (fresh) ++next_id_;
        if (!held_host_.count(it->second) && !x.sent_host.count(it->second)) {
          x.call.new_host.push_back({it->second, m->bytes});
          x.fds.push_back(m->fd);
          x.sent_host.insert(it->second);
        }
        w.where = wire_where::host;
        w.buffer = it->second;
        w.bits = m->offset;
        x.call.keep_host.push_back(it->second);
      } else {
        throw std::runtime_error("argument " + std::to_string(i + 1) +
                                 " of the launcher points to memory the submission's process cannot be given: a lab "
                                 "hands a launcher device memory or a pinned_buffer's");
      }
    }
    x.call.args.push_back(w);
  }
  return send(x, false);
}

void submission_process::handshake(cudaStream_t stream) const {
  if (!peer_only_) {
    if (!peer_) peer_ = std::make_unique<submission_process>(executable_, "", "");
    peer_->handshake(stream);
    return;
  }
  exchange x;
  x.stream_index(stream);
  CUDALAB_CUDA_CHECK(send(x, true));
}

cudaError_t submission_process::send(exchange& x, bool handshake_only) const {
  if (!broken_.empty()) throw std::runtime_error(broken_);
  x.call.nonce = nonces_();
  x.call.handshake_only = handshake_only;
  x.call.census = census_next_;
  census_next_ = false;
  x.call.streams = x.streams.size();
  while (events_.size() < x.streams.size()) {
    stream_pair e;
    CUDALAB_CUDA_CHECK(cudaEventCreateWithFlags(&e.go, cudaEventInterprocess | cudaEventDisableTiming));
    CUDALAB_CUDA_CHECK(cudaEventCreateWithFlags(&e.done, cudaEventInterprocess | cudaEventDisableTiming));
    events_.push_back(e);
    wire_stream_events w;
    w.index = events_.size() - 1;
    CUDALAB_CUDA_CHECK(cudaIpcGetEventHandle(&w.go, e.go));
    CUDALAB_CUDA_CHECK(cudaIpcGetEventHandle(&w.done, e.done));
    x.call.new_events.push_back(w);
  }
  while (joins_.size() < x.streams.size() + 1) {
    cudaEvent_t e = nullptr;
    CUDALAB_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    joins_.push_back(e);
  }
  // One stream of the harness, the hub, carries every "go" and "done": the session stream once said, else the
  // call's first. The call's other streams join it first and wait on it after. A stream of this process that
  // waits on the other process's work keeps it on the GPU's scheduler: with three such streams the handshake
  // cost 2.3 ms on the H100, against 0.28 ms with one; and in a standalone two-process program there, a session
  // stream that waited on a hub that waited (the lab joins its streams) cost two switches per copy or kernel.
  const cudaStream_t hub = through_ ? *through_ : x.streams.empty() ? nullptr : x.streams.front();
  for (std::size_t k = 0; k < x.streams.size(); ++k) {
    if (x.streams[k] == hub) continue;
    CUDALAB_CUDA_CHECK(cudaEventRecord(joins_.at(k + 1), x.streams[k]));
    CUDALAB_CUDA_CHECK(cudaStreamWaitEvent(hub, joins_.at(k + 1), 0));
  }
  for (std::size_t k = 0; k < x.streams.size(); ++k) CUDALAB_CUDA_CHECK(cudaEventRecord(events_[k].go, hub));
  send_message(socket_, call_text(x.call), x.fds);
  if (!handshake_only) {  // what it holds from now on: this call's buffers (serve_submission lets go of the rest)
    held_device_.clear();
    held_device_.insert(x.call.keep_device.begin(), x.call.keep_device.end());
    held_host_.clear();
    held_host_.insert(x.call.keep_host.begin(), x.call.keep_host.end());
  }
  const std::optional<received_message> answer = receive_message(socket_);
  if (!answer) throw std::runtime_error("the submission's process " + ended());
  for (int fd : answer->fds) close(fd);  // it has no descriptors to give; none is kept
  // Its socket is the only descriptor it has beyond its standard ones: bytes a launcher writes on it are taken
  // for nothing, and end the call and every later one (what is queued behind them is out of step) - a forged
  // line, a kept-alive watchdog's empty ones, an answer ahead of the real one without the call's nonce.
  wire_reply r;
  try {
    r = parse_reply(answer->text);
  } catch (const std::runtime_error&) {
    broken_ =
        "the submission's process wrote on its socket what is not a reply (a launcher must not write to "
        "descriptor 3): " +
        printable(answer->text.substr(0, 80));
    throw std::runtime_error(broken_);
  }
  if (r.nonce != x.call.nonce) {
    broken_ =
        "the submission's process answered with what is not the reply to this call (a launcher must not "
        "write to descriptor 3)";
    throw std::runtime_error(broken_);
  }
  if (!r.error.empty()) throw std::runtime_error("the submission's process could not make the call: " + r.error);
  if (!r.persisting.empty()) {
    ++persisting_.calls;
    if (persisting_.first.empty()) persisting_.first = r.persisting;
  }
  // The harness's streams go on once the launcher's work on the submission's streams is done.
  for (std::size_t k = 0; k < x.streams.size(); ++k) CUDALAB_CUDA_CHECK(cudaStreamWaitEvent(hub, events_[k].done, 0));
  if (!x.streams.empty()) {
    CUDALAB_CUDA_CHECK(cudaEventRecord(joins_.front(), hub));
    for (const cudaStream_t s : x.streams)
      if (s != hub) {
        // The wait goes behind a device-to-host copy of four bytes: on the H100 a stream that waits behind the
        // other process's work holds the compute engine for a time slice each time that work turns to it (about
        // 1.8 ms after every copy that a kernel waits for) unless its last work was such a copy. In a two-process
        // program mapped-overlap's launcher took 34.5 ms with a bare wait and 6.0 ms behind the copy (16 chunks
        // on one stream; 9.9 and 3.5 ms on four). The copy runs beside the launcher's work, inside its time.
        if (!copy_scratch_) copy_scratch_.emplace();
        CUDALAB_CUDA_CHECK(cudaMemcpyAsync(copy_scratch_->host.data(), copy_scratch_->device.data(),
                                           sizeof(std::uint32_t), cudaMemcpyDeviceToHost, s));
        CUDALAB_CUDA_CHECK(cudaStreamWaitEvent(s, joins_.front(), 0));
      }
  }
  if (x.call.census)
    last_census_ = r.census ? *r.census : unavailable_census("the submission's process took no census");
  return static_cast<cudaError_t>(r.status);
}

}  // namespace cudalab::host
