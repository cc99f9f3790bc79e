// RemoteSource over S3 against s3rver started by the test (behind a SigV4
// check of its own, tests/servers/s3_server.js): every public parquet-testing
// file reads the same as locally with signed requests, ListObjectsV2 lists
// them, a wrong secret or a missing key fails at once naming bucket and key
// without printing the secret, and anonymous requests work.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>

#include "parquetry/error.h"
#include "parquetry/reader.h"
#include "parquetry/remote.h"
#include "remote_support.h"
#include "servers.h"
#include "test_support.h"

namespace parquetry {
namespace {

namespace fs = std::filesystem;

class S3SourceTest : public ::testing::Test {
 protected:
  // A server that cannot start fails every test with the reason (never a
  // skip: gtest turns a failed SetUpTestSuite into skipped tests).
  static void SetUpTestSuite() {
    try {
      testing::require_s3rver();
      seed_ = new fs::path(testing::temp_dir() / "s3-seed");
      // The public files plus the taxi-like one, as keys data/<relative path>.
      fs::create_directories(*seed_ / "data");
      fs::copy(testing::parquet_testing("data"), *seed_ / "data", fs::copy_options::recursive);
      testing::write_taxi_like(*seed_ / "taxi.parquet");
      server_ = new testing::S3Server("bucket", *seed_);
    } catch (const std::exception& e) {
      setup_error_ = new std::string(e.what());
    }
  }
  static void TearDownTestSuite() {
    delete server_;
    delete seed_;
    delete setup_error_;
    server_ = nullptr;
    seed_ = nullptr;
    setup_error_ = nullptr;
  }
  void SetUp() override {
    if (setup_error_ != nullptr) GTEST_FAIL() << *setup_error_;
    // Credentials only through the environment, as users set them.
    for (const char* name :
         {"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_REGION",
          "AWS_ENDPOINT_URL", "AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE"}) {
      const char* value = std::getenv(name);
      saved_[name] = value ? std::optional<std::string>(value) : std::nullopt;
    }
    setenv("AWS_ACCESS_KEY_ID", "S3RVER", 1);
    setenv("AWS_SECRET_ACCESS_KEY", "S3RVER", 1);
    setenv("AWS_REGION", "us-east-1", 1);
    setenv("AWS_ENDPOINT_URL", server_->endpoint().c_str(), 1);
    // No stray profile files of the machine.
    setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent", 1);
    setenv("AWS_CONFIG_FILE", "/nonexistent", 1);
    unsetenv("AWS_SESSION_TOKEN");
    unsetenv("AWS_PROFILE");
  }
  void TearDown() override {
    for (auto& [name, value] : saved_) {
      if (value)
        setenv(name.c_str(), value->c_str(), 1);
      else
        unsetenv(name.c_str());
    }
  }

  static testing::S3Server* server_;
  static fs::path* seed_;
  static std::string* setup_error_;
  std::map<std::string, std::optional<std::string>> saved_;
};

testing::S3Server* S3SourceTest::server_ = nullptr;
fs::path* S3SourceTest::seed_ = nullptr;
std::string* S3SourceTest::setup_error_ = nullptr;

TEST_F(S3SourceTest, EveryPublicFileEqualsTheLocalReadWithSignedRequests) {
  int compared = 0;
  const fs::path root = testing::parquet_testing("data");
  for (const fs::path& file : testing::public_parquet_files()) {
    SCOPED_TRACE(file.string());
    std::vector<std::string> local;
    std::string local_error;
    try {
      local = testing::all_rows(*FileReader::open(file.string()));
    } catch (const Error& e) {
      local_error = error_code_name(e.code());
    }
    std::vector<std::string> remote;
    std::string remote_error;
    try {
      remote = testing::all_rows(*FileReader::open("s3://bucket/data/" + fs::relative(file, root).string()));
    } catch (const Error& e) {
      remote_error = error_code_name(e.code());
      if (e.code() == ErrorCode::kIo) ADD_FAILURE() << "remote I/O error: " << e.what();
    }
    EXPECT_EQ(remote_error, local_error);
    ASSERT_EQ(remote, local);
    if (local_error.empty()) ++compared;
  }
  EXPECT_GT(compared, 40);
}

TEST_F(S3SourceTest, ScanOfManyRowGroupsEqualsLocal) {
  ReaderOptions options;
  options.threads = 2;
  auto source = std::make_shared<RemoteSource>("s3://bucket/taxi.parquet");
  // One signed suffix GET opens the object and brings the footer.
  EXPECT_EQ(source->stats().requests, 1);
  auto reader = FileReader::open(source, options);
  EXPECT_EQ(source->stats().requests, 1);
  auto rows = testing::flat_values(*reader);
  ASSERT_EQ(rows.size(), 6u);
  ASSERT_EQ(int64_t(rows[0].size()), testing::kTaxiRowGroups * testing::kTaxiGroupRows * 8);
  EXPECT_TRUE(rows == testing::flat_values(*FileReader::open((*seed_ / "taxi.parquet").string(), options)));
  EXPECT_LE(source->stats().gets, testing::kTaxiRowGroups + 1);
  EXPECT_EQ(source->stats().retries, 0);
}

TEST_F(S3SourceTest, ListsObjectsUnderAPrefix) {
  const std::vector<ObjectInfo> all = list_objects("s3://bucket/data/");
  const fs::path root = testing::parquet_testing("data");
  std::map<std::string, int64_t> expected;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.is_regular_file()) {
      expected["data/" + fs::relative(entry.path(), root).string()] = int64_t(entry.file_size());
    }
  }
  std::map<std::string, int64_t> listed;
  for (const ObjectInfo& object : all) listed[object.key] = object.size;
  EXPECT_EQ(listed, expected);
  // A prefix narrows it; a listing over the caller's bound fails.
  const auto one = list_objects("s3://bucket/taxi");
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].key, "taxi.parquet");
  EXPECT_EQ(one[0].size, int64_t(fs::file_size(*seed_ / "taxi.parquet")));
  EXPECT_THROW(list_objects("s3://bucket/data/", {}, 3), Error);
}

