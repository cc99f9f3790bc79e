// ArrowArrayStream export and import over parquetry::BatchReader.
#include <cerrno>
#include <string>

#include "parquetry/arrow_export.h"
#include "parquetry/error.h"

namespace parquetry {
namespace {

struct StreamPrivate {
  std::unique_ptr<BatchReader> reader;
  std::string last_error;
};

StreamPrivate* private_of(ArrowArrayStream* stream) {
  return static_cast<StreamPrivate*>(stream->private_data);
}

int stream_get_schema(ArrowArrayStream* stream, ArrowSchema* out) {
  StreamPrivate* priv = private_of(stream);
  try {
    export_schema(*priv->reader->schema(), out);
    return 0;
  } catch (const std::exception& e) {
    priv->last_error = e.what();
    return EIO;
  }
}

int stream_get_next(ArrowArrayStream* stream, ArrowArray* out) {
  StreamPrivate* priv = private_of(stream);
  try {
    RecordBatch batch;
    if (!priv->reader->next(batch)) {
      out->release = nullptr;  // end of stream
      return 0;
    }
    export_batch(batch, out);
    return 0;
  } catch (const std::exception& e) {
    priv->last_error = e.what();
    return EIO;
  }
}

const char* stream_get_last_error(ArrowArrayStream* stream) {
  StreamPrivate* priv = private_of(stream);
  return priv->last_error.empty() ? nullptr : priv->last_error.c_str();
}

void stream_release(ArrowArrayStream* stream) {
  if (stream == nullptr || stream->release == nullptr) return;
  delete private_of(stream);
  stream->release = nullptr;
}

// Reads batches from a producer's stream.
class ImportedStreamReader final : public BatchReader {
 public:
  explicit ImportedStreamReader(ArrowArrayStream* stream) : stream_(*stream) {
    stream->release = nullptr;
    ArrowSchema schema{};
    check(stream_.get_schema(&stream_, &schema));
    schema_ = std::make_shared<const BatchSchema>(import_schema(&schema));
  }
  ~ImportedStreamReader() override {
    if (stream_.release != nullptr) stream_.release(&stream_);
  }

  std::shared_ptr<const BatchSchema> schema() const override { return schema_; }

  bool next(RecordBatch& out) override {
    ArrowArray array{};
    check(stream_.get_next(&stream_, &array));
    if (array.release == nullptr) return false;
    out = import_batch(&array, schema_);
    return true;
  }

 private:
  void check(int code) {
    if (code == 0) return;
    const char* message = stream_.get_last_error(&stream_);
    throw Error(ErrorCode::kIo,
                std::string("Arrow stream producer failed: ") +
                    (message != nullptr ? message : ("error " + std::to_string(code)).c_str()));
  }

  ArrowArrayStream stream_;
  std::shared_ptr<const BatchSchema> schema_;
};

}  // namespace

void export_stream(std::unique_ptr<BatchReader> reader, ArrowArrayStream* out) {
  auto* priv = new StreamPrivate{std::move(reader), {}};
  *out =
      ArrowArrayStream{&stream_get_schema, &stream_get_next, &stream_get_last_error, &stream_release, priv};
}

std::unique_ptr<BatchReader> import_stream(ArrowArrayStream* stream) {
  if (stream == nullptr || stream->release == nullptr) throw_invalid("imported ArrowArrayStream is released");
  return std::make_unique<ImportedStreamReader>(stream);
}

}  // namespace parquetry
