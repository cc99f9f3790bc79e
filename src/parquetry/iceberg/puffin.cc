// Puffin files (format/puffin-spec.md): Magic Blob1..BlobN Footer, where
// Footer = Magic FooterPayload FooterPayloadSize(i32 LE) Flags(4 bytes) Magic
// and the payload is UTF-8 JSON, optionally one LZ4 frame (flag bit 0).
#include <lz4frame.h>
#include <zstd.h>

#include <simdjson.h>
#include <charconv>
#include <cstring>
#include <string>

#include "parquetry/error.h"
#include "parquetry/iceberg.h"
#include "parquetry/util/bit_util.h"

namespace parquetry::iceberg {
namespace {

constexpr uint8_t kMagic[4] = {'P', 'F', 'A', '1'};
constexpr size_t kFooterTail = 12;  // payload size + flags + magic
constexpr uint8_t kFlagFooterCompressed = 1;

const std::string* find_property(const PuffinProperties& properties, std::string_view key) {
  for (const auto& [k, v] : properties) {
    if (k == key) return &v;
  }
  return nullptr;
}

// --- compression -----------------------------------------------------------

std::vector<uint8_t> lz4_frame_compress(std::span<const uint8_t> input) {
  LZ4F_preferences_t prefs;
  std::memset(&prefs, 0, sizeof(prefs));
  prefs.frameInfo.contentSize = input.size();  // the spec requires the content size
  std::vector<uint8_t> out(LZ4F_compressFrameBound(input.size(), &prefs));
  size_t n = LZ4F_compressFrame(out.data(), out.size(), input.data(), input.size(), &prefs);
  if (LZ4F_isError(n))
    throw_invalid(std::string("puffin: LZ4 frame compression failed: ") + LZ4F_getErrorName(n));
  out.resize(n);
  return out;
}

std::vector<uint8_t> lz4_frame_decompress(std::span<const uint8_t> input, int64_t max_size,
                                          const char* what) {
  LZ4F_dctx* ctx = nullptr;
  if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION))) throw std::bad_alloc();
  struct Free {
    LZ4F_dctx* c;
    ~Free() { LZ4F_freeDecompressionContext(c); }
  } guard{ctx};
  LZ4F_frameInfo_t info;
  std::memset(&info, 0, sizeof(info));
  size_t consumed = input.size();
  size_t hint = LZ4F_getFrameInfo(ctx, &info, input.data(), &consumed);
  if (LZ4F_isError(hint)) {
    throw_corrupt(std::string("puffin: ") + what + ": bad LZ4 frame header: " + LZ4F_getErrorName(hint));
  }
  // A content size of 0 is also how LZ4 says "unknown"; such a frame must then
  // decode to nothing, which the loop below checks (no output space is given).
  if (info.contentSize > uint64_t(max_size)) {
    throw_limit(std::string("puffin: ") + what + ": LZ4 content size " + std::to_string(info.contentSize) +
                " exceeds the limit " + std::to_string(max_size));
  }
  std::vector<uint8_t> out(static_cast<size_t>(info.contentSize));
  size_t in_pos = consumed, out_pos = 0;
  while (true) {
    size_t src_size = input.size() - in_pos;
    size_t dst_size = out.size() - out_pos;
    size_t r =
        LZ4F_decompress(ctx, out.data() + out_pos, &dst_size, input.data() + in_pos, &src_size, nullptr);
    if (LZ4F_isError(r))
      throw_corrupt(std::string("puffin: ") + what + ": LZ4 frame: " + LZ4F_getErrorName(r));
    in_pos += src_size;
    out_pos += dst_size;
    if (r == 0) break;  // frame complete
    if (src_size == 0 && dst_size == 0) {
      throw_corrupt(std::string("puffin: ") + what +
                    ": LZ4 frame is truncated or larger than its content size");
    }
  }
  if (out_pos != out.size() || in_pos != input.size()) {
    throw_corrupt(std::string("puffin: ") + what +
                  ": LZ4 frame does not match its content size or has trailing bytes");
  }
  return out;
}

std::vector<uint8_t> zstd_compress(std::span<const uint8_t> input) {
  std::vector<uint8_t> out(ZSTD_compressBound(input.size()));
  size_t n = ZSTD_compress(out.data(), out.size(), input.data(), input.size(), 3);
  if (ZSTD_isError(n)) throw_invalid(std::string("puffin: zstd compression failed: ") + ZSTD_getErrorName(n));
  out.resize(n);
  return out;
}

