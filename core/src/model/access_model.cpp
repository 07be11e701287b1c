// The CPU access model: sectors and lines for global memory, bank wavefronts for shared memory.
#include "model/access_model.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace cudalab::host {

namespace {

void check_width(const warp_access& a) {
  const unsigned bytes = a.bytes_per_lane;
  if (a.kind == access_kind::atomic) {
    if (bytes != 4 && bytes != 8)
      throw std::invalid_argument("access model: an atomic moves 4 or 8 bytes per lane, not " + std::to_string(bytes));
    return;
  }
  if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8 && bytes != 16)
    throw std::invalid_argument("access model: bytes_per_lane must be 1, 2, 4, 8 or 16, not " + std::to_string(bytes));
}

bool active(const warp_access& a, unsigned lane) { return (a.active >> lane) & 1u; }

// Up to `N` values of a request on the stack (a lane of at most 16 bytes touches at most two sectors, two lines
// or four bank words): the model runs for every warp instruction of a trace, so no allocation per request.
template <class T, std::size_t N>
struct small_list {
  std::array<T, N> items{};
  std::size_t size = 0;
  void push(const T& v) {
    if (size == N) throw std::logic_error("access model: more values than one warp request can touch");
    items[size++] = v;
  }
  T* begin() { return items.data(); }
  T* end() { return items.data() + size; }
  // Sorted, and how many distinct values.
  std::size_t distinct() {
    std::sort(begin(), end());
    return static_cast<std::size_t>(std::unique(begin(), end()) - begin());
  }
};

// Bytes covered by the lanes' [address, address + bytes) ranges, each byte once.
std::uint64_t distinct_bytes(const warp_access& a) {
  small_list<std::pair<std::uint64_t, std::uint64_t>, 32> ranges;
  for (unsigned lane = 0; lane < 32; ++lane)
    if (active(a, lane)) ranges.push({a.address[lane], a.address[lane] + a.bytes_per_lane});
  std::sort(ranges.begin(), ranges.end());
  std::uint64_t total = 0, covered_to = 0;
  for (const auto& [begin, end] : ranges) {
    const std::uint64_t from = std::max(begin, covered_to);
    if (end > from) total += end - from;
    covered_to = std::max(covered_to, end);
  }
  return total;
}

}  // namespace

global_cost global_request_cost(const warp_access& a) {
  check_width(a);
  const bool atomic = a.kind == access_kind::atomic;
  small_list<std::uint64_t, 64> lines, sectors;
  small_list<std::pair<std::uint64_t, std::uint64_t>, 64> sector_words;  // an atomic's (sector, word) pairs
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!active(a, lane)) continue;
    const std::uint64_t first = a.address[lane];
    const std::uint64_t last = first + a.bytes_per_lane - 1;
    for (std::uint64_t s = first / sector_bytes; s <= last / sector_bytes; ++s) {
      if (atomic)
        sector_words.push({s, first / a.bytes_per_lane});
      else
        sectors.push(s);
    }
    for (std::uint64_t l = first / line_bytes; l <= last / line_bytes; ++l) lines.push(l);
  }
  global_cost cost;
  cost.lines = static_cast<unsigned>(lines.distinct());
  cost.requested_bytes = distinct_bytes(a);
  if (!atomic) {  // each sector touched costs one access
    cost.sectors = static_cast<unsigned>(sectors.distinct());
    return cost;
  }
  // Sorted, a sector's pairs are together and a word's lanes next to each other: an atomic's sector costs as many
  // accesses as its busiest word has lanes.
  std::sort(sector_words.begin(), sector_words.end());
  for (const auto* p = sector_words.begin(); p != sector_words.end();) {
    const std::uint64_t sector = p->first;
    unsigned busiest = 0;
    while (p != sector_words.end() && p->first == sector) {
      const auto* word_end = p;
      while (word_end != sector_words.end() && *word_end == *p) ++word_end;
      busiest = std::max(busiest, static_cast<unsigned>(word_end - p));
      p = word_end;
    }
    cost.sectors += busiest;
  }
  return cost;
}

