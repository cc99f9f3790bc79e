// PARQUETRY_API marks the declarations of the public API.
//
// The library is compiled with hidden visibility (-fvisibility=hidden), so
// only what carries this macro is exported from libparquetry.so: the shared
// library's symbol table is the API and nothing else, internals can change
// without breaking programs linked against it, and the dynamic linker has
// fewer symbols to resolve. Put it on every class whose members are defined
// in the library (`class PARQUETRY_API Reader {`) and on every free function
// the library defines (`PARQUETRY_API Schema read_schema(...);`). Templates
// and inline functions defined in the header need nothing.
//
// The same header serves the static archive: there the attribute is harmless.
#pragma once

// PARQUETRY_LOCAL goes on the definition of a nested implementation type of an
// exported class (`struct PARQUETRY_LOCAL FileReader::Impl {` in the .cc): a
// nested class takes the visibility of the class around it, and its members
// and lambdas would otherwise be exported.
#if defined(_WIN32)
#define PARQUETRY_API
#define PARQUETRY_LOCAL
#else
#define PARQUETRY_API __attribute__((visibility("default")))
#define PARQUETRY_LOCAL __attribute__((visibility("hidden")))
#endif
