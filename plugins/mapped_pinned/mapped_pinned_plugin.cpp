// The mapped_pinned lab: one add kernel fed through pageable, pinned, streamed, mapped and registered host memory.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cudalab/cuda_error.hpp"
#include "cudalab/device_buffer.hpp"
#include "cudalab/event.hpp"
#include "cudalab/host_registration.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/mapped_buffer.hpp"
#include "cudalab/pinned_buffer.hpp"
#include "cudalab/plugin.hpp"
#include "cudalab/stream.hpp"
#include "cudalab/variant_table.hpp"
#include "mapped_pinned.hpp"
#include "mapped_pinned_kernels.cuh"
#include "mapped_pinned_slot_sources.hpp"

namespace mapped_pinned {

namespace {

const cudalab::variant_table<policy> variants = {
    {"pageable",
     "cudaMemcpy in, add, cudaMemcpy out, through ordinary (pageable) host memory: staged copies",
     {way::pageable, 0}},
    {"pinned", "cudaMemcpy in, add, cudaMemcpy out, through pinned host memory: direct DMA", {way::pinned, 0}},
    {"streams",
     "pinned data cut into chunks; copy-in, add and copy-out of different chunks overlap on several streams",
     {way::streams, 0}},
    {"mapped_u1",
     "zero-copy: the add reads and writes mapped pinned host memory over the bus, 1 element per thread",
     {way::mapped, 1}},
    {"mapped_u2", "zero-copy add, unrolled: 2 loads in flight per thread before the adds", {way::mapped, 2}},
    {"mapped_u4", "zero-copy add, unrolled: 4 loads in flight per thread before the adds", {way::mapped, 4}},
    {"registered",
     "zero-copy add on malloc'ed memory page-locked and mapped with cudaHostRegister",
     {way::registered, 0}},
    {"mapped_strided",
     "zero-copy add walking the array column-wise: every lane its own 32-byte sector (uncoalesced)",
     {way::mapped_strided, 0}},
};

/// Elements per chunk of the streams variant: n split into `chunks` parts, rounded up to 32
/// elements (128 bytes) so every chunk starts aligned and its warps stay coalesced.
std::uint64_t chunk_elements(std::uint64_t n, std::uint64_t chunks) {
  const std::uint64_t even = (n + chunks - 1) / chunks;
  return std::max<std::uint64_t>(32, (even + 31) / 32 * 32);
}

/// Bytes of host memory the OS says a new allocation can get: MemAvailable from /proc/meminfo,
/// else the free physical pages.
std::uint64_t available_host_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  const long pages = sysconf(_SC_AVPHYS_PAGES);
  const long page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? std::uint64_t(pages) * std::uint64_t(page) : 0;
}

std::string gib_text(std::uint64_t bytes) {
  std::ostringstream os;
  os.precision(3);
  os << double(bytes) / double(std::uint64_t(1) << 30) << " GiB";
  return os.str();
}

/// Page size used to align the memory handed to cudaHostRegister (it locks whole pages).
constexpr std::size_t host_page_bytes = 4096;

struct aligned_free {
  void operator()(int* p) const noexcept { std::free(p); }
};
using malloc_ptr = std::unique_ptr<int[], aligned_free>;

/// `count` ints of ordinary heap memory from the malloc family, page-aligned.
malloc_ptr malloc_ints(std::size_t count) {
  const std::size_t bytes = (count * sizeof(int) + host_page_bytes - 1) / host_page_bytes * host_page_bytes;
  void* p = std::aligned_alloc(host_page_bytes, bytes);
  if (p == nullptr) throw std::bad_alloc();
  return malloc_ptr(static_cast<int*>(p));
}

/// One sweep point: the input and the output in every kind of host memory, the device buffers of
/// the copy variants, and the streams variant's own streams and events. Only `n` shapes it: every
/// other parameter is a tuning one (retune()). Members are destroyed in reverse order of declaration:
/// registrations before their memory, events before streams.
class mapped_pinned_point final : public cudalab::lab_point {
 public:
  /// REQUIRES: the device can map host memory.
  mapped_pinned_point(const settings& s, cudalab::session& session)
      : s_(s),
        seed_(session.seed()),
        h_input_(s.n),
        h_pageable_out_(s.n),
        pinned_in_(s.n),
        pinned_out_(s.n),
        mapped_in_(s.n),
        mapped_out_(s.n),
        registered_in_mem_(malloc_ints(s.n)),
        registered_out_mem_(malloc_ints(s.n)),
        registered_in_(registered_in_mem_.get(), s.n * sizeof(int)),
        registered_out_(registered_out_mem_.get(), s.n * sizeof(int)),
        d_in_(s.n),
        d_out_(s.n) {
    make_streams(s.streams);
    // The input, made on the GPU from the seed: written over the bus into the mapped and registered
    // inputs, and into the device buffer of the copy variants, from where one copy each takes it to
    // the pinned and the pageable input. The host synchronises before it checksums them.
    const cudaStream_t stream = session.stream();
    const std::size_t bytes = s.n * sizeof(int);
    fill_input(mapped_in_.device_data(), s.n, seed_, stream);
    fill_input(static_cast<int*>(registered_in_.device_data()), s.n, seed_, stream);
    fill_input(d_in_.data(), s.n, seed_, stream);
    CUDALAB_CUDA_CHECK(cudaMemcpyAsync(pinned_in_.data(), d_in_.data(), bytes, cudaMemcpyDeviceToHost, stream));
    CUDALAB_CUDA_CHECK(cudaMemcpyAsync(h_input_.data(), d_in_.data(), bytes, cudaMemcpyDeviceToHost, stream));
    // The inputs and outputs live in host memory, so they are registered by hand. The device buffers
    // of the copy variants are written by every run of those: poisoned too, so a copy or a kernel
    // that skips elements cannot pass on what an earlier run left there.
    for (const int* h_in : {h_input_.data(), pinned_in_.data(), mapped_in_.data(), registered_in_mem_.get()})
      session.register_input(h_in, bytes, cudalab::memory_kind::host);
    for (int* h_out : {h_pageable_out_.data(), pinned_out_.data(), mapped_out_.data(), registered_out_mem_.get()})
      session.register_output(h_out, bytes, cudalab::memory_kind::host, cudalab::output_init::poison);
    for (int* d_buffer : {d_in_.data(), d_out_.data()})
      session.register_output(d_buffer, bytes, cudalab::memory_kind::device, cudalab::output_init::poison);
  }

