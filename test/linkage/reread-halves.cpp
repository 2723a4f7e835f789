// Helpers that write through an out-parameter are called through split
// halves; a call whose const inputs stay unchanged uses a variant that reads
// them again (memory/stable-halves.cpp). Only a translation unit that defines
// the helper makes such a variant, and its halves are its own (internal):
// use.cpp calls the recording halves def.cpp defines for its [[grad]]
// function, and both files make a variant of the inline helper without a
// clash at link time.
// RUN: rm -rf %t && split-file %s %t
// RUN: %gradxx -c %t/def.cpp -o %t/def.o
// RUN: %gradxx -c %t/use.cpp -o %t/use.o
// RUN: %gradxx %t/def.o %t/use.o -o %t/a.out
// RUN: %t/a.out | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: llvm-nm -C %t/use.o | FileCheck %s --check-prefix=USE
// RUN: llvm-nm -C %t/def.o | FileCheck %s --check-prefix=DEF
// (The variants' halves are internal: inlined, or local symbols.)
// USE-NOT: {{[TW]}} _grad_{{[a-z]+}}_{{fwd|rev}}_{{[0-9]+}}(
// USE: U _grad_scale_fwd(int, double const*, double const*, double*, grad::detail::stack&)
// USE-NOT: {{[TW]}} _grad_{{[a-z]+}}_{{fwd|rev}}_{{[0-9]+}}(
// DEF-NOT: {{[TW]}} _grad_{{[a-z]+}}_{{fwd|rev}}_{{[0-9]+}}(
// DEF: T _grad_scale_fwd(int, double const*, double const*, double*, grad::detail::stack&)
// DEF-NOT: {{[TW]}} _grad_{{[a-z]+}}_{{fwd|rev}}_{{[0-9]+}}(
// RUN: %dump %t/def.cpp --function=useA %dflags -I%t | FileCheck %s --check-prefix=DUMPA
// DUMPA: static void _grad_scale_fwd_{{[0-9]+}}(int n, const double *q, const double *x, double *out, ::grad::detail::stack &_stack);
// DUMPA: static inline void _grad_twice_fwd_{{[0-9]+}}(int n, const double *q, double *out, ::grad::detail::stack &_stack);
// DUMPA: ::_grad_scale_fwd_{{[0-9]+}}(2, p, x, o, _stack);
// DUMPA: ::_grad_twice_fwd_{{[0-9]+}}(2, p, o, _stack);
// CHECK: ok useA.dy
// CHECK: ok useA.dp0
// CHECK: ok useA.dp1
// CHECK: ok useB.dy
// CHECK: ok useB.dp0
// CHECK: ok useB.dp1

//--- w.h
#include "gradcheck.h"
// out[i] = q[i] * x[i]
[[grad]] void scale(int n, const double *q, const double *x, double *out);
// out[i] += q[i] * out[i]
inline void twice(int n, const double *q, double *out) {
  for (int i = 0; i < n; ++i)
    out[i] = out[i] + q[i] * out[i];
}
[[grad]] double useA(const double *p, double y);
[[grad]] double useB(const double *p, double y);

//--- def.cpp
#include "w.h"
[[grad]] void scale(int n, const double *q, const double *x, double *out) {
  for (int i = 0; i < n; ++i)
    out[i] = q[i] * x[i];
}
// o = (p0 y, p1 y^2) * (1 + p): f = p0 p1 y^3 (1 + p0)(1 + p1)
[[grad]] double useA(const double *p, double y) {
  double x[2] = {y, y * y}, o[2];
  scale(2, p, x, o);
  twice(2, p, o);
  return o[0] * o[1];
}

//--- use.cpp
#include "w.h"
// o = (p0 y, 2 p1 y) * (1 + p): f = 2 p0 p1 y^2 (1 + p0)(1 + p1)
[[grad]] double useB(const double *p, double y) {
  double x[2] = {y, 2 * y}, o[2];
  scale(2, p, x, o);
  twice(2, p, o);
  return o[0] * o[1];
}
int main() {
  const double p[2] = {0.3, -0.7}, y = 1.3;
  const double a = 1 + p[0], b = 1 + p[1];
  double dp[2] = {0, 0}, dy = 0;
  useA_pullback(p, y, 1.0, dp, &dy);
  gradcheck::expect("useA.dy", dy, 3 * p[0] * p[1] * y * y * a * b);
  gradcheck::expect("useA.dp0", dp[0], p[1] * y * y * y * (a + p[0]) * b);
  gradcheck::expect("useA.dp1", dp[1], p[0] * y * y * y * a * (b + p[1]));
  dp[0] = dp[1] = dy = 0;
  useB_pullback(p, y, 1.0, dp, &dy);
  gradcheck::expect("useB.dy", dy, 4 * p[0] * p[1] * y * a * b);
  gradcheck::expect("useB.dp0", dp[0], 2 * p[1] * y * y * (a + p[0]) * b);
  gradcheck::expect("useB.dp1", dp[1], 2 * p[0] * y * y * a * (b + p[1]));
  return gradcheck::failures();
}
