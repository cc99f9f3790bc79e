// Fuzzes Variant decoding. Input: a mode byte, a 16-bit little-endian
// metadata length (clamped to the input), the metadata, then the value. Navigation and JSON rendering must be
// safe on any bytes, validated or not; a value that validates must render as JSON and survive a copy through
// the builder (whose output must validate and render identically). Mode bit 0 set instead parses everything
// after the mode byte as JSON text.
#include <algorithm>
#include <string>

#include "fuzz_common.h"
#include "parquetry/variant.h"
#include "parquetry/variant_builder.h"
#include "parquetry/variant_json.h"

namespace {

using namespace parquetry;

void walk(const Variant& value, int depth) {
  if (depth > 40) return;
  (void)value.encoded_size();
  switch (value.basic_type()) {
    case VariantBasicType::kObject: {
      VariantObject object = value.get_object();
      for (uint32_t i = 0; i < object.size() && i < 64; ++i) {
        try {
          std::string_view key = object.key(i);
          (void)object.find(key);
        } catch (const Error&) {
        }
        walk(object.value(i), depth + 1);
      }
      break;
    }
    case VariantBasicType::kArray: {
      VariantArray array = value.get_array();
      for (uint32_t i = 0; i < array.size() && i < 64; ++i) walk(array[i], depth + 1);
      break;
    }
    default: (void)value.type(); break;
  }
}

void check_value(std::span<const uint8_t> metadata_bytes, std::span<const uint8_t> value_bytes) {
  VariantMetadata metadata(metadata_bytes);
  for (uint32_t i = 0; i < metadata.size() && i < 16; ++i) {
    try {
      (void)metadata.find(metadata.key(i));
    } catch (const Error&) {
    }
  }
  Variant value(metadata, value_bytes);
  try {
    walk(value, 0);
  } catch (const Error&) {
  }
  std::string unvalidated;
  try {
    variant_to_json(value, unvalidated);
  } catch (const Error&) {
  }
  value.validate();
  std::string json = variant_to_json(value);
  VariantBuilder builder;
  builder.append_variant(value);
  std::span<const uint8_t> copied_value = builder.value();
  std::string copied_value_bytes(copied_value.begin(), copied_value.end());
  std::span<const uint8_t> copied_metadata = builder.metadata();
  VariantMetadata copy_metadata(copied_metadata);
  Variant copy(copy_metadata,
               std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(copied_value_bytes.data()),
                                        copied_value_bytes.size()));
  copy.validate();
  if (variant_to_json(copy) != json) __builtin_trap();
}

void check_json(std::span<const uint8_t> text) {
  VariantJsonParser parser;
  VariantBuilder builder;
  parser.parse(std::string_view(reinterpret_cast<const char*>(text.data()), text.size()), builder);
  std::span<const uint8_t> value_span = builder.value();
  std::string value_bytes(value_span.begin(), value_span.end());
  VariantMetadata metadata(builder.metadata());
  Variant value(metadata, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(value_bytes.data()),
                                                   value_bytes.size()));
  value.validate(kVariantMaxDepth, true);  // the builder's output must be valid
  (void)variant_to_json(value);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t mode = data[0];
  std::span<const uint8_t> rest(data + 1, size - 1);
  try {
    if (mode & 1) {
      try {
        check_json(rest);
      } catch (const Error& e) {
        // Malformed JSON and too-deep documents are expected; a builder that
        // rejects its own output is not.
        if (e.code() != ErrorCode::kCorrupt && e.code() != ErrorCode::kLimitExceeded &&
            e.code() != ErrorCode::kInvalidArgument)
          __builtin_trap();
      }
    } else {
      fuzz::Prefix prefix(rest.data(), rest.size());
      const size_t declared = prefix.byte() | size_t(prefix.byte()) << 8;
      std::span<const uint8_t> body = prefix.rest();
      const size_t metadata_size = std::min(declared, body.size());
      check_value(body.first(metadata_size), body.subspan(metadata_size));
    }
  } catch (const Error&) {
  }
  return 0;
}
