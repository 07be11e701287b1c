// The aos_soa plugin on the CPU: its parameter checks, memory needs, swizzle, the word layout the GPU
// setup and verification use, and the access model's predictions per variant.
#include <gtest/gtest.h>

#include <boost/dll/shared_library.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "../aos_soa.hpp"
#include "../aos_soa_kernels.cuh"
#include "cudalab/plugin.hpp"
#include "cudalab/testing.hpp"

namespace {

using cudalab::param_value;
using cudalab::params;

const cudalab::testing::lab_under_test& lab() {
  static const cudalab::testing::lab_under_test l("aos_soa");
  return l;
}

params with(const std::map<std::string, param_value>& overrides) { return lab().with(overrides); }

cudalab::access_stats predict(const std::string& variant, const params& p) { return lab().predict(variant, p); }

params floats(std::int64_t fields, std::int64_t n = std::int64_t(1) << 20) {
  return with({{"fields", fields}, {"n", n}});
}

/// The plugin's own lab object, for what cudalab::testing does not ask it (requirements_of): made by
/// its exported factory from the file lab() loaded (CTest puts its folder first on CUDALAB_PLUGIN_PATH).
const cudalab::lab& plugin_lab() {
  lab();
  static const boost::dll::shared_library library = [] {
    const char* path = std::getenv("CUDALAB_PLUGIN_PATH");
    if (!path) throw std::runtime_error("CUDALAB_PLUGIN_PATH is not set");
    const std::string dirs = path;
    return boost::dll::shared_library(dirs.substr(0, dirs.find(':')) + "/cudalab_aos_soa.so");
  }();
  static const std::unique_ptr<cudalab::lab> instance = library.get_alias<cudalab::lab_factory>("cudalab_create_lab")();
  return *instance;
}

TEST(AosSoaSpec, RejectsBadCombinations) {
  EXPECT_THROW(with({{"record", std::string("mixed")}}), std::invalid_argument);  // fields = 2
  EXPECT_NO_THROW(with({{"record", std::string("mixed")}, {"fields", std::int64_t(3)}}));
  EXPECT_THROW(with({{"fields", std::int64_t(2)}, {"field", std::int64_t(2)}}), std::invalid_argument);
  EXPECT_NO_THROW(with({{"fields", std::int64_t(8)}, {"field", std::int64_t(7)}}));
  for (std::int64_t b : {33, 100, 1000}) EXPECT_THROW(with({{"block", b}}), std::invalid_argument) << b;
  for (std::int64_t b : {32, 96, 1024}) EXPECT_NO_THROW(with({{"block", b}})) << b;
}

TEST(AosSoaSpec, RequiresInputAndOutputOfEachLayout) {
  // 1000 records of 3 floats: AoS 12000 B, aligned 16000 B, SoA 3 arrays of 4000 B rounded to 4096.
  const auto r = plugin_lab().requirements_of(floats(3, 1000));
  EXPECT_EQ(r.device_bytes, 2u * (12000u + 16000u + 3u * 4096u));
  EXPECT_EQ(r.host_pinned_bytes, 0u);
  EXPECT_EQ(r.host_bytes, 0u);  // inputs made and outputs checked on the GPU
}

TEST(AosSoaSpec, OnlyFieldAndBlockAreTuningParameters) {
  // They change which kernel runs how, not the inputs or the buffers: a sweep over them keeps the point.
  for (const cudalab::param_spec& p : lab().spec().params)
    EXPECT_EQ(p.tuning, p.name == "field" || p.name == "block") << p.name;
}

/// The point's settings at `overrides`.
aos_soa::settings settings_at(const std::map<std::string, param_value>& overrides) {
  return aos_soa::parameters.read(with(overrides));
}

/// Shapes worth checking the word layout at: every float width and the mixed record.
std::vector<std::map<std::string, param_value>> shapes_at(std::int64_t n) {
  std::vector<std::map<std::string, param_value>> shapes;
  for (std::int64_t fields = 1; fields <= 8; ++fields) shapes.push_back({{"n", n}, {"fields", fields}});
  shapes.push_back({{"n", n}, {"record", std::string("mixed")}, {"fields", std::int64_t(3)}});
  return shapes;
}

bool same_place(const aos_soa::word_place& a, const aos_soa::word_place& b) {
  return a.field == b.field && (a.field < 0 || (a.element == b.element && a.part == b.part));
}

TEST(AosSoaWords, EveryWordOfEachStorageIsTheFieldPartItHoldsOrPadding) {
  using aos_soa::storage;
  for (std::int64_t n : {1, 3, 33, 257, 1001})
    for (const auto& shape : shapes_at(n)) {
      const aos_soa::settings s = settings_at(shape);
      for (storage where : {storage::aos, storage::aligned, storage::soa}) {
        SCOPED_TRACE("n=" + std::to_string(n) + " fields=" + std::to_string(s.l.fields) +
                     (s.shape.mixed ? " mixed" : "") + " storage " + std::to_string(int(where)));
        const aos_soa::word_layout l = aos_soa::word_layout_of(where, s);
        const std::uint64_t bytes = where == storage::soa       ? s.soa.bytes
                                    : where == storage::aligned ? s.n * s.l.aligned_bytes
                                                                : s.n * s.l.record_bytes;
        ASSERT_EQ(l.words * 4, bytes);
        // Where each field part lies, from the byte offsets alone.
        std::vector<aos_soa::word_place> places(l.words);
        std::uint64_t field_words = 0;
        for (std::uint64_t i = 0; i < s.n; ++i)
          for (int k = 0; k < s.l.fields; ++k)
            for (unsigned part = 0; part < s.l.size[k] / 4; ++part) {
              const std::uint64_t byte =
                  where == storage::soa ? s.soa.start[k] + i * s.l.size[k] : i * (l.record_words * 4) + s.l.offset[k];
              aos_soa::word_place& p = places.at((byte + 4 * part) / 4);
              ASSERT_EQ(p.field, -1) << "two fields in one word";
              p = {i, k, part};
              ++field_words;
            }
        EXPECT_EQ(field_words, s.n * s.l.payload_bytes / 4);
        for (std::uint64_t w = 0; w < l.words; ++w) {
          const aos_soa::word_place got = aos_soa::place_of(l, w);
          ASSERT_TRUE(same_place(got, places[w]))
              << "word " << w << ": element " << got.element << " field " << got.field << " part " << got.part
              << ", expected element " << places[w].element << " field " << places[w].field << " part "
              << places[w].part;
        }
      }
    }
}

TEST(AosSoaWords, InputsAreExactBinaryFractionsTheSameInEveryStorageWithZeroPadding) {
  using aos_soa::storage;
  const aos_soa::settings s =
      settings_at({{"n", std::int64_t(300)}, {"record", std::string("mixed")}, {"fields", std::int64_t(3)}});
  std::map<std::pair<std::uint64_t, int>, double> seen;  // (element, field) -> value
  for (storage where : {storage::aos, storage::aligned, storage::soa}) {
    aos_soa::word_rule input;
    input.where = aos_soa::word_layout_of(where, s);
    input.seed = 2026;
    input.zero_padding = true;
    for (std::uint64_t w = 0; w < input.where.words; ++w) {
      const aos_soa::word_expectation e = aos_soa::expected_word(input, w);
      if (e.at.field < 0) {
        EXPECT_EQ(e.bits, 0u) << "padding word " << w;
        continue;
      }
      ASSERT_TRUE(e.written);
      const double v = e.value;
      EXPECT_GE(v, -1.0);
      EXPECT_LT(v, 1.0);
      // A multiple of 2^-23 (float) or 2^-52 (double): 2v + 1 is exact.
      const double scaled = std::ldexp(v, e.field_bytes == 8 ? 52 : 23);
      EXPECT_EQ(scaled, std::floor(scaled));
      // The word is the value's bits (the low or the high half of a double).
      const std::uint64_t bits = e.field_bytes == 8 ? aos_soa::bits_of(v) : aos_soa::bits_of(float(v));
      EXPECT_EQ(e.bits, std::uint32_t(bits >> (32 * e.at.part)));
      const auto key = std::make_pair(e.at.element, e.at.field);
      const auto it = seen.find(key);
      if (it == seen.end())
        seen[key] = v;
      else
        EXPECT_EQ(it->second, v) << "element " << e.at.element << " field " << e.at.field;
    }
  }
  EXPECT_EQ(seen.size(), 300u * 3u);
  // Fields are independent streams: field 0 and field 2 (both floats) differ.
  EXPECT_NE(seen[std::make_pair(std::uint64_t(7), 0)], seen[std::make_pair(std::uint64_t(7), 2)]);
}

TEST(AosSoaWords, AnOutputHoldsTheUpdateInTheFieldsWrittenAndThePoisonElsewhere) {
  using aos_soa::storage;
  for (storage where : {storage::aos, storage::soa}) {
    const aos_soa::settings s =
        settings_at({{"n", std::int64_t(45)}, {"record", std::string("mixed")}, {"fields", std::int64_t(3)}});
    aos_soa::word_rule input, one;
    input.where = one.where = aos_soa::word_layout_of(where, s);
    input.seed = one.seed = 11;
    input.zero_padding = true;
    one.only_field = 1;  // the double
    one.update = true;
    for (std::uint64_t w = 0; w < one.where.words; ++w) {
      const aos_soa::word_expectation in = aos_soa::expected_word(input, w), out = aos_soa::expected_word(one, w);
      if (out.at.field != 1) {
        EXPECT_EQ(out.bits, aos_soa::poison_word) << "word " << w;
        EXPECT_FALSE(out.written);
        continue;
      }
      EXPECT_EQ(out.value, aos_soa::updated(in.value));
      EXPECT_EQ(out.bits, std::uint32_t(aos_soa::bits_of(aos_soa::updated(in.value)) >> (32 * out.at.part)));
    }
  }
}

TEST(AosSoaIndexMath, SwizzleIsAPermutationOfEveryRowAndSpreadsAFieldOverAllBanks) {
  using aos_soa::swizzled_word;
  for (unsigned words : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u}) {
    SCOPED_TRACE(words);
    for (unsigned row = 0; row < 64; ++row) {
      std::set<unsigned> slots;
      for (unsigned c = 0; c < 32; ++c) slots.insert(swizzled_word(row * 32 + c, words));
      EXPECT_EQ(slots.size(), 32u);
      EXPECT_EQ(*slots.begin(), row * 32);
    }
    // 32 consecutive records, word j of each: 32 different banks, wherever the warp starts.
    for (unsigned first : {0u, 32u, 64u, 96u})
      for (unsigned j = 0; j < words; ++j) {
        std::set<unsigned> banks;
        for (unsigned t = first; t < first + 32; ++t) banks.insert(swizzled_word(t * words + j, words) % 32);
        EXPECT_EQ(banks.size(), 32u) << "first " << first << " word " << j;
      }
  }
}

