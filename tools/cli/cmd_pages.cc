// `parquetry pages FILE`: every page of every column chunk: type, encoding,
// sizes, value counts and whether its CRC (when stored) matches.
#include <libdeflate.h>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "command.h"
#include "key_options.h"
#include "parquetry/encryption/file_decryptor.h"
#include "parquetry/io.h"
#include "parquetry/metadata.h"
#include "parquetry/page/page_reader.h"
#include "parquetry/remote.h"
#include "parquetry/schema.h"
#include "parquetry/util/json_writer.h"

namespace parquetry::cli {
namespace {

struct PagesOptions {
  std::string path;
  bool json = false;
  KeyOptions keys;
};

// The headers of an encrypted chunk's pages, decrypted (bodies too: the page
// reader decrypts whole pages); offsets and sizes are the stored, encrypted ones.
std::vector<PageHeaderAt> encrypted_page_headers(RandomAccessSource& source, const ColumnMetaData& column,
                                                 const ModuleCrypto& crypto, const ErrorLocation& where) {
  PageReaderOptions page_options;
  page_options.crypto = &crypto;
  PageReader reader(source, column, page_options, where);
  std::vector<PageHeaderAt> out;
  Page page;
  int64_t previous = -1;
  while (reader.next(page)) {
    PageHeaderAt at;
    at.offset = page.file_offset;
    at.header = *page.header;
    if (!out.empty()) out.back().header_size = at.offset - previous - out.back().header.compressed_page_size;
    previous = at.offset;
    out.push_back(std::move(at));
  }
  if (!out.empty()) {
    const int64_t end = column_chunk_start(column) + column.total_compressed_size;
    out.back().header_size = end - previous - out.back().header.compressed_page_size;
  }
  return out;
}

void run_pages(const PagesOptions& options) {
  std::shared_ptr<RandomAccessSource> opened_source = open_source(options.path, /*use_mmap=*/true);
  RandomAccessSource& source = *opened_source;
  OpenedFooter opened = open_footer(source, Limits{}, options.keys.decryption());
  const FileMetaData& metadata = opened.metadata;
  Schema schema = Schema::from_metadata(metadata);
  JsonWriter json;
  if (options.json) json.begin_array();
  if (!options.json) {
    std::printf("%-3s %-24s %-5s %-16s %-24s %10s %12s %12s %9s %s\n", "rg", "column", "page", "type",
                "encoding", "offset", "compressed", "uncompressed", "values", "crc");
  }
  Buffer scratch;
  for (size_t g = 0; g < metadata.row_groups.size(); ++g) {
    const RowGroup& group = metadata.row_groups[g];
    for (size_t c = 0; c < group.columns.size(); ++c) {
      if (!group.columns[c].meta_data) continue;
      const ColumnMetaData& column = *group.columns[c].meta_data;
      const std::string path = c < schema.num_columns() ? schema.column(c).path : std::to_string(c);
      std::vector<PageHeaderAt> decrypted;
      std::optional<ModuleCrypto> crypto;
      if (opened.decryptor) {
        if (!opened.decryptor->readable(g, c)) continue;  // encrypted, and its key was not given
        ErrorLocation where{options.path, path, int64_t(g), -1, -1};
        try {
          crypto = opened.decryptor->chunk(g, c, path);
        } catch (const Error& e) {
          throw e.with_location(where);
        }
        if (crypto) decrypted = encrypted_page_headers(source, column, *crypto, where);
      }
      PageHeaderWalker walker(source, column);
      PageHeaderAt page;
      int ordinal = 0;
      size_t next_decrypted = 0;
      auto next_page = [&]() {
        if (!crypto) return walker.next(page);
        if (next_decrypted == decrypted.size()) return false;
        page = decrypted[next_decrypted++];
        return true;
      };
      while (next_page()) {
        const PageHeader& h = page.header;
        std::string encoding = "-";
        int64_t values = 0;
        if (h.data_page_header) {
          encoding = std::string(encoding_name(h.data_page_header->encoding));
          values = h.data_page_header->num_values;
        } else if (h.data_page_header_v2) {
          encoding = std::string(encoding_name(h.data_page_header_v2->encoding));
          values = h.data_page_header_v2->num_values;
        } else if (h.dictionary_page_header) {
          encoding = std::string(encoding_name(h.dictionary_page_header->encoding));
          values = h.dictionary_page_header->num_values;
        }
        std::string crc = "-";
        if (h.crc && !crypto) {
          const int64_t body = page.offset + page.header_size;
          auto bytes = source.read(body, h.compressed_page_size, scratch);
          uint32_t actual = uint32_t(libdeflate_crc32(0, bytes.data(), bytes.size()));
          crc = actual == uint32_t(*h.crc) ? "ok" : "MISMATCH";
        }
        if (options.json) {
          json.begin_object()
              .field("row_group", int64_t(g))
              .field("column", path)
              .field("page", int64_t(ordinal))
              .field("type", page_type_name(h.type))
              .field("encoding", encoding)
              .field("offset", page.offset)
              .field("header_size", page.header_size)
              .field("compressed_size", int64_t(h.compressed_page_size))
              .field("uncompressed_size", int64_t(h.uncompressed_page_size))
              .field("values", values);
          if (h.data_page_header_v2) {
            json.field("rows", int64_t(h.data_page_header_v2->num_rows))
                .field("nulls", int64_t(h.data_page_header_v2->num_nulls));
          }
          json.field("crc", crc).end_object();
        } else {
          std::printf("%-3zu %-24s %-5d %-16s %-24s %10lld %12d %12d %9lld %s\n", g, path.c_str(), ordinal,
                      std::string(page_type_name(h.type)).c_str(), encoding.c_str(),
                      static_cast<long long>(page.offset), h.compressed_page_size, h.uncompressed_page_size,
                      static_cast<long long>(values), crc.c_str());
        }
        ++ordinal;
      }
    }
  }
  if (options.json) {
    json.end_array();
    std::printf("%s\n", json.str().c_str());
  }
}

CommandRegistration pages_command(25, [](CLI::App& app) {
  auto options = std::make_shared<PagesOptions>();
  CLI::App* command = app.add_subcommand("pages", "list every page: type, encoding, sizes, values, CRC");
  command->add_option("file", options->path, "Parquet file")->required();
  command->add_flag("--json", options->json, "one JSON array of pages");
  add_key_options(command, options->keys);
  command->callback([options]() { run_pages(*options); });
});

}  // namespace
}  // namespace parquetry::cli
