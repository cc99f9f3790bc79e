// Whether a chunk's data pages are all dictionary-encoded, per its page
// encoding stats: shared by dictionary pruning and dictionary-array output.
#pragma once

#include "parquetry/metadata.h"

namespace parquetry {

/// True when no data page in `stats` uses an encoding other than
/// PLAIN_DICTIONARY / RLE_DICTIONARY (empty stats prove nothing: callers check).
inline bool data_pages_dictionary_encoded(const PageEncodingStatsList& stats) {
  for (const PageEncodingStats& s : stats) {
    const bool data = s.page_type == PageType::DATA_PAGE || s.page_type == PageType::DATA_PAGE_V2;
    if (data && s.count > 0 && s.encoding != Encoding::PLAIN_DICTIONARY &&
        s.encoding != Encoding::RLE_DICTIONARY) {
      return false;
    }
  }
  return true;
}

}  // namespace parquetry