std::vector<uint8_t> zstd_decompress(std::span<const uint8_t> input, int64_t max_size, const char* what) {
  unsigned long long content = ZSTD_getFrameContentSize(input.data(), input.size());
  if (content == ZSTD_CONTENTSIZE_ERROR)
    throw_corrupt(std::string("puffin: ") + what + ": bad zstd frame header");
  if (content == ZSTD_CONTENTSIZE_UNKNOWN) {
    throw_corrupt(std::string("puffin: ") + what + ": zstd frame without content size");
  }
  if (content > uint64_t(max_size)) {
    throw_limit(std::string("puffin: ") + what + ": zstd content size " + std::to_string(content) +
                " exceeds the limit " + std::to_string(max_size));
  }
  size_t frame = ZSTD_findFrameCompressedSize(input.data(), input.size());
  if (ZSTD_isError(frame) || frame != input.size()) {
    throw_corrupt(std::string("puffin: ") + what + ": blob is not exactly one zstd frame");
  }
  std::vector<uint8_t> out(static_cast<size_t>(content));
  size_t n = ZSTD_decompress(out.data(), out.size(), input.data(), input.size());
  if (ZSTD_isError(n)) throw_corrupt(std::string("puffin: ") + what + ": zstd: " + ZSTD_getErrorName(n));
  if (n != out.size())
    throw_corrupt(std::string("puffin: ") + what + ": zstd frame does not match its content size");
  return out;
}

// --- JSON ------------------------------------------------------------------

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          static constexpr char kHex[] = "0123456789abcdef";
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 15];
        } else {
          out += ch;
        }
    }
  }
  out += '"';
}

void append_properties(std::string& out, const PuffinProperties& properties) {
  out += '{';
  for (size_t i = 0; i < properties.size(); ++i) {
    if (i) out += ',';
    append_json_string(out, properties[i].first);
    out += ':';
    append_json_string(out, properties[i].second);
  }
  out += '}';
}

[[noreturn]] void bad_footer(const std::string& what) { throw_corrupt("puffin: footer JSON: " + what); }

int64_t get_int(simdjson::dom::object object, std::string_view key, const std::string& where) {
  simdjson::dom::element value;
  if (object[key].get(value)) bad_footer(where + " lacks \"" + std::string(key) + "\"");
  int64_t result;
  if (value.get_int64().get(result))
    bad_footer(where + ": \"" + std::string(key) + "\" is not a 64-bit integer");
  return result;
}

PuffinProperties get_properties(simdjson::dom::element value, const std::string& where) {
  simdjson::dom::object object;
  if (value.get_object().get(object)) bad_footer(where + ": \"properties\" is not an object");
  PuffinProperties properties;
  for (auto field : object) {
    std::string_view s;
    if (field.value.get_string().get(s)) {
      bad_footer(where + ": property \"" + std::string(field.key) + "\" is not a string");
    }
    properties.emplace_back(std::string(field.key), std::string(s));
  }
  return properties;
}

PuffinCodec parse_codec(std::string_view name, const std::string& where) {
  if (name == "lz4") return PuffinCodec::kLz4;
  if (name == "zstd") return PuffinCodec::kZstd;
  throw_unsupported("puffin: " + where + ": unknown compression codec \"" + std::string(name) + "\"");
}

