// The parts of the remote sources that need no server: URL parsing and the
// printable form, SigV4 against AWS's published example, settings from the
// environment and the shared files, Content-Range parsing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "parquetry/error.h"
#include "parquetry/remote.h"
#include "parquetry/remote/http_client.h"
#include "parquetry/remote/object_requests.h"
#include "parquetry/remote/settings.h"
#include "parquetry/remote/sigv4.h"
#include "parquetry/remote/url.h"
#include "test_support.h"

namespace parquetry::remote {
namespace {

TEST(RemoteUrl, ParsesS3AndHttpLocations) {
  Location s3 = parse_location("s3://my-bucket/data/year=2024/part 0.parquet");
  EXPECT_TRUE(s3.s3);
  EXPECT_EQ(s3.bucket, "my-bucket");
  EXPECT_EQ(s3.key, "data/year=2024/part 0.parquet");
  Location http = parse_location("https://user:pw@host:8443/a/b.parquet?X-Amz-Signature=abc#frag");
  EXPECT_FALSE(http.s3);
  EXPECT_EQ(http.url, "https://user:pw@host:8443/a/b.parquet?X-Amz-Signature=abc#frag");
  // Neither user info nor a presigned query may reach a message.
  EXPECT_EQ(http.display, "https://host:8443/a/b.parquet");
  EXPECT_THROW(parse_location("s3://bucket-only"), Error);
  EXPECT_THROW(parse_location("s3:///key"), Error);
  EXPECT_THROW(parse_location("ftp://host/x"), Error);
  EXPECT_TRUE(is_remote_path("s3://b/k"));
  EXPECT_TRUE(is_remote_path("http://h/k"));
  EXPECT_FALSE(is_remote_path("/tmp/s3://x"));
  try {
    parse_location("gopher://user:secret@host/x?token=hidden");
    FAIL() << "accepted an unknown scheme";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).find("secret"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("hidden"), std::string::npos) << e.what();
  }
}

TEST(RemoteUrl, ParsesEndpointsAndEncodes) {
  Origin origin = parse_origin("http://127.0.0.1:9000/");
  EXPECT_EQ(origin.scheme, "http");
  EXPECT_EQ(origin.host, "127.0.0.1");
  EXPECT_EQ(origin.port, "9000");
  EXPECT_EQ(origin.authority(), "127.0.0.1:9000");
  EXPECT_EQ(parse_origin("https://[::1]:443").host, "[::1]");
  EXPECT_THROW(parse_origin("http://host/path"), Error);
  EXPECT_THROW(parse_origin("http://host:port"), Error);
  EXPECT_EQ(uri_encode("a b/c~d=e", true), "a%20b/c~d%3De");
  EXPECT_EQ(uri_encode("a b/c", false), "a%20b%2Fc");
}

// AWS's "GET Object" example of header-based SigV4 (S3 developer guide):
// its published signature must come out bit for bit.
TEST(SigV4, MatchesAwsGetObjectExample) {
  SigV4Request request;
  request.method = "GET";
  request.canonical_uri = "/test.txt";
  request.payload_hash = sha256_hex("");
  request.amz_date = "20130524T000000Z";
  request.region = "us-east-1";
  request.access_key = "AKIAIOSFODNN7EXAMPLE";
  request.secret_key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
  request.headers = {{"host", "examplebucket.s3.amazonaws.com"},
                     {"range", "bytes=0-9"},
                     {"x-amz-content-sha256", request.payload_hash},
                     {"x-amz-date", request.amz_date}};
  EXPECT_EQ(request.payload_hash, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sigv4_authorization(request),
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
            "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
            "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

TEST(ContentRange, ParsesAndRejects) {
  int64_t first = 0, last = 0, total = 0;
  ASSERT_TRUE(parse_content_range("bytes 100-199/1000", first, last, total));
  EXPECT_EQ(first, 100);
  EXPECT_EQ(last, 199);
  EXPECT_EQ(total, 1000);
  ASSERT_TRUE(parse_content_range("bytes 0-9/*", first, last, total));
  EXPECT_EQ(total, -1);
  EXPECT_FALSE(parse_content_range("bytes 10-9/100", first, last, total));
  EXPECT_FALSE(parse_content_range("bytes 0-100/100", first, last, total));
  EXPECT_FALSE(parse_content_range("bytes -5/100", first, last, total));
  EXPECT_FALSE(parse_content_range("items 0-1/2", first, last, total));
  EXPECT_FALSE(parse_content_range("bytes 0-99999999999999999999/1", first, last, total));
}

/// Sets environment variables for one test and restores them afterwards.
class ScopedEnv {
 public:
  void set(const char* name, const std::string& value) {
    save(name);
    setenv(name, value.c_str(), 1);
  }
  void unset(const char* name) {
    save(name);
    unsetenv(name);
  }
  ~ScopedEnv() {
    for (auto& [name, value] : saved_) {
      if (value.first)
        setenv(name.c_str(), value.second.c_str(), 1);
      else
        unsetenv(name.c_str());
    }
  }

 private:
  void save(const char* name) {
    if (saved_.count(name)) return;
    const char* value = std::getenv(name);
    saved_[name] = {value != nullptr, value != nullptr ? value : ""};
  }
  std::map<std::string, std::pair<bool, std::string>> saved_;
};

TEST(RemoteSettings, ProfileFilesEnvironmentAndOptions) {
  const auto dir = parquetry::testing::temp_dir();
  std::ofstream(dir / "credentials")
      << "[default]\naws_access_key_id = DEFAULTKEY\n"
         "aws_secret_access_key = defaultsecret\n\n"
         "[work]\naws_access_key_id=WORKKEY\naws_secret_access_key=worksecret\n"
         "aws_session_token = worktoken\n";
  std::ofstream(dir / "config") << "[default]\nregion = eu-west-1\n[profile work]\nregion=ap-south-1\n"
                                   "endpoint_url = http://127.0.0.1:9999\n";
  ScopedEnv env;
  for (const char* name : {"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_REGION",
                           "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3", "AWS_PROFILE"}) {
    env.unset(name);
  }
  env.set("AWS_SHARED_CREDENTIALS_FILE", (dir / "credentials").string());
  env.set("AWS_CONFIG_FILE", (dir / "config").string());

  S3Settings s = resolve_s3_settings({});
  EXPECT_EQ(s.access_key, "DEFAULTKEY");
  EXPECT_EQ(s.secret_key, "defaultsecret");
  EXPECT_EQ(s.region, "eu-west-1");
  EXPECT_FALSE(s.custom_endpoint);
  EXPECT_FALSE(s.path_style);  // AWS: virtual-hosted
  EXPECT_EQ(s.endpoint.host, "s3.eu-west-1.amazonaws.com");

  env.set("AWS_PROFILE", "work");
  s = resolve_s3_settings({});
  EXPECT_EQ(s.access_key, "WORKKEY");
  EXPECT_EQ(s.session_token, "worktoken");
  EXPECT_EQ(s.region, "ap-south-1");
  EXPECT_TRUE(s.custom_endpoint);
  EXPECT_TRUE(s.path_style);
  EXPECT_EQ(s.endpoint.authority(), "127.0.0.1:9999");

  env.set("AWS_ACCESS_KEY_ID", "ENVKEY");
  env.set("AWS_SECRET_ACCESS_KEY", "envsecret");
  env.set("AWS_REGION", "us-west-2");
  RemoteOptions options;
  options.endpoint = "https://objects.example:8443";
  options.path_style = false;
  s = resolve_s3_settings(options);
  EXPECT_EQ(s.access_key, "ENVKEY");
  EXPECT_EQ(s.secret_key, "envsecret");
  EXPECT_EQ(s.session_token, "");  // the profile's token does not pair with the environment's key
  EXPECT_EQ(s.region, "us-west-2");
  EXPECT_FALSE(s.path_style);

  options.anonymous = true;
  s = resolve_s3_settings(options);
  EXPECT_TRUE(s.anonymous);
  EXPECT_TRUE(s.access_key.empty());
  EXPECT_TRUE(s.secret_key.empty());

  // Addressing: path style puts the bucket in the path, virtual-hosted in the host.
  options.anonymous = false;
  options.path_style = true;
  Target path_style = make_target("s3://bkt/dir/a b.parquet", options);
  EXPECT_EQ(path_style.url, "https://objects.example:8443/bkt/dir/a%20b.parquet");
  options.path_style = false;
  Target hosted = make_target("s3://bkt/dir/a b.parquet", options);
  EXPECT_EQ(hosted.url, "https://bkt.objects.example:8443/dir/a%20b.parquet");
  EXPECT_EQ(hosted.authority, "bkt.objects.example:8443");
  EXPECT_THROW(make_target("s3://dotted.bucket/k", options), Error);
}

}  // namespace
}  // namespace parquetry::remote
