// Older language standards get one clear error, from the plugin (which then
// differentiates nothing) and from the runtime header included by hand,
// instead of a screen of errors about concepts from inside the runtime.
// RUN: not %gradxx -std=c++17 -fsyntax-only %s 2>&1 | %FileCheck-strict %s --check-prefix=PLUGIN
// RUN: not %gradxx -std=c++14 -fsyntax-only %s 2>&1 | %FileCheck-strict %s --check-prefix=PLUGIN
// RUN: not %cxx -std=c++17 -fsyntax-only -x c++ -include grad/grad.h /dev/null 2>&1 | %FileCheck-strict %s --check-prefix=HEADER
// RUN: %gradxx -std=c++23 -fsyntax-only %s

// PLUGIN: {{^}}error: grad: clang-grad needs C++20 (its runtime, which generated code uses, is C++20): compile with -std=c++20 or later
// PLUGIN-NEXT: 1 error generated.

// HEADER: grad.h:[[#]]:2: error: "clang-grad's runtime needs C++20: compile with -std=c++20 (or later)"
// HEADER-NEXT: #error
// HEADER-NEXT: ^
// HEADER-NEXT: 1 error generated.

[[grad]] double f(double x) {
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += x * x;
  return s;
}

double g(double x) {
  double dx = 0;
  f_pullback(x, 1.0, &dx);
  return dx;
}