PuffinFileMetadata parse_footer_json(std::span<const uint8_t> payload) {
  simdjson::dom::parser parser;
  simdjson::padded_string json(reinterpret_cast<const char*>(payload.data()), payload.size());
  simdjson::dom::element root;
  if (auto err = parser.parse(json).get(root))
    bad_footer(std::string("not valid JSON: ") + simdjson::error_message(err));
  simdjson::dom::object object;
  if (root.get_object().get(object)) bad_footer("the payload is not a JSON object");
  PuffinFileMetadata metadata;
  simdjson::dom::array blobs;
  if (object["blobs"].get_array().get(blobs)) bad_footer("\"blobs\" is missing or not a list");
  size_t index = 0;
  for (simdjson::dom::element element : blobs) {
    std::string where = "blob " + std::to_string(index++);
    simdjson::dom::object blob_object;
    if (element.get_object().get(blob_object)) bad_footer(where + " is not an object");
    PuffinBlobMetadata blob;
    std::string_view type;
    if (blob_object["type"].get_string().get(type)) bad_footer(where + " lacks a string \"type\"");
    blob.type = std::string(type);
    simdjson::dom::array fields;
    if (blob_object["fields"].get_array().get(fields)) bad_footer(where + " lacks a list \"fields\"");
    for (simdjson::dom::element f : fields) {
      int64_t id;
      if (f.get_int64().get(id) || id < INT32_MIN || id > INT32_MAX)
        bad_footer(where + ": a field id is not an int");
      blob.fields.push_back(int32_t(id));
    }
    blob.snapshot_id = get_int(blob_object, "snapshot-id", where);
    blob.sequence_number = get_int(blob_object, "sequence-number", where);
    blob.offset = get_int(blob_object, "offset", where);
    blob.length = get_int(blob_object, "length", where);
    simdjson::dom::element codec;
    if (!blob_object["compression-codec"].get(codec) && !codec.is_null()) {
      std::string_view name;
      if (codec.get_string().get(name)) bad_footer(where + ": \"compression-codec\" is not a string");
      blob.codec = parse_codec(name, where);
    }
    simdjson::dom::element properties;
    if (!blob_object["properties"].get(properties) && !properties.is_null()) {
      blob.properties = get_properties(properties, where);
    }
    metadata.blobs.push_back(std::move(blob));
  }
  simdjson::dom::element properties;
  if (!object["properties"].get(properties) && !properties.is_null()) {
    metadata.properties = get_properties(properties, "file");
  }
  return metadata;
}

}  // namespace

std::string_view puffin_codec_name(PuffinCodec codec) {
  switch (codec) {
    case PuffinCodec::kLz4: return "lz4";
    case PuffinCodec::kZstd: return "zstd";
    case PuffinCodec::kNone: break;
  }
  return "";
}

const std::string* PuffinBlobMetadata::property(std::string_view key) const {
  return find_property(properties, key);
}
const std::string* PuffinFileMetadata::property(std::string_view key) const {
  return find_property(properties, key);
}

std::string puffin_footer_json(const PuffinFileMetadata& metadata) {
  std::string out = "{\"blobs\":[";
  for (size_t i = 0; i < metadata.blobs.size(); ++i) {
    const PuffinBlobMetadata& blob = metadata.blobs[i];
    if (i) out += ',';
    out += "{\"type\":";
    append_json_string(out, blob.type);
    out += ",\"fields\":[";
    for (size_t f = 0; f < blob.fields.size(); ++f) {
      if (f) out += ',';
      out += std::to_string(blob.fields[f]);
    }
    out += "],\"snapshot-id\":" + std::to_string(blob.snapshot_id);
    out += ",\"sequence-number\":" + std::to_string(blob.sequence_number);
    out += ",\"offset\":" + std::to_string(blob.offset);
    out += ",\"length\":" + std::to_string(blob.length);
    if (blob.codec != PuffinCodec::kNone) {
      out += ",\"compression-codec\":";
      append_json_string(out, puffin_codec_name(blob.codec));
    }
    if (!blob.properties.empty()) {
      out += ",\"properties\":";
      append_properties(out, blob.properties);
    }
    out += '}';
  }
  out += ']';
  if (!metadata.properties.empty()) {
    out += ",\"properties\":";
    append_properties(out, metadata.properties);
  }
  out += '}';
  return out;
}

// --- writer ----------------------------------------------------------------

PuffinWriter::PuffinWriter(PuffinWriterOptions options) : options_(std::move(options)) {
  out_.assign(kMagic, kMagic + 4);
}

const PuffinBlobMetadata& PuffinWriter::add_blob(std::string type, std::vector<int32_t> fields,
                                                 std::span<const uint8_t> data, PuffinCodec codec,
                                                 PuffinProperties properties, int64_t snapshot_id,
                                                 int64_t sequence_number) {
  PuffinBlobMetadata blob;
  blob.type = std::move(type);
  blob.fields = std::move(fields);
  blob.snapshot_id = snapshot_id;
  blob.sequence_number = sequence_number;
  blob.codec = codec;
  blob.properties = std::move(properties);
  blob.offset = int64_t(out_.size());
  switch (codec) {
    case PuffinCodec::kNone: out_.insert(out_.end(), data.begin(), data.end()); break;
    case PuffinCodec::kLz4: {
      std::vector<uint8_t> packed = lz4_frame_compress(data);
      out_.insert(out_.end(), packed.begin(), packed.end());
      break;
    }
    case PuffinCodec::kZstd: {
      std::vector<uint8_t> packed = zstd_compress(data);
      out_.insert(out_.end(), packed.begin(), packed.end());
      break;
    }
  }
  blob.length = int64_t(out_.size()) - blob.offset;
  metadata_.blobs.push_back(std::move(blob));
  return metadata_.blobs.back();
}