  /// New launch settings, work per element or stream count; the buffers and inputs stay.
  void retune(const cudalab::params& p) override {
    s_ = parameters.read(p);
    if (streams_.size() != static_cast<std::size_t>(s_.streams)) make_streams(s_.streams);
  }

  void run(cudalab::variant_index v, cudaStream_t stream) override {
    const policy& how = variants[v];
    switch (how.via) {
      case way::pageable:
        return copy_add_copy(h_input_.data(), h_pageable_out_.data(), stream);
      case way::pinned:
        return copy_add_copy(pinned_in_.data(), pinned_out_.data(), stream);
      case way::streams:
        return run_streams(stream);
      case way::mapped:
        return launch_add_unrolled(mapped_in_.device_data(), mapped_out_.device_data(), s_.n, s_.increment, s_.cycles,
                                   s_.unroll_of(how), s_.block, stream);
      case way::registered:
        return launch_add_unrolled(static_cast<const int*>(registered_in_.device_data()),
                                   static_cast<int*>(registered_out_.device_data()), s_.n, s_.increment, s_.cycles,
                                   s_.unroll_of(how), s_.block, stream);
      case way::mapped_strided:
        return launch_add_strided(mapped_in_.device_data(), mapped_out_.device_data(), s_.n, s_.stride, s_.increment,
                                  s_.cycles, s_.block, stream);
    }
  }

  // Slot add_overlapped (streams' job): the student's launcher gets what run_streams() uses, between
  // the same fork and join, so it enqueues on the point's streams only and the timing covers its work.
  void run_slot(const std::string&, const cudalab::slot_code& code, cudaStream_t stream) override {
    using entry =
        cudaError_t(const int*, int*, int*, int*, unsigned long long, int, int, int, const cudaStream_t*, int);
    fork_streams(stream);
    CUDALAB_CUDA_CHECK(code.entry<entry>()(pinned_in_.data(), pinned_out_.data(), d_in_.data(), d_out_.data(), s_.n,
                                           s_.increment, s_.cycles, static_cast<int>(s_.chunks), stream_handles_.data(),
                                           static_cast<int>(stream_handles_.size())));
    join_streams(stream);
  }

