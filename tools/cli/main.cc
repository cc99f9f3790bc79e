// Entry point of the `parquetry` command-line tool.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <utility>
#include <vector>

#include "command.h"
#include "parquetry/error.h"
#include "parquetry/malloc_retention.h"
#include "parquetry/version.h"

namespace parquetry::cli {
namespace {

std::vector<std::pair<int, CommandSetup>>& registry() {
  static std::vector<std::pair<int, CommandSetup>> commands;
  return commands;
}

}  // namespace

CommandRegistration::CommandRegistration(int order, CommandSetup setup) {
  registry().emplace_back(order, std::move(setup));
}

}  // namespace parquetry::cli

int main(int argc, char** argv) {
  using namespace parquetry::cli;
  // Scans reuse memory freed by earlier ones (malloc_retention.h).
  parquetry::retain_freed_malloc_memory(size_t{256} << 20);
  CLI::App app{"parquetry: inspect, read, write and benchmark Parquet files"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("parquetry ") + parquetry::version() + " (build " +
                                         parquetry::build_commit() + ")");
  auto& commands = registry();
  std::stable_sort(commands.begin(), commands.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [order, setup] : commands) setup(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const parquetry::Error& e) {
    std::fflush(stdout);
    std::cerr << "parquetry: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::cerr << "parquetry: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
