// Keeping memory the C library's allocator frees, for applications.
//
// Why: every scan opens its file anew and frees its readers at the end. With
// glibc's default settings a worker thread's heap is given back to the
// kernel once more than 128 KiB lie free at its top, so the next scan
// faults the same memory in again, page by page. On a virtual machine a
// first touch costs ~12 us a page (docs/limits.md): a two-thread filtered
// scan of the taxi file took ~400 page faults and 14% longer for it. Large
// buffers already come from parquetry's own retained cache (large_block.h);
// this covers the smaller ones, which glibc serves.
#pragma once

#include <cstddef>

#include "parquetry/export.h"

namespace parquetry {

/// Makes the C library keep up to `bytes` of freed memory at the top of
/// each heap instead of returning it to the kernel, and serve requests up to
/// min(bytes, 32 MiB) from its heaps rather than from a mapping of their
/// own (glibc: mallopt M_TRIM_THRESHOLD and M_MMAP_THRESHOLD). Process-wide
/// and for applications only: parquetry's CLI and benchmark call it at
/// start with 256 MiB; the library itself never does. Returns false where
/// the C library offers no such setting (or refuses it).
PARQUETRY_API bool retain_freed_malloc_memory(size_t bytes);

}  // namespace parquetry
