// Steady state allocates nothing: once the builder, the JSON parser and the
// output string have grown, building, validating, reading and converting
// more rows of the same shape makes no heap allocation. This file replaces
// the global operator new/delete of the test binary with counting versions.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>

#include "parquetry/variant.h"
#include "parquetry/variant_builder.h"
#include "parquetry/variant_json.h"

namespace {
std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};

void* counted_alloc(std::size_t n) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
  void* p = std::malloc(n == 0 ? 1 : n);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
}  // namespace

void* operator new(std::size_t n) { return counted_alloc(n); }
void* operator new[](std::size_t n) { return counted_alloc(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return counted_alloc(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return counted_alloc(n);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace parquetry {
namespace {

void build_row(VariantBuilder& b, int row) {
  static const uint8_t uuid[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  char id[16];
  std::snprintf(id, sizeof(id), "id-%06d", row);
  b.start_object();
  b.field("idstr");
  b.append_string(id);
  b.field("varid");
  b.append_int(row * 1000003LL);
  b.field("varcategory");
  b.append_int(row % 7);
  b.field("col4");
  b.append_string("a long string that does not fit in the short-string form of sixty-three bytes at all");
  b.field("uuid");
  b.append_uuid(uuid);
  b.field("tags");
  b.start_array();
  b.append_string("x");
  b.start_object();
  b.field("deep");
  b.append_double(row * 0.5);
  b.finish_object();
  b.finish_array();
  b.finish_object();
}

TEST(VariantAllocationTest, SteadyStateMakesNoHeapAllocation) {
  VariantBuilder builder;
  VariantBuilder reparsed;
  VariantJsonParser parser;
  std::string json;
  long checksum = 0;
  auto one_row = [&](int row) {
    builder.clear();
    build_row(builder, row);
    const Variant v(VariantMetadata(builder.metadata()), builder.value());
    v.validate();
    checksum += v.get_field("varcategory")->get_int();
    checksum += long(v.get_field("col4")->get_string().size());
    json.clear();
    variant_to_json(v, json);
    reparsed.clear();
    parser.parse(json, reparsed);
    checksum += long(reparsed.value().size());
    // Shared-dictionary mode.
    builder.clear_value();
    build_row(builder, row + 1);
    checksum += long(builder.value().size());
  };
  for (int row = 0; row < 8; ++row) one_row(row);  // warm-up: buffers reach their size
  g_allocations = 0;
  g_counting = true;
  for (int row = 0; row < 1000; ++row) one_row(row % 8);
  g_counting = false;
  EXPECT_EQ(g_allocations.load(), 0);
  EXPECT_GT(checksum, 0);
}

}  // namespace
}  // namespace parquetry
