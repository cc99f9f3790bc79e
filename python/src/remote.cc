// Remote files (s3://, http(s)://): the defaults every remote open uses, and
// ListObjectsV2. Paths given to read/scan/metadata may be URLs as they are.
#include <optional>

#include "bindings.h"
#include "parquetry/error.h"
#include "parquetry/remote.h"

namespace parquetry::python {

void bind_remote(py::module_& m) {
  m.def(
      "set_remote_options",
      [](const std::string& endpoint, const std::string& region, const std::string& profile, bool anonymous,
         std::optional<bool> path_style, const std::string& ca_file, int max_concurrency, int64_t footer_hint,
         int max_tries) {
        if (max_concurrency < 1 || max_concurrency > 256) throw_invalid("max_concurrency must be 1..256");
        if (max_tries < 1) throw_invalid("max_tries must be at least 1");
        RemoteOptions options;
        options.endpoint = endpoint;
        options.region = region;
        options.profile = profile;
        options.anonymous = anonymous;
        options.path_style = path_style;
        options.ca_file = ca_file;
        options.max_concurrency = max_concurrency;
        if (footer_hint > 0) options.footer_hint = footer_hint;
        options.max_tries = max_tries;
        set_default_remote_options(options);
      },
      py::arg("endpoint") = "", py::arg("region") = "", py::arg("profile") = "", py::arg("anonymous") = false,
      py::arg("path_style") = py::none(), py::arg("ca_file") = "", py::arg("max_concurrency") = 8,
      py::arg("footer_hint") = 0, py::arg("max_tries") = 5,
      "Settings for s3:// and http(s):// paths (empty = AWS_* variables and ~/.aws)");
  m.def(
      "list_objects",
      [](const std::string& url) {
        py::list out;
        for (const ObjectInfo& object : list_objects(url, default_remote_options())) {
          out.append(py::make_tuple(object.key, object.size, object.etag));
        }
        return out;
      },
      py::arg("url"), "(key, size, etag) of every object under s3://bucket/prefix");
}

}  // namespace parquetry::python
