// The mapped_pinned lab: one add kernel fed through pageable, pinned, streamed, mapped and registered host memory.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
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
#include "mapped_pinned.hpp"
#include "mapped_pinned_kernels.cuh"

namespace mapped_pinned {

namespace {

/// How a variant moves its data between host and device.
enum class way { pageable, pinned, streams, mapped, registered, mapped_strided };

struct variant_info {
  const char* name;
  const char* summary;
  way how;
  int unroll;  ///< fixed unroll factor, or 0 for the `unroll` parameter
};

const variant_info all_variants[] = {
    {"pageable", "cudaMemcpy in, add, cudaMemcpy out, through ordinary (pageable) host memory: staged copies",
     way::pageable, 0},
    {"pinned", "cudaMemcpy in, add, cudaMemcpy out, through pinned host memory: direct DMA", way::pinned, 0},
    {"streams", "pinned data cut into chunks; copy-in, add and copy-out of different chunks overlap on several streams",
     way::streams, 0},
    {"mapped_u1", "zero-copy: the add reads and writes mapped pinned host memory over the bus, 1 element per thread",
     way::mapped, 1},
    {"mapped_u2", "zero-copy add, unrolled: 2 loads in flight per thread before the adds", way::mapped, 2},
    {"mapped_u4", "zero-copy add, unrolled: 4 loads in flight per thread before the adds", way::mapped, 4},
    {"registered", "zero-copy add on malloc'ed memory page-locked and mapped with cudaHostRegister", way::registered,
     0},
    {"mapped_strided", "zero-copy add walking the array column-wise: every lane its own 32-byte sector (uncoalesced)",
     way::mapped_strided, 0},
};

const variant_info& info_of(const std::string& name) {
  for (const variant_info& v : all_variants)
    if (name == v.name) return v;
  throw std::out_of_range("mapped_pinned: no variant '" + name + "'");
}

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

/// Blocks of a launch that trace() follows: all of a small grid, else the first and the last block
/// (the tail lives in the last one); the blocks between repeat the first one's pattern.
std::vector<std::uint64_t> sample_blocks(std::uint64_t grid) {
  constexpr std::uint64_t traced_completely_up_to = 256;
  std::vector<std::uint64_t> blocks;
  if (grid <= traced_completely_up_to) {
    for (std::uint64_t b = 0; b < grid; ++b) blocks.push_back(b);
  } else {
    blocks = {0, grid - 1};
  }
  return blocks;
}

/// Traces the warps of one add_unrolled_kernel launch over `n` elements starting `base_bytes` into
/// both allocations: the warps of the sample_blocks().
/// Adds the warps traced and the launch's warps to the two counters.
void trace_add_launch(cudalab::trace_sink& sink, std::uint64_t n, std::uint64_t base_bytes, std::uint64_t block,
                      std::uint64_t unroll, std::uint64_t& traced, std::uint64_t& total) {
  if (n == 0) return;
  const std::uint64_t grid = add_grid(n, block, unroll);
  const std::uint64_t warps_per_block = block / 32;
  total += grid * warps_per_block;
  const std::vector<std::uint64_t> sample = sample_blocks(grid);
  for (std::uint64_t b : sample) {
    for (std::uint64_t w = 0; w < warps_per_block; ++w) {
      for (std::uint64_t it = 0; add_index(it, b, grid, block, w * 32, unroll, 0) < n; ++it) {
        for (auto kind : {cudalab::access_kind::load, cudalab::access_kind::store}) {
          for (std::uint64_t u = 0; u < unroll; ++u) {
            sink.warp(cudalab::memory_space::global, kind, 4, [&](unsigned lane) -> long long {
              const std::uint64_t i = add_index(it, b, grid, block, w * 32 + lane, unroll, u);
              return i < n ? static_cast<long long>(base_bytes + i * sizeof(int)) : -1;
            });
          }
        }
      }
      ++traced;
    }
  }
}

/// Traces one add_strided_kernel launch: the warps of the sample_blocks().
void trace_strided_launch(cudalab::trace_sink& sink, std::uint64_t n, std::uint64_t stride, std::uint64_t block,
                          std::uint64_t& traced, std::uint64_t& total) {
  if (n == 0) return;
  const std::uint64_t rows = strided_rows(n, stride);
  const std::uint64_t cells = rows * stride;
  const std::uint64_t grid = strided_grid(n, stride, block);
  const std::uint64_t warps_per_block = block / 32;
  const std::uint64_t step = grid * block;
  total += grid * warps_per_block;
  const std::vector<std::uint64_t> sample = sample_blocks(grid);
  for (std::uint64_t b : sample) {
    for (std::uint64_t w = 0; w < warps_per_block; ++w) {
      for (std::uint64_t t0 = b * block + w * 32; t0 < cells; t0 += step) {
        auto addr = [&](unsigned lane) -> long long {
          const std::uint64_t t = t0 + lane;
          if (t >= cells) return -1;
          const std::uint64_t i = strided_index(t, rows, stride);
          return i < n ? static_cast<long long>(i * sizeof(int)) : -1;
        };
        sink.warp(cudalab::memory_space::global, cudalab::access_kind::load, 4, addr);
        sink.warp(cudalab::memory_space::global, cudalab::access_kind::store, 4, addr);
      }
      ++traced;
    }
  }
}

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
        "(the seed's AddKernel), through cudaHostRegister'ed malloc memory, or uncoalesced. GB/s counts the "
        "bytes that cross the bus; `cycles` adds work per element to show where overlap pays.";
    s.params = {
        cudalab::param_spec::integer("n", std::int64_t(1) << 25, 1, std::int64_t(1) << 33, "elements",
                                     "ints in the input and in the output (each crosses the bus once)"),
        cudalab::param_spec::integer("cycles", 8, 0, 1 << 16, "adds",
                                     "dependent adds per element (work per element)"),
        cudalab::param_spec::integer("increment", 1, -(std::int64_t(1) << 31), (std::int64_t(1) << 31) - 1, "",
                                     "value added each cycle"),
        cudalab::param_spec::integer("unroll", 4, 1, 4, "elements",
                                     "unroll factor (1, 2 or 4) of pageable, pinned, streams and registered"),
        cudalab::param_spec::integer("streams", 4, 1, 32, "streams", "streams the streams variant spreads chunks over"),
        cudalab::param_spec::integer("chunks", 16, 1, 4096, "chunks",
                                     "pieces the streams variant cuts the data into (at least `streams`)"),
        cudalab::param_spec::integer("stride", 32, 1, 1 << 16, "elements",
                                     "columns of mapped_strided's walk: lanes are n/stride elements apart"),
        cudalab::param_spec::integer("block", 256, 32, 1024, "threads", "threads per block"),
    };
    for (const variant_info& v : all_variants) s.variants.push_back({v.name, v.summary});
    s.baseline = "pinned";
    return s;
  }

