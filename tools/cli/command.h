// The `parquetry` command is a set of subcommands, one file each. A file adds
// its subcommand by defining a static CommandRegistration; main() builds the
// CLI11 app from every registration, so adding a command touches one file.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace parquetry::cli {

/// Adds one subcommand (and its callback) to the app.
using CommandSetup = std::function<void(CLI::App& app)>;

struct CommandRegistration {
  /// `order` sorts the help listing (lower first).
  CommandRegistration(int order, CommandSetup setup);
};

}  // namespace parquetry::cli
