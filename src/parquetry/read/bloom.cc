// Split-block Bloom filters (parquet-format BloomFilter.md): the bitset is an
// array of 256-bit blocks of eight 32-bit words; the upper 32 bits of the hash
// pick the block ((h >> 32) * blocks >> 32) and the lower 32 bits, multiplied
// by eight fixed odd salts, pick one bit in each word (the top 5 bits of
// each product).
#include "parquetry/read/bloom.h"

#include <xxhash.h>

#include <algorithm>
#include <cstring>

#include "parquetry/encryption/modules.h"
#include "parquetry/error.h"

namespace parquetry {
namespace {

constexpr uint32_t kSalt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                               0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};
constexpr int64_t kBlockBytes = 32;
// Headers are a handful of small Thrift fields; this reads one with room to spare.
constexpr int64_t kHeaderProbe = 64;

int64_t bits_length(std::span<const uint8_t> prefix) {
  uint32_t length;
  std::memcpy(&length, prefix.data(), 4);
  return length;
}

}  // namespace

uint64_t bloom_hash(std::string_view plain_value) { return XXH64(plain_value.data(), plain_value.size(), 0); }

bool bloom_block_contains(const uint8_t* block, uint64_t hash) {
  const uint32_t key = static_cast<uint32_t>(hash);
  for (int i = 0; i < 8; ++i) {
    uint32_t word;
    std::memcpy(&word, block + i * 4, 4);
    const uint32_t bit = (key * kSalt[i]) >> 27;
    if (((word >> bit) & 1U) == 0) return false;
  }
  return true;
}

namespace {

// An encrypted filter: header module, then bitset module. GCM authenticates
// whole modules, so the bitset is read and decrypted whole.
bool encrypted_bloom_might_contain(RandomAccessSource& source, const ColumnMetaData& chunk, uint64_t hash,
                                   int64_t* bytes_read, const ModuleCrypto& crypto) {
  const int64_t offset = *chunk.bloom_filter_offset;
  const int64_t size = source.size();
  Buffer scratch, plaintext;
  auto read_module = [&](int64_t at) -> std::span<const uint8_t> {
    if (at < 0 || size - at < 4) throw_corrupt("encrypted Bloom filter lies outside the file");
    const int64_t length = bits_length(source.read(at, 4, scratch));
    if (length > size - at - 4) throw_corrupt("encrypted Bloom filter module runs past the end of the file");
    *bytes_read += 4 + length;
    return source.read(at, 4 + length, scratch);
  };
  size_t header_module = 0;
  std::span<const uint8_t> header_bytes =
      crypto.decrypt(ModuleType::kBloomFilterHeader, -1, read_module(offset), plaintext, &header_module);
  const BloomFilterHeader header = decode_bloom_filter_header(header_bytes);
  if (header.algorithm != BloomFilterAlgorithm::BLOCK || header.hash != BloomFilterHash::XXHASH ||
      header.compression != BloomFilterCompression::UNCOMPRESSED || header.num_bytes < kBlockBytes ||
      header.num_bytes % kBlockBytes != 0) {
    return true;
  }
  std::span<const uint8_t> bitset = crypto.decrypt(ModuleType::kBloomFilterBitset, -1,
                                                   read_module(offset + int64_t(header_module)), plaintext);
  if (int64_t(bitset.size()) != header.num_bytes) throw_corrupt("Bloom filter bitset size differs from its header");
  const uint64_t blocks = static_cast<uint64_t>(header.num_bytes / kBlockBytes);
  const uint64_t block = ((hash >> 32) * blocks) >> 32;
  return bloom_block_contains(bitset.data() + block * kBlockBytes, hash);
}

}  // namespace

bool bloom_might_contain(RandomAccessSource& source, const ColumnMetaData& chunk, uint64_t hash,
                         int64_t* bytes_read, const ModuleCrypto* crypto) {
  if (!chunk.bloom_filter_offset) return true;
  if (crypto != nullptr) return encrypted_bloom_might_contain(source, chunk, hash, bytes_read, *crypto);
  const int64_t offset = *chunk.bloom_filter_offset;
  if (offset < 0 || offset >= source.size()) return true;
  int64_t probe = std::min<int64_t>(kHeaderProbe, source.size() - offset);
  if (chunk.bloom_filter_length && *chunk.bloom_filter_length > 0) {
    probe = std::min<int64_t>(probe, *chunk.bloom_filter_length);
  }
  Buffer scratch;
  std::span<const uint8_t> header_bytes = source.read(offset, probe, scratch);
  size_t consumed = 0;
  BloomFilterHeader header;
  try {
    header = decode_bloom_filter_header(header_bytes, {}, &consumed);
  } catch (const Error&) {
    return true;  // an unreadable filter proves nothing
  }
  *bytes_read += probe;
  if (header.algorithm != BloomFilterAlgorithm::BLOCK || header.hash != BloomFilterHash::XXHASH ||
      header.compression != BloomFilterCompression::UNCOMPRESSED || header.num_bytes < kBlockBytes ||
      header.num_bytes % kBlockBytes != 0) {
    return true;
  }
  const int64_t bitset = offset + static_cast<int64_t>(consumed);
  if (bitset + header.num_bytes > source.size()) return true;
  const uint64_t blocks = static_cast<uint64_t>(header.num_bytes / kBlockBytes);
  const uint64_t block = ((hash >> 32) * blocks) >> 32;
  std::span<const uint8_t> bytes =
      source.read(bitset + static_cast<int64_t>(block) * kBlockBytes, kBlockBytes, scratch);
  *bytes_read += kBlockBytes;
  return bloom_block_contains(bytes.data(), hash);
}

}  // namespace parquetry
