// With -fplugin-arg-grad-no-runtime-include and no runtime header, code that
// needs the runtime gets one error per translation unit, at the first
// statement that needs it (here: one whose value goes on the stack).
// RUN: not %clangxx -std=c++20 -fsyntax-only -fplugin=%plugin -fplugin-arg-grad-no-runtime-include %s 2>&1 | %FileCheck-strict %s

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
