// Randomized round trips against a simple model: random trees (objects with
// repeated and unordered keys, arrays, strings, integers, booleans, nulls)
// are rendered as JSON in generation order and as the canonical text the
// variant must produce (keys deduplicated last-wins and sorted by bytes).
// Both the JSON parser and direct builder calls must give that canonical
// text, and every result must pass validate().
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "parquetry/variant.h"
#include "parquetry/variant_builder.h"
#include "parquetry/variant_json.h"

namespace parquetry {
namespace {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    state_ += 0x9e3779b97f4a7c15ULL;
    uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  uint64_t below(uint64_t n) { return next() % n; }

 private:
  uint64_t state_;
};

struct Node {
  enum Kind { kNull, kBool, kInt, kString, kArray, kObject } kind = kNull;
  bool b = false;
  int64_t i = 0;
  std::string s;
  std::vector<std::pair<std::string, Node>> children;  // keys unused for arrays
};

std::string random_text(Rng& rng, size_t max_len) {
  static const char* const kPieces[] = {"a",  "b",  "Z", "_", "0", "\xC3\xA9", "\xF0\x9F\x90\xA2",
                                        "\"", "\\", "\n"};
  std::string out;
  const size_t n = rng.below(max_len + 1);
  for (size_t k = 0; k < n; ++k) out += kPieces[rng.below(10)];
  return out;
}

Node random_node(Rng& rng, int depth) {
  Node node;
  const uint64_t pick = rng.below(depth > 0 ? 10 : 6);
  switch (pick) {
    case 0: node.kind = Node::kNull; break;
    case 1: node.kind = Node::kBool, node.b = rng.below(2) == 1; break;
    case 2:
    case 3: {
      node.kind = Node::kInt;
      const int bits = int(rng.below(64)) + 1;
      node.i = int64_t(rng.next() >> (64 - bits)) * (rng.below(2) ? 1 : -1);
      break;
    }
    case 4:
    case 5:
      node.kind = Node::kString;
      node.s = rng.below(8) == 0 ? std::string(40 + rng.below(100), 'x') : random_text(rng, 6);
      break;
    case 6:
    case 7: {
      node.kind = Node::kArray;
      const size_t n = depth == 4 && rng.below(8) == 0 ? 250 + rng.below(20) : rng.below(6);
      for (size_t k = 0; k < n; ++k) node.children.emplace_back("", random_node(rng, depth - 1));
      break;
    }
    default: {
      node.kind = Node::kObject;
      const size_t n = depth == 4 && rng.below(8) == 0 ? 250 + rng.below(300) : rng.below(7);
      for (size_t k = 0; k < n; ++k) {
        // Few distinct short keys (duplicates likely) or many generated ones.
        std::string key = n > 20 ? "k" + std::to_string(rng.below(400)) : random_text(rng, 2);
        node.children.emplace_back(std::move(key), random_node(rng, depth - 1));
      }
    }
  }
  return node;
}

void append_json_string(std::string& out, const std::string& s) {
  out += '"';
  for (const char c : s) {
    if (c == '"') {
      out += "\\\"";
    } else if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  out += '"';
}

// canonical = true: objects deduplicated (last wins) and sorted by key bytes.
void render(const Node& node, bool canonical, std::string& out) {
  switch (node.kind) {
    case Node::kNull: out += "null"; return;
    case Node::kBool: out += node.b ? "true" : "false"; return;
    case Node::kInt: out += std::to_string(node.i); return;
    case Node::kString: append_json_string(out, node.s); return;
    case Node::kArray:
      out += '[';
      for (size_t k = 0; k < node.children.size(); ++k) {
        if (k != 0) out += ',';
        render(node.children[k].second, canonical, out);
      }
      out += ']';
      return;
    case Node::kObject: {
      out += '{';
      if (canonical) {
        std::map<std::string, const Node*> last;  // std::string compares bytes as unsigned chars
        for (const auto& [key, child] : node.children) last[key] = &child;
        bool first = true;
        for (const auto& [key, child] : last) {
          if (!first) out += ',';
          first = false;
          append_json_string(out, key);
          out += ':';
          render(*child, canonical, out);
        }
      } else {
        for (size_t k = 0; k < node.children.size(); ++k) {
          if (k != 0) out += ',';
          append_json_string(out, node.children[k].first);
          out += ':';
          render(node.children[k].second, canonical, out);
        }
      }
      out += '}';
      return;
    }
  }
}

void build(const Node& node, VariantBuilder& b) {
  switch (node.kind) {
    case Node::kNull: b.append_null(); return;
    case Node::kBool: b.append_boolean(node.b); return;
    case Node::kInt: b.append_int(node.i); return;
    case Node::kString: b.append_string(node.s); return;
    case Node::kArray:
      b.start_array();
      for (const auto& child : node.children) build(child.second, b);
      b.finish_array();
      return;
    case Node::kObject:
      b.start_object();
      for (const auto& [key, child] : node.children) {
        b.field(key);
        build(child, b);
      }
      b.finish_object();
      return;
  }
}

std::string to_json_checked(VariantBuilder& b) {
  const std::vector<uint8_t> metadata(b.metadata().begin(), b.metadata().end());
  const std::vector<uint8_t> value(b.value().begin(), b.value().end());
  const Variant v(VariantMetadata(metadata), value);
  v.validate(kVariantMaxDepth, true);
  return variant_to_json(v);
}

TEST(VariantRandomTest, JsonAndBuilderAgreeWithTheModel) {
  Rng rng(20261202);
  VariantBuilder direct, parsed, shared;
  VariantJsonParser parser;
  std::vector<std::vector<uint8_t>> shared_values;
  std::vector<std::string> shared_expected;
  for (int round = 0; round < 1000; ++round) {
    SCOPED_TRACE(round);
    const Node tree = random_node(rng, 4);
    std::string generation_order, canonical;
    render(tree, false, generation_order);
    render(tree, true, canonical);

    direct.clear();
    build(tree, direct);
    ASSERT_EQ(to_json_checked(direct), canonical);

    parsed.clear();
    parser.parse(generation_order, parsed);
    ASSERT_EQ(to_json_checked(parsed), canonical);

    // Copy through append_variant into a builder whose dictionary is shared
    // by all rounds.
    const std::vector<uint8_t> m(direct.metadata().begin(), direct.metadata().end());
    const std::vector<uint8_t> v(direct.value().begin(), direct.value().end());
    shared.clear_value();
    shared.append_variant(Variant(VariantMetadata(m), v));
    shared_values.emplace_back(shared.value().begin(), shared.value().end());
    shared_expected.push_back(canonical);
  }
  const std::vector<uint8_t> metadata(shared.metadata().begin(), shared.metadata().end());
  for (size_t k = 0; k < shared_values.size(); ++k) {
    const Variant v(VariantMetadata(metadata), shared_values[k]);
    v.validate(kVariantMaxDepth, true);
    ASSERT_EQ(variant_to_json(v), shared_expected[k]) << k;
  }
}

}  // namespace
}  // namespace parquetry
