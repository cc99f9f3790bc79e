// `parquetry bench`: the front door of the benchmark suite. The measuring
// itself lives in the parquetry_bench binary built beside this one (it links
// every suite and the harness); this command finds it and hands over:
//   parquetry bench --suite NAME [--param k=v ...] [parquetry_bench options]
//   parquetry bench compare A.json B.json
//   parquetry bench report [--results R] [--html H] [--markdown-into DOC]
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "command.h"
#include "parquetry/error.h"

namespace parquetry::cli {
namespace {

struct BenchOptions {
  std::vector<std::string> suites;
  std::vector<std::string> params;
  std::string json;
  std::string compare_a, compare_b;
  std::string results = "bench-results/results.json";
  std::string html;
  std::string markdown_into;
};

std::string bench_binary() {
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe");
  const std::filesystem::path bench = self.parent_path() / "parquetry_bench";
  if (!std::filesystem::exists(bench)) {
    throw Error(ErrorCode::kIo, "parquetry_bench not found next to " + self.string() +
                                    " (build the parquetry_bench target of the same build folder)");
  }
  return bench.string();
}

// Replaces this process with parquetry_bench so its output and exit status are the command's.
[[noreturn]] void exec_bench(std::vector<std::string> args) {
  args.insert(args.begin(), bench_binary());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(nullptr);
  execv(argv[0], argv.data());
  throw Error(ErrorCode::kIo, "cannot run " + args[0] + ": " + std::strerror(errno));
}

const CommandRegistration kBenchCommand(90, [](CLI::App& app) {
  auto options = std::make_shared<BenchOptions>();
  CLI::App* bench = app.add_subcommand(
      "bench", "Run benchmark suites (JMH-style tables, results JSON) or compare two runs");
  bench->add_option("--suite", options->suites, "Run only this suite (repeatable)");
  bench->add_option("--param", options->params, "Only these parameter values, k=v (repeatable)");
  bench->add_option("--json", options->json, "Write the results file here");
  bench->allow_extras();  // --warmup, --measure, --forks, --mode, --filter... go to parquetry_bench

  CLI::App* compare = bench->add_subcommand("compare", "Per-case ratios between two results files (B vs A)");
  compare->add_option("a", options->compare_a, "Earlier results.json")->required()->check(CLI::ExistingFile);
  compare->add_option("b", options->compare_b, "Later results.json")->required()->check(CLI::ExistingFile);
  compare->callback([options] { exec_bench({"--compare", options->compare_a, options->compare_b}); });

  CLI::App* report =
      bench->add_subcommand("report", "Write the HTML report and/or the docs' latest-results section");
  report->add_option("--results", options->results, "Results file")->check(CLI::ExistingFile);
  report->add_option("--html", options->html, "HTML report to write");
  report->add_option("--markdown-into", options->markdown_into,
                     "Markdown file whose latest-results section to regenerate");
  report->callback([options] {
    std::vector<std::string> args = {"--report", options->results};
    if (!options->html.empty()) args.insert(args.end(), {"--html", options->html});
    if (!options->markdown_into.empty()) args.insert(args.end(), {"--markdown-into", options->markdown_into});
    exec_bench(args);
  });

  bench->callback([bench, compare, report, options] {
    if (compare->parsed() || report->parsed()) return;
    std::vector<std::string> args;
    for (const std::string& suite : options->suites) args.insert(args.end(), {"--suite", suite});
    for (const std::string& param : options->params) args.insert(args.end(), {"--param", param});
    if (!options->json.empty()) args.insert(args.end(), {"--json", options->json});
    for (const std::string& extra : bench->remaining()) args.push_back(extra);
    exec_bench(args);
  });
});

}  // namespace
}  // namespace parquetry::cli
