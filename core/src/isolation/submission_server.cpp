// The submission's own process (submission_process.hpp's serve_submission): the launcher loaded here and
// called on the harness's buffers, its work ordered between the harness's "go" and "done".
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>
#include <vector>

#include "cudalab/cuda_error.hpp"
#include "device/cold_cache.hpp"
#include "device/kernel_census.hpp"
#include "exit_codes.hpp"
#include "isolation/submission_process.hpp"
#include "isolation/submission_wire.hpp"
#include "slots/slot_loading.hpp"

namespace cudalab::host {

namespace {

struct host_view {
  void* ptr = nullptr;
  std::size_t bytes = 0;
};

// What the harness has handed over so far: its buffers opened here, a stream and an event pair per index.
class served_state {
 public:
  ~served_state() {
    for (auto& [id, p] : device_) CUDALAB_CUDA_LOG(cudaIpcCloseMemHandle(p));
    for (auto& [id, h] : host_) unmap(h);
    for (cudaEvent_t e : joins_) CUDALAB_CUDA_LOG(cudaEventDestroy(e));
  }

  // Lets go of the buffers the call does not use, then opens the ones it adds.
  // A handshake alone keeps everything.
  void take(const wire_call& call, const std::vector<int>& fds) {
    if (!call.handshake_only) {
      forget(device_, call.keep_device, [](void* p) { CUDALAB_CUDA_LOG(cudaIpcCloseMemHandle(p)); });
      forget(host_, call.keep_host, [](host_view& h) { unmap(h); });
    }
    for (const wire_device_buffer& b : call.new_device) {
      if (const auto held = device_.find(b.id); held != device_.end()) {
        CUDALAB_CUDA_LOG(cudaIpcCloseMemHandle(held->second));
        device_.erase(held);
      }
      void* p = nullptr;
      CUDALAB_CUDA_CHECK(cudaIpcOpenMemHandle(&p, b.handle, cudaIpcMemLazyEnablePeerAccess));
      device_[b.id] = p;
    }
    if (fds.size() != call.new_host.size()) throw std::runtime_error("host buffers without their descriptors");
    for (std::size_t i = 0; i < fds.size(); ++i) {
      host_view h{mmap(nullptr, call.new_host[i].bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fds[i], 0),
                  call.new_host[i].bytes};
      close(fds[i]);
      if (h.ptr == MAP_FAILED) throw std::runtime_error("a host buffer that cannot be mapped");
      if (const auto held = host_.find(call.new_host[i].id); held != host_.end()) {
        unmap(held->second);
        host_.erase(held);
      }
      const cudaError_t registered =
          cudaHostRegister(h.ptr, h.bytes, cudaHostRegisterMapped | cudaHostRegisterPortable);
      if (registered != cudaSuccess) {
        munmap(h.ptr, h.bytes);
        CUDALAB_CUDA_CHECK(registered);
      }
      host_[call.new_host[i].id] = h;
    }
    for (const wire_stream_events& e : call.new_events) {
      if (e.index != events_.size()) throw std::runtime_error("events out of order");
      std::pair<cudaEvent_t, cudaEvent_t> pair;
      CUDALAB_CUDA_CHECK(cudaIpcOpenEventHandle(&pair.first, e.go));
      CUDALAB_CUDA_CHECK(cudaIpcOpenEventHandle(&pair.second, e.done));
      events_.push_back(pair);
    }
    if (call.streams > events_.size()) throw std::runtime_error("a stream without its events");
    while (streams_.size() < call.streams) {
      cudaStream_t s = nullptr;
      CUDALAB_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      streams_.push_back(s);
    }
  }

  // The call's arguments as pointers, values and streams of this process. `arrays` holds the stream arrays.
  slot_call rebuild(const wire_call& call, std::vector<std::vector<cudaStream_t>>& arrays) const {
    slot_call c;
    arrays.reserve(call.args.size());
    for (const wire_arg& a : call.args) {
      slot_arg s{a.kind, a.bits};
      switch (a.where) {
        case wire_where::value:
          break;
        case wire_where::device:
          s.bits = address(static_cast<char*>(device_.at(a.buffer)) + a.bits);
          break;
        case wire_where::host: {
          const host_view& h = host_.at(a.buffer);
          if (a.bits >= h.bytes) throw std::runtime_error("an offset past a host buffer");
          s.bits = address(static_cast<char*>(h.ptr) + a.bits);
          break;
        }
        case wire_where::stream:
          s.bits = address(streams_.at(a.buffer));
          break;
        case wire_where::streams: {
          if (a.buffer + a.bits > streams_.size()) throw std::runtime_error("a stream array past the streams");
          arrays.emplace_back(streams_.begin() + std::ptrdiff_t(a.buffer),
                              streams_.begin() + std::ptrdiff_t(a.buffer + a.bits));
          s.bits = address(arrays.back().data());
          break;
        }
      }
      c.args.push_back(s);
    }
    return c;
  }

