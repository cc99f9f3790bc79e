// OptionalBytes (Statistics min/max) and StringList (path_in_schema): the
// compact members of ColumnMetaData keep std::optional<std::string>'s and
// std::vector<std::string>'s meaning, inline and on the heap.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parquetry/metadata.h"

namespace parquetry {
namespace {

TEST(OptionalBytes, EveryLengthAroundTheInlineLimitKeepsItsBytes) {
  for (size_t n = 0; n <= 64; ++n) {
    std::string value;
    for (size_t i = 0; i < n; ++i) value.push_back(static_cast<char>('a' + i % 26));
    if (n > 2) value[n / 2] = '\0';  // embedded zero bytes survive
    OptionalBytes b = value;
    ASSERT_TRUE(b.has_value()) << n;
    EXPECT_EQ(*b, value) << n;
    EXPECT_EQ(b->size(), n);

    OptionalBytes copy = b;  // deep copy
    OptionalBytes moved = std::move(b);
    EXPECT_EQ(*copy, value);
    EXPECT_EQ(*moved, value);
    EXPECT_FALSE(b.has_value());  // NOLINT(bugprone-use-after-move): moved-from is empty by contract
    EXPECT_EQ(copy, moved);
    EXPECT_EQ(copy.to_optional(), std::optional<std::string>(value));
  }
}

TEST(OptionalBytes, AbsentEmptyAndReassigned) {
  OptionalBytes b;
  EXPECT_FALSE(b);
  EXPECT_THROW((void)b.value(), std::bad_optional_access);
  EXPECT_EQ(b, OptionalBytes(std::nullopt));
  b = std::string();
  ASSERT_TRUE(b);  // present and empty differs from absent
  EXPECT_EQ(b.value(), "");
  EXPECT_FALSE(b == OptionalBytes());

  b = std::string(100, 'x');  // heap
  EXPECT_EQ(*b, std::string(100, 'x'));
  b = std::string(40, 'y');  // reuses the heap block
  EXPECT_EQ(*b, std::string(40, 'y'));
  b = "short";  // back inline
  EXPECT_EQ(*b, "short");
  b = std::string(300, 'z');
  b = std::string_view(*b).substr(10, 5);  // from its own bytes, heap to inline
  EXPECT_EQ(*b, "zzzzz");
  b = std::nullopt;
  EXPECT_FALSE(b.has_value());
}

TEST(StringList, PacksShortAndLongElementsAndComparesWithVector) {
  StringList path;
  EXPECT_TRUE(path.empty());
  path.push_back("c123");
  EXPECT_EQ(path, std::vector<std::string>{"c123"});
  EXPECT_EQ(path.size(), 1u);
  EXPECT_EQ(path[0], "c123");

  std::vector<std::string> expected = {
      "a", "list", "element", std::string(254, 'p'), std::string(255, 'q'), std::string(70000, 'r'), ""};
  StringList long_path = expected;  // spills to the heap; 255+ bytes take a 5-byte length
  ASSERT_EQ(long_path.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(long_path[i], expected[i]) << i;
  EXPECT_EQ(long_path.to_vector(), expected);
  EXPECT_EQ(long_path.back(), "");
  EXPECT_EQ(long_path.front(), "a");

  StringList copy = long_path;
  EXPECT_EQ(copy, long_path);
  StringList moved = std::move(copy);
  EXPECT_EQ(moved, long_path);
  EXPECT_TRUE(copy.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty by contract

  moved = {"x", "y"};
  EXPECT_EQ(moved, (std::vector<std::string>{"x", "y"}));
  EXPECT_FALSE(moved == long_path);
  EXPECT_FALSE(moved == (std::vector<std::string>{"x", "z"}));
  moved.clear();
  EXPECT_TRUE(moved.empty());
  EXPECT_EQ(moved.begin(), moved.end());
}

}  // namespace
}  // namespace parquetry
