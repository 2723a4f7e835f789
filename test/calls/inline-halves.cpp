// The split halves of a small helper without [[grad]] (its body, with the
// bodies of the helpers inlined into it, at most 600 statements and
// expressions) are always inlined into their callers, so that what the
// forward half records and the reverse half reads stays in registers. Not
// the halves of a [[grad]] function (other translation units call them) nor
// those of a large helper. The same operations either way: the same bits as
// with -fplugin-arg-grad-no-inline-halves (the printed %a values are
// compared). Values against central differences.
// RUN: %gradxx %s -o %t && %t > %t.out && %FileCheck-strict %s --implicit-check-not=FAIL < %t.out
// RUN: %gradxx -fplugin-arg-grad-no-inline-halves %s -o %t2 && %t2 > %t2.out && diff %t.out %t2.out
// At -O0 (no inlining but of always_inline functions) the pullback calls
// only the halves that are not inlined:
// RUN: %gradxx -O0 -S -emit-llvm -o - %s | FileCheck %s --check-prefix=IR
// RUN: %gradxx -O0 -fplugin-arg-grad-no-inline-halves -S -emit-llvm -o - %s | FileCheck %s --check-prefix=CALLED
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"
#include <cmath>
#include <cstdio>
using namespace gradcheck;

double sqsum(int n, const double *x) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  return s;
}

// Small: inlined, with sqsum.
void normalize(const double *v, double *out) {
  double r = std::sqrt(sqsum(3, v));
  for (int i = 0; i < 3; ++i)
    out[i] = v[i] / r;
}

// Large (over 600 with sqsum): called.
#define TERM(k) acc = acc * 0.5 + std::sin(v[(k) % 3] * (k) + acc) * v[((k) + 1) % 3];
#define TERM8(k) TERM(k) TERM(k + 1) TERM(k + 2) TERM(k + 3) TERM(k + 4) TERM(k + 5) TERM(k + 6) TERM(k + 7)
void mix(const double *v, double *out) {
  double acc = sqsum(3, v);
  TERM8(0) TERM8(8) TERM8(16) TERM8(24)
  out[0] = acc;
}

// Asked for: called (another translation unit may call its halves).
[[grad]] void twist(const double *v, double *out) {
  out[0] = v[0] * std::cos(v[1]) - v[2];
  out[1] = v[1] * std::sin(sqsum(2, v));
}

[[grad]] double f(double x, double y, double z) {
  double v[3] = {x, y * x, z - y}, n[3], m[1], t[2];
  normalize(v, n);
  mix(n, m);
  twist(n, t);
  return m[0] * t[0] + t[1] * n[2];
}

// IR-LABEL: define {{.*}}@_Z10f_pullback
// IR-NOT: {{call|invoke}} {{.*}}_grad_normalize_
// IR-NOT: {{call|invoke}} {{.*}}_grad_sqsum_
// IR: {{call|invoke}} {{.*}}@_Z{{L?[0-9]+}}_grad_mix_fwd
// IR-NOT: {{call|invoke}} {{.*}}_grad_normalize_
// IR: {{call|invoke}} {{.*}}@_Z{{L?[0-9]+}}_grad_twist_fwd
// IR-NOT: {{call|invoke}} {{.*}}_grad_normalize_
// IR: {{^}$}}
// CALLED-LABEL: define {{.*}}@_Z10f_pullback
// CALLED: {{call|invoke}} {{.*}}@_Z{{L?[0-9]+}}_grad_normalize_fwd
// CALLED: {{^}$}}
// DUMP-DAG: {{^\[\[}}gnu::always_inline]] static double _grad_sqsum_fwd(int n, const double *x, ::grad::detail::stack &_stack) {
// DUMP-DAG: {{^\[\[}}gnu::always_inline]] static void _grad_normalize_fwd_{{[0-9]+}}(
// DUMP-DAG: {{^\[\[}}gnu::always_inline]] static void _grad_normalize_rev_{{[0-9]+}}(
// DUMP-DAG: {{^}}static void _grad_mix_fwd_{{[0-9]+}}(
// DUMP-DAG: {{^}}void _grad_twist_fwd(const double *v, double *out, ::grad::detail::stack &_stack) {

int main() {
  // CHECK-COUNT-3: ok f.d
  check_grad("f", f, f_pullback, 0.4, -0.7, 1.1);
  // CHECK-COUNT-3: ok g.d
  check_grad("g", f, f_pullback, 2.4, 1.3, -0.2);
  double d[3] = {0, 0, 0};
  f_pullback(0.4, -0.7, 1.1, 1.0, &d[0], &d[1], &d[2]);
  // CHECK: bits
  std::printf("bits %a %a %a\n", d[0], d[1], d[2]);
  return failures();
}