const PuffinBlobMetadata& PuffinWriter::add_deletion_vector(std::string_view referenced_data_file,
                                                            const PositionDeleteIndex& index) {
  std::vector<uint8_t> blob = serialize_deletion_vector(index);
  PuffinProperties properties;
  properties.emplace_back(std::string(kReferencedDataFileProperty), std::string(referenced_data_file));
  properties.emplace_back(std::string(kCardinalityProperty), std::to_string(index.cardinality()));
  return add_blob(std::string(kDeletionVectorBlobType), {kRowPositionFieldId}, blob, PuffinCodec::kNone,
                  std::move(properties), -1, -1);
}

void PuffinWriter::set_property(std::string key, std::string value) {
  for (auto& [k, v] : metadata_.properties) {
    if (k == key) {
      v = std::move(value);
      return;
    }
  }
  metadata_.properties.emplace_back(std::move(key), std::move(value));
}

std::vector<uint8_t> PuffinWriter::finish() {
  if (!options_.created_by.empty() && find_property(metadata_.properties, "created-by") == nullptr) {
    metadata_.properties.emplace_back("created-by", options_.created_by);
  }
  std::string json = puffin_footer_json(metadata_);
  std::vector<uint8_t> payload(json.begin(), json.end());
  uint8_t flags = 0;
  if (options_.compress_footer) {
    payload = lz4_frame_compress(payload);
    flags |= kFlagFooterCompressed;
  }
  if (payload.size() > 0x7FFFFFFFu) throw_limit("puffin: footer payload exceeds 2 GiB");
  out_.insert(out_.end(), kMagic, kMagic + 4);
  out_.insert(out_.end(), payload.begin(), payload.end());
  uint8_t tail[kFooterTail] = {};
  bits::store<int32_t>(tail, int32_t(payload.size()));
  tail[4] = flags;
  std::memcpy(tail + 8, kMagic, 4);
  out_.insert(out_.end(), tail, tail + kFooterTail);
  std::vector<uint8_t> file = std::move(out_);
  out_.assign(kMagic, kMagic + 4);
  metadata_ = {};
  return file;
}

// --- reader ----------------------------------------------------------------

PuffinReader::PuffinReader(std::span<const uint8_t> file, const Limits& limits)
    : file_(file), limits_(limits) {
  const size_t size = file.size();
  if (size < 4 + 4 + kFooterTail) {
    throw_corrupt("puffin: file of " + std::to_string(size) + " bytes is too small (minimum " +
                  std::to_string(4 + 4 + kFooterTail) + ")");
  }
  if (std::memcmp(file.data(), kMagic, 4) != 0)
    throw_corrupt("puffin: bad magic at the start of the file", 0);
  if (std::memcmp(file.data() + size - 4, kMagic, 4) != 0) {
    throw_corrupt("puffin: bad magic at the end of the file", int64_t(size - 4));
  }
  int32_t payload_size = bits::load<int32_t>(file.data() + size - kFooterTail);
  const uint8_t* flags = file.data() + size - 8;
  if (payload_size < 0) {
    throw_corrupt("puffin: negative footer payload size " + std::to_string(payload_size), int64_t(size - 12));
  }
  if (uint64_t(payload_size) > size - (4 + 4 + kFooterTail)) {
    throw_corrupt("puffin: footer payload size " + std::to_string(payload_size) + " exceeds the file (" +
                      std::to_string(size) + " bytes)",
                  int64_t(size - 12));
  }
  if (payload_size > limits.max_footer_size) {
    throw_limit(
        "puffin: footer payload of " + std::to_string(payload_size) + " bytes exceeds max_footer_size",
        int64_t(size - 12));
  }
  if ((flags[0] & ~kFlagFooterCompressed) != 0 || flags[1] != 0 || flags[2] != 0 || flags[3] != 0) {
    throw_unsupported("puffin: footer uses reserved flag bits");
  }
  const size_t footer_start = size - kFooterTail - size_t(payload_size) - 4;
  if (std::memcmp(file.data() + footer_start, kMagic, 4) != 0) {
    throw_corrupt("puffin: bad magic at the start of the footer", int64_t(footer_start));
  }
  footer_size_ = int64_t(size - footer_start);
  std::span<const uint8_t> payload = file.subspan(footer_start + 4, size_t(payload_size));
  footer_compressed_ = (flags[0] & kFlagFooterCompressed) != 0;
  if (footer_compressed_) {
    std::vector<uint8_t> json = lz4_frame_decompress(payload, limits.max_footer_size, "footer");
    metadata_ = parse_footer_json(json);
  } else {
    metadata_ = parse_footer_json(payload);
  }
  for (size_t i = 0; i < metadata_.blobs.size(); ++i) {
    const PuffinBlobMetadata& blob = metadata_.blobs[i];
    if (blob.offset < 4 || blob.length < 0 || blob.offset > int64_t(footer_start) ||
        blob.length > int64_t(footer_start) - blob.offset) {
      throw_corrupt("puffin: blob " + std::to_string(i) + " [offset " + std::to_string(blob.offset) +
                    ", length " + std::to_string(blob.length) + "] lies outside the blob area [4, " +
                    std::to_string(footer_start) + ")");
    }
  }
}

