// `taxi`: the 19 columns of the NYC TLC yellow taxi trip records, January
// 2022, with value distributions shaped like the real month (skewed zones,
// card/cash payments, fares from distance and duration, ~3% rows where the
// optional columns are null together, as in the published file).
#include <algorithm>
#include <array>
#include <cmath>

#include "datasets.h"
#include "random.h"

namespace parquetry::bench::datasets {
namespace {

Column make_column(const char* name, ColumnType type, bool nullable, int64_t rows) {
  Column c;
  c.name = name;
  c.type = type;
  c.nullable = nullable;
  if (nullable) c.valid.assign(static_cast<size_t>(rows), 1);
  if (type == ColumnType::kDouble) {
    c.doubles.assign(static_cast<size_t>(rows), 0.0);
  } else if (type == ColumnType::kString) {
    c.offsets.reserve(static_cast<size_t>(rows) + 1);
    c.offsets.push_back(0);
  } else {
    c.ints.assign(static_cast<size_t>(rows), 0);
  }
  return c;
}

// Money is generated in whole cents so every value prints exactly.
double cents(int64_t c) { return static_cast<double>(c) / 100.0; }

constexpr int64_t kMicrosPerSecond = 1'000'000;
constexpr int64_t kJanuary2022 = 1'640'995'200;  // 2022-01-01T00:00:00 (seconds since the epoch)
constexpr int64_t kSecondsInJanuary = 31 * 86'400;

}  // namespace

Table generate_taxi(int64_t rows, uint64_t seed) {
  Random random(seed);
  Table t;
  t.name = "taxi";
  t.rows = rows;
  enum {
    kVendor,
    kPickup,
    kDropoff,
    kPassengers,
    kDistance,
    kRatecode,
    kStoreFwd,
    kPU,
    kDO,
    kPayment,
    kFare,
    kExtra,
    kMtaTax,
    kTip,
    kTolls,
    kImprovement,
    kTotal,
    kCongestion,
    kAirport
  };
  t.columns.push_back(make_column("VendorID", ColumnType::kInt64, false, rows));
  t.columns.push_back(make_column("tpep_pickup_datetime", ColumnType::kTimestampMicros, false, rows));
  t.columns.push_back(make_column("tpep_dropoff_datetime", ColumnType::kTimestampMicros, false, rows));
  t.columns.push_back(make_column("passenger_count", ColumnType::kDouble, true, rows));
  t.columns.push_back(make_column("trip_distance", ColumnType::kDouble, false, rows));
  t.columns.push_back(make_column("RatecodeID", ColumnType::kDouble, true, rows));
  t.columns.push_back(make_column("store_and_fwd_flag", ColumnType::kString, true, rows));
  t.columns.push_back(make_column("PULocationID", ColumnType::kInt64, false, rows));
  t.columns.push_back(make_column("DOLocationID", ColumnType::kInt64, false, rows));
  t.columns.push_back(make_column("payment_type", ColumnType::kInt64, false, rows));
  for (const char* name : {"fare_amount", "extra", "mta_tax", "tip_amount", "tolls_amount",
                           "improvement_surcharge", "total_amount"}) {
    t.columns.push_back(make_column(name, ColumnType::kDouble, false, rows));
  }
  t.columns.push_back(make_column("congestion_surcharge", ColumnType::kDouble, true, rows));
  t.columns.push_back(make_column("airport_fee", ColumnType::kDouble, true, rows));

  // Zones: a fixed shuffle of 1..265 so the popular ones are scattered, Zipf-weighted.
  std::array<int64_t, 265> zones;
  for (int i = 0; i < 265; ++i) zones[static_cast<size_t>(i)] = i + 1;
  for (size_t i = zones.size() - 1; i > 0; --i) std::swap(zones[i], zones[random.next() % (i + 1)]);
  const WeightedChoice zone_choice(zipf_weights(265, 1.05));
  const WeightedChoice vendor_choice({0.31, 0.685, 0.005});
  const std::array<int64_t, 3> vendors = {1, 2, 6};
  const WeightedChoice passengers_choice({0.02, 0.71, 0.14, 0.04, 0.02, 0.04, 0.03});
  const WeightedChoice ratecode_choice({0.955, 0.03, 0.004, 0.002, 0.008, 0.001});
  const std::array<double, 6> ratecodes = {1, 2, 3, 4, 5, 99};
  const WeightedChoice payment_choice({0.76, 0.215, 0.01, 0.013, 0.002});
  const WeightedChoice extra_choice({0.40, 0.35, 0.10, 0.10, 0.05});
  const std::array<int64_t, 5> extras = {0, 50, 100, 250, 300};
  // Busier in the evening than at 4 am: hourly weights.
  const WeightedChoice hour_choice({3.0, 2.0, 1.4, 0.9, 0.7, 0.8, 1.6, 2.8, 3.6, 3.8, 4.0, 4.2,
                                    4.5, 4.6, 4.9, 5.0, 5.0, 5.6, 5.8, 5.2, 4.6, 4.4, 4.1, 3.5});

  for (int64_t r = 0; r < rows; ++r) {
    const size_t row = static_cast<size_t>(r);
    const bool optional_missing = random.chance(0.03);
    t.columns[kVendor].ints[row] = vendors[vendor_choice.draw(random)];

    const int64_t day = random.between(0, 30);
    const int64_t second_of_day =
        static_cast<int64_t>(hour_choice.draw(random)) * 3600 + random.between(0, 3599);
    const int64_t pickup =
        std::min(kJanuary2022 + day * 86'400 + second_of_day, kJanuary2022 + kSecondsInJanuary - 1);
    const int64_t minutes_x60 =
        std::clamp<int64_t>(static_cast<int64_t>(random.lognormal(660, 0.7)), 1, 4 * 3600);
    t.columns[kPickup].ints[row] = pickup * kMicrosPerSecond;
    t.columns[kDropoff].ints[row] = (pickup + minutes_x60) * kMicrosPerSecond;

    const int64_t distance_hundredths =
        std::clamp<int64_t>(static_cast<int64_t>(random.lognormal(180, 0.9)), 0, 9'000);
    t.columns[kDistance].doubles[row] = cents(distance_hundredths);

    Column& passengers = t.columns[kPassengers];
    Column& ratecode = t.columns[kRatecode];
    Column& store_fwd = t.columns[kStoreFwd];
    Column& congestion = t.columns[kCongestion];
    Column& airport = t.columns[kAirport];
    const int64_t pu = zones[zone_choice.draw(random)];
    const int64_t dropoff_zone = zones[zone_choice.draw(random)];
    t.columns[kPU].ints[row] = pu;
    t.columns[kDO].ints[row] = dropoff_zone;
    const bool airport_trip = pu == 132 || pu == 138;
    if (optional_missing) {
      passengers.valid[row] = ratecode.valid[row] = store_fwd.valid[row] = 0;
      congestion.valid[row] = airport.valid[row] = 0;
    } else {
      passengers.doubles[row] = static_cast<double>(passengers_choice.draw(random));
      ratecode.doubles[row] = ratecodes[ratecode_choice.draw(random)];
      store_fwd.chars.push_back(random.chance(0.015) ? 'Y' : 'N');
      congestion.doubles[row] = random.chance(0.8) ? 2.5 : 0.0;
      airport.doubles[row] = airport_trip ? 1.25 : 0.0;
    }
    store_fwd.offsets.push_back(static_cast<int64_t>(store_fwd.chars.size()));

    const int64_t payment = static_cast<int64_t>(payment_choice.draw(random)) + 1;
    t.columns[kPayment].ints[row] = payment;
    // Metered fare: $2.50 flag drop, $2.50 per mile, $0.50 per minute, in 50-cent steps.
    int64_t fare = 250 + distance_hundredths * 250 / 100 + minutes_x60 * 50 / 60;
    fare = (fare / 50) * 50;
    if (!optional_missing && ratecode.doubles[row] == 2) fare = 5200;  // JFK flat rate
    if (random.chance(0.004)) fare = -fare;                            // refunds and disputes
    const int64_t extra = extras[extra_choice.draw(random)];
    const int64_t mta = random.chance(0.985) ? 50 : 0;
    const int64_t tip =
        payment == 1 ? static_cast<int64_t>(std::llround(std::abs(fare) * (0.12 + 0.16 * random.uniform())))
                     : 0;
    const int64_t tolls = random.chance(0.07) ? 655 : 0;
    const int64_t improvement = 30;
    const int64_t congestion_cents =
        optional_missing ? 250 : static_cast<int64_t>(congestion.doubles[row] * 100);
    const int64_t airport_cents = optional_missing ? 0 : static_cast<int64_t>(airport.doubles[row] * 100);
    t.columns[kFare].doubles[row] = cents(fare);
    t.columns[kExtra].doubles[row] = cents(extra);
    t.columns[kMtaTax].doubles[row] = cents(mta);
    t.columns[kTip].doubles[row] = cents(tip);
    t.columns[kTolls].doubles[row] = cents(tolls);
    t.columns[kImprovement].doubles[row] = cents(improvement);
    t.columns[kTotal].doubles[row] =
        cents(fare + extra + mta + tip + tolls + improvement + congestion_cents + airport_cents);
  }
  return t;
}

}  // namespace parquetry::bench::datasets