shared_cost shared_request_cost(const warp_access& a) {
  check_width(a);
  const bool atomic = a.kind == access_kind::atomic;
  const unsigned lanes_per_phase = atomic || a.bytes_per_lane <= 4 ? 32 : 128 / a.bytes_per_lane;
  const unsigned words_per_lane = std::max(1u, a.bytes_per_lane / bank_width_bytes);
  shared_cost cost;
  for (unsigned phase_start = 0; phase_start < 32; phase_start += lanes_per_phase) {
    // Lanes on one word share it, atomics too: the H100 combines a shared atomic's lanes on one word in
    // one wavefront (histogram lab, 2026-11-24: every lane on bin 0 took 1 wavefront per request).
    small_list<std::pair<unsigned, std::uint64_t>, 128> bank_words;  // (bank, word)
    for (unsigned lane = phase_start; lane < phase_start + lanes_per_phase; ++lane) {
      if (!active(a, lane)) continue;
      const std::uint64_t first_word = a.address[lane] / bank_width_bytes;
      for (unsigned w = 0; w < words_per_lane; ++w)
        bank_words.push({static_cast<unsigned>((first_word + w) % bank_count), first_word + w});
    }
    if (bank_words.size == 0) continue;
    // The distinct words, sorted by bank: the busiest bank's count is the phase's wavefronts.
    const std::size_t distinct = bank_words.distinct();
    std::size_t worst = 0;
    for (std::size_t i = 0; i < distinct;) {
      std::size_t j = i;
      while (j < distinct && bank_words.items[j].first == bank_words.items[i].first) ++j;
      worst = std::max(worst, j - i);
      i = j;
    }
    cost.wavefronts += static_cast<unsigned>(worst);
    cost.ideal_wavefronts += 1;
  }
  return cost;
}

void access_model::access(const warp_access& a) {
  if (a.space == memory_space::global) {
    const global_cost c = global_request_cost(a);
    global_totals& t = a.kind == access_kind::load    ? raw_.global_load
                       : a.kind == access_kind::store ? raw_.global_store
                                                      : raw_.global_atomic;
    t.requests += weight_;
    t.sectors += weight_ * c.sectors;
    t.lines += weight_ * c.lines;
    t.requested_bytes += weight_ * c.requested_bytes;
  } else {
    const shared_cost c = shared_request_cost(a);
    shared_totals& t = a.kind == access_kind::load    ? raw_.shared_load
                       : a.kind == access_kind::store ? raw_.shared_store
                                                      : raw_.shared_atomic;
    t.requests += weight_;
    t.wavefronts += weight_ * c.wavefronts;
    t.ideal_wavefronts += weight_ * c.ideal_wavefronts;
  }
}

void access_model::set_weight(std::uint64_t times) {
  if (times == 0) throw std::invalid_argument("access model: a weight must be at least 1");
  weight_ = times;
}

void access_model::sampled(std::uint64_t traced_warps, std::uint64_t total_warps) {
  if (traced_warps == 0 || total_warps < traced_warps)
    throw std::invalid_argument("access model: sampled() needs 0 < traced_warps <= total_warps");
  raw_.traced_warps = traced_warps;
  raw_.total_warps = total_warps;
}

access_stats access_model::stats() const {
  if (raw_.traced_warps == 0) return raw_;
  const double k = double(raw_.total_warps) / double(raw_.traced_warps);
  auto scale = [k](std::uint64_t v) { return static_cast<std::uint64_t>(std::llround(double(v) * k)); };
  access_stats s = raw_;
  for (global_totals* g : {&s.global_load, &s.global_store, &s.global_atomic}) {
    g->requests = scale(g->requests);
    g->sectors = scale(g->sectors);
    g->lines = scale(g->lines);
    g->requested_bytes = scale(g->requested_bytes);
  }
  for (shared_totals* sh : {&s.shared_load, &s.shared_store, &s.shared_atomic}) {
    sh->requests = scale(sh->requests);
    sh->wavefronts = scale(sh->wavefronts);
    sh->ideal_wavefronts = scale(sh->ideal_wavefronts);
  }
  return s;
}

}  // namespace cudalab::host