TEST_F(S3SourceTest, WrongSecretFailsAtOnceWithoutPrintingIt) {
  setenv("AWS_SECRET_ACCESS_KEY", "not-the-secret-xyz", 1);
  try {
    RemoteSource source("s3://bucket/taxi.parquet");
    FAIL() << "a wrongly signed request was served";
  } catch (const Error& e) {
    const std::string text = e.what();
    EXPECT_NE(text.find("HTTP 403"), std::string::npos) << text;
    EXPECT_NE(text.find("SignatureDoesNotMatch"), std::string::npos) << text;
    EXPECT_NE(text.find("s3://bucket/taxi.parquet"), std::string::npos) << text;
    EXPECT_NE(text.find("[1 try]"), std::string::npos) << text;
    EXPECT_EQ(text.find("not-the-secret-xyz"), std::string::npos) << text;
  }
}

TEST_F(S3SourceTest, MissingKeyFailsAtOnceNamingBucketAndKey) {
  try {
    RemoteSource source("s3://bucket/data/missing.parquet");
    FAIL() << "opened a missing key";
  } catch (const Error& e) {
    const std::string text = e.what();
    EXPECT_NE(text.find("HTTP 404 (NoSuchKey)"), std::string::npos) << text;
    EXPECT_NE(text.find("s3://bucket/data/missing.parquet"), std::string::npos) << text;
    EXPECT_NE(text.find("[1 try]"), std::string::npos) << text;
  }
}

TEST_F(S3SourceTest, AnonymousRequestsAreUnsigned) {
  // With a wrong secret in the environment, only an unsigned request passes.
  setenv("AWS_SECRET_ACCESS_KEY", "wrong", 1);
  RemoteOptions options;
  options.anonymous = true;
  auto reader = FileReader::open(std::make_shared<RemoteSource>("s3://bucket/taxi.parquet", options));
  EXPECT_EQ(reader->metadata().num_rows, testing::kTaxiRowGroups * testing::kTaxiGroupRows);
}

// The CLI's remote flags: --endpoint/--region before or after the command,
// --max-concurrency, --anonymous; `meta` and `cat` of an s3:// path.
TEST_F(S3SourceTest, CliReadsS3PathsWithItsFlags) {
  unsetenv("AWS_ENDPOINT_URL");
  const std::string cli = PARQUETRY_CLI_PATH;
  auto run = [&](const std::string& args, int* status) {
    const std::string out = (testing::temp_dir() / "cli-out.txt").string();
    *status = std::system((cli + " " + args + " > " + out + " 2>&1").c_str());
    return testing::read_text(out);
  };
  int status = 0;
  std::string text =
      run("--endpoint " + server_->endpoint() + " --region us-east-1 meta s3://bucket/taxi.parquet", &status);
  EXPECT_EQ(status, 0) << text;
  EXPECT_NE(text.find("rows: " + std::to_string(testing::kTaxiRowGroups * testing::kTaxiGroupRows)),
            std::string::npos)
      << text;
  text = run("cat s3://bucket/data/alltypes_plain.parquet --columns id --limit 3 --endpoint " +
                 server_->endpoint() + " --max-concurrency 2 --anonymous",
             &status);
  EXPECT_EQ(status, 0) << text;
  EXPECT_EQ(text, "{\"id\":4}\n{\"id\":5}\n{\"id\":6}\n");
  // A missing key: exit status 1 and the key named.
  text = run("meta s3://bucket/nope.parquet --endpoint " + server_->endpoint(), &status);
  EXPECT_NE(status, 0);
  EXPECT_NE(text.find("s3://bucket/nope.parquet"), std::string::npos) << text;
  EXPECT_NE(text.find("NoSuchKey"), std::string::npos) << text;
}

}  // namespace
}  // namespace parquetry