TEST(AosSoaTrace, OneFieldOfTwoFloatsIsHalfUsedInAosAndFullyInSoa) {
  const params p = floats(2);
  const auto aos = predict("aos_one", p);
  EXPECT_DOUBLE_EQ(aos.global_store.efficiency(), 0.5);
  EXPECT_DOUBLE_EQ(aos.global_load.efficiency(), 0.5);
  EXPECT_DOUBLE_EQ(aos.global_store.sectors_per_request(), 8.0);  // 32 lanes x 4 B spread over 256 B
  const auto soa = predict("soa_one", p);
  EXPECT_DOUBLE_EQ(soa.global_store.efficiency(), 1.0);
  EXPECT_DOUBLE_EQ(soa.global_load.efficiency(), 1.0);
  EXPECT_DOUBLE_EQ(soa.global_store.sectors_per_request(), 16.0);  // 32 lanes x 16 B vectors
  // Both ask for the same useful bytes: n floats read and n written.
  const std::uint64_t n = std::uint64_t(1) << 20;
  EXPECT_EQ(aos.global_store.requested_bytes, 4 * n);
  EXPECT_EQ(soa.global_store.requested_bytes, 4 * n);
  EXPECT_EQ(aos.global_store.sectors, 2 * soa.global_store.sectors);
}

