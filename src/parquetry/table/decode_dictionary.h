// Dictionary arrays back to plain arrays: each row's value copied out of the
// dictionary. A filtered scan evaluates its predicate on a column's
// dictionary array (once per entry) and, when the output wants that column's
// values, decodes them from the same indices instead of reading the column
// chunk a second time.
#pragma once

#include <memory>

#include "parquetry/table.h"

namespace parquetry {

/// Whether decode_dictionary handles dictionaries of `value_type`:
/// fixed-width values (not booleans) and 32-bit-offset strings and binaries.
bool can_decode_dictionary(const DataType& value_type);

/// A plain array of `array`'s dictionary value type with the row values of
/// the dictionary array `array` (validity shared). Null rows hold zeros (an
/// empty value for strings) whatever their index. Throws kInvalidArgument
/// for a valid row whose index is outside the dictionary, or for a value
/// type can_decode_dictionary refuses.
std::shared_ptr<ArrayData> decode_dictionary(const ArrayData& array);

}  // namespace parquetry