  void wait_for_go(std::uint64_t streams) const {
    for (std::uint64_t k = 0; k < streams; ++k)
      CUDALAB_CUDA_CHECK(cudaStreamWaitEvent(streams_[k], events_[k].first, 0));
  }
  // The census's session stream is the first: the call's other streams join it, so that only work on
  // streams the call was not given can outlive it (the harness waits on every stream's "done").
  void join_first(std::uint64_t streams) {
    while (joins_.size() < streams) {
      cudaEvent_t e = nullptr;
      CUDALAB_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
      joins_.push_back(e);
    }
    for (std::uint64_t k = 1; k < streams; ++k) {
      CUDALAB_CUDA_CHECK(cudaEventRecord(joins_[k], streams_[k]));
      CUDALAB_CUDA_CHECK(cudaStreamWaitEvent(streams_[0], joins_[k], 0));
    }
  }
  void record_done(std::uint64_t streams) const {
    for (std::uint64_t k = 0; k < streams; ++k) CUDALAB_CUDA_CHECK(cudaEventRecord(events_[k].second, streams_[k]));
  }
  cudaStream_t session() const { return streams_.empty() ? nullptr : streams_.front(); }
  std::vector<cudaStream_t> first(std::uint64_t streams) const {
    return {streams_.begin(), streams_.begin() + std::ptrdiff_t(std::min<std::uint64_t>(streams, streams_.size()))};
  }

 private:
  template <class T>
  static std::uint64_t address(T* p) {
    return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p));
  }
  static void unmap(host_view& h) {
    CUDALAB_CUDA_LOG(cudaHostUnregister(h.ptr));
    munmap(h.ptr, h.bytes);
  }
  template <class Map, class Release>
  static void forget(Map& map, const std::vector<std::uint64_t>& keep, Release release) {
    for (auto it = map.begin(); it != map.end();) {
      if (std::find(keep.begin(), keep.end(), it->first) == keep.end()) {
        release(it->second);
        it = map.erase(it);
      } else {
        ++it;
      }
    }
  }

  std::map<std::uint64_t, void*> device_;
  std::map<std::uint64_t, host_view> host_;
  std::vector<std::pair<cudaEvent_t, cudaEvent_t>> events_;  // go, done
  std::vector<cudaStream_t> streams_;
  std::vector<cudaEvent_t> joins_;  // by stream index ([0] unused)
};

wire_reply serve(served_state& state, const slot_code* code, const received_message& m) {
  wire_reply reply;
  const wire_call call = parse_call(m.text);
  reply.nonce = call.nonce;
  if (!code && !call.handshake_only) throw std::runtime_error("a calibration peer makes handshakes only");
  state.take(call, m.fds);
  // What a launcher left set that outlives its call (a persisting-L2 set-aside, a window on its stream): the
  // harness resets only its own process's before each timed launch, so this process says what it finds.
  if (!call.handshake_only) reply.persisting = read_persisting_l2(state.first(call.streams)).text();
  std::vector<std::vector<cudaStream_t>> arrays;
  const slot_call c = state.rebuild(call, arrays);
  state.wait_for_go(call.streams);
  std::unique_ptr<census_recording> census;
  if (call.census) census = std::make_unique<census_recording>(state.session());
  if (!call.handshake_only) reply.status = static_cast<int>(code->call(c));
  if (census) {
    state.join_first(call.streams);
    reply.census = census->finish();
  }
  state.record_done(call.streams);
  return reply;
}

}  // namespace

int serve_submission(int socket, const std::string& artifact, const std::string& entry) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  std::unique_ptr<slot_code> code;
  try {
    record_persisting_l2_default();  // the driver's own set-aside, before any student code runs
    if (!artifact.empty()) code = load_slot_code(slot_kind::launcher, artifact, entry);  // "": a calibration peer
    send_message(socket, reply_text({}));
  } catch (const std::exception& e) {
    wire_reply r;
    r.error = e.what();
    try {
      send_message(socket, reply_text(r));
    } catch (const std::exception&) {
    }
    return exit_internal;
  }
  served_state state;
  for (;;) {
    std::optional<received_message> m;
    try {
      m = receive_message(socket);
    } catch (const std::exception&) {
      return exit_internal;
    }
    if (!m) return exit_ok;
    wire_reply reply;
    try {
      reply = serve(state, code.get(), *m);
    } catch (const std::exception& e) {
      reply = {};
      reply.error = e.what();
    }
    try {
      send_message(socket, reply_text(reply));
    } catch (const std::exception&) {
      return exit_internal;
    }
  }
}

}  // namespace cudalab::host
