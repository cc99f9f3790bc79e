// Inclusive projection of predicates onto partitions and column bounds
// (format/spec.md "Scan Planning").
#include "parquetry/iceberg_table/prune.h"

#include <unordered_map>

namespace parquetry::iceberg {
namespace {

// Whether a range [lower, upper] (either may be absent) can hold a value v
// with `op` v true.
bool range_excludes(CompareOp op, const std::optional<Value>& lower, const std::optional<Value>& upper, const Value& v) {
  auto cmp = [&](const std::optional<Value>& bound) -> std::optional<int> {
    if (!bound) return std::nullopt;
    return compare_values(*bound, v);
  };
  switch (op) {
    case CompareOp::kEq: {
      const auto lo = cmp(lower), hi = cmp(upper);
      return (lo && *lo > 0) || (hi && *hi < 0);
    }
    case CompareOp::kLt: {
      const auto lo = cmp(lower);
      return lo && *lo >= 0;
    }
    case CompareOp::kLe: {
      const auto lo = cmp(lower);
      return lo && *lo > 0;
    }
    case CompareOp::kGt: {
      const auto hi = cmp(upper);
      return hi && *hi <= 0;
    }
    case CompareOp::kGe: {
      const auto hi = cmp(upper);
      return hi && *hi < 0;
    }
    case CompareOp::kNe: {
      // Only when every value equals v.
      const auto lo = cmp(lower), hi = cmp(upper);
      return lo && hi && *lo == 0 && *hi == 0;
    }
  }
  return false;
}

// The comparison a monotonic transform's value must pass: x < v implies
// T(x) <= T(v), so strict comparisons become inclusive.
CompareOp projected_op(CompareOp op) {
  switch (op) {
    case CompareOp::kLt: return CompareOp::kLe;
    case CompareOp::kGt: return CompareOp::kGe;
    default: return op;
  }
}

}  // namespace

Pruner::Pruner(const IcebergSchema& schema, const Predicate& filter, std::vector<int32_t> unreliable_stats)
    : filter_(push_down_not(filter)), schema_(&schema), unreliable_stats_(std::move(unreliable_stats)) {
  always_true_ = filter_.kind == Predicate::Kind::kTrue;
}

bool Pruner::excluded(const std::function<bool(const Leaf&)>& leaf_excluded) const {
  if (always_true_) return false;
  return predicate_excluded(filter_, [&](const Predicate& p) {
    if (p.kind == Predicate::Kind::kFalse) return true;
    if (p.kind == Predicate::Kind::kTrue) return false;
    Leaf leaf;
    leaf.field = schema_->find_top_level(p.column);
    leaf.kind = p.kind;
    leaf.op = p.op;
    if (leaf.field == nullptr || leaf.field->type.is_nested()) return false;
    if (p.kind == Predicate::Kind::kCompare || p.kind == Predicate::Kind::kIn) {
      for (const Literal& lit : p.values) {
        auto v = from_literal(leaf.field->type, lit);
        if (!v) return false;  // a literal we cannot type: do not prune
        leaf.values.push_back(std::move(*v));
      }
      if (leaf.values.empty()) return p.kind == Predicate::Kind::kIn;  // IN () selects nothing
    }
    return leaf_excluded(leaf);
  });
}

bool Pruner::excludes_manifest(const PartitionSpec& spec, const ManifestFile& manifest) const {
  if (always_true_ || manifest.partitions.size() != spec.fields.size()) return false;
  return excluded([&](const Leaf& leaf) {
    for (size_t i = 0; i < spec.fields.size(); ++i) {
      const PartitionField& pf = spec.fields[i];
      if (pf.source_id != leaf.field->id) continue;
      const FieldSummary& summary = manifest.partitions[i];
      const Transform& t = pf.transform;
      if (t.kind == Transform::Kind::kVoid || t.kind == Transform::Kind::kUnknown) continue;
      const IcebergType result = t.result_type(leaf.field->type);
      std::optional<Value> lower, upper;
      if (summary.lower_bound) lower = decode_bound(result, *summary.lower_bound);
      if (summary.upper_bound) upper = decode_bound(result, *summary.upper_bound);
      if (leaf.kind == Predicate::Kind::kIsNull) {
        if (!summary.contains_null) return true;
        continue;
      }
      if (leaf.kind == Predicate::Kind::kIsNotNull) {
        if (summary.contains_null && !summary.lower_bound && !summary.upper_bound &&
            !summary.contains_nan.value_or(false))
          return true;
        continue;
      }
      // Comparisons: only non-null partition values can match.
      if (!summary.lower_bound && !summary.upper_bound && summary.contains_null &&
          !summary.contains_nan.value_or(false))
        return true;
      const bool monotonic = t.is_monotonic();
      if (leaf.kind == Predicate::Kind::kIn || (leaf.kind == Predicate::Kind::kCompare && leaf.op == CompareOp::kEq)) {
        bool all_out = true;
        for (const Value& v : leaf.values) {
          auto tv = apply_transform(t, leaf.field->type, v);
          if (!tv || tv->is_null() || !range_excludes(CompareOp::kEq, lower, upper, *tv)) {
            all_out = false;
            break;
          }
        }
        if (all_out) return true;
        continue;
      }
      if (!monotonic || leaf.kind != Predicate::Kind::kCompare || leaf.op == CompareOp::kNe) continue;
      auto tv = apply_transform(t, leaf.field->type, leaf.values[0]);
      if (tv && !tv->is_null() && range_excludes(projected_op(leaf.op), lower, upper, *tv)) return true;
    }
    return false;
  });
}

bool Pruner::excludes_partition(const PartitionSpec& spec, const DataFile& file) const {
  if (always_true_ || file.partition.size() != spec.fields.size()) return false;
  return excluded([&](const Leaf& leaf) {
    for (size_t i = 0; i < spec.fields.size(); ++i) {
      const PartitionField& pf = spec.fields[i];
      if (pf.source_id != leaf.field->id) continue;
      const Transform& t = pf.transform;
      if (t.kind == Transform::Kind::kVoid || t.kind == Transform::Kind::kUnknown) continue;
      const Value p = from_partition(t.result_type(leaf.field->type), file.partition[i]);
      if (leaf.kind == Predicate::Kind::kIsNull) {
        if (!p.is_null()) return true;  // T(null) is null, so no row is null
        continue;
      }
      if (leaf.kind == Predicate::Kind::kIsNotNull) {
        if (p.is_null()) return true;
        continue;
      }
      if (p.is_null()) return true;  // every row null: no comparison holds
      std::optional<Value> pv = p;
      if (leaf.kind == Predicate::Kind::kIn || (leaf.kind == Predicate::Kind::kCompare && leaf.op == CompareOp::kEq)) {
        bool all_out = true;
        for (const Value& v : leaf.values) {
          auto tv = apply_transform(t, leaf.field->type, v);
          if (!tv || tv->is_null() || !range_excludes(CompareOp::kEq, pv, pv, *tv)) {
            all_out = false;
            break;
          }
        }
        if (all_out) return true;
        continue;
      }
      if (leaf.kind != Predicate::Kind::kCompare) continue;
      if (leaf.op == CompareOp::kNe) {
        if (t.kind == Transform::Kind::kIdentity) {
          auto c = compare_values(p, leaf.values[0]);
          if (c && *c == 0) return true;
        }
        continue;
      }
      if (!t.is_monotonic()) continue;
      auto tv = apply_transform(t, leaf.field->type, leaf.values[0]);
      if (tv && !tv->is_null() && range_excludes(projected_op(leaf.op), pv, pv, *tv)) return true;
    }
    return false;
  });
}

bool Pruner::excludes_bounds(const DataFile& file) const {
  if (always_true_ || file.stats.empty()) return false;
  return excluded([&](const Leaf& leaf) {
    for (int32_t id : unreliable_stats_) {
      if (id == leaf.field->id) return false;
    }
    const ColumnStats* s = file.column_stats(leaf.field->id);
    if (s == nullptr) return false;
    const bool all_null = s->value_count >= 0 && s->null_count >= 0 && s->null_count == s->value_count;
    if (leaf.kind == Predicate::Kind::kIsNull) return s->null_count == 0;
    if (leaf.kind == Predicate::Kind::kIsNotNull) return all_null && s->value_count > 0;
    if (all_null && s->value_count > 0) return true;
    std::optional<Value> lower, upper;
    if (s->lower_bound) lower = decode_bound(leaf.field->type, *s->lower_bound);
    if (s->upper_bound) upper = decode_bound(leaf.field->type, *s->upper_bound);
    if (!lower && !upper) return false;
    if (leaf.kind == Predicate::Kind::kIn) {
      for (const Value& v : leaf.values) {
        if (!range_excludes(CompareOp::kEq, lower, upper, v)) return false;
      }
      return true;
    }
    if (leaf.kind != Predicate::Kind::kCompare) return false;
    // String bounds may be truncated prefixes; they stay valid bounds, but
    // "every value equals v" cannot be concluded from them.
    if (leaf.op == CompareOp::kNe && leaf.field->type.kind != TypeKind::kInt && leaf.field->type.kind != TypeKind::kLong)
      return false;
    return range_excludes(leaf.op, lower, upper, leaf.values[0]);
  });
}

}  // namespace parquetry::iceberg
