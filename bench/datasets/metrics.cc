// `metrics`: a wide, short table like the synthetic file of seed 002: 41
// low/mid-cardinality string tags describing a time series, then the series
// itself as four list columns of 50-200 points (some empty).
#include <array>
#include <string>

#include "datasets.h"
#include "random.h"

namespace parquetry::bench::datasets {
namespace {

struct TagSpec {
  const char* name;
  const char* prefix;  // values are "<prefix><n>", or digits when the prefix is empty
  int cardinality;
  int digits;  // for numeric tags: fixed width
};

// 41 tag columns, alphabetical like the seed's sample.
constexpr std::array<TagSpec, 41> kTags = {{
    {"application", "", 12, 0},
    {"availability_zone", "zone-", 3, 0},
    {"build_number", "", 400, 4},
    {"cloud_account_id", "", 60, 12},
    {"cloud_provider", "cloud-", 3, 0},
    {"cluster", "cluster-", 24, 0},
    {"container", "container-", 200, 0},
    {"datacenter", "dc-", 8, 0},
    {"deployment", "deploy-", 150, 0},
    {"environment", "env-", 4, 0},
    {"host", "host-", 500, 0},
    {"host_group", "group-", 30, 0},
    {"image", "image-", 80, 0},
    {"instance_type", "m5.", 9, 0},
    {"k8s_namespace", "ns-", 40, 0},
    {"kernel_version", "5.15.", 20, 0},
    {"language", "lang-", 6, 0},
    {"library_version", "1.", 50, 0},
    {"metric_name", "metric.", 120, 0},
    {"node", "node-", 300, 0},
    {"os", "os-", 5, 0},
    {"owner", "owner-", 45, 0},
    {"pod", "pod-", 800, 0},
    {"priority", "p", 5, 0},
    {"process", "proc-", 60, 0},
    {"rack", "rack-", 64, 0},
    {"region", "region-", 10, 0},
    {"release", "r", 90, 0},
    {"replica", "replica-", 16, 0},
    {"role", "role-", 12, 0},
    {"runtime", "runtime-", 7, 0},
    {"service", "svc-", 110, 0},
    {"service_version", "v", 70, 0},
    {"shard", "shard-", 128, 0},
    {"stage", "stage-", 4, 0},
    {"subsystem", "sub-", 25, 0},
    {"team", "team-", 35, 0},
    {"tenant_id", "tenant-", 1000, 0},
    {"tier", "tier-", 3, 0},
    {"version", "", 30, 3},
    {"zone", "z", 12, 0},
}};

constexpr std::array<const char*, 12> kApplications = {"accounts", "inventory", "billing",  "search",
                                                       "checkout", "payments",  "shipping", "catalog",
                                                       "identity", "reviews",   "pricing",  "alerts"};

std::string tag_value(const TagSpec& spec, int64_t index, uint64_t salt) {
  if (std::string_view(spec.name) == "application") return kApplications[static_cast<size_t>(index)];
  if (spec.digits > 0) {
    // A stable, scattered number of the given width for each index.
    uint64_t x = (static_cast<uint64_t>(index) + 1) * 0x9e3779b97f4a7c15ULL ^ salt;
    x ^= x >> 29;
    uint64_t modulus = 1;
    for (int i = 0; i < spec.digits; ++i) modulus *= 10;
    std::string digits = std::to_string(modulus / 10 + x % (modulus - modulus / 10));
    return digits;
  }
  if (std::string_view(spec.prefix) == "zone-") return std::string("zone-") + static_cast<char>('a' + index);
  return spec.prefix + std::to_string(index);
}

Column list_column(const char* name, ColumnType type) {
  Column c;
  c.name = name;
  c.type = type;
  c.offsets.push_back(0);
  return c;
}

}  // namespace

Table generate_metrics(int64_t rows, uint64_t seed) {
  Random random(seed ^ 0x6d657472696373ULL);
  Table t;
  t.name = "metrics";
  t.rows = rows;
  for (const TagSpec& spec : kTags) {
    Column c;
    c.name = spec.name;
    c.type = ColumnType::kString;
    c.offsets.push_back(0);
    const WeightedChoice choice(zipf_weights(static_cast<size_t>(spec.cardinality), 0.8));
    std::vector<std::string> values;
    for (int i = 0; i < spec.cardinality; ++i) values.push_back(tag_value(spec, i, seed));
    for (int64_t r = 0; r < rows; ++r) {
      c.chars += values[choice.draw(random)];
      c.offsets.push_back(static_cast<int64_t>(c.chars.size()));
    }
    t.columns.push_back(std::move(c));
  }
  Column ts = list_column("ts", ColumnType::kListInt64);
  Column sums_double = list_column("sums_double", ColumnType::kListDouble);
  Column sums_long = list_column("sums_long", ColumnType::kListInt64);
  Column count = list_column("count", ColumnType::kListInt64);
  constexpr int64_t kStartMillis = 1'737'967'143'010;  // the first timestamp of the seed's sample
  for (int64_t r = 0; r < rows; ++r) {
    // One series per row: aligned ts / sums_long / count; sums_double is
    // often absent (empty), as in the seed's sample.
    const int64_t points = random.chance(0.05) ? 0 : random.between(50, 200);
    const bool has_double = random.chance(0.7);
    const int64_t step_ms = 10'000 * random.between(1, 6);
    int64_t running_long = 0, running_count = 0, running_milli = 0;
    for (int64_t p = 0; p < points; ++p) {
      ts.ints.push_back(kStartMillis + p * step_ms);
      running_count += random.between(1, 10);
      running_long += random.between(1, 50);
      count.ints.push_back(running_count);
      sums_long.ints.push_back(running_long);
      if (has_double) {
        running_milli += random.between(1, 50'000);
        sums_double.doubles.push_back(static_cast<double>(running_milli) / 1000.0);
      }
    }
    ts.offsets.push_back(static_cast<int64_t>(ts.ints.size()));
    count.offsets.push_back(static_cast<int64_t>(count.ints.size()));
    sums_long.offsets.push_back(static_cast<int64_t>(sums_long.ints.size()));
    sums_double.offsets.push_back(static_cast<int64_t>(sums_double.doubles.size()));
  }
  t.columns.push_back(std::move(ts));
  t.columns.push_back(std::move(sums_double));
  t.columns.push_back(std::move(sums_long));
  t.columns.push_back(std::move(count));
  return t;
}

}  // namespace parquetry::bench::datasets
