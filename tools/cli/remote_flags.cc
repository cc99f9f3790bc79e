// Options for remote files (s3://, http(s)://), shared by every command: they
// go before or after the subcommand (`parquetry --endpoint URL meta s3://b/k`
// or `parquetry meta s3://b/k --endpoint URL`) and become the defaults every
// remote open uses (parquetry::set_default_remote_options).
#include "command.h"
#include "parquetry/remote.h"

namespace parquetry::cli {
namespace {

template <typename Change>
void update(Change change) {
  RemoteOptions options = default_remote_options();
  change(options);
  set_default_remote_options(options);
}

const CommandRegistration kRemoteFlags(0, [](CLI::App& app) {
  app.fallthrough();
  app.add_option_function<std::string>(
         "--endpoint", [](const std::string& v) { update([&](RemoteOptions& o) { o.endpoint = v; }); },
         "S3 endpoint URL for s3:// paths (default: AWS_ENDPOINT_URL, else AWS)")
      ->group("Remote files");
  app.add_option_function<std::string>(
         "--region", [](const std::string& v) { update([&](RemoteOptions& o) { o.region = v; }); },
         "S3 signing region (default: AWS_REGION, the profile's region, us-east-1)")
      ->group("Remote files");
  app.add_option_function<std::string>(
         "--profile", [](const std::string& v) { update([&](RemoteOptions& o) { o.profile = v; }); },
         "Profile of ~/.aws/credentials and ~/.aws/config (default: AWS_PROFILE, default)")
      ->group("Remote files");
  app.add_flag_callback(
         "--anonymous", [] { update([](RemoteOptions& o) { o.anonymous = true; }); },
         "Send unsigned S3 requests (public buckets)")
      ->group("Remote files");
  app.add_flag_callback(
         "--path-style", [] { update([](RemoteOptions& o) { o.path_style = true; }); },
         "Address S3 buckets as endpoint/bucket/key (the default for a custom endpoint)")
      ->group("Remote files");
  app.add_option_function<int>(
         "--max-concurrency",
         [](int v) {
           if (v < 1 || v > 256) throw CLI::ValidationError("--max-concurrency", "must be 1..256");
           update([&](RemoteOptions& o) { o.max_concurrency = v; });
         },
         "Requests in flight at once per read step (default 8)")
      ->group("Remote files");
  app.add_option_function<std::string>(
         "--ca-file", [](const std::string& v) { update([&](RemoteOptions& o) { o.ca_file = v; }); },
         "PEM file of certificate authorities to trust for https:// (default: the system's store)")
      ->group("Remote files");
});

}  // namespace
}  // namespace parquetry::cli
