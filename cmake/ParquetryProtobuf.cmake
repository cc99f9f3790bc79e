# parquetry_protobuf_generate(TARGET <target> PROTOS <a.proto>... [IMPORT_DIRS <dir>...])
#
# Runs protoc on each .proto with both the C++ generator and
# protoc-gen-parquetry, adds the generated <name>.pb.cc and
# <name>.parquetry.cc to <target>, puts the output folder on its include path
# and links the proto layer:
#
#   add_executable(app main.cc)
#   parquetry_protobuf_generate(TARGET app PROTOS events.proto)
#   // main.cc: #include "events.parquetry.h" -> EventParquetWriter / EventParquetReader
#
# A .proto is named relative to the first import dir that holds it (default:
# its own folder), as protoc requires for imports between files.
#
# The same file serves the build tree (plugin target protoc-gen-parquetry,
# library parquetry_proto) and the installed package, whose
# parquetryConfig.cmake sets PARQUETRY_PROTOC_PLUGIN and
# PARQUETRY_PROTO_LIBRARIES to its imported targets before including it.
if(NOT PARQUETRY_PROTOC_PLUGIN)
  set(PARQUETRY_PROTOC_PLUGIN protoc-gen-parquetry)
endif()
if(NOT PARQUETRY_PROTO_LIBRARIES)
  set(PARQUETRY_PROTO_LIBRARIES parquetry_proto pq::protobuf)
endif()

function(parquetry_protobuf_generate)
  if(NOT PARQUETRY_PROTOC)
    message(FATAL_ERROR "parquetry_protobuf_generate needs protoc (Debian package protobuf-compiler)")
  endif()
  cmake_parse_arguments(P "" "TARGET" "PROTOS;IMPORT_DIRS" ${ARGN})
  if(NOT P_TARGET OR NOT P_PROTOS)
    message(FATAL_ERROR "parquetry_protobuf_generate needs TARGET and PROTOS")
  endif()
  set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/parquetry_proto_gen/${P_TARGET})
  file(MAKE_DIRECTORY ${out_dir})
  set(import_args)
  foreach(dir IN LISTS P_IMPORT_DIRS)
    get_filename_component(abs_dir ${dir} ABSOLUTE)
    list(APPEND import_args -I${abs_dir})
  endforeach()
  set(generated)
  foreach(proto IN LISTS P_PROTOS)
    get_filename_component(abs ${proto} ABSOLUTE)
    # The name protoc sees: relative to the first import dir containing it.
    set(rel)
    foreach(dir IN LISTS P_IMPORT_DIRS)
      get_filename_component(abs_dir ${dir} ABSOLUTE)
      file(RELATIVE_PATH candidate ${abs_dir} ${abs})
      if(NOT rel AND NOT candidate MATCHES "^\\.\\./")
        set(rel ${candidate})
      endif()
    endforeach()
    set(extra_import)
    if(NOT rel)
      get_filename_component(proto_dir ${abs} DIRECTORY)
      get_filename_component(rel ${abs} NAME)
      set(extra_import -I${proto_dir})
    endif()
    string(REGEX REPLACE "\\.proto$" "" base ${rel})
    set(outputs ${out_dir}/${base}.pb.cc ${out_dir}/${base}.pb.h
                ${out_dir}/${base}.parquetry.cc ${out_dir}/${base}.parquetry.h)
    add_custom_command(
      OUTPUT ${outputs}
      COMMAND ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=0
              ${PARQUETRY_PROTOC} ${extra_import} ${import_args}
              --plugin=protoc-gen-parquetry=$<TARGET_FILE:${PARQUETRY_PROTOC_PLUGIN}>
              --cpp_out=${out_dir} --parquetry_out=${out_dir} ${abs}
      DEPENDS ${abs} ${PARQUETRY_PROTOC_PLUGIN}
      COMMENT "protoc (C++ + parquetry) ${rel}"
      VERBATIM)
    list(APPEND generated ${out_dir}/${base}.pb.cc ${out_dir}/${base}.parquetry.cc)
  endforeach()
  target_sources(${P_TARGET} PRIVATE ${generated})
  target_include_directories(${P_TARGET} PUBLIC ${out_dir})
  target_link_libraries(${P_TARGET} PUBLIC ${PARQUETRY_PROTO_LIBRARIES})
endfunction()