  void check_params(const cudalab::params& p) const override {
    const std::int64_t unroll = p.integer("unroll");
    if (unroll != 1 && unroll != 2 && unroll != 4)
      throw std::invalid_argument("mapped_pinned: unroll must be 1, 2 or 4 (got " + std::to_string(unroll) + ")");
    if (p.integer("block") % 32 != 0)
      throw std::invalid_argument("mapped_pinned: block must be a multiple of 32 (a warp), got " +
                                  std::to_string(p.integer("block")));
    if (p.integer("chunks") < p.integer("streams"))
      throw std::invalid_argument("mapped_pinned: chunks (" + std::to_string(p.integer("chunks")) +
                                  ") must be at least streams (" + std::to_string(p.integer("streams")) +
                                  "), or some streams get no work");
    // Page-locking most of the machine's memory starves the OS; stay within half of what is free.
    const cudalab::requirements r = require(p);
    const std::uint64_t host = r.host_bytes + r.host_pinned_bytes;
    const std::uint64_t available = available_host_bytes();
    if (available > 0 && host > available / 2) {
      const std::uint64_t per_element = host / std::uint64_t(p.integer("n"));
      throw std::invalid_argument(
          "mapped_pinned: n = " + std::to_string(p.integer("n")) + " needs " + gib_text(host) +
          " of host memory (" + gib_text(r.host_pinned_bytes) + " page-locked + " + gib_text(r.host_bytes) +
          " pageable) but this machine has " + gib_text(available) +
          " available and the lab uses at most half of it; use n <= " +
          std::to_string(available / 2 / per_element));
    }
  }

  cudalab::requirements require(const cudalab::params& p) const override {
    const std::uint64_t bytes = std::uint64_t(p.integer("n")) * sizeof(int);
    cudalab::requirements r;
    r.device_bytes = 2 * bytes;       // device input and output of the copy-based variants
    r.host_pinned_bytes = 6 * bytes;  // pinned, mapped and registered inputs and outputs
    r.host_bytes = 3 * bytes;         // pageable input and output, CPU reference
    return r;
  }