TEST(AosSoaTrace, OneFieldEfficiencyFallsAsOneOverFields) {
  double previous = 2.0;
  for (std::int64_t fields = 1; fields <= 8; ++fields) {
    SCOPED_TRACE(fields);
    const params p = with({{"fields", fields}, {"field", fields - 1}, {"n", std::int64_t(1) << 20}});
    const double aos = predict("aos_one", p).global_store.efficiency();
    EXPECT_DOUBLE_EQ(aos, 1.0 / double(fields));
    EXPECT_DOUBLE_EQ(predict("aos_one", p).global_load.efficiency(), 1.0 / double(fields));
    EXPECT_LT(aos, previous);
    previous = aos;
    EXPECT_DOUBLE_EQ(predict("soa_one", p).global_store.efficiency(), 1.0);
    EXPECT_DOUBLE_EQ(predict("soa_all", p).global_store.efficiency(), 1.0);
    EXPECT_DOUBLE_EQ(predict("soa_all", p).global_load.efficiency(), 1.0);
    // Every field of the natural record is its own strided request: the same 1/fields per request.
    EXPECT_DOUBLE_EQ(predict("aos_all", p).global_load.efficiency(), 1.0 / double(fields));
    EXPECT_DOUBLE_EQ(predict("copy", p).global_load.efficiency(), 1.0);
  }
}

