#include "parquetry/version.h"

#include <string>

namespace parquetry {

const char* version() { return PARQUETRY_VERSION_STRING; }

const char* created_by() {
  static const std::string text =
      std::string("parquetry version ") + PARQUETRY_VERSION_STRING + " (build " + build_commit() + ")";
  return text.c_str();
}

}  // namespace parquetry