  void setup(const cudalab::params& p, cudalab::session& s) override {
    if (!s.device().can_map_host_memory)
      throw std::runtime_error("mapped_pinned: device " + s.device().name + " cannot map host memory");
    n_ = static_cast<std::uint64_t>(p.integer("n"));
    cycles_ = static_cast<int>(p.integer("cycles"));
    increment_ = static_cast<int>(p.integer("increment"));
    unroll_ = static_cast<int>(p.integer("unroll"));
    chunks_ = static_cast<std::uint64_t>(p.integer("chunks"));
    stride_ = static_cast<std::uint64_t>(p.integer("stride"));
    block_ = static_cast<int>(p.integer("block"));
    const auto stream_count = static_cast<std::size_t>(p.integer("streams"));

    std::mt19937_64 rng(s.seed());
    std::uniform_int_distribution<int> dist(-1000000, 1000000);
    h_input_.resize(n_);
    for (int& v : h_input_) v = dist(rng);
    h_reference_.resize(n_);
    for (std::uint64_t i = 0; i < n_; ++i) h_reference_[i] = add_reference(h_input_[i], increment_, cycles_);
    h_pageable_out_.resize(n_);

    pinned_in_ = cudalab::pinned_buffer<int>(n_);
    pinned_out_ = cudalab::pinned_buffer<int>(n_);
    std::copy(h_input_.begin(), h_input_.end(), pinned_in_.data());
    mapped_in_ = cudalab::mapped_buffer<int>(n_);
    mapped_out_ = cudalab::mapped_buffer<int>(n_);
    std::copy(h_input_.begin(), h_input_.end(), mapped_in_.data());
    registered_in_mem_ = malloc_ints(n_);
    registered_out_mem_ = malloc_ints(n_);
    std::copy(h_input_.begin(), h_input_.end(), registered_in_mem_.get());
    registered_in_ = cudalab::host_registration(registered_in_mem_.get(), n_ * sizeof(int));
    registered_out_ = cudalab::host_registration(registered_out_mem_.get(), n_ * sizeof(int));
    d_in_ = cudalab::device_buffer<int>(n_);
    d_out_ = cudalab::device_buffer<int>(n_);

    streams_.clear();
    joins_.clear();
    for (std::size_t i = 0; i < stream_count; ++i) {
      streams_.emplace_back();
      joins_.emplace_back();
    }
    fork_ = std::make_unique<cudalab::event>();

    const std::size_t bytes = n_ * sizeof(int);
    s.register_output(h_pageable_out_.data(), bytes, cudalab::memory_kind::host);
    s.register_output(pinned_out_.data(), bytes, cudalab::memory_kind::host);
    s.register_output(mapped_out_.data(), bytes, cudalab::memory_kind::host);
    s.register_output(registered_out_mem_.get(), bytes, cudalab::memory_kind::host);
  }

  cudalab::traffic traffic_of(const cudalab::variant_spec&) const override {
    // Every variant must bring each input element across the bus and send each result back.
    return {n_ * sizeof(int), n_ * sizeof(int), cudalab::memory_path::host_bus};
  }

  void run(const cudalab::variant_spec& v, cudaStream_t stream) override {
    const variant_info& info = info_of(v.name);
    const std::size_t bytes = n_ * sizeof(int);
    switch (info.how) {
      case way::pageable:
        copy_add_copy(h_input_.data(), h_pageable_out_.data(), bytes, stream);
        break;
      case way::pinned:
        copy_add_copy(pinned_in_.data(), pinned_out_.data(), bytes, stream);
        break;
      case way::streams:
        run_streams(stream);
        break;
      case way::mapped:
        launch_add_unrolled(mapped_in_.device_data(), mapped_out_.device_data(), n_, increment_, cycles_,
                            info.unroll, block_, stream);
        break;
      case way::registered:
        launch_add_unrolled(static_cast<const int*>(registered_in_.device_data()),
                            static_cast<int*>(registered_out_.device_data()), n_, increment_, cycles_, unroll_,
                            block_, stream);
        break;
      case way::mapped_strided:
        launch_add_strided(mapped_in_.device_data(), mapped_out_.device_data(), n_, stride_, increment_, cycles_,
                           block_, stream);
        break;
    }
  }

  cudalab::check verify(const cudalab::variant_spec& v) override {
    // Every output is host memory the run has already written (the host synchronised the stream).
    const int* got = nullptr;
    switch (info_of(v.name).how) {
      case way::pageable:
        got = h_pageable_out_.data();
        break;
      case way::pinned:
      case way::streams:
        got = pinned_out_.data();
        break;
      case way::mapped:
      case way::mapped_strided:
        got = mapped_out_.data();
        break;
      case way::registered:
        got = registered_out_mem_.get();
        break;
    }
    return cudalab::compare_exact(got, h_reference_.data(), n_);
  }

