// Writes `count` Event messages through the generated EventParquetWriter,
// reads them back with EventParquetReader and prints totals that depend on
// every field, so a lost or garbled value shows.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "events.parquetry.h"  // generated: EventParquetWriter / EventParquetReader
#include "parquetry/error.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: protobuf_writer OUT.parquet COUNT\n");
    return 2;
  }
  const std::string path = argv[1];
  const int64_t count = std::atoll(argv[2]);
  try {
    parquetry::proto::ProtoOptions options;
    {
      example::EventParquetWriter writer(path, options);
      example::Event event;
      for (int64_t i = 0; i < count; ++i) {
        event.Clear();
        event.set_id(i);
        event.set_kind(i % 2 == 0 ? "click" : "view");
        event.set_amount(static_cast<double>(i) * 0.25);
        for (int64_t t = 0; t < i % 3; ++t) event.add_tags("t" + std::to_string(t));
        writer.write(event);
      }
      writer.close();
    }

    example::EventParquetReader reader(path, options);
    example::Event event;
    int64_t rows = 0, id_sum = 0, clicks = 0, tags = 0;
    double amount = 0;
    while (reader.next(&event)) {
      ++rows;
      id_sum += event.id();
      clicks += event.kind() == "click";
      tags += event.tags_size();
      amount += event.amount();
    }
    std::printf("rows %lld id_sum %lld clicks %lld tags %lld amount %.2f\n", static_cast<long long>(rows),
                static_cast<long long>(id_sum), static_cast<long long>(clicks), static_cast<long long>(tags),
                amount);
    return 0;
  } catch (const parquetry::Error& e) {
    std::fprintf(stderr, "protobuf_writer: %s\n", e.what());
    return 1;
  }
}
