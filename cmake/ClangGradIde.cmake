# clang_grad_ide(<target>...): editor support for targets compiled with the
# clang-grad plugin (docs/ide.md). Part of the ClangGrad package.
#
# Editors parse code with clangd, which does not load compiler plugins: every
# call of a generated NAME_pullback is "use of undeclared identifier" there.
# For each C++ source of the targets, the build writes
#   <build>/grad-ide/<target>/<source path>.h
# with `grad-dump --declarations` (the generated functions' declarations),
# and, once for the build tree, a compile database for editors only,
#   <build>/grad-ide/compile_commands.json
# which is the build's compile_commands.json with, for those sources,
# `-include <their header>` added and the plugin flags removed. Point clangd
# at that directory (a .clangd file: `CompileFlags: {CompilationDatabase:
# build/grad-ide}`). The targets' own compile commands are unchanged: the
# headers are built next to them, never included by them.
#
# Members of a class (`s.energy_pullback(...)`) are declared only where the
# class body says GRAD_IDE_MEMBERS(ClassName) (<grad/ide.h>).
#
# Needs CMake 3.20, grad-dump (ClangGrad_DUMP, or a grad-dump target in the
# same build) and the targets' compile commands (the function turns on
# EXPORT_COMPILE_COMMANDS for them).

# The grad-dump command and what the headers depend on.
function(_clang_grad_ide_dump out_cmd out_dep)
  if(ClangGrad_DUMP)
    set(${out_cmd} "${ClangGrad_DUMP}" PARENT_SCOPE)
    set(${out_dep} "${ClangGrad_DUMP}" PARENT_SCOPE)
  elseif(TARGET grad-dump)
    set(${out_cmd} "$<TARGET_FILE:grad-dump>" PARENT_SCOPE)
    set(${out_dep} grad-dump PARENT_SCOPE)
  else()
    message(FATAL_ERROR "clang_grad_ide: grad-dump not found: call "
      "find_package(ClangGrad) first")
  endif()
endfunction()

# Where the header of <src> (absolute) for <target> goes.
function(_clang_grad_ide_header target src out)
  file(RELATIVE_PATH rel "${CMAKE_SOURCE_DIR}" "${src}")
  if(rel MATCHES "^\\.\\./" OR IS_ABSOLUTE "${rel}")
    string(REGEX REPLACE "[:/\\\\]+" "_" rel "${src}")
  endif()
  set(${out} "${CMAKE_BINARY_DIR}/grad-ide/${target}/${rel}.h" PARENT_SCOPE)
endfunction()

# The C++ sources of <target>, absolute.
function(_clang_grad_ide_sources target out)
  get_target_property(srcs ${target} SOURCES)
  get_target_property(dir ${target} SOURCE_DIR)
  set(result)
  foreach(src IN LISTS srcs)
    if(src MATCHES "\\$<" OR NOT src MATCHES "\\.(cpp|cc|cxx|c\\+\\+|C)$")
      continue()
    endif()
    get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${dir}")
    list(APPEND result "${abs}")
  endforeach()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

function(clang_grad_ide)
  if(NOT ARGN)
    message(FATAL_ERROR "clang_grad_ide: name at least one target")
  endif()
  if(CMAKE_VERSION VERSION_LESS 3.20)
    message(FATAL_ERROR "clang_grad_ide needs CMake 3.20 or later")
  endif()
  _clang_grad_ide_dump(dump dump_dep)
  set(db "${CMAKE_BINARY_DIR}/compile_commands.json")
  # DEPFILE: the headers the source includes (Ninja, Makefiles).
  set(use_depfile OFF)
  if(CMAKE_GENERATOR MATCHES "Ninja|Makefiles")
    set(use_depfile ON)
  endif()
  foreach(target IN LISTS ARGN)
    if(NOT TARGET ${target})
      message(FATAL_ERROR "clang_grad_ide: '${target}' is not a target")
    endif()
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "INTERFACE_LIBRARY")
      message(FATAL_ERROR "clang_grad_ide: '${target}' is an INTERFACE "
        "library: name the targets that compile its sources")
    endif()
    set_property(TARGET ${target} PROPERTY EXPORT_COMPILE_COMMANDS ON)
    _clang_grad_ide_sources(${target} srcs)
    set(headers)
    foreach(src IN LISTS srcs)
      _clang_grad_ide_header(${target} "${src}" hdr)
      set(depfile_args)
      if(use_depfile)
        set(depfile_args DEPFILE "${hdr}.d")
      endif()
      add_custom_command(OUTPUT "${hdr}"
        COMMAND "${dump}" --declarations -p "${CMAKE_BINARY_DIR}"
                -o "${hdr}" "--depfile=${hdr}.d" "${src}"
        DEPENDS "${src}" ${dump_dep} "${db}"
        ${depfile_args}
        COMMENT "grad-dump --declarations ${src}"
        VERBATIM)
      list(APPEND headers "${hdr}")
      set_property(GLOBAL APPEND PROPERTY CLANG_GRAD_IDE_MAP
        "${src}" "${hdr}")
    endforeach()
    add_custom_target(${target}_grad_ide ALL DEPENDS ${headers})
  endforeach()
  get_property(deferred GLOBAL PROPERTY CLANG_GRAD_IDE_DEFERRED)
  if(NOT deferred)
    set_property(GLOBAL PROPERTY CLANG_GRAD_IDE_DEFERRED ON)
    cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}"
      CALL _clang_grad_ide_database)
  endif()
endfunction()

# At the end of the top-level directory: the editors' compile database,
# written at build time from the build's own.
function(_clang_grad_ide_database)
  get_property(map GLOBAL PROPERTY CLANG_GRAD_IDE_MAP)
  set(dir "${CMAKE_BINARY_DIR}/grad-ide")
  set(script "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/ClangGradIdeDatabase.cmake")
  string(REPLACE ";" "\n" lines "${map}")
  file(GENERATE OUTPUT "${dir}/sources.txt" CONTENT "${lines}\n")
  add_custom_command(OUTPUT "${dir}/compile_commands.json"
    COMMAND "${CMAKE_COMMAND}"
            "-DIN=${CMAKE_BINARY_DIR}/compile_commands.json"
            "-DOUT=${dir}/compile_commands.json"
            "-DMAP=${dir}/sources.txt"
            -P "${script}"
    DEPENDS "${CMAKE_BINARY_DIR}/compile_commands.json" "${dir}/sources.txt"
            "${script}"
    COMMENT "clang-grad: compile database for editors in ${dir}"
    VERBATIM)
  add_custom_target(grad_ide_database ALL
    DEPENDS "${dir}/compile_commands.json")
  message(STATUS "clang-grad: editors (clangd) read ${dir}/"
    "compile_commands.json (docs/ide.md)")
endfunction()
