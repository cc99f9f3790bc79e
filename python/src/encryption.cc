// Keys for read / scan / summarize (decryption=...) and write (encryption=...).
#include "bindings.h"
#include "parquetry/error.h"

namespace parquetry::python {
namespace {

// bytes: the raw key; str: hex or base64 text.
std::string key_from(const py::handle& value, const std::string& what) {
  if (py::isinstance<py::bytes>(value)) return value.cast<std::string>();
  if (py::isinstance<py::str>(value)) {
    try {
      return parse_key(value.cast<std::string>());
    } catch (const Error& e) {
      throw_invalid(what + ": " + e.message());
    }
  }
  throw_invalid(what + " must be bytes or str");
}

}  // namespace

DecryptionOptions decryption_options(const py::object& given) {
  DecryptionOptions out;
  if (given.is_none()) return out;
  if (!py::isinstance<py::dict>(given)) throw_invalid("decryption must be a dict");
  for (auto [key_handle, value] : given.cast<py::dict>()) {
    const auto key = key_handle.cast<std::string>();
    if (key == "footer_key") {
      out.footer_key = key_from(value, "decryption footer_key");
    } else if (key == "column_keys") {
      for (auto [path, column_key] : value.cast<py::dict>()) {
        const auto name = path.cast<std::string>();
        out.column_keys[name] = key_from(column_key, "decryption key of column " + name);
      }
    } else if (key == "aad_prefix") {
      out.aad_prefix = value.cast<std::string>();
    } else if (key == "key_file") {
      load_key_file(value.cast<std::string>(), out);
    } else {
      throw_invalid("decryption: unknown option " + key);
    }
  }
  return out;
}

EncryptionOptions encryption_options(const py::dict& given) {
  EncryptionOptions out;
  for (auto [key_handle, value] : given) {
    const auto key = key_handle.cast<std::string>();
    if (key == "footer_key") {
      out.footer_key = key_from(value, "encryption footer_key");
    } else if (key == "footer_key_metadata") {
      out.footer_key_metadata = value.cast<std::string>();
    } else if (key == "cipher") {
      const auto name = value.cast<std::string>();
      if (name == "AES_GCM_V1") {
        out.cipher = EncryptionCipher::kAesGcm;
      } else if (name == "AES_GCM_CTR_V1") {
        out.cipher = EncryptionCipher::kAesGcmCtr;
      } else {
        throw_invalid("encryption: unknown cipher " + name);
      }
    } else if (key == "plaintext_footer") {
      out.plaintext_footer = value.cast<bool>();
    } else if (key == "column_keys") {
      for (auto [path, column_key] : value.cast<py::dict>()) {
        const auto name = path.cast<std::string>();
        ColumnEncryption column;
        if (py::isinstance<py::tuple>(column_key)) {
          auto pair = column_key.cast<py::tuple>();
          if (pair.size() != 2) throw_invalid("encryption: column " + name + " wants (key, key_metadata)");
          column.key = key_from(pair[0], "encryption key of column " + name);
          column.key_metadata = pair[1].cast<std::string>();
        } else if (!column_key.is_none()) {
          column.key = key_from(column_key, "encryption key of column " + name);
        }
        out.columns[name] = std::move(column);
      }
    } else if (key == "aad_prefix") {
      out.aad_prefix = value.cast<std::string>();
    } else if (key == "store_aad_prefix") {
      out.store_aad_prefix = value.cast<bool>();
    } else {
      throw_invalid("encryption: unknown option " + key);
    }
  }
  return out;
}

}  // namespace parquetry::python
