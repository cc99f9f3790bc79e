// Looks one path up in many variants that mostly share their metadata (a
// writer usually emits the same dictionary bytes for every row): the
// metadata is parsed and each key of the path resolved to its dictionary id
// once per distinct metadata, and each row's objects are then searched by
// id, integer compares instead of key compares.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "parquetry/variant.h"

namespace parquetry::variant_parquet {

class VariantPathFinder {
 public:
  /// Looks up `keys[first..]`.
  VariantPathFinder(const std::vector<std::string>& keys, size_t first);

  /// The value at the path in the variant (metadata, value), or null when a
  /// step is missing or crosses a non-object. Throws kCorrupt for an empty
  /// value or bad metadata. The result (and its metadata) stays valid until
  /// the next call; it points into `value` and into a copy of `metadata`.
  const Variant* find(std::span<const uint8_t> metadata, std::span<const uint8_t> value);

 private:
  // ids_ entries besides real ids.
  static constexpr int64_t kAbsent = -1;  // key not in the dictionary: no valid object has it
  static constexpr int64_t kByName = -2;  // key occurs more than once: search by name

  void load(std::span<const uint8_t> metadata);

  std::vector<std::string> keys_;
  std::vector<uint8_t> metadata_;  // copy of the bytes the ids were resolved for
  bool loaded_ = false;
  VariantMetadata dictionary_;  // over metadata_
  std::vector<int64_t> ids_;    // per key
  std::optional<Variant> result_;
};

}  // namespace parquetry::variant_parquet