TEST(AosSoaTrace, AlignedFloat3RecordIsOneVectorLoadInsteadOfThreeStridedOnes) {
  const params p = floats(3);
  const std::uint64_t warps = (std::uint64_t(1) << 20) / 32;
  const auto natural = predict("aos_all", p);
  EXPECT_EQ(natural.global_load.requests, 3 * warps);
  EXPECT_DOUBLE_EQ(natural.global_load.sectors_per_request(), 12.0);  // 32 x 12 B = 384 B
  EXPECT_DOUBLE_EQ(natural.global_load.efficiency(), 1.0 / 3.0);
  const auto aligned = predict("aos_all_aligned", p);
  EXPECT_EQ(aligned.global_load.requests, warps);
  EXPECT_EQ(aligned.global_store.requests, warps);
  EXPECT_DOUBLE_EQ(aligned.global_load.sectors_per_request(), 16.0);  // 32 x 16 B, a quarter of it padding
  EXPECT_DOUBLE_EQ(aligned.global_load.efficiency(), 1.0);
  // Two floats align to 8 bytes: one 8-byte load per record.
  const auto two = predict("aos_all_aligned", floats(2));
  EXPECT_EQ(two.global_load.requests, warps);
  EXPECT_DOUBLE_EQ(two.global_load.sectors_per_request(), 8.0);
}

