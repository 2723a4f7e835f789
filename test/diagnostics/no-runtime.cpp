// With -fplugin-arg-grad-no-runtime-include and no runtime header, code that
// needs the runtime gets one error per translation unit, at the first
// statement that needs it (here: one whose value goes on the stack).
// RUN: not %clangxx -std=c++20 -fsyntax-only -fplugin=%plugin -fplugin-arg-grad-no-runtime-include %s 2>&1 | %FileCheck-strict %s
// A helper writing through a pointer is differentiated in split halves,
// which need the runtime too: the same error, at the function (was: "cannot
// differentiate this function (building the pullback failed)").
// RUN: not %clangxx -std=c++20 -fsyntax-only -fplugin=%plugin -fplugin-arg-grad-no-runtime-include -DWRITER %s 2>&1 | %FileCheck-strict %s --check-prefix=WRITER
#ifdef WRITER
#include <cmath>

void scale(double *out, double x) { out[0] = std::sin(x) * out[0]; }

// WRITER: no-runtime.cpp:[[@LINE+3]]:17: error: grad: differentiating 'top' needs the clang-grad runtime, which is not declared in this translation unit: include <grad/grad.h> (the plugin includes it by itself unless given -fplugin-arg-grad-no-runtime-include or unable to find it)
// WRITER-NEXT: {{\[\[}}grad]] double top
// WRITER: no-runtime.cpp:[[@LINE+1]]:3: note: while differentiating 'top' requested here
[[grad]] double top(double x) {
  double a[2] = {x, x};
  scale(a, x);
  scale(a, a[1]);
  return a[0];
}
#else

// CHECK: no-runtime.cpp:[[@LINE+5]]:5: error: grad: differentiating 'first' needs the clang-grad runtime, which is not declared in this translation unit: include <grad/grad.h> (the plugin includes it by itself unless given -fplugin-arg-grad-no-runtime-include or unable to find it)
// CHECK: no-runtime.cpp:[[@LINE+1]]:3: note: while differentiating 'first' requested here
[[grad]] double first(const double *x, int n) {
  double s = 1;
  for (int i = 0; i < n; ++i)
    s = s * x[i];
  return s;
}

[[grad]] double second(const double *x, int n) {
  double s = 1;
  for (int i = 0; i < n; ++i)
    s = s * x[i] + s;
  return s;
}
#endif