std::span<const uint8_t> PuffinReader::stored_blob(const PuffinBlobMetadata& blob) const {
  // Offsets of footer blobs were checked in the constructor; re-check for
  // metadata the caller built.
  int64_t area = footer_size_ > 0 ? int64_t(file_.size()) - footer_size_ : int64_t(file_.size());
  if (blob.offset < 4 || blob.length < 0 || blob.offset > area || blob.length > area - blob.offset) {
    throw_invalid("puffin: blob [offset " + std::to_string(blob.offset) + ", length " +
                  std::to_string(blob.length) + "] lies outside the blob area");
  }
  return file_.subspan(size_t(blob.offset), size_t(blob.length));
}

std::vector<uint8_t> PuffinReader::read_blob(const PuffinBlobMetadata& blob) const {
  std::span<const uint8_t> stored = stored_blob(blob);
  switch (blob.codec) {
    case PuffinCodec::kLz4: return lz4_frame_decompress(stored, limits_.max_page_size, "blob");
    case PuffinCodec::kZstd: return zstd_decompress(stored, limits_.max_page_size, "blob");
    case PuffinCodec::kNone: break;
  }
  return {stored.begin(), stored.end()};
}

PositionDeleteIndex PuffinReader::read_deletion_vector(const PuffinBlobMetadata& blob) const {
  if (blob.type != kDeletionVectorBlobType) {
    throw_invalid("puffin: blob of type \"" + blob.type + "\" is not a deletion vector");
  }
  if (blob.codec != PuffinCodec::kNone) throw_corrupt("puffin: deletion vectors must not be compressed");
  // The spec makes both properties mandatory for deletion-vector-v1 blobs.
  if (blob.property(kReferencedDataFileProperty) == nullptr) {
    throw_corrupt("puffin: deletion vector blob lacks the \"referenced-data-file\" property");
  }
  const std::string* cardinality = blob.property(kCardinalityProperty);
  if (cardinality == nullptr)
    throw_corrupt("puffin: deletion vector blob lacks the \"cardinality\" property");
  // Decimal digits only (no sign, no spaces), as the spec writes counts.
  int64_t expected = -1;
  const char* first = cardinality->data();
  const char* last = first + cardinality->size();
  auto [end, status] = std::from_chars(first, last, expected);
  if (cardinality->empty() || *first < '0' || *first > '9' || status != std::errc() || end != last) {
    throw_corrupt("puffin: deletion vector cardinality property \"" + *cardinality + "\" is not a count");
  }
  return deserialize_deletion_vector(stored_blob(blob), expected);
}

PositionDeleteIndex read_deletion_vector(std::span<const uint8_t> puffin_file, int64_t content_offset,
                                         int64_t content_size, std::optional<int64_t> record_count) {
  if (content_offset < 0 || content_size < 0 || uint64_t(content_offset) > puffin_file.size() ||
      uint64_t(content_size) > puffin_file.size() - uint64_t(content_offset)) {
    throw_corrupt("puffin: deletion vector [offset " + std::to_string(content_offset) + ", size " +
                  std::to_string(content_size) + "] lies outside the file of " +
                  std::to_string(puffin_file.size()) + " bytes");
  }
  return deserialize_deletion_vector(puffin_file.subspan(size_t(content_offset), size_t(content_size)),
                                     record_count);
}

}  // namespace parquetry::iceberg