  void trace(const cudalab::params& p, const cudalab::variant_spec& v, cudalab::trace_sink& sink) const override {
    const variant_info& info = info_of(v.name);
    const auto n = static_cast<std::uint64_t>(p.integer("n"));
    const auto block = static_cast<std::uint64_t>(p.integer("block"));
    const auto unroll = static_cast<std::uint64_t>(info.unroll != 0 ? info.unroll : p.integer("unroll"));
    std::uint64_t traced = 0;
    std::uint64_t total = 0;
    // The cudaMemcpy calls are library copies and are not traced; only the add kernels are.
    switch (info.how) {
      case way::pageable:
      case way::pinned:
      case way::mapped:
      case way::registered:
        trace_add_launch(sink, n, 0, block, unroll, traced, total);
        break;
      case way::streams: {
        const std::uint64_t chunk = chunk_elements(n, static_cast<std::uint64_t>(p.integer("chunks")));
        for (std::uint64_t begin = 0; begin < n; begin += chunk)
          trace_add_launch(sink, std::min(chunk, n - begin), begin * sizeof(int), block, unroll, traced, total);
        break;
      }
      case way::mapped_strided:
        trace_strided_launch(sink, n, static_cast<std::uint64_t>(p.integer("stride")), block, traced, total);
        break;
    }
    if (traced > 0 && traced < total) sink.sampled(traced, total);
  }

  void teardown() noexcept override {
    // Unregister before the malloc'ed memory goes; stop using streams before their events go.
    registered_in_ = {};
    registered_out_ = {};
    registered_in_mem_.reset();
    registered_out_mem_.reset();
    fork_.reset();
    joins_.clear();
    streams_.clear();
    pinned_in_ = {};
    pinned_out_ = {};
    mapped_in_ = {};
    mapped_out_ = {};
    d_in_ = {};
    d_out_ = {};
    h_input_ = {};
    h_reference_ = {};
    h_pageable_out_ = {};
  }

 private:
  /// Copy in, add on the device, copy out, all on `stream` (one execution of pageable or pinned).
  void copy_add_copy(const int* h_in, int* h_out, std::size_t bytes, cudaStream_t stream) {
    CUDALAB_CUDA_CHECK(cudaMemcpyAsync(d_in_.data(), h_in, bytes, cudaMemcpyHostToDevice, stream));
    launch_add_unrolled(d_in_.data(), d_out_.data(), n_, increment_, cycles_, unroll_, block_, stream);
    CUDALAB_CUDA_CHECK(cudaMemcpyAsync(h_out, d_out_.data(), bytes, cudaMemcpyDeviceToHost, stream));
  }

  /// Chunk c goes to stream c % streams: its copy-in, add and copy-out are ordered on that stream,
  /// while other streams copy or compute other chunks. The worker streams start after the work
  /// already on `stream` (fork event) and `stream` waits for all of them (join events), so the
  /// caller's timing events around run() cover the whole overlapped execution.
  void run_streams(cudaStream_t stream) {
    fork_->record(stream);
    for (auto& s : streams_) CUDALAB_CUDA_CHECK(cudaStreamWaitEvent(s.get(), fork_->get(), 0));
    const std::uint64_t chunk = chunk_elements(n_, chunks_);
    std::size_t c = 0;
    for (std::uint64_t begin = 0; begin < n_; begin += chunk, ++c) {
      const std::uint64_t count = std::min(chunk, n_ - begin);
      const std::size_t bytes = count * sizeof(int);
      const cudaStream_t s = streams_[c % streams_.size()].get();
      CUDALAB_CUDA_CHECK(
          cudaMemcpyAsync(d_in_.data() + begin, pinned_in_.data() + begin, bytes, cudaMemcpyHostToDevice, s));
      launch_add_unrolled(d_in_.data() + begin, d_out_.data() + begin, count, increment_, cycles_, unroll_, block_,
                          s);
      CUDALAB_CUDA_CHECK(
          cudaMemcpyAsync(pinned_out_.data() + begin, d_out_.data() + begin, bytes, cudaMemcpyDeviceToHost, s));
    }
    for (std::size_t i = 0; i < streams_.size(); ++i) {
      joins_[i].record(streams_[i].get());
      CUDALAB_CUDA_CHECK(cudaStreamWaitEvent(stream, joins_[i].get(), 0));
    }
  }

  std::uint64_t n_ = 0;
  int cycles_ = 0;
  int increment_ = 0;
  int unroll_ = 1;
  std::uint64_t chunks_ = 1;
  std::uint64_t stride_ = 1;
  int block_ = 256;
  std::vector<int> h_input_, h_reference_, h_pageable_out_;
  cudalab::pinned_buffer<int> pinned_in_, pinned_out_;
  cudalab::mapped_buffer<int> mapped_in_, mapped_out_;
  malloc_ptr registered_in_mem_, registered_out_mem_;
  cudalab::host_registration registered_in_, registered_out_;
  cudalab::device_buffer<int> d_in_, d_out_;
  std::vector<cudalab::stream> streams_;
  std::vector<cudalab::event> joins_;
  std::unique_ptr<cudalab::event> fork_;
};

}  // namespace mapped_pinned

CUDALAB_REGISTER_LAB(mapped_pinned::mapped_pinned_lab)
