// Decoding and encoding of the parquet.thrift structs in the Thrift compact
// protocol, straight between bytes and the structs of parquetry/metadata.h
// (no generic intermediate form).
//
// Decoding rules shared by every struct:
// - unknown field ids are skipped whatever their type (forward compatibility);
// - a known field id with an unexpected wire type is corrupt;
// - missing required fields are corrupt (checked with a presence bit mask);
// - unions accept any member id; unknown members are kept where the struct
//   can represent them (LogicalType, TimeUnit, ColumnOrder) and skipped
//   otherwise.
#include <algorithm>
#include <bit>
#include <initializer_list>
#include <string>
#include <utility>

#include "parquetry/error.h"
#include "parquetry/format/thrift_compact.h"
#include "parquetry/metadata.h"

namespace parquetry {

int16_t LogicalType::field_id() const {
  // Union field ids in the order of the variant's alternatives (9 is reserved).
  static constexpr int16_t kIds[] = {1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
  if (const auto* unknown = std::get_if<UnrecognizedLogicalType>(&value)) return unknown->field_id;
  return kIds[value.index()];
}

namespace {

using thrift::CompactReader;
using thrift::CompactWriter;
using thrift::FieldHeader;
using thrift::ListHeader;
namespace ct = thrift;

// ---------------------------------------------------------------------------
// Decoding helpers

/// Presence bits of fields 0..31, to check required fields at the end.
class Seen {
 public:
  void mark(int16_t id) {
    if (id >= 0 && id < 32) bits_ |= 1u << id;
  }
  void require(CompactReader& r, uint32_t mask, const char* struct_name) const {
    uint32_t missing = mask & ~bits_;
    if (missing != 0) [[unlikely]] {
      r.fail(std::string(struct_name) + " is missing required field " +
             std::to_string(std::countr_zero(missing)));
    }
  }

 private:
  uint32_t bits_ = 0;
};

constexpr uint32_t fields(std::initializer_list<int> ids) {
  uint32_t mask = 0;
  for (int id : ids) mask |= 1u << id;
  return mask;
}

inline bool is_bool(const FieldHeader& h) { return h.type == ct::kTrue || h.type == ct::kFalse; }

/// Reads a list (or set) header for a field whose elements must be `element`.
/// Returns false, consuming nothing, when the field is not a list (the caller
/// then skips it like an unknown field, as Thrift's own readers do). A list of
/// the wrong element type is skipped here and reads as empty.
[[gnu::always_inline]] inline bool list_field(CompactReader& r, const FieldHeader& h, uint8_t element,
                                              ListHeader& lh) {
  if (h.type != ct::kList && h.type != ct::kSet) return false;
  lh = r.read_list_header();
  if (lh.size != 0) {
    bool ok = lh.element_type == element ||
              (element == ct::kTrue && (lh.element_type == ct::kTrue || lh.element_type == ct::kFalse));
    if (!ok) [[unlikely]] {
      r.enter();
      for (uint32_t i = 0; i < lh.size; ++i) r.skip(lh.element_type, true);
      r.leave();
      lh.size = 0;
    }
  }
  return true;
}

inline bool i64_list(CompactReader& r, const FieldHeader& h, std::vector<int64_t>& out) {
  ListHeader lh;
  if (!list_field(r, h, ct::kI64, lh)) return false;
  out.clear();
  out.reserve(lh.size);
  for (uint32_t i = 0; i < lh.size; ++i) out.push_back(r.read_i64());
  return true;
}

inline bool string_list(CompactReader& r, const FieldHeader& h, std::vector<std::string>& out) {
  ListHeader lh;
  if (!list_field(r, h, ct::kBinary, lh)) return false;
  out.clear();
  out.reserve(lh.size);
  for (uint32_t i = 0; i < lh.size; ++i) {
    std::string_view v = r.read_binary();
    out.emplace_back(v.data(), v.size());
  }
  return true;
}

/// The same into the packed StringList (path_in_schema): no allocation when
/// the path is short.
inline bool string_list(CompactReader& r, const FieldHeader& h, StringList& out) {
  ListHeader lh;
  if (!list_field(r, h, ct::kBinary, lh)) return false;
  out.clear();
  for (uint32_t i = 0; i < lh.size; ++i) out.push_back(r.read_binary());
  return true;
}

/// Bounds a reservation by what the remaining input could hold, so a
/// hostile count cannot make us allocate far beyond the input's size.
inline size_t reservation(const CompactReader& r, uint32_t count, size_t min_encoded_bytes) {
  return std::min<size_t>(count, r.remaining() / min_encoded_bytes + 1);
}

/// Runs `on_field(header)` for each field of a struct; the callback returns
/// false for unknown ids, which are then skipped.
template <typename OnField>
inline void read_struct(CompactReader& r, OnField&& on_field) {
  r.enter();
  int16_t last = 0;
  for (;;) {
    FieldHeader h = r.read_field_header(last);
    if (h.type == ct::kStop) break;
    if (!on_field(h)) r.skip(h.type);
  }
  r.leave();
}

// ---------------------------------------------------------------------------
// Struct decoders

void read_statistics(CompactReader& r, Statistics& s) {
  read_struct(r, [&](const FieldHeader& h) {
    switch (h.id) {
      case 1:
        if (h.type != ct::kBinary) return false;
        r.read_string_into(s.max);
        return true;
      case 2:
        if (h.type != ct::kBinary) return false;
        r.read_string_into(s.min);
        return true;
      case 3:
        if (h.type != ct::kI64) return false;
        s.null_count = r.read_i64();
        return true;
      case 4:
        if (h.type != ct::kI64) return false;
        s.distinct_count = r.read_i64();
        return true;
      case 5:
        if (h.type != ct::kBinary) return false;
        r.read_string_into(s.max_value);
        return true;
      case 6:
        if (h.type != ct::kBinary) return false;
        r.read_string_into(s.min_value);
        return true;
      case 7:
        if (!is_bool(h)) return false;
        s.is_max_value_exact = h.type == ct::kTrue;
        return true;
      case 8:
        if (!is_bool(h)) return false;
        s.is_min_value_exact = h.type == ct::kTrue;
        return true;
      case 9:
        if (h.type != ct::kI64) return false;
        s.nan_count = r.read_i64();
        return true;
      default: return false;
    }
  });
}

void read_size_statistics(CompactReader& r, SizeStatistics& s) {
  read_struct(r, [&](const FieldHeader& h) {
    switch (h.id) {
      case 1:
        if (h.type != ct::kI64) return false;
        s.unencoded_byte_array_data_bytes = r.read_i64();
        return true;
      case 2:
        if (!i64_list(r, h, s.repetition_level_histogram)) return false;
        return true;
      case 3:
        if (!i64_list(r, h, s.definition_level_histogram)) return false;
        return true;
      default: return false;
    }
  });
}

void read_bounding_box(CompactReader& r, BoundingBox& b) {
  constexpr const char* kName = "BoundingBox";
  Seen seen;
  read_struct(r, [&](const FieldHeader& h) {
    if (h.id < 1 || h.id > 8) return false;
    if (h.type != ct::kDouble) return false;
    double v = r.read_double();
    seen.mark(h.id);
    switch (h.id) {
      case 1: b.xmin = v; break;
      case 2: b.xmax = v; break;
      case 3: b.ymin = v; break;
      case 4: b.ymax = v; break;
      case 5: b.zmin = v; break;
      case 6: b.zmax = v; break;
      case 7: b.mmin = v; break;
      default: b.mmax = v; break;
    }
    return true;
  });
  seen.require(r, fields({1, 2, 3, 4}), kName);
}

void read_geospatial_statistics(CompactReader& r, GeospatialStatistics& g) {
  read_struct(r, [&](const FieldHeader& h) {
    switch (h.id) {
      case 1:
        if (h.type != ct::kStruct) return false;
        read_bounding_box(r, g.bbox.emplace());
        return true;
      case 2: {
        ListHeader lh;
        if (!list_field(r, h, ct::kI32, lh)) return false;
        auto& types = g.geospatial_types.emplace();
        types.reserve(lh.size);
        for (uint32_t i = 0; i < lh.size; ++i) types.push_back(r.read_i32());
        return true;
      }
      default: return false;
    }
  });
}

void read_page_encoding_stats(CompactReader& r, PageEncodingStats& s) {
  constexpr const char* kName = "PageEncodingStats";
  Seen seen;
  read_struct(r, [&](const FieldHeader& h) {
    switch (h.id) {
      case 1:
        if (h.type != ct::kI32) return false;
        s.page_type = static_cast<PageType>(r.read_i32());
        break;
      case 2:
        if (h.type != ct::kI32) return false;
        s.encoding = static_cast<Encoding>(r.read_i32());
        break;
      case 3:
        if (h.type != ct::kI32) return false;
        s.count = r.read_i32();
        break;
      default: return false;
    }
    seen.mark(h.id);
    return true;
  });
  seen.require(r, fields({1, 2, 3}), kName);
}

bool read_page_encoding_stats_list(CompactReader& r, const FieldHeader& h, PageEncodingStatsList& out) {
  ListHeader lh;
  if (!list_field(r, h, ct::kStruct, lh)) return false;
  out.clear();
  out.reserve(reservation(r, lh.size, 7));
  for (uint32_t i = 0; i < lh.size; ++i) {
    // Fast path for the usual shape: fields 1, 2, 3 in order with one-byte
    // values, then stop (15 xx 15 xx 15 xx 00). Anything else takes the
    // general decoder.
    const uint8_t* p = r.peek(7);
    if (p != nullptr && p[0] == 0x15 && p[2] == 0x15 && p[4] == 0x15 && p[6] == 0 &&
        ((p[1] | p[3] | p[5]) & 0x80) == 0) {
      auto zigzag = [](uint8_t v) { return static_cast<int32_t>(v >> 1) ^ -static_cast<int32_t>(v & 1); };
      out.push_back(PageEncodingStats{static_cast<PageType>(zigzag(p[1])),
                                      static_cast<Encoding>(zigzag(p[3])), zigzag(p[5])});
      r.consume(7);
      continue;
    }
    read_page_encoding_stats(r, out.emplace_back());
  }
  return true;
}

void read_key_value(CompactReader& r, KeyValue& kv) {
  constexpr const char* kName = "KeyValue";
  Seen seen;
  read_struct(r, [&](const FieldHeader& h) {
    switch (h.id) {
      case 1:
        if (h.type != ct::kBinary) return false;
        r.read_string(kv.key);
        break;
      case 2:
        if (h.type != ct::kBinary) return false;
        r.read_string_into(kv.value);
        break;
      default: return false;
    }
    seen.mark(h.id);
    return true;
  });
  seen.require(r, fields({1}), kName);
}

bool read_key_values(CompactReader& r, const FieldHeader& h, std::vector<KeyValue>& out) {
  ListHeader lh;
  if (!list_field(r, h, ct::kStruct, lh)) return false;
  out.clear();
  out.reserve(reservation(r, lh.size, 3));
  for (uint32_t i = 0; i < lh.size; ++i) read_key_value(r, out.emplace_back());
  return true;
}

/// Unions whose members are all empty structs: returns the member's field id.
int16_t read_empty_union(CompactReader& r, const char* name) {
  int16_t member = 0;
  read_struct(r, [&](const FieldHeader& h) {
    if (h.type != ct::kStruct) return false;
    r.skip_struct();
    member = h.id;
    return true;
  });
  if (member == 0) r.fail(std::string(name) + " union has no member set");
  return member;
}

template <typename T>  // TimeType or TimestampType
void read_time_like(CompactReader& r, T& t, const char* name) {
  Seen seen;
  read_struct(r, [&](const FieldHeader& h) {
    switch (h.id) {
      case 1:
        if (!is_bool(h)) return false;
        t.is_adjusted_to_utc = h.type == ct::kTrue;
        break;
      case 2:
        if (h.type != ct::kStruct) return false;
        t.unit = static_cast<TimeUnit>(read_empty_union(r, "TimeUnit"));
        break;
      default: return false;
    }
    seen.mark(h.id);
    return true;
  });
  seen.require(r, fields({1, 2}), name);
}

void read_logical_type(CompactReader& r, LogicalType& out) {
  bool any = false;
  read_struct(r, [&](const FieldHeader& h) {
    if (h.type != ct::kStruct) return false;
    any = true;
    switch (h.id) {
      case 1:
        r.skip_struct();
        out.value = StringType{};
        return true;
      case 2:
        r.skip_struct();
        out.value = MapType{};
        return true;
      case 3:
        r.skip_struct();
        out.value = ListType{};
        return true;
      case 4:
        r.skip_struct();
        out.value = EnumType{};
        return true;
      case 5: {
        DecimalType d;
        Seen seen;
        read_struct(r, [&](const FieldHeader& f) {
          switch (f.id) {
            case 1:
              if (f.type != ct::kI32) return false;
              d.scale = r.read_i32();
              break;
            case 2:
              if (f.type != ct::kI32) return false;
              d.precision = r.read_i32();
              break;
            default: return false;
          }
          seen.mark(f.id);
          return true;
        });
        seen.require(r, fields({1, 2}), "DecimalType");
        out.value = d;
        return true;
      }
      case 6:
        r.skip_struct();
        out.value = DateType{};
        return true;
      case 7: read_time_like(r, out.value.emplace<TimeType>(), "TimeType"); return true;
      case 8: read_time_like(r, out.value.emplace<TimestampType>(), "TimestampType"); return true;
      case 10: {
        IntType t;
        Seen seen;
        read_struct(r, [&](const FieldHeader& f) {
          switch (f.id) {
            case 1:
              if (f.type != ct::kByte) return false;
              t.bit_width = r.read_byte();
              break;
            case 2:
              if (!is_bool(f)) return false;
              t.is_signed = f.type == ct::kTrue;
              break;
            default: return false;
          }
          seen.mark(f.id);
          return true;
        });
        seen.require(r, fields({1, 2}), "IntType");
        out.value = t;
        return true;
      }
      case 11:
        r.skip_struct();
        out.value = NullType{};
        return true;
      case 12:
        r.skip_struct();
        out.value = JsonType{};
        return true;
      case 13:
        r.skip_struct();
        out.value = BsonType{};
        return true;
      case 14:
        r.skip_struct();
        out.value = UuidType{};
        return true;
      case 15:
        r.skip_struct();
        out.value = Float16Type{};
        return true;
      case 16: {
        VariantType v;
        read_struct(r, [&](const FieldHeader& f) {
          if (f.id != 1) return false;
          if (f.type != ct::kByte) return false;
          v.specification_version = r.read_byte();
          return true;
        });
        out.value = v;
        return true;
      }
      case 17: {
        GeometryType g;
        read_struct(r, [&](const FieldHeader& f) {
          if (f.id != 1) return false;
          if (f.type != ct::kBinary) return false;
          r.read_string_into(g.crs);
          return true;
        });
        out.value = std::move(g);
        return true;
      }
      case 18: {
        GeographyType g;
        read_struct(r, [&](const FieldHeader& f) {
          switch (f.id) {
            case 1:
              if (f.type != ct::kBinary) return false;
              r.read_string_into(g.crs);
              return true;
            case 2:
              if (f.type != ct::kI32) return false;
              g.algorithm = static_cast<EdgeInterpolationAlgorithm>(r.read_i32());
              return true;
            default: return false;
          }
        });
        out.value = std::move(g);
        return true;
      }
      case 19:
        r.skip_struct();
        out.value = VectorType{};
        return true;
      default:
        r.skip_struct();
        out.value = UnrecognizedLogicalType{h.id};
        return true;
    }
  });
  if (!any) r.fail("LogicalType union has no member set");
}

void read_schema_element(CompactReader& r, SchemaElement& e) {
  constexpr const char* kName = "SchemaElement";
  Seen seen;
  read_struct(r, [&](const FieldHeader& h) {
    switch (h.id) {
      case 1:
        if (h.type != ct::kI32) return false;
        e.type = static_cast<Type>(r.read_i32());
        break;
      case 2:
        if (h.type != ct::kI32) return false;
        e.type_length = r.read_i32();
        break;
      case 3:
        if (h.type != ct::kI32) return false;
        e.repetition_type = static_cast<FieldRepetitionType>(r.read_i32());
        break;
      case 4:
        if (h.type != ct::kBinary) return false;
        r.read_string(e.name);
        break;
      case 5:
        if (h.type != ct::kI32) return false;
        e.num_children = r.read_i32();
        break;
      case 6:
        if (h.type != ct::kI32) return false;
        e.converted_type = static_cast<ConvertedType>(r.read_i32());
        break;
      case 7:
        if (h.type != ct::kI32) return false;
        e.scale = r.read_i32();
        break;
      case 8:
        if (h.type != ct::kI32) return false;
        e.precision = r.read_i32();
        break;
      case 9:
        if (h.type != ct::kI32) return false;
        e.field_id = r.read_i32();
        break;
      case 10:
        if (h.type != ct::kStruct) return false;
        read_logical_type(r, e.logical_type.emplace());
        break;
      case 11:
        if (h.type != ct::kI32) return false;
        e.vector_length = r.read_i32();
        break;
      default: return false;
    }
    seen.mark(h.id);
    return true;
  });
  seen.require(r, fields({4}), kName);
}

void read_data_page_header(CompactReader& r, DataPageHeader& d) {
  constexpr const char* kName = "DataPageHeader";
  Seen seen;
  read_struct(r, [&](const FieldHeader& h) {
    switch (h.id) {
      case 1:
        if (h.type != ct::kI32) return false;
        d.num_values = r.read_i32();
        break;
      case 2:
        if (h.type != ct::kI32) return false;
        d.encoding = static_cast<Encoding>(r.read_i32());
        break;
      case 3:
        if (h.type != ct::kI32) return false;
        d.definition_level_encoding = static_cast<Encoding>(r.read_i32());
        break;
      case 4:
        if (h.type != ct::kI32) return false;
        d.repetition_level_encoding = static_cast<Encoding>(r.read_i32());
        break;
      case 5:
        if (h.type != ct::kStruct) return false;
        read_statistics(r, d.statistics.emplace());
        break;
      default: return false;
    }
    seen.mark(h.id);
    return true;
  });
  seen.require(r, fields({1, 2, 3, 4}), kName);
}

void read_dictionary_page_header(CompactReader& r, DictionaryPageHeader& d) {
  constexpr const char* kName = "DictionaryPageHeader";
  Seen seen;
  read_struct(r, [&](const FieldHeader& h) {
    switch (h.id) {
      case 1:
        if (h.type != ct::kI32) return false;
        d.num_values = r.read_i32();
        break;
      case 2:
        if (h.type != ct::kI32) return false;
        d.encoding = static_cast<Encoding>(r.read_i32());
        break;
      case 3:
        if (!is_bool(h)) return false;
        d.is_sorted = h.type == ct::kTrue;
        break;
      default: return false;
    }
    seen.mark(h.id);
    return true;
  });
  seen.require(r, fields({1, 2}), kName);
}

void read_data_page_header_v2(CompactReader& r, DataPageHeaderV2& d) {
  constexpr const char* kName = "DataPageHeaderV2";
  Seen seen;
  read_struct(r, [&](const FieldHeader& h) {
    switch (h.id) {
      case 1:
        if (h.type != ct::kI32) return false;
        d.num_values = r.read_i32();
        break;
      case 2:
        if (h.type != ct::kI32) return false;
        d.num_nulls = r.read_i32();
        break;
      case 3:
        if (h.type != ct::kI32) return false;
        d.num_rows = r.read_i32();
        break;
      case 4:
        if (h.type != ct::kI32) return false;
        d.encoding = static_cast<Encoding>(r.read_i32());
        break;
      case 5:
        if (h.type != ct::kI32) return false;
        d.definition_levels_byte_length = r.read_i32();
        break;
      case 6:
        if (h.type != ct::kI32) return false;
        d.repetition_levels_byte_length = r.read_i32();
        break;
      case 7:
        if (!is_bool(h)) return false;
        d.is_compressed = h.type == ct::kTrue;
        break;
      case 8:
        if (h.type != ct::kStruct) return false;
        read_statistics(r, d.statistics.emplace());
        break;
      default: return false;
    }
    seen.mark(h.id);
    return true;
  });
  seen.require(r, fields({1, 2, 3, 4, 5, 6}), kName);
}

void read_page_header(CompactReader& r, PageHeader& p) {
  constexpr const char* kName = "PageHeader";
  Seen seen;
  read_struct(r, [&](const FieldHeader& h) {
    switch (h.id) {
      case 1:
        if (h.type != ct::kI32) return false;
        p.type = static_cast<PageType>(r.read_i32());
        break;
      case 2:
        if (h.type != ct::kI32) return false;
        p.uncompressed_page_size = r.read_i32();
        break;
      case 3:
        if (h.type != ct::kI32) return false;
        p.compressed_page_size = r.read_i32();
        break;
      case 4:
        if (h.type != ct::kI32) return false;
        p.crc = r.read_i32();
        break;
      case 5:
        if (h.type != ct::kStruct) return false;
        read_data_page_header(r, p.data_page_header.emplace());
        break;
      case 6:
        if (h.type != ct::kStruct) return false;
        r.skip_struct();
        p.index_page_header.emplace();
        break;
      case 7:
        if (h.type != ct::kStruct) return false;
        read_dictionary_page_header(r, p.dictionary_page_header.emplace());
        break;
      case 8:
        if (h.type != ct::kStruct) return false;
        read_data_page_header_v2(r, p.data_page_header_v2.emplace());
        break;
      default: return false;
    }
    seen.mark(h.id);
    return true;
  });
  seen.require(r, fields({1, 2, 3}), kName);
}

/// Records where a skipped field's value lies.
template <typename Skip>
SkippedBytes skip_and_record(CompactReader& r, Skip&& skip) {
  size_t start = r.position();
  skip();
  return SkippedBytes{static_cast<uint32_t>(start), static_cast<uint32_t>(r.position() - start)};
}

void read_column_metadata(CompactReader& r, ColumnMetaData& c, const MetadataOptions& options) {
  constexpr const char* kName = "ColumnMetaData";
  Seen seen;
  read_struct(r, [&](const FieldHeader& h) {
    switch (h.id) {
      case 1:
        if (h.type != ct::kI32) return false;
        c.type = static_cast<Type>(r.read_i32());
        break;
      case 2: {
        ListHeader lh;
        if (!list_field(r, h, ct::kI32, lh)) return false;
        c.encodings.clear();
        c.encodings.reserve(lh.size);
        for (uint32_t i = 0; i < lh.size; ++i) c.encodings.push_back(static_cast<Encoding>(r.read_i32()));
        break;
      }
      case 3:
        if (!string_list(r, h, c.path_in_schema)) return false;
        break;
      case 4:
        if (h.type != ct::kI32) return false;
        c.codec = static_cast<CompressionCodec>(r.read_i32());
        break;
      case 5:
        if (h.type != ct::kI64) return false;
        c.num_values = r.read_i64();
        break;
      case 6:
        if (h.type != ct::kI64) return false;
        c.total_uncompressed_size = r.read_i64();
        break;
      case 7:
        if (h.type != ct::kI64) return false;
        c.total_compressed_size = r.read_i64();
        break;
      case 8:
        if (!read_key_values(r, h, c.key_value_metadata)) return false;
        break;
      case 9:
        if (h.type != ct::kI64) return false;
        c.data_page_offset = r.read_i64();
        break;
      case 10:
        if (h.type != ct::kI64) return false;
        c.index_page_offset = r.read_i64();
        break;
      case 11:
        if (h.type != ct::kI64) return false;
        c.dictionary_page_offset = r.read_i64();
        break;
      case 12:
        if (h.type != ct::kStruct) return false;
        if (options.skip_statistics) {
          c.skipped_statistics = skip_and_record(r, [&] { r.skip_struct(); });
        } else {
          read_statistics(r, c.statistics.emplace());
        }
        break;
      case 13:
        if (options.skip_page_encoding_stats) {
          if (h.type != ct::kList && h.type != ct::kSet) return false;
          c.skipped_encoding_stats = skip_and_record(r, [&] { r.skip(h.type); });
        } else {
          if (!read_page_encoding_stats_list(r, h, c.encoding_stats)) return false;
        }
        break;
      case 14:
        if (h.type != ct::kI64) return false;
        c.bloom_filter_offset = r.read_i64();
        break;
      case 15:
        if (h.type != ct::kI32) return false;
        c.bloom_filter_length = r.read_i32();
        break;
      case 16:
        if (h.type != ct::kStruct) return false;
        if (options.skip_size_statistics) {
          c.skipped_size_statistics = skip_and_record(r, [&] { r.skip_struct(); });
        } else {
          read_size_statistics(r, c.size_statistics.emplace());
        }
        break;
      case 17:
        if (h.type != ct::kStruct) return false;
        read_geospatial_statistics(r, c.geospatial_statistics.emplace());
        break;
      default: return false;
    }
    seen.mark(h.id);
    return true;
  });
  seen.require(r, fields({1, 2, 3, 4, 5, 6, 7, 9}), kName);
}

void read_column_crypto_metadata(CompactReader& r, ColumnCryptoMetaData& out) {
  bool any = false;
  read_struct(r, [&](const FieldHeader& h) {
    if (h.id == 1) {
      if (h.type != ct::kStruct) return false;
      r.skip_struct();
      out.value = EncryptionWithFooterKey{};
    } else if (h.id == 2) {
      if (h.type != ct::kStruct) return false;
      auto& key = out.value.emplace<EncryptionWithColumnKey>();
      Seen seen;
      read_struct(r, [&](const FieldHeader& f) {
        switch (f.id) {
          case 1:
            if (!string_list(r, f, key.path_in_schema)) return false;
            break;
          case 2:
            if (f.type != ct::kBinary) return false;
            r.read_string_into(key.key_metadata);
            break;
          default: return false;
        }
        seen.mark(f.id);
        return true;
      });
      seen.require(r, fields({1}), "EncryptionWithColumnKey");
    } else {
      return false;
    }
    any = true;
    return true;
  });
  if (!any) r.fail("ColumnCryptoMetaData union has no known member set");
}

void read_column_chunk(CompactReader& r, ColumnChunk& c, const MetadataOptions& options) {
  constexpr const char* kName = "ColumnChunk";
  Seen seen;
  read_struct(r, [&](const FieldHeader& h) {
    switch (h.id) {
      case 1:
        if (h.type != ct::kBinary) return false;
        r.read_string_into(c.file_path);
        break;
      case 2:
        if (h.type != ct::kI64) return false;
        c.file_offset = r.read_i64();
        break;
      case 3:
        if (h.type != ct::kStruct) return false;
        read_column_metadata(r, c.meta_data.emplace(), options);
        break;
      case 4:
        if (h.type != ct::kI64) return false;
        c.offset_index_offset = r.read_i64();
        break;
      case 5:
        if (h.type != ct::kI32) return false;
        c.offset_index_length = r.read_i32();
        break;
      case 6:
        if (h.type != ct::kI64) return false;
        c.column_index_offset = r.read_i64();
        break;
      case 7:
        if (h.type != ct::kI32) return false;
        c.column_index_length = r.read_i32();
        break;
      case 8:
        if (h.type != ct::kStruct) return false;
        read_column_crypto_metadata(r, c.crypto_metadata.emplace());
        break;
      case 9:
        if (h.type != ct::kBinary) return false;
        r.read_string_into(c.encrypted_column_metadata);
        break;
      default: return false;
    }
    seen.mark(h.id);
    return true;
  });
  seen.require(r, fields({2}), kName);
}

void read_sorting_column(CompactReader& r, SortingColumn& s) {
  constexpr const char* kName = "SortingColumn";
  Seen seen;
  read_struct(r, [&](const FieldHeader& h) {
    switch (h.id) {
      case 1:
        if (h.type != ct::kI32) return false;
        s.column_idx = r.read_i32();
        break;
      case 2:
        if (!is_bool(h)) return false;
        s.descending = h.type == ct::kTrue;
        break;
      case 3:
        if (!is_bool(h)) return false;
        s.nulls_first = h.type == ct::kTrue;
        break;
      default: return false;
    }
    seen.mark(h.id);
    return true;
  });
  seen.require(r, fields({1, 2, 3}), kName);
}

void read_row_group(CompactReader& r, RowGroup& g, const MetadataOptions& options) {
  constexpr const char* kName = "RowGroup";
  Seen seen;
  read_struct(r, [&](const FieldHeader& h) {
    switch (h.id) {
      case 1: {
        ListHeader lh;
        if (!list_field(r, h, ct::kStruct, lh)) return false;
        g.columns.clear();
        g.columns.reserve(reservation(r, lh.size, 3));
        for (uint32_t i = 0; i < lh.size; ++i) read_column_chunk(r, g.columns.emplace_back(), options);
        break;
      }
      case 2:
        if (h.type != ct::kI64) return false;
        g.total_byte_size = r.read_i64();
        break;
      case 3:
        if (h.type != ct::kI64) return false;
        g.num_rows = r.read_i64();
        break;
      case 4: {
        ListHeader lh;
        if (!list_field(r, h, ct::kStruct, lh)) return false;
        g.sorting_columns.clear();
        g.sorting_columns.reserve(reservation(r, lh.size, 4));
        for (uint32_t i = 0; i < lh.size; ++i) read_sorting_column(r, g.sorting_columns.emplace_back());
        break;
      }
      case 5:
        if (h.type != ct::kI64) return false;
        g.file_offset = r.read_i64();
        break;
      case 6:
        if (h.type != ct::kI64) return false;
        g.total_compressed_size = r.read_i64();
        break;
      case 7:
        if (h.type != ct::kI16) return false;
        g.ordinal = r.read_i16();
        break;
      default: return false;
    }
    seen.mark(h.id);
    return true;
  });
  seen.require(r, fields({1, 2, 3}), kName);
}

template <typename Aes>  // AesGcmV1 or AesGcmCtrV1 share their fields
void read_aes(CompactReader& r, Aes& a, const char* name) {
  read_struct(r, [&](const FieldHeader& h) {
    switch (h.id) {
      case 1:
        if (h.type != ct::kBinary) return false;
        r.read_string_into(a.aad_prefix);
        return true;
      case 2:
        if (h.type != ct::kBinary) return false;
        r.read_string_into(a.aad_file_unique);
        return true;
      case 3:
        if (!is_bool(h)) return false;
        a.supply_aad_prefix = h.type == ct::kTrue;
        return true;
      default: return false;
    }
  });
}

void read_encryption_algorithm(CompactReader& r, EncryptionAlgorithm& out) {
  bool any = false;
  read_struct(r, [&](const FieldHeader& h) {
    if (h.id == 1) {
      if (h.type != ct::kStruct) return false;
      read_aes(r, out.value.emplace<AesGcmV1>(), "AesGcmV1");
    } else if (h.id == 2) {
      if (h.type != ct::kStruct) return false;
      read_aes(r, out.value.emplace<AesGcmCtrV1>(), "AesGcmCtrV1");
    } else {
      return false;
    }
    any = true;
    return true;
  });
  if (!any) r.fail("EncryptionAlgorithm union has no known member set");
}

void read_file_metadata(CompactReader& r, FileMetaData& m, const MetadataOptions& options) {
  constexpr const char* kName = "FileMetaData";
  Seen seen;
  read_struct(r, [&](const FieldHeader& h) {
    switch (h.id) {
      case 1:
        if (h.type != ct::kI32) return false;
        m.version = r.read_i32();
        break;
      case 2: {
        ListHeader lh;
        if (!list_field(r, h, ct::kStruct, lh)) return false;
        m.schema.clear();
        m.schema.reserve(reservation(r, lh.size, 3));
        for (uint32_t i = 0; i < lh.size; ++i) read_schema_element(r, m.schema.emplace_back());
        break;
      }
      case 3:
        if (h.type != ct::kI64) return false;
        m.num_rows = r.read_i64();
        break;
      case 4: {
        ListHeader lh;
        if (!list_field(r, h, ct::kStruct, lh)) return false;
        m.row_groups.clear();
        m.row_groups.reserve(reservation(r, lh.size, 7));
        for (uint32_t i = 0; i < lh.size; ++i) read_row_group(r, m.row_groups.emplace_back(), options);
        break;
      }
      case 5:
        if (!read_key_values(r, h, m.key_value_metadata)) return false;
        break;
      case 6:
        if (h.type != ct::kBinary) return false;
        r.read_string_into(m.created_by);
        break;
      case 7: {
        ListHeader lh;
        if (!list_field(r, h, ct::kStruct, lh)) return false;
        m.column_orders.clear();
        m.column_orders.reserve(lh.size);
        for (uint32_t i = 0; i < lh.size; ++i) {
          m.column_orders.push_back(static_cast<ColumnOrder>(read_empty_union(r, "ColumnOrder")));
        }
        break;
      }
      case 8:
        if (h.type != ct::kStruct) return false;
        read_encryption_algorithm(r, m.encryption_algorithm.emplace());
        break;
      case 9:
        if (h.type != ct::kBinary) return false;
        r.read_string_into(m.footer_signing_key_metadata);
        break;
      default: return false;
    }
    seen.mark(h.id);
    return true;
  });
  seen.require(r, fields({1, 2, 3, 4}), kName);
}

void read_column_index(CompactReader& r, ColumnIndex& c) {
  constexpr const char* kName = "ColumnIndex";
  Seen seen;
  read_struct(r, [&](const FieldHeader& h) {
    switch (h.id) {
      case 1: {
        ListHeader lh;
        if (!list_field(r, h, ct::kTrue, lh)) return false;
        c.null_pages.clear();
        c.null_pages.reserve(lh.size);
        for (uint32_t i = 0; i < lh.size; ++i) c.null_pages.push_back(r.read_bool_element());
        break;
      }
      case 2:
        if (!string_list(r, h, c.min_values)) return false;
        break;
      case 3:
        if (!string_list(r, h, c.max_values)) return false;
        break;
      case 4:
        if (h.type != ct::kI32) return false;
        c.boundary_order = static_cast<BoundaryOrder>(r.read_i32());
        break;
      case 5:
        if (!i64_list(r, h, c.null_counts)) return false;
        break;
      case 6:
        if (!i64_list(r, h, c.repetition_level_histograms)) return false;
        break;
      case 7:
        if (!i64_list(r, h, c.definition_level_histograms)) return false;
        break;
      case 8:
        if (!i64_list(r, h, c.nan_counts)) return false;
        break;
      default: return false;
    }
    seen.mark(h.id);
    return true;
  });
  seen.require(r, fields({1, 2, 3, 4}), kName);
}

void read_page_location(CompactReader& r, PageLocation& p) {
  constexpr const char* kName = "PageLocation";
  Seen seen;
  read_struct(r, [&](const FieldHeader& h) {
    switch (h.id) {
      case 1:
        if (h.type != ct::kI64) return false;
        p.offset = r.read_i64();
        break;
      case 2:
        if (h.type != ct::kI32) return false;
        p.compressed_page_size = r.read_i32();
        break;
      case 3:
        if (h.type != ct::kI64) return false;
        p.first_row_index = r.read_i64();
        break;
      default: return false;
    }
    seen.mark(h.id);
    return true;
  });
  seen.require(r, fields({1, 2, 3}), kName);
}

void read_offset_index(CompactReader& r, OffsetIndex& o) {
  constexpr const char* kName = "OffsetIndex";
  Seen seen;
  read_struct(r, [&](const FieldHeader& h) {
    switch (h.id) {
      case 1: {
        ListHeader lh;
        if (!list_field(r, h, ct::kStruct, lh)) return false;
        o.page_locations.clear();
        o.page_locations.reserve(reservation(r, lh.size, 7));
        for (uint32_t i = 0; i < lh.size; ++i) read_page_location(r, o.page_locations.emplace_back());
        break;
      }
      case 2:
        if (!i64_list(r, h, o.unencoded_byte_array_data_bytes)) return false;
        break;
      default: return false;
    }
    seen.mark(h.id);
    return true;
  });
  seen.require(r, fields({1}), kName);
}

void read_bloom_filter_header(CompactReader& r, BloomFilterHeader& b) {
  constexpr const char* kName = "BloomFilterHeader";
  Seen seen;
  read_struct(r, [&](const FieldHeader& h) {
    switch (h.id) {
      case 1:
        if (h.type != ct::kI32) return false;
        b.num_bytes = r.read_i32();
        break;
      case 2:
        if (h.type != ct::kStruct) return false;
        b.algorithm = static_cast<BloomFilterAlgorithm>(read_empty_union(r, "BloomFilterAlgorithm"));
        break;
      case 3:
        if (h.type != ct::kStruct) return false;
        b.hash = static_cast<BloomFilterHash>(read_empty_union(r, "BloomFilterHash"));
        break;
      case 4:
        if (h.type != ct::kStruct) return false;
        b.compression = static_cast<BloomFilterCompression>(read_empty_union(r, "BloomFilterCompression"));
        break;
      default: return false;
    }
    seen.mark(h.id);
    return true;
  });
  seen.require(r, fields({1, 2, 3, 4}), kName);
}

void read_file_crypto_metadata(CompactReader& r, FileCryptoMetaData& f) {
  constexpr const char* kName = "FileCryptoMetaData";
  Seen seen;
  read_struct(r, [&](const FieldHeader& h) {
    switch (h.id) {
      case 1:
        if (h.type != ct::kStruct) return false;
        read_encryption_algorithm(r, f.encryption_algorithm);
        break;
      case 2:
        if (h.type != ct::kBinary) return false;
        r.read_string_into(f.key_metadata);
        break;
      default: return false;
    }
    seen.mark(h.id);
    return true;
  });
  seen.require(r, fields({1}), kName);
}

/// Runs a top-level decode: a struct at the start of `bytes`.
template <typename T, typename Read>
T decode_top(std::span<const uint8_t> bytes, const Limits& limits, size_t* consumed, Read&& read) {
  CompactReader r(bytes, limits);
  T out;
  read(r, out);
  if (consumed != nullptr) *consumed = r.position();
  return out;
}

// ---------------------------------------------------------------------------
// Encoders

void write_string_list(CompactWriter& w, int16_t id, const std::vector<std::string>& values) {
  w.field_list(id, ct::kBinary, values.size());
  for (const auto& v : values) w.put_binary(v);
}

void write_string_list(CompactWriter& w, int16_t id, const StringList& values) {
  w.field_list(id, ct::kBinary, values.size());
  for (std::string_view v : values) w.put_binary(v);
}

void write_i64_list(CompactWriter& w, int16_t id, const std::vector<int64_t>& values) {
  w.field_list(id, ct::kI64, values.size());
  for (int64_t v : values) w.put_i64(v);
}

void write_statistics(CompactWriter& w, const Statistics& s) {
  w.struct_begin();
  if (s.max) w.field_binary(1, *s.max);
  if (s.min) w.field_binary(2, *s.min);
  if (s.null_count) w.field_i64(3, *s.null_count);
  if (s.distinct_count) w.field_i64(4, *s.distinct_count);
  if (s.max_value) w.field_binary(5, *s.max_value);
  if (s.min_value) w.field_binary(6, *s.min_value);
  if (s.is_max_value_exact) w.field_bool(7, *s.is_max_value_exact);
  if (s.is_min_value_exact) w.field_bool(8, *s.is_min_value_exact);
  if (s.nan_count) w.field_i64(9, *s.nan_count);
  w.struct_end();
}

void write_size_statistics(CompactWriter& w, const SizeStatistics& s) {
  w.struct_begin();
  if (s.unencoded_byte_array_data_bytes) w.field_i64(1, *s.unencoded_byte_array_data_bytes);
  if (!s.repetition_level_histogram.empty()) write_i64_list(w, 2, s.repetition_level_histogram);
  if (!s.definition_level_histogram.empty()) write_i64_list(w, 3, s.definition_level_histogram);
  w.struct_end();
}

void write_geospatial_statistics(CompactWriter& w, const GeospatialStatistics& g) {
  w.struct_begin();
  if (g.bbox) {
    const BoundingBox& b = *g.bbox;
    w.field_struct_begin(1);
    w.field_double(1, b.xmin);
    w.field_double(2, b.xmax);
    w.field_double(3, b.ymin);
    w.field_double(4, b.ymax);
    if (b.zmin) w.field_double(5, *b.zmin);
    if (b.zmax) w.field_double(6, *b.zmax);
    if (b.mmin) w.field_double(7, *b.mmin);
    if (b.mmax) w.field_double(8, *b.mmax);
    w.struct_end();
  }
  if (g.geospatial_types) {
    w.field_list(2, ct::kI32, g.geospatial_types->size());
    for (int32_t t : *g.geospatial_types) w.put_i32(t);
  }
  w.struct_end();
}

void write_key_values(CompactWriter& w, int16_t id, const std::vector<KeyValue>& kvs) {
  w.field_list(id, ct::kStruct, kvs.size());
  for (const auto& kv : kvs) {
    w.struct_begin();
    w.field_binary(1, kv.key);
    if (kv.value) w.field_binary(2, *kv.value);
    w.struct_end();
  }
}

template <typename T>
void write_time_like(CompactWriter& w, const T& t) {
  w.struct_begin();
  w.field_bool(1, t.is_adjusted_to_utc);
  w.field_struct_begin(2);
  w.field_empty_struct(static_cast<int16_t>(t.unit));
  w.struct_end();
  w.struct_end();
}

void write_logical_type(CompactWriter& w, const LogicalType& lt) {
  w.struct_begin();
  int16_t id = lt.field_id();
  if (const auto* d = lt.get_if<DecimalType>()) {
    w.field_struct_begin(id);
    w.field_i32(1, d->scale);
    w.field_i32(2, d->precision);
    w.struct_end();
  } else if (const auto* t = lt.get_if<TimeType>()) {
    w.field(ct::kStruct, id);
    write_time_like(w, *t);
  } else if (const auto* ts = lt.get_if<TimestampType>()) {
    w.field(ct::kStruct, id);
    write_time_like(w, *ts);
  } else if (const auto* i = lt.get_if<IntType>()) {
    w.field_struct_begin(id);
    w.field_byte(1, i->bit_width);
    w.field_bool(2, i->is_signed);
    w.struct_end();
  } else if (const auto* v = lt.get_if<VariantType>()) {
    w.field_struct_begin(id);
    if (v->specification_version) w.field_byte(1, *v->specification_version);
    w.struct_end();
  } else if (const auto* g = lt.get_if<GeometryType>()) {
    w.field_struct_begin(id);
    if (g->crs) w.field_binary(1, *g->crs);
    w.struct_end();
  } else if (const auto* gg = lt.get_if<GeographyType>()) {
    w.field_struct_begin(id);
    if (gg->crs) w.field_binary(1, *gg->crs);
    if (gg->algorithm) w.field_i32(2, static_cast<int32_t>(*gg->algorithm));
    w.struct_end();
  } else {
    w.field_empty_struct(id);  // every other member is an empty struct
  }
  w.struct_end();
}

void write_schema_element(CompactWriter& w, const SchemaElement& e) {
  w.struct_begin();
  if (e.type) w.field_i32(1, static_cast<int32_t>(*e.type));
  if (e.type_length) w.field_i32(2, *e.type_length);
  if (e.repetition_type) w.field_i32(3, static_cast<int32_t>(*e.repetition_type));
  w.field_binary(4, e.name);
  if (e.num_children) w.field_i32(5, *e.num_children);
  if (e.converted_type) w.field_i32(6, static_cast<int32_t>(*e.converted_type));
  if (e.scale) w.field_i32(7, *e.scale);
  if (e.precision) w.field_i32(8, *e.precision);
  if (e.field_id) w.field_i32(9, *e.field_id);
  if (e.logical_type) {
    w.field(ct::kStruct, 10);
    write_logical_type(w, *e.logical_type);
  }
  if (e.vector_length) w.field_i32(11, *e.vector_length);
  w.struct_end();
}

void write_column_metadata(CompactWriter& w, const ColumnMetaData& c) {
  w.struct_begin();
  w.field_i32(1, static_cast<int32_t>(c.type));
  w.field_list(2, ct::kI32, c.encodings.size());
  for (Encoding e : c.encodings) w.put_i32(static_cast<int32_t>(e));
  write_string_list(w, 3, c.path_in_schema);
  w.field_i32(4, static_cast<int32_t>(c.codec));
  w.field_i64(5, c.num_values);
  w.field_i64(6, c.total_uncompressed_size);
  w.field_i64(7, c.total_compressed_size);
  if (!c.key_value_metadata.empty()) write_key_values(w, 8, c.key_value_metadata);
  w.field_i64(9, c.data_page_offset);
  if (c.index_page_offset) w.field_i64(10, *c.index_page_offset);
  if (c.dictionary_page_offset) w.field_i64(11, *c.dictionary_page_offset);
  if (c.statistics) {
    w.field(ct::kStruct, 12);
    write_statistics(w, *c.statistics);
  }
  if (!c.encoding_stats.empty()) {
    w.field_list(13, ct::kStruct, c.encoding_stats.size());
    for (const auto& s : c.encoding_stats) {
      w.struct_begin();
      w.field_i32(1, static_cast<int32_t>(s.page_type));
      w.field_i32(2, static_cast<int32_t>(s.encoding));
      w.field_i32(3, s.count);
      w.struct_end();
    }
  }
  if (c.bloom_filter_offset) w.field_i64(14, *c.bloom_filter_offset);
  if (c.bloom_filter_length) w.field_i32(15, *c.bloom_filter_length);
  if (c.size_statistics) {
    w.field(ct::kStruct, 16);
    write_size_statistics(w, *c.size_statistics);
  }
  if (c.geospatial_statistics) {
    w.field(ct::kStruct, 17);
    write_geospatial_statistics(w, *c.geospatial_statistics);
  }
  w.struct_end();
}

template <typename Aes>
void write_aes(CompactWriter& w, const Aes& a) {
  w.struct_begin();
  if (a.aad_prefix) w.field_binary(1, *a.aad_prefix);
  if (a.aad_file_unique) w.field_binary(2, *a.aad_file_unique);
  if (a.supply_aad_prefix) w.field_bool(3, *a.supply_aad_prefix);
  w.struct_end();
}

void write_encryption_algorithm(CompactWriter& w, const EncryptionAlgorithm& e) {
  w.struct_begin();
  if (const auto* gcm = std::get_if<AesGcmV1>(&e.value)) {
    w.field(ct::kStruct, 1);
    write_aes(w, *gcm);
  } else {
    w.field(ct::kStruct, 2);
    write_aes(w, std::get<AesGcmCtrV1>(e.value));
  }
  w.struct_end();
}

void write_column_chunk(CompactWriter& w, const ColumnChunk& c) {
  w.struct_begin();
  if (c.file_path) w.field_binary(1, *c.file_path);
  w.field_i64(2, c.file_offset);
  if (c.meta_data) {
    w.field(ct::kStruct, 3);
    write_column_metadata(w, *c.meta_data);
  }
  if (c.offset_index_offset) w.field_i64(4, *c.offset_index_offset);
  if (c.offset_index_length) w.field_i32(5, *c.offset_index_length);
  if (c.column_index_offset) w.field_i64(6, *c.column_index_offset);
  if (c.column_index_length) w.field_i32(7, *c.column_index_length);
  if (c.crypto_metadata) {
    w.field_struct_begin(8);
    if (const auto* key = std::get_if<EncryptionWithColumnKey>(&c.crypto_metadata->value)) {
      w.field_struct_begin(2);
      write_string_list(w, 1, key->path_in_schema);
      if (key->key_metadata) w.field_binary(2, *key->key_metadata);
      w.struct_end();
    } else {
      w.field_empty_struct(1);
    }
    w.struct_end();
  }
  if (c.encrypted_column_metadata) w.field_binary(9, *c.encrypted_column_metadata);
  w.struct_end();
}

void write_row_group(CompactWriter& w, const RowGroup& g) {
  w.struct_begin();
  w.field_list(1, ct::kStruct, g.columns.size());
  for (const auto& c : g.columns) write_column_chunk(w, c);
  w.field_i64(2, g.total_byte_size);
  w.field_i64(3, g.num_rows);
  if (!g.sorting_columns.empty()) {
    w.field_list(4, ct::kStruct, g.sorting_columns.size());
    for (const auto& s : g.sorting_columns) {
      w.struct_begin();
      w.field_i32(1, s.column_idx);
      w.field_bool(2, s.descending);
      w.field_bool(3, s.nulls_first);
      w.struct_end();
    }
  }
  if (g.file_offset) w.field_i64(5, *g.file_offset);
  if (g.total_compressed_size) w.field_i64(6, *g.total_compressed_size);
  if (g.ordinal) w.field_i16(7, *g.ordinal);
  w.struct_end();
}

void write_page_header(CompactWriter& w, const PageHeader& p) {
  w.struct_begin();
  w.field_i32(1, static_cast<int32_t>(p.type));
  w.field_i32(2, p.uncompressed_page_size);
  w.field_i32(3, p.compressed_page_size);
  if (p.crc) w.field_i32(4, *p.crc);
  if (p.data_page_header) {
    const DataPageHeader& d = *p.data_page_header;
    w.field_struct_begin(5);
    w.field_i32(1, d.num_values);
    w.field_i32(2, static_cast<int32_t>(d.encoding));
    w.field_i32(3, static_cast<int32_t>(d.definition_level_encoding));
    w.field_i32(4, static_cast<int32_t>(d.repetition_level_encoding));
    if (d.statistics) {
      w.field(ct::kStruct, 5);
      write_statistics(w, *d.statistics);
    }
    w.struct_end();
  }
  if (p.index_page_header) w.field_empty_struct(6);
  if (p.dictionary_page_header) {
    const DictionaryPageHeader& d = *p.dictionary_page_header;
    w.field_struct_begin(7);
    w.field_i32(1, d.num_values);
    w.field_i32(2, static_cast<int32_t>(d.encoding));
    if (d.is_sorted) w.field_bool(3, *d.is_sorted);
    w.struct_end();
  }
  if (p.data_page_header_v2) {
    const DataPageHeaderV2& d = *p.data_page_header_v2;
    w.field_struct_begin(8);
    w.field_i32(1, d.num_values);
    w.field_i32(2, d.num_nulls);
    w.field_i32(3, d.num_rows);
    w.field_i32(4, static_cast<int32_t>(d.encoding));
    w.field_i32(5, d.definition_levels_byte_length);
    w.field_i32(6, d.repetition_levels_byte_length);
    if (d.is_compressed) w.field_bool(7, *d.is_compressed);
    if (d.statistics) {
      w.field(ct::kStruct, 8);
      write_statistics(w, *d.statistics);
    }
    w.struct_end();
  }
  w.struct_end();
}

}  // namespace

// ---------------------------------------------------------------------------
// Public entry points

FileMetaData decode_file_metadata(std::span<const uint8_t> bytes, const Limits& limits,
                                  const MetadataOptions& options) {
  if (static_cast<int64_t>(bytes.size()) > limits.max_footer_size) {
    throw_limit("footer of " + std::to_string(bytes.size()) + " bytes exceeds the limit of " +
                std::to_string(limits.max_footer_size));
  }
  if (bytes.size() > UINT32_MAX) throw_limit("footer larger than 4 GiB");
  return decode_top<FileMetaData>(
      bytes, limits, nullptr, [&](CompactReader& r, FileMetaData& m) { read_file_metadata(r, m, options); });
}

PageHeader decode_page_header(std::span<const uint8_t> bytes, const Limits& limits, size_t* consumed) {
  // A header never needs more than max_page_header_size bytes: look no further.
  if (static_cast<int64_t>(bytes.size()) > limits.max_page_header_size) {
    bytes = bytes.first(static_cast<size_t>(limits.max_page_header_size));
  }
  try {
    return decode_top<PageHeader>(bytes, limits, consumed, read_page_header);
  } catch (const Error& e) {
    // Running out of bytes inside the allowed window means the header is too big.
    if (static_cast<int64_t>(bytes.size()) == limits.max_page_header_size &&
        e.code() == ErrorCode::kCorrupt) {
      throw_limit("page header larger than the limit of " + std::to_string(limits.max_page_header_size) +
                  " bytes (or corrupt): " + e.message());
    }
    throw;
  }
}

ColumnIndex decode_column_index(std::span<const uint8_t> bytes, const Limits& limits) {
  return decode_top<ColumnIndex>(bytes, limits, nullptr, read_column_index);
}

OffsetIndex decode_offset_index(std::span<const uint8_t> bytes, const Limits& limits) {
  return decode_top<OffsetIndex>(bytes, limits, nullptr, read_offset_index);
}

BloomFilterHeader decode_bloom_filter_header(std::span<const uint8_t> bytes, const Limits& limits,
                                             size_t* consumed) {
  return decode_top<BloomFilterHeader>(bytes, limits, consumed, read_bloom_filter_header);
}

FileCryptoMetaData decode_file_crypto_metadata(std::span<const uint8_t> bytes, const Limits& limits,
                                               size_t* consumed) {
  return decode_top<FileCryptoMetaData>(bytes, limits, consumed, read_file_crypto_metadata);
}

ColumnMetaData decode_column_metadata(std::span<const uint8_t> bytes, const Limits& limits,
                                      const MetadataOptions& options) {
  return decode_top<ColumnMetaData>(bytes, limits, nullptr, [&](CompactReader& r, ColumnMetaData& c) {
    read_column_metadata(r, c, options);
  });
}

Statistics decode_statistics(std::span<const uint8_t> bytes, const Limits& limits) {
  return decode_top<Statistics>(bytes, limits, nullptr, read_statistics);
}

SizeStatistics decode_size_statistics(std::span<const uint8_t> bytes, const Limits& limits) {
  return decode_top<SizeStatistics>(bytes, limits, nullptr, read_size_statistics);
}

PageEncodingStatsList decode_page_encoding_stats(std::span<const uint8_t> bytes, const Limits& limits) {
  CompactReader r(bytes, limits);
  PageEncodingStatsList out;
  FieldHeader h{ct::kList, 13};
  read_page_encoding_stats_list(r, h, out);
  return out;
}

void encode_file_metadata(const FileMetaData& m, Buffer& out) {
  CompactWriter w(out);
  w.struct_begin();
  w.field_i32(1, m.version);
  w.field_list(2, ct::kStruct, m.schema.size());
  for (const auto& e : m.schema) write_schema_element(w, e);
  w.field_i64(3, m.num_rows);
  w.field_list(4, ct::kStruct, m.row_groups.size());
  for (const auto& g : m.row_groups) write_row_group(w, g);
  if (!m.key_value_metadata.empty()) write_key_values(w, 5, m.key_value_metadata);
  if (m.created_by) w.field_binary(6, *m.created_by);
  if (!m.column_orders.empty()) {
    w.field_list(7, ct::kStruct, m.column_orders.size());
    for (ColumnOrder o : m.column_orders) {
      w.struct_begin();
      w.field_empty_struct(static_cast<int16_t>(o));
      w.struct_end();
    }
  }
  if (m.encryption_algorithm) {
    w.field(ct::kStruct, 8);
    write_encryption_algorithm(w, *m.encryption_algorithm);
  }
  if (m.footer_signing_key_metadata) w.field_binary(9, *m.footer_signing_key_metadata);
  w.struct_end();
}

void encode_page_header(const PageHeader& header, Buffer& out) {
  CompactWriter w(out);
  write_page_header(w, header);
}

void encode_column_index(const ColumnIndex& c, Buffer& out) {
  CompactWriter w(out);
  w.struct_begin();
  w.field_list(1, ct::kTrue, c.null_pages.size());
  for (bool b : c.null_pages) w.put_bool_element(b);
  write_string_list(w, 2, c.min_values);
  write_string_list(w, 3, c.max_values);
  w.field_i32(4, static_cast<int32_t>(c.boundary_order));
  if (!c.null_counts.empty()) write_i64_list(w, 5, c.null_counts);
  if (!c.repetition_level_histograms.empty()) write_i64_list(w, 6, c.repetition_level_histograms);
  if (!c.definition_level_histograms.empty()) write_i64_list(w, 7, c.definition_level_histograms);
  if (!c.nan_counts.empty()) write_i64_list(w, 8, c.nan_counts);
  w.struct_end();
}

void encode_offset_index(const OffsetIndex& o, Buffer& out) {
  CompactWriter w(out);
  w.struct_begin();
  w.field_list(1, ct::kStruct, o.page_locations.size());
  for (const auto& p : o.page_locations) {
    w.struct_begin();
    w.field_i64(1, p.offset);
    w.field_i32(2, p.compressed_page_size);
    w.field_i64(3, p.first_row_index);
    w.struct_end();
  }
  if (!o.unencoded_byte_array_data_bytes.empty()) write_i64_list(w, 2, o.unencoded_byte_array_data_bytes);
  w.struct_end();
}

void encode_bloom_filter_header(const BloomFilterHeader& b, Buffer& out) {
  CompactWriter w(out);
  w.struct_begin();
  w.field_i32(1, b.num_bytes);
  w.field_struct_begin(2);
  w.field_empty_struct(static_cast<int16_t>(b.algorithm));
  w.struct_end();
  w.field_struct_begin(3);
  w.field_empty_struct(static_cast<int16_t>(b.hash));
  w.struct_end();
  w.field_struct_begin(4);
  w.field_empty_struct(static_cast<int16_t>(b.compression));
  w.struct_end();
  w.struct_end();
}

void encode_column_metadata(const ColumnMetaData& metadata, Buffer& out) {
  CompactWriter w(out);
  write_column_metadata(w, metadata);
}

void encode_file_crypto_metadata(const FileCryptoMetaData& f, Buffer& out) {
  CompactWriter w(out);
  w.struct_begin();
  w.field(ct::kStruct, 1);
  write_encryption_algorithm(w, f.encryption_algorithm);
  if (f.key_metadata) w.field_binary(2, *f.key_metadata);
  w.struct_end();
}

void encode_statistics(const Statistics& statistics, Buffer& out) {
  CompactWriter w(out);
  write_statistics(w, statistics);
}

void encode_size_statistics(const SizeStatistics& statistics, Buffer& out) {
  CompactWriter w(out);
  write_size_statistics(w, statistics);
}

}  // namespace parquetry