  cudalab::verification verify(cudalab::variant_index v, const cudalab::lab_context& ctx) override {
    // The run has written a host output (the host synchronised the stream). The GPU compares it where
    // it can read it: the mapped and registered outputs through their device views, over the bus; the
    // pinned and pageable ones once copied into the device buffer of the copy variants (overwritten
    // by every run, and poisoned again before the next verified one).
    const std::size_t bytes = s_.n * sizeof(int);
    const int* got = d_out_.data();
    std::string read = "copied to device memory";
    switch (variants[v].via) {
      case way::pageable:
        CUDALAB_CUDA_CHECK(
            cudaMemcpyAsync(d_out_.data(), h_pageable_out_.data(), bytes, cudaMemcpyHostToDevice, ctx.stream));
        break;
      case way::pinned:
      case way::streams:
        CUDALAB_CUDA_CHECK(
            cudaMemcpyAsync(d_out_.data(), pinned_out_.data(), bytes, cudaMemcpyHostToDevice, ctx.stream));
        break;
      case way::mapped:
      case way::mapped_strided:
        got = mapped_out_.device_data();
        read = "read over the bus";
        break;
      case way::registered:
        got = static_cast<const int*>(registered_out_.device_data());
        read = "read over the bus";
        break;
    }
    cudalab::verification c = compare_sums(got, s_.n, seed_, s_.increment, s_.cycles, ctx.stream);
    c.note = "every element compared on the GPU (the host output " + read +
             ") with the input + increment * cycles, 32-bit wrap-around (add_reference)";
    return c;
  }

 private:
  /// Copy in, add on the device, copy out, all on `stream` (one execution of pageable or pinned).
  void copy_add_copy(const int* h_in, int* h_out, cudaStream_t stream) {
    const std::size_t bytes = s_.n * sizeof(int);
    CUDALAB_CUDA_CHECK(cudaMemcpyAsync(d_in_.data(), h_in, bytes, cudaMemcpyHostToDevice, stream));
    launch_add_unrolled(d_in_.data(), d_out_.data(), s_.n, s_.increment, s_.cycles, s_.unroll, s_.block, stream);
    CUDALAB_CUDA_CHECK(cudaMemcpyAsync(h_out, d_out_.data(), bytes, cudaMemcpyDeviceToHost, stream));
  }

  /// `count` worker streams, their join events, and the streams' handles as an array (for the slot).
  void make_streams(int count) {
    joins_ = std::vector<cudalab::event>(static_cast<std::size_t>(count));
    streams_ = std::vector<cudalab::stream>(static_cast<std::size_t>(count));
    stream_handles_.clear();
    for (const cudalab::stream& w : streams_) stream_handles_.push_back(w.get());
  }

  /// The worker streams start after the work already on `stream` (fork event).
  void fork_streams(cudaStream_t stream) {
    fork_.record(stream);
    for (auto& s : streams_) CUDALAB_CUDA_CHECK(cudaStreamWaitEvent(s.get(), fork_.get(), 0));
  }

  /// `stream` waits for all the worker streams (join events), so the caller's timing events around a
  /// run cover the whole overlapped execution, and what is queued on `stream` next sees its results.
  void join_streams(cudaStream_t stream) {
    for (std::size_t i = 0; i < streams_.size(); ++i) {
      joins_[i].record(streams_[i].get());
      CUDALAB_CUDA_CHECK(cudaStreamWaitEvent(stream, joins_[i].get(), 0));
    }
  }

  /// Chunk c goes to stream c % streams: its copy-in, add and copy-out are ordered on that stream,
  /// while other streams copy or compute other chunks, between fork_streams() and join_streams().
  void run_streams(cudaStream_t stream) {
    fork_streams(stream);
    const std::uint64_t chunk = chunk_elements(s_.n, s_.chunks);
    std::size_t c = 0;
    for (std::uint64_t begin = 0; begin < s_.n; begin += chunk, ++c) {
      const std::uint64_t count = std::min(chunk, s_.n - begin);
      const std::size_t bytes = count * sizeof(int);
      const cudaStream_t s = streams_[c % streams_.size()].get();
      CUDALAB_CUDA_CHECK(
          cudaMemcpyAsync(d_in_.data() + begin, pinned_in_.data() + begin, bytes, cudaMemcpyHostToDevice, s));
      launch_add_unrolled(d_in_.data() + begin, d_out_.data() + begin, count, s_.increment, s_.cycles, s_.unroll,
                          s_.block, s);
      CUDALAB_CUDA_CHECK(
          cudaMemcpyAsync(pinned_out_.data() + begin, d_out_.data() + begin, bytes, cudaMemcpyDeviceToHost, s));
    }
    join_streams(stream);
  }