TEST(AosSoaTrace, MixedRecordWastesPaddingAndStridesByTwentyFourBytes) {
  auto mixed = [](std::int64_t field) {
    return with({{"record", std::string("mixed")},
                 {"fields", std::int64_t(3)},
                 {"field", field},
                 {"n", std::int64_t(1) << 20}});
  };
  // float a: 4 of every 24 bytes; double b: 8 of every 24.
  EXPECT_DOUBLE_EQ(predict("aos_one", mixed(0)).global_store.efficiency(), 1.0 / 6.0);
  EXPECT_DOUBLE_EQ(predict("aos_one", mixed(1)).global_store.efficiency(), 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(predict("soa_one", mixed(1)).global_store.efficiency(), 1.0);
  EXPECT_DOUBLE_EQ(predict("soa_all", mixed(0)).global_load.efficiency(), 1.0);
  // Aligned to 16: 32-byte records, two 16-byte loads each, each load using every other 16 bytes.
  const auto aligned = predict("aos_all_aligned", mixed(0));
  EXPECT_EQ(aligned.global_load.requests, 2 * ((std::uint64_t(1) << 20) / 32));
  EXPECT_DOUBLE_EQ(aligned.global_load.efficiency(), 0.5);
}

TEST(AosSoaTrace, ConversionsAreCoalescedAndConflictFree) {
  std::vector<params> shapes;
  for (std::int64_t fields = 1; fields <= 8; ++fields) shapes.push_back(floats(fields));
  shapes.push_back(with({{"record", std::string("mixed")}, {"fields", std::int64_t(3)}, {"n", std::int64_t(1) << 20}}));
  for (const auto& p : shapes) {
    SCOPED_TRACE(p.integer("fields"));
    for (const char* v : {"aos_to_soa", "soa_to_aos"}) {
      SCOPED_TRACE(v);
      const auto s = predict(v, p);
      EXPECT_DOUBLE_EQ(s.global_load.efficiency(), 1.0);
      EXPECT_DOUBLE_EQ(s.global_store.efficiency(), 1.0);
      EXPECT_GT(s.shared_load.requests, 0u);
      EXPECT_GT(s.shared_store.requests, 0u);
      EXPECT_EQ(s.shared_load.conflicts(), 0u);
      EXPECT_EQ(s.shared_store.conflicts(), 0u);
    }
  }
}

TEST(AosSoaTrace, RequestCountsScaleToTheWholeLaunch) {
  const std::uint64_t n = std::uint64_t(1) << 20;
  const params p = floats(2);
  EXPECT_EQ(predict("aos_one", p).global_load.requests, n / 32);
  EXPECT_EQ(predict("soa_one", p).global_load.requests, n / 4 / 32);  // 4 floats per lane
  EXPECT_EQ(predict("soa_all", p).global_store.requests, 2 * n / 4 / 32);
  EXPECT_EQ(predict("copy", p).global_load.requests, n * 8 / 16 / 32);
  EXPECT_EQ(predict("copy", p).global_store.requested_bytes, n * 8);
}

TEST(AosSoaTrace, EveryVariantMovesExactlyItsBytesAtAwkwardSizes) {
  for (std::int64_t n : {1, 3, 31, 33, 1001}) {
    for (std::int64_t fields : {1, 2, 3, 8}) {
      const params p = with({{"fields", fields}, {"n", n}, {"field", fields - 1}, {"block", std::int64_t(1024)}});
      SCOPED_TRACE("n=" + std::to_string(n) + " fields=" + std::to_string(fields));
      const std::uint64_t un = std::uint64_t(n), payload = 4u * std::uint64_t(fields) * un;
      // One block of 1024 threads: the sample is the whole launch.
      EXPECT_EQ(predict("aos_all", p).global_load.requested_bytes, payload);
      EXPECT_EQ(predict("aos_all", p).global_store.requested_bytes, payload);
      EXPECT_EQ(predict("soa_all", p).global_store.requested_bytes, payload);
      EXPECT_EQ(predict("copy", p).global_store.requested_bytes, payload);
      EXPECT_EQ(predict("aos_one", p).global_store.requested_bytes, 4 * un);
      EXPECT_EQ(predict("soa_one", p).global_load.requested_bytes, 4 * un);
      EXPECT_EQ(predict("aos_to_soa", p).global_load.requested_bytes, payload);
      EXPECT_EQ(predict("aos_to_soa", p).global_store.requested_bytes, payload);
      EXPECT_EQ(predict("soa_to_aos", p).global_store.requested_bytes, payload);
    }
  }
}

}  // namespace
