#include "parquetry/variant_parquet/path_finder.h"

#include <cstring>

#include "parquetry/error.h"

namespace parquetry::variant_parquet {

VariantPathFinder::VariantPathFinder(const std::vector<std::string>& keys, size_t first)
    : keys_(keys.begin() + std::ptrdiff_t(std::min(first, keys.size())), keys.end()) {}

void VariantPathFinder::load(std::span<const uint8_t> metadata) {
  loaded_ = false;
  // Parse before keeping anything: bad bytes throw with the cache empty.
  (void)VariantMetadata(metadata);
  metadata_.assign(metadata.begin(), metadata.end());
  dictionary_ = VariantMetadata(metadata_);
  ids_.assign(keys_.size(), kAbsent);
  if (dictionary_.sorted_strings()) {
    // Sorted dictionaries hold each key once: a binary search finds it.
    for (size_t k = 0; k < keys_.size(); ++k) {
      if (const std::optional<uint32_t> id = dictionary_.find(keys_[k])) ids_[k] = int64_t(*id);
    }
  } else {
    // Unsorted ones may repeat a key (under different ids): count matches.
    for (uint32_t id = 0; id < dictionary_.size(); ++id) {
      const std::string_view key = dictionary_.key(id);
      for (size_t k = 0; k < keys_.size(); ++k) {
        if (key.size() != keys_[k].size() || std::memcmp(key.data(), keys_[k].data(), key.size()) != 0)
          continue;
        ids_[k] = ids_[k] == kAbsent ? int64_t(id) : kByName;
      }
    }
  }
  loaded_ = true;
}

const Variant* VariantPathFinder::find(std::span<const uint8_t> metadata, std::span<const uint8_t> value) {
  if (!loaded_ || metadata.size() != metadata_.size() ||
      std::memcmp(metadata.data(), metadata_.data(), metadata.size()) != 0) {
    load(metadata);
  }
  if (value.empty()) throw_corrupt("empty variant value");
  const bool sorted = dictionary_.sorted_strings();
  std::span<const uint8_t> at = value;
  for (size_t k = 0; k < keys_.size(); ++k) {
    if ((at[0] & 3) != uint8_t(VariantBasicType::kObject)) return nullptr;
    const int64_t id = ids_[k];
    if (id == kAbsent) return nullptr;
    // Unsorted dictionaries of 256+ keys (2+-byte ids) may go with large
    // objects, where scanning ids loses to a binary search by name.
    const bool wide_ids = (at[0] >> 4) & 3;
    if (id == kByName || (!sorted && wide_ids)) {
      const std::optional<Variant> next = Variant(dictionary_, at).get_field(keys_[k]);
      if (!next) return nullptr;
      at = next->bytes();
    } else {
      at = variant_field_bytes_by_id(at, uint32_t(id), sorted);
      if (at.empty()) return nullptr;
    }
  }
  result_.emplace(dictionary_, at);
  return &*result_;
}

}  // namespace parquetry::variant_parquet