  settings s_;
  std::uint64_t seed_;
  std::vector<int> h_input_, h_pageable_out_;
  cudalab::pinned_buffer<int> pinned_in_, pinned_out_;
  cudalab::mapped_buffer<int> mapped_in_, mapped_out_;
  malloc_ptr registered_in_mem_, registered_out_mem_;
  cudalab::host_registration registered_in_, registered_out_;
  cudalab::device_buffer<int> d_in_, d_out_;
  std::vector<cudalab::stream> streams_;
  std::vector<cudaStream_t> stream_handles_;  ///< streams_' handles, for the slot
  std::vector<cudalab::event> joins_;
  cudalab::event fork_;
};

}  // namespace

class mapped_pinned_lab final : public cudalab::lab {
 public:
  cudalab::lab_spec spec() const override {
    cudalab::lab_spec s;
    s.name = "mapped_pinned";
    s.title = "Host memory: pageable, pinned, streamed and mapped (zero-copy) transfers around one add kernel";
    s.summary =
        "Every variant computes out[i] = in[i] + increment * cycles with the input and the output in host "
        "memory, so each element crosses the bus twice (read + written). Copy-based variants move the data "
        "with cudaMemcpy through pageable or pinned memory, or in overlapped chunks on several streams; the "
        "zero-copy variants let the kernel read and write mapped host memory directly, unrolled 1/2/4 times "
        "(the original course chapter's AddKernel), through cudaHostRegister'ed malloc memory, or uncoalesced. "
        "GB/s counts the bytes that cross the bus; `cycles` adds work per element to show where overlap pays.";
    s.params = parameters.specs();
    s.variants = variants.specs();
    s.baseline = "pinned";
    s.slots = {{"add_overlapped", cudalab::slot_kind::launcher, "streams",
                "cut the pinned data into chunks and overlap copy-in, add and copy-out on the lab's streams "
                "(a launcher)",
                "add_overlapped", "add_overlapped.cu", cudalab_slot_source::add_overlapped_cu}};
    return s;
  }

  void check_params(const cudalab::params& p) const override {
    const settings s = parameters.read(p);
    if (s.chunks < std::uint64_t(s.streams))
      throw std::invalid_argument("chunks (" + std::to_string(s.chunks) + ") must be at least streams (" +
                                  std::to_string(s.streams) + "), or some streams get no work");
    // Page-locking most of the machine's memory starves the OS; stay within half of what is free.
    const cudalab::requirements r = requirements_of(p);
    const std::uint64_t host = r.host_bytes + r.host_pinned_bytes;
    const std::uint64_t available = available_host_bytes();
    if (available > 0 && host > available / 2)
      throw std::invalid_argument(
          "n = " + std::to_string(s.n) + " needs " + gib_text(host) + " of host memory (" +
          gib_text(r.host_pinned_bytes) + " page-locked + " + gib_text(r.host_bytes) +
          " pageable) but this machine has " + gib_text(available) +
          " available and the lab uses at most half of it; use n <= " + std::to_string(available / 2 / (host / s.n)));
  }

  cudalab::requirements requirements_of(const cudalab::params& p) const override {
    const std::uint64_t bytes = parameters.read(p).n * sizeof(int);
    cudalab::requirements r;
    r.device_bytes = 2 * bytes;       // device input and output of the copy-based variants
    r.host_pinned_bytes = 6 * bytes;  // pinned, mapped and registered inputs and outputs
    r.host_bytes = 2 * bytes;         // pageable input and output (inputs made, outputs checked on the GPU)
    return r;
  }

  cudalab::traffic traffic_of(const cudalab::params& p, cudalab::variant_index) const override {
    // Every variant must bring each input element across the bus and send each result back.
    const std::uint64_t bytes = parameters.read(p).n * sizeof(int);
    return {bytes, bytes, cudalab::memory_path::host_bus};
  }

  void trace(const cudalab::params& p, cudalab::variant_index v, const cudalab::lab_context&,
             cudalab::trace_sink& sink) const override {
    trace_variant(variants[v], parameters.read(p), sink);
  }

  std::unique_ptr<cudalab::lab_point> setup(const cudalab::params& p, cudalab::session& s) const override {
    if (!s.device().can_map_host_memory)
      throw std::runtime_error("device " + s.device().name + " cannot map host memory");
    return std::make_unique<mapped_pinned_point>(parameters.read(p), s);
  }
};

}  // namespace mapped_pinned

CUDALAB_REGISTER_LAB(mapped_pinned::mapped_pinned_lab)
