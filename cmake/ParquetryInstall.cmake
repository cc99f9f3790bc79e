# What a user installs (docs/install.md): libparquetry.a and libparquetry.so.N
# linked from the layers' objects (compiled once, hidden visibility), the
# public headers, the CLI and the protoc plugin, the CMake package and the
# pkg-config file, and the Debian packages CPack makes of them.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The objects of every layer, in layer order.
set(parquetry_objects)
foreach(layer_target IN LISTS PARQUETRY_LAYER_TARGETS)
  get_target_property(layer_type ${layer_target} TYPE)
  if(layer_type STREQUAL "STATIC_LIBRARY")
    list(APPEND parquetry_objects $<TARGET_OBJECTS:${layer_target}>)
  endif()
endforeach()

add_library(parquetry_static STATIC ${parquetry_objects})
add_library(parquetry_shared SHARED ${parquetry_objects})
set_target_properties(parquetry_static parquetry_shared PROPERTIES
  OUTPUT_NAME parquetry LINKER_LANGUAGE CXX
  ARCHIVE_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)
set_target_properties(parquetry_shared PROPERTIES
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR})
# The third-party libraries come with the layer targets; their archives add no
# objects (every symbol is already defined) but carry the link lines.
# --no-undefined: a missing dependency fails here, not in the user's link.
# --exclude-libs: nothing from a static archive is re-exported.
target_link_libraries(parquetry_shared PRIVATE ${PARQUETRY_LAYER_TARGETS})
target_link_options(parquetry_shared PRIVATE -Wl,--no-undefined -Wl,--exclude-libs,ALL)

# The Debian packages a static link needs (their pkg-config names) and the
# libraries without a pkg-config file.
set(PARQUETRY_PC_REQUIRES "snappy zlib libdeflate libzstd liblz4 libbrotlidec libbrotlienc libxxhash simdjson libcurl libcrypto protobuf")
set(PARQUETRY_PC_LIBS_PRIVATE "-lroaring -pthread")

set(config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/parquetry)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/parquetry DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        COMPONENT dev FILES_MATCHING PATTERN "*.h")
install(FILES ${PARQUETRY_GENERATED_DIR}/include/parquetry/version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/parquetry COMPONENT dev)
install(TARGETS parquetry_shared
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT dev)
install(TARGETS parquetry_static ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev)
set(installed_programs parquetry_cli)
if(TARGET protoc-gen-parquetry)
  list(APPEND installed_programs protoc-gen-parquetry)
endif()
install(TARGETS ${installed_programs} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)

configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/parquetryConfig.cmake.in
  ${CMAKE_BINARY_DIR}/generated/parquetryConfig.cmake
  INSTALL_DESTINATION ${config_dir}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_BINDIR)
# 0.x releases break compatibility between minor versions; from 1.0 on, the major.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(compatibility SameMinorVersion)
else()
  set(compatibility SameMajorVersion)
endif()
write_basic_package_version_file(${CMAKE_BINARY_DIR}/generated/parquetryConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY ${compatibility})
install(FILES ${CMAKE_BINARY_DIR}/generated/parquetryConfig.cmake
              ${CMAKE_BINARY_DIR}/generated/parquetryConfigVersion.cmake
              ${CMAKE_SOURCE_DIR}/cmake/ParquetryProtobuf.cmake
        DESTINATION ${config_dir} COMPONENT dev)

# The .pc file finds the prefix from its own folder, so the tree can move.
file(RELATIVE_PATH PARQUETRY_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(${CMAKE_SOURCE_DIR}/cmake/parquetry.pc.in ${CMAKE_BINARY_DIR}/generated/parquetry.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/generated/parquetry.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)

# make package: parquetry_X.Y.Z_amd64.deb (library, CLI, protoc plugin) and
# parquetry-dev_X.Y.Z_amd64.deb (headers, archive, CMake and pkg-config files).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME parquetry)
set(CPACK_PACKAGE_VENDOR "parquetry")
set(CPACK_PACKAGE_CONTACT "parquetry maintainers <parquetry@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Parquet reader and writer with Arrow-layout output")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME parquetry)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME parquetry-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
# Depends of the runtime package: dpkg-shlibdeps names the Debian package of
# every library the binaries link.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
    "parquetry (= ${PROJECT_VERSION}), libsnappy-dev, zlib1g-dev, libdeflate-dev, libzstd-dev, liblz4-dev, libbrotli-dev, libxxhash-dev, libsimdjson-dev, libroaring-dev, libcurl4-openssl-dev, libssl-dev, libprotobuf-dev, protobuf-compiler, pkg-config")
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION "parquetry: the shared library libparquetry.so, the parquetry command and protoc-gen-parquetry")
set(CPACK_COMPONENT_DEV_DESCRIPTION "parquetry: headers, static archive, CMake package and pkg-config file")
set(CPACK_OUTPUT_FILE_PREFIX ${CMAKE_BINARY_DIR}/packages)
include(CPack)
