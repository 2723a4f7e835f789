# Included by run_consumer.cmake (MODE ide) once the ide consumer is built
# and its program printed ok: the editors' compile database of
# clang_grad_ide() makes clangd see every generated function the sources
# call (no error), the build's own does not (the errors the helper removes),
# and the real compile commands are left as they were.
set(real_db "${consumer_build}/compile_commands.json")
set(ide_dir "${consumer_build}/grad-ide")
set(header "${ide_dir}/app/main.cpp.h")

function(expect_in what text pattern)
  string(FIND "${text}" "${pattern}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "install test: ${what} lacks '${pattern}':\n${text}")
  endif()
endfunction()
function(expect_not_in what text pattern)
  string(FIND "${text}" "${pattern}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "install test: ${what} has '${pattern}':\n${text}")
  endif()
endfunction()

step("the compile databases and the declarations header")
foreach(f "${real_db}" "${ide_dir}/compile_commands.json" "${header}")
  if(NOT EXISTS "${f}")
    message(FATAL_ERROR "install test: the build did not write ${f}")
  endif()
endforeach()
file(READ "${real_db}" text)
expect_in("the build's compile_commands.json" "${text}"
  "-fplugin=${prefix}/lib/ClangGrad.so")
expect_not_in("the build's compile_commands.json" "${text}" "grad-ide")
file(READ "${ide_dir}/compile_commands.json" text)
expect_in("grad-ide/compile_commands.json" "${text}" "-include ${header}")
expect_not_in("grad-ide/compile_commands.json" "${text}" "-fplugin")
file(READ "${header}" text)
foreach(decl "void kinetic_pullback(const phys::Particle &p, double m"
             "void model_pullback(double x, const Weights &w"
             "grad::dual<double> growth_pushforward(double x, double r"
             "void energy_pullback(const phys::Particle &p")
  expect_in("${header}" "${text}" "${decl}")
endforeach()

# clangd --check: exit 0 and "0 errors" when nothing is wrong; the errors
# are lines "E[time] [name] Line N: message".
function(clangd_check db file out_rc out_log)
  execute_process(COMMAND "${CLANGD}" --enable-config=false --log=verbose
    "--compile-commands-dir=${db}" "--check=${file}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${out_rc} "${rc}" PARENT_SCOPE)
  set(${out_log} "${out}${err}" PARENT_SCOPE)
endfunction()

foreach(src main.cpp spring.h)
  step("clangd --check=${src} with grad-ide/compile_commands.json")
  clangd_check("${ide_dir}" "${CONSUMER_SRC}/${src}" rc log)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install test: clangd reports errors in ${src} "
      "with the editors' compile database (${rc}):\n${log}")
  endif()
  expect_in("clangd's log" "${log}" "All checks completed, 0 errors")
  expect_not_in("clangd's log" "${log}" "unknown attribute")
endforeach()

step("clangd --check=main.cpp with the build's compile_commands.json")
clangd_check("${consumer_build}" "${CONSUMER_SRC}/main.cpp" rc log)
if(rc EQUAL 0)
  message(FATAL_ERROR "install test: clangd found no error without the "
    "helper's database: the test cannot tell it works:\n${log}")
endif()
# The attribute warnings of spring.h show in clangd's log as "Dropped
# diagnostic" (not in the main file); the helper's header silences them.
foreach(msg "no member named 'energy_pullback' in 'phys::Spring'"
            "no member named 'kinetic_pullback' in namespace 'phys'"
            "use of undeclared identifier 'model_pullback'"
            "use of undeclared identifier 'growth_pushforward'"
            "unknown attribute 'grad' ignored")
  expect_in("clangd's log without the helper" "${log}" "${msg}")
endforeach()
message(STATUS "install test: ok")
