// variant_get's unshredded and residual plans without the FileReader: the
// `metadata` leaf and one `value` leaf are streamed page by page
// (BinaryLeafStream) and the path is looked up in each row's bytes where the
// page holds them, so no value blob is ever copied.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parquetry/variant_parquet.h"

namespace parquetry {

class RandomAccessSource;
class Schema;

namespace variant_parquet {

/// Runs `plan` (kUnshredded or kResidual) for `keys` over every row of the
/// file behind `source` and returns true; returns false, having read
/// nothing, when the column cannot be streamed (a repeated ancestor, or a
/// residual level without a `value` column), so the caller takes the
/// FileReader path instead.
bool stream_variant_get(RandomAccessSource& source, const FileMetaData& metadata, const Schema& schema,
                        const VariantColumn& column, const VariantGetPlanInfo& plan,
                        const std::vector<std::string>& keys, std::string_view type,
                        const VariantGetVisitor& visit);

}  // namespace variant_parquet
}  // namespace parquetry
