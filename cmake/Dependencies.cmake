# Every third-party library comes from Debian packages (scripts/install-deps.sh).
# Each is exposed as an imported target named pq::<name>.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)

function(parquetry_pkg alias module)
  pkg_check_modules(${alias} REQUIRED IMPORTED_TARGET GLOBAL ${module})
  add_library(pq::${alias} ALIAS PkgConfig::${alias})
endfunction()

parquetry_pkg(snappy snappy)
parquetry_pkg(zlib zlib)
parquetry_pkg(deflate libdeflate)
parquetry_pkg(zstd libzstd)
parquetry_pkg(lz4 liblz4)
parquetry_pkg(brotlidec libbrotlidec)
parquetry_pkg(brotlienc libbrotlienc)
parquetry_pkg(xxhash libxxhash)
parquetry_pkg(simdjson simdjson)
parquetry_pkg(hwy libhwy)
parquetry_pkg(cli11 CLI11)
parquetry_pkg(protobuf protobuf)
# remote sources: HTTP(S) through libcurl (OpenSSL flavour), SigV4 on libcrypto
parquetry_pkg(curl libcurl)
# OpenSSL's libcrypto: AES-GCM / AES-CTR for Parquet modular encryption,
# HMAC-SHA256 / SHA-256 for SigV4.
parquetry_pkg(crypto libcrypto)

find_library(PARQUETRY_ROARING_LIB roaring REQUIRED)
add_library(pq::roaring UNKNOWN IMPORTED GLOBAL)
set_target_properties(pq::roaring PROPERTIES IMPORTED_LOCATION ${PARQUETRY_ROARING_LIB})

find_package(GTest REQUIRED)
find_package(benchmark REQUIRED)

# libprotoc (libprotoc-dev) has no pkg-config file; the protoc plugin links it.
find_library(PARQUETRY_PROTOC_LIB protoc REQUIRED)
add_library(pq::protoc UNKNOWN IMPORTED GLOBAL)
set_target_properties(pq::protoc PROPERTIES IMPORTED_LOCATION ${PARQUETRY_PROTOC_LIB})
find_program(PARQUETRY_PROTOC protoc REQUIRED)
