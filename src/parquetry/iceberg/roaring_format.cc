// Byte-level validator for 32-bit portable roaring bitmaps. Layout
// (RoaringFormatSpec, little-endian):
//   cookie u32: 12346 -> u32 container count follows, no run containers;
//               low 16 bits 12347 -> count = (cookie >> 16) + 1, then a
//               bitset of ceil(count / 8) bytes marking run containers.
//   descriptive header: per container u16 key, u16 cardinality - 1.
//   offset header: per container u32 offset; present with cookie 12346, or
//               with 12347 when count >= 4.
//   containers: run (u16 run count, then u16 start, u16 length - 1 per run),
//               bitset (8192 bytes, used when cardinality > 4096), or array
//               (cardinality sorted u16 values).
#include "parquetry/iceberg/roaring_format.h"

#include <bit>
#include <string>

#include "parquetry/error.h"
#include "parquetry/util/bit_util.h"

namespace parquetry::iceberg {
namespace {

constexpr uint32_t kCookieNoRuns = 12346;
constexpr uint32_t kCookieRuns = 12347;
constexpr uint32_t kMaxContainers = 65536;
constexpr uint32_t kMaxArrayCardinality = 4096;
constexpr size_t kBitsetBytes = 8192;
constexpr uint32_t kNoOffsetThreshold = 4;

struct Reader {
  const uint8_t* data;
  size_t available;
  int64_t base;

  [[noreturn]] void fail(const std::string& what, size_t at) const {
    throw_corrupt("iceberg: invalid roaring bitmap: " + what, base + int64_t(at));
  }
  void need(size_t at, size_t bytes, const char* what) const {
    if (bytes > available || at > available - bytes) {
      fail(std::string("truncated in ") + what + " (needs " + std::to_string(bytes) + " bytes at offset " +
               std::to_string(at) + ", " + std::to_string(available > at ? available - at : 0) + " left)",
           at);
    }
  }
  uint16_t u16(size_t at) const { return bits::load<uint16_t>(data + at); }
  uint32_t u32(size_t at) const { return bits::load<uint32_t>(data + at); }
};

}  // namespace

Portable32Info validate_portable32(const uint8_t* data, size_t available, int64_t base_offset) {
  Reader r{data, available, base_offset};
  r.need(0, 4, "the cookie");
  uint32_t cookie = r.u32(0);
  size_t at = 4;
  uint32_t count = 0;
  bool has_runs = false;
  size_t run_flags = 0;
  if ((cookie & 0xFFFF) == kCookieRuns) {
    has_runs = true;
    count = (cookie >> 16) + 1;
    run_flags = at;
    size_t flag_bytes = (count + 7) / 8;
    r.need(at, flag_bytes, "the run-container bitset");
    at += flag_bytes;
  } else if (cookie == kCookieNoRuns) {
    r.need(at, 4, "the container count");
    count = r.u32(at);
    at += 4;
    if (count > kMaxContainers) {
      r.fail("container count " + std::to_string(count) + " exceeds " + std::to_string(kMaxContainers), 4);
    }
  } else {
    r.fail("unknown cookie " + std::to_string(cookie), 0);
  }
  const size_t header = at;
  r.need(header, size_t(count) * 4, "the container headers");
  at += size_t(count) * 4;
  if (!has_runs || count >= kNoOffsetThreshold) {
    r.need(at, size_t(count) * 4, "the container offsets");
    at += size_t(count) * 4;
  }

  Portable32Info info;
  int32_t last_key = -1;
  for (uint32_t c = 0; c < count; ++c) {
    uint16_t key = r.u16(header + 4 * c);
    uint32_t cardinality = uint32_t(r.u16(header + 4 * c + 2)) + 1;
    if (int32_t(key) <= last_key) {
      r.fail("container keys not strictly ascending (" + std::to_string(key) + " after " +
                 std::to_string(last_key) + ")",
             header + 4 * c);
    }
    last_key = key;
    uint32_t max_low = 0;
    bool is_run = has_runs && ((data[run_flags + c / 8] >> (c % 8)) & 1);
    if (is_run) {
      r.need(at, 2, "a run container");
      uint32_t runs = r.u16(at);
      at += 2;
      r.need(at, size_t(runs) * 4, "a run container");
      uint64_t total = 0;
      int32_t previous_end = -1;
      for (uint32_t k = 0; k < runs; ++k) {
        uint32_t start = r.u16(at + 4 * k);
        uint32_t length = uint32_t(r.u16(at + 4 * k + 2)) + 1;
        uint32_t end = start + length - 1;
        if (end > 0xFFFF)
          r.fail("run [" + std::to_string(start) + ", +" + std::to_string(length) + ") overflows", at);
        if (int32_t(start) <= previous_end) r.fail("runs overlap or are unsorted", at + 4 * k);
        previous_end = int32_t(end);
        total += length;
      }
      if (runs == 0 || total != cardinality) {
        r.fail("run container holds " + std::to_string(total) + " values, header says " +
                   std::to_string(cardinality),
               at);
      }
      max_low = uint32_t(previous_end);
      at += size_t(runs) * 4;
    } else if (cardinality > kMaxArrayCardinality) {
      r.need(at, kBitsetBytes, "a bitset container");
      uint64_t total = 0;
      size_t last_word = 0;
      for (size_t w = 0; w < kBitsetBytes / 8; ++w) {
        uint64_t word = bits::load<uint64_t>(data + at + 8 * w);
        total += uint64_t(std::popcount(word));
        if (word != 0) last_word = w;
      }
      if (total != cardinality) {
        r.fail("bitset container holds " + std::to_string(total) + " values, header says " +
                   std::to_string(cardinality),
               at);
      }
      uint64_t word = bits::load<uint64_t>(data + at + 8 * last_word);
      max_low = uint32_t(last_word * 64 + 63 - size_t(std::countl_zero(word)));
      at += kBitsetBytes;
    } else {
      r.need(at, size_t(cardinality) * 2, "an array container");
      uint16_t previous = r.u16(at);
      for (uint32_t k = 1; k < cardinality; ++k) {
        uint16_t value = r.u16(at + 2 * k);
        if (value <= previous) r.fail("array container values not strictly ascending", at + 2 * k);
        previous = value;
      }
      max_low = previous;
      at += size_t(cardinality) * 2;
    }
    info.cardinality += cardinality;
    info.max_value = (uint32_t(key) << 16) | max_low;
  }
  info.size = at;
  return info;
}

}  // namespace parquetry::iceberg
