# cmake -P script behind the install tests (see CMakeLists.txt here).
# Inputs (-D): MODE (consumer | wrong-compiler | ide), BUILD_DIR, CONFIG,
# WORK_DIR, CONSUMER_SRC, CXX, GENERATOR, MAKE_PROGRAM, PLUGIN, DUMP; for
# MODE ide also CLANGD (empty: the test says SKIPPED, which ctest reports as
# skipped).
cmake_minimum_required(VERSION 3.20)

foreach(var MODE BUILD_DIR WORK_DIR CONSUMER_SRC CXX GENERATOR MAKE_PROGRAM
            PLUGIN DUMP)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_consumer.cmake: -D${var}=... is required")
  endif()
endforeach()

function(step what)
  message(STATUS "install test: ${what}")
endfunction()

# Fail with the command's output when it fails.
function(run what)
  execute_process(COMMAND ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install test: ${what} failed (${rc}):\n"
      "command: ${ARGN}\n--- stdout\n${out}\n--- stderr\n${err}")
  endif()
  set(run_out "${out}" PARENT_SCOPE)
  set(run_err "${err}" PARENT_SCOPE)
endfunction()

if(MODE STREQUAL "ide" AND NOT CLANGD)
  message(STATUS "install test: SKIPPED: clangd-19 was not found when this "
    "build was configured (scripts/quickstart.sh installs it)")
  return()
endif()

foreach(artifact "${PLUGIN}" "${DUMP}")
  if(NOT EXISTS "${artifact}")
    message(FATAL_ERROR "install test: ${artifact} does not exist: build the "
      "project (cmake --build ${BUILD_DIR}) before running ctest")
  endif()
endforeach()

# 1. Install into a staging prefix, then move it: the package must not
#    depend on the prefix it was installed to.
set(stage "${WORK_DIR}/stage")
set(prefix "${WORK_DIR}/prefix")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
step("cmake --install ${BUILD_DIR} --prefix ${stage}")
set(config_args)
if(CONFIG)
  set(config_args --config "${CONFIG}")
endif()
run("cmake --install" "${CMAKE_COMMAND}" --install "${BUILD_DIR}"
  ${config_args} --prefix "${stage}")
file(RENAME "${stage}" "${prefix}")

foreach(f lib/ClangGrad.so bin/grad-dump include/grad/grad.h
          include/grad/rules.def lib/cmake/ClangGrad/ClangGradConfig.cmake
          lib/cmake/ClangGrad/ClangGradConfigVersion.cmake)
  if(NOT EXISTS "${prefix}/${f}")
    message(FATAL_ERROR "install test: ${f} is missing from the installed prefix")
  endif()
endforeach()
file(READ "${prefix}/lib/cmake/ClangGrad/ClangGradConfig.cmake" config_text)
string(FIND "${config_text}" "${stage}" at)
if(NOT at EQUAL -1)
  message(FATAL_ERROR "install test: ClangGradConfig.cmake hard-codes the "
    "install prefix ${stage}: the package is not relocatable")
endif()

# 2. Configure the consumer against the moved prefix.
set(consumer_build "${WORK_DIR}/build")
set(configure_cmd "${CMAKE_COMMAND}" -G "${GENERATOR}" -S "${CONSUMER_SRC}"
  -B "${consumer_build}"
  "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}"
  "-DCMAKE_CXX_COMPILER=${CXX}"
  "-DCMAKE_BUILD_TYPE=Release"
  "-DCMAKE_PREFIX_PATH=${prefix}"
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)

if(MODE STREQUAL "wrong-compiler")
  step("configure the consumer with ${CXX}: must be refused")
  execute_process(COMMAND ${configure_cmd}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(FATAL_ERROR "install test: find_package(ClangGrad) accepted the "
      "compiler ${CXX}, which cannot load the plugin\n${out}\n${err}")
  endif()
  if(NOT err MATCHES "ClangGrad: the clang-grad plugin only loads into Clang")
    message(FATAL_ERROR "install test: configure failed, but not with the "
      "expected message:\n--- stdout\n${out}\n--- stderr\n${err}")
  endif()
  message(STATUS "install test: refused as expected")
  return()
elseif(NOT MODE MATCHES "^(consumer|ide)$")
  message(FATAL_ERROR "run_consumer.cmake: unknown MODE '${MODE}'")
endif()

step("configure the consumer (${CXX})")
run("configuring the consumer" ${configure_cmd})
file(STRINGS "${consumer_build}/CMakeCache.txt" found_dir
  REGEX "^ClangGrad_DIR:")
if(NOT found_dir STREQUAL "ClangGrad_DIR:PATH=${prefix}/lib/cmake/ClangGrad")
  message(FATAL_ERROR "install test: the consumer found another ClangGrad "
    "package: ${found_dir}")
endif()

# 3. Build and run it.
step("build the consumer")
run("building the consumer" "${CMAKE_COMMAND}" --build "${consumer_build}"
  --verbose)
string(FIND "${run_out}" "-fplugin=${prefix}/lib/ClangGrad.so" at)
if(at EQUAL -1)
  message(FATAL_ERROR "install test: the consumer was not compiled with "
    "-fplugin=${prefix}/lib/ClangGrad.so:\n${run_out}")
endif()
step("run the consumer")
run("running the consumer" "${consumer_build}/app")
if(NOT run_out MATCHES "(^|\n)ok\n?$")
  message(FATAL_ERROR "install test: the consumer printed\n${run_out}${run_err}"
    "\ninstead of 'ok'")
endif()

if(MODE STREQUAL "ide")
  include("${CMAKE_CURRENT_LIST_DIR}/check_ide.cmake")
  return()
endif()

# 4. The installed grad-dump runs from the moved prefix and prints the
#    derivative of the consumer's [[grad]] function.
step("run the installed grad-dump")
run("the installed grad-dump" "${prefix}/bin/grad-dump"
  "${CONSUMER_SRC}/main.cpp" -- -std=c++20 "-I${prefix}/include")
if(NOT run_out MATCHES "f_pullback")
  message(FATAL_ERROR "install test: grad-dump did not print f_pullback:\n"
    "${run_out}${run_err}")
endif()
message(STATUS "install test: ok")
