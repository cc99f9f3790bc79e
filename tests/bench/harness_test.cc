// End-to-end checks of the harness through bench_fixture (fixture/): the
// allocation counter, result files and the peer-equality check.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "alloc_counter.h"
#include "process.h"
#include "results.h"
#include "test_support.h"

namespace parquetry::bench {
namespace {

struct FixtureRun {
  ProcessResult process;
  std::vector<Row> rows;
};

FixtureRun run_fixture(const std::vector<std::string>& extra) {
  const std::string json = (parquetry::testing::temp_dir() / "results.json").string();
  std::vector<std::string> argv = {PARQUETRY_BENCH_FIXTURE,
                                   "--warmup",
                                   "1",
                                   "--measure",
                                   "3",
                                   "--time",
                                   "0.01",
                                   "--peers-dir",
                                   PARQUETRY_BENCH_FIXTURE_DIR,
                                   "--data-dir",
                                   parquetry::testing::temp_dir().string(),
                                   "--json",
                                   json};
  argv.insert(argv.end(), extra.begin(), extra.end());
  FixtureRun run;
  run.process = run_process(argv, true);
  if (std::filesystem::exists(json)) run.rows = rows_from_json_file(json);
  return run;
}

const Row* find_row(const std::vector<Row>& rows, const std::string& benchmark) {
  for (const Row& row : rows) {
    if (row.benchmark == benchmark) return &row;
  }
  return nullptr;
}

TEST(AllocCounter, CountsEveryOperatorNew) {
  reset_alloc_counters();
  auto block = std::make_unique<char[]>(1000);
  auto number = std::make_unique<int64_t>(7);
  const AllocCounts counts = read_alloc_counters();
  EXPECT_EQ(counts.allocations, 2);
  EXPECT_EQ(counts.bytes, 1000 + static_cast<int64_t>(sizeof(int64_t)));
  EXPECT_EQ(*number, 7);
  block.reset();
  EXPECT_EQ(read_alloc_counters().deallocations, 1);
}

TEST(BenchHarness, ReportsExactBytesAndAllocationsPerOperation) {
  FixtureRun run = run_fixture({"--suite", "alloc"});
  ASSERT_EQ(run.process.exit_code, 0) << run.process.out;
  const Row* row = find_row(run.rows, "alloc.exact:two_blocks");
  ASSERT_NE(row, nullptr);
  EXPECT_TRUE(row->ok);
  EXPECT_EQ(row->summary.count, 3);  // the warmup repetition is not counted
  EXPECT_GT(row->summary.median, 0);
  EXPECT_EQ(row->bytes_per_op, 4096 + 100);  // setup outside measure() excluded
  EXPECT_EQ(row->allocs_per_op, 2);
  // The JMH-shaped table is printed with the alloc/op column.
  EXPECT_NE(run.process.out.find("alloc.exact:two_blocks"), std::string::npos);
  EXPECT_NE(run.process.out.find("4.10 KiB"), std::string::npos) << run.process.out;
}

TEST(BenchHarness, PlainBenchmarksGetAllocationsFromTheMemoryManagerRun) {
  FixtureRun run = run_fixture({"--suite", "tagged", "--filter", "Allocate"});
  ASSERT_EQ(run.process.exit_code, 0) << run.process.out;
  const Row* row = find_row(run.rows, "BM_Plain_Allocate");
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(row->suite, "tagged");  // the suite of its file, not of its name
  EXPECT_EQ(row->baseline, "");     // plain benchmarks are not compared with an arbitrary row
  EXPECT_EQ(row->ratio, 0);
  // 512 bytes per iteration plus Google Benchmark's own per-run bookkeeping
  // spread over the memory run's iterations.
  EXPECT_GE(row->bytes_per_op, 512);
  EXPECT_LT(row->bytes_per_op, 512 + 128);
  EXPECT_GE(row->allocs_per_op, 1);
  EXPECT_LT(row->allocs_per_op, 1.5);
}

TEST(BenchHarness, IterationsOneIsSingleShot) {
  FixtureRun run = run_fixture({"--suite", "tagged", "--filter", "Once"});
  ASSERT_EQ(run.process.exit_code, 0) << run.process.out;
  ASSERT_EQ(run.rows.size(), 1u);
  EXPECT_EQ(run.rows[0].benchmark, "BM_Plain_Once/iterations:1");
  EXPECT_EQ(run.rows[0].mode, "ss");
  EXPECT_EQ(run.rows[0].summary.count, 3);
}

TEST(BenchHarness, MatchingPeerResultVerifiesTheCase) {
  FixtureRun run = run_fixture({"--suite", "peercheck", "--param", "variant=good"});
  ASSERT_EQ(run.process.exit_code, 0) << run.process.out;
  const Row* ours = find_row(run.rows, "peercheck.fold:fixed_column/variant=good");
  const Row* peer = find_row(run.rows, "peercheck.fold:fake/variant=good");
  ASSERT_NE(ours, nullptr);
  ASSERT_NE(peer, nullptr);
  EXPECT_TRUE(ours->ok);
  EXPECT_TRUE(peer->is_peer);
  EXPECT_EQ(peer->summary.count, 3);
  EXPECT_EQ(peer->summary.median, 1001);  // the fake peer's timings 1000, 1001, 1002 ns
  EXPECT_EQ(find_row(run.rows, "peercheck.fold:fixed_column/variant=bad"),
            nullptr);  // --param filtered it out
}

TEST(BenchHarness, DifferentPeerResultFailsLoudly) {
  FixtureRun run = run_fixture({"--suite", "peercheck", "--param", "variant=bad"});
  EXPECT_EQ(run.process.exit_code, 1);
  EXPECT_NE(run.process.out.find("RESULT MISMATCH with fake"), std::string::npos) << run.process.out;
  EXPECT_NE(run.process.out.find("column x: max 5 (ours) != 6 (peer)"), std::string::npos) << run.process.out;
  const Row* ours = find_row(run.rows, "peercheck.fold:fixed_column/variant=bad");
  ASSERT_NE(ours, nullptr);
  EXPECT_FALSE(ours->ok);
}

// The forks of each case, in the order the processes ran them.
std::vector<std::string> fork_order(const std::vector<std::string>& extra) {
  const auto dir = parquetry::testing::temp_dir();  // a new folder per call
  const auto log = dir / "order.log";
  std::vector<std::string> argv = {"--suite", "order", "--forks", "2", "--data-dir", dir.string()};
  argv.insert(argv.end(), extra.begin(), extra.end());
  FixtureRun run = run_fixture(argv);
  EXPECT_EQ(run.process.exit_code, 0) << run.process.out;
  for (const char* name : {"order.log:first", "order.log:second"}) {
    const Row* row = find_row(run.rows, name);
    EXPECT_NE(row, nullptr) << name;
    if (row != nullptr) {
      EXPECT_EQ(row->summary.count, 6) << name;  // 3 measured repetitions x 2 forks
    }
  }
  std::vector<std::string> order;
  std::ifstream in(log);
  for (std::string line; std::getline(in, line);) order.push_back(line);
  return order;
}

TEST(BenchHarness, InterleaveRunsTheForksRoundRobin) {
  EXPECT_EQ(fork_order({}), (std::vector<std::string>{"first", "first", "second", "second"}));
  EXPECT_EQ(fork_order({"--interleave"}), (std::vector<std::string>{"first", "second", "first", "second"}));
}

TEST(BenchHarness, ColdSamplesRunOneOperationPerFreshProcess) {
  const auto dir = parquetry::testing::temp_dir();
  FixtureRun run = run_fixture({"--suite", "coldcheck", "--cold", "3", "--data-dir", dir.string()});
  ASSERT_EQ(run.process.exit_code, 0) << run.process.out;
  // The warm row as before, then the cold table beside it.
  const Row* warm = find_row(run.rows, "coldcheck.fold:fresh_pages");
  const Row* cold = find_row(run.rows, "coldcheck.fold_cold:fresh_pages");
  const Row* peer = find_row(run.rows, "coldcheck.fold_cold:fake");
  ASSERT_NE(warm, nullptr);
  ASSERT_NE(cold, nullptr) << run.process.out;
  ASSERT_NE(peer, nullptr) << run.process.out;
  EXPECT_EQ(warm->mode, "avgt");
  EXPECT_LT(warm->minor_faults, 0);  // only cold rows report faults
  EXPECT_EQ(cold->mode, "cold");
  EXPECT_TRUE(cold->ok) << run.process.out;
  EXPECT_EQ(cold->summary.count, 3);
  // 8 MiB of fresh pages per op: 2,048 faults at least, and the setup's are not counted.
  EXPECT_GE(cold->minor_faults, 2048);
  EXPECT_LT(cold->minor_faults, 2048 + 1024);
  EXPECT_GE(cold->kernel_seconds, 0);
  // The peer ran three fresh processes, one query each (its first timing, 1000 ns).
  EXPECT_TRUE(peer->is_peer);
  EXPECT_EQ(peer->mode, "cold");
  EXPECT_EQ(peer->summary.count, 3);
  EXPECT_EQ(peer->summary.median, 1000);
  EXPECT_GT(peer->minor_faults, 0);  // its whole process's faults
  // The case's setup ran in one warm fork (once per repetition: 1 warmup + 3
  // measured) and in three fresh processes, once each.
  std::ifstream in(dir / "cold.log");
  std::map<std::string, int> setups_by_process;
  for (std::string line; std::getline(in, line);) ++setups_by_process[line];
  ASSERT_EQ(setups_by_process.size(), 1u + 3u);
  int single_setup_processes = 0;
  for (const auto& [pid, setups] : setups_by_process) single_setup_processes += setups == 1;
  EXPECT_EQ(single_setup_processes, 3);
  EXPECT_NE(run.process.out.find("== coldcheck.fold_cold"), std::string::npos) << run.process.out;
  EXPECT_NE(run.process.out.find("faults/op"), std::string::npos) << run.process.out;
}

TEST(BenchHarness, CompareReportsRatiosBetweenRuns) {
  Row fast;
  fast.benchmark = "s.t:a";
  fast.table = "s.t";
  fast.case_name = "a";
  fast.summary.median = 2e6;
  fast.summary.count = 5;
  Row slow = fast;
  slow.summary.median = 5e6;
  const std::string text = format_comparison({slow}, {fast}, "old.json", "new.json");
  EXPECT_NE(text.find("2.50x faster"), std::string::npos) << text;
  EXPECT_NE(text.find("5.000"), std::string::npos) << text;
}

}  // namespace
}  // namespace parquetry::bench
