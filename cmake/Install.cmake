# Install rules and the CMake package for find_package(ClangGrad).
#
#   cmake --install build --prefix P
#
# gives
#   P/lib/ClangGrad.so                      the plugin (registered as "grad")
#   P/bin/grad-dump                         the code printer
#   P/include/grad/...                      the header-only runtime (grad.h, rules.def, ...)
#   P/lib/cmake/ClangGrad/ClangGradConfig.cmake (+ ConfigVersion)
#   P/lib/cmake/ClangGrad/ClangGradIde.cmake   clang_grad_ide() for editors
#                                              (+ ClangGradIdeDatabase.cmake)
#
# The package's paths are computed from the config file's own location, so an
# installed prefix can be moved or copied elsewhere. The layout (lib, bin,
# include) is fixed on purpose: docs and SPEC.md name these paths.
include(CMakePackageConfigHelpers)

set(GRAD_INSTALL_BINDIR bin)
set(GRAD_INSTALL_LIBDIR lib)
set(GRAD_INSTALL_INCLUDEDIR include)
set(GRAD_INSTALL_CMAKEDIR ${GRAD_INSTALL_LIBDIR}/cmake/ClangGrad)

# The LLVM/Clang major version the plugin was built against: consumers must be
# compiled by the same clang major version.
set(GRAD_CLANG_MAJOR ${LLVM_VERSION_MAJOR})
if(NOT GRAD_CLANG_MAJOR)
  set(GRAD_CLANG_MAJOR 19)
endif()

# grad-dump (and the plugin) link libclang-cpp/libLLVM; keep their directory
# on the installed binaries' run path, as in the build tree.
set_target_properties(ClangGrad grad-dump PROPERTIES
  INSTALL_RPATH_USE_LINK_PATH TRUE)

install(TARGETS ClangGrad
  LIBRARY DESTINATION ${GRAD_INSTALL_LIBDIR} COMPONENT ClangGrad)
install(TARGETS grad-dump
  RUNTIME DESTINATION ${GRAD_INSTALL_BINDIR} COMPONENT ClangGrad)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/grad
  DESTINATION ${GRAD_INSTALL_INCLUDEDIR} COMPONENT ClangGrad
  PATTERN "CMakeLists.txt" EXCLUDE
  PATTERN ".*" EXCLUDE
  PATTERN "*~" EXCLUDE)

# Paths handed to configure_package_config_file (made relative to the prefix).
set(GRAD_PACKAGE_PLUGIN ${GRAD_INSTALL_LIBDIR}/ClangGrad${CMAKE_SHARED_MODULE_SUFFIX})
set(GRAD_PACKAGE_DUMP ${GRAD_INSTALL_BINDIR}/grad-dump${CMAKE_EXECUTABLE_SUFFIX})
set(GRAD_PACKAGE_INCLUDEDIR ${GRAD_INSTALL_INCLUDEDIR})

set(_grad_pkg_dir ${PROJECT_BINARY_DIR}/cmake/package)
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/ClangGradConfig.cmake.in
  ${_grad_pkg_dir}/ClangGradConfig.cmake
  INSTALL_DESTINATION ${GRAD_INSTALL_CMAKEDIR}
  PATH_VARS GRAD_PACKAGE_PLUGIN GRAD_PACKAGE_DUMP GRAD_PACKAGE_INCLUDEDIR)
# 0.x: only the same minor version is compatible.
write_basic_package_version_file(
  ${_grad_pkg_dir}/ClangGradConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${_grad_pkg_dir}/ClangGradConfig.cmake
  ${_grad_pkg_dir}/ClangGradConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/ClangGradIde.cmake
  ${CMAKE_CURRENT_LIST_DIR}/ClangGradIdeDatabase.cmake
  DESTINATION ${GRAD_INSTALL_CMAKEDIR} COMPONENT ClangGrad)
unset(_grad_pkg_dir)
