// std::min and std::max of an initializer list (`std::min({a, b, c})`) are
// the nested two-argument calls (libstdc++ returns the first smallest or
// largest element; nested calls keep the first of equal ones): the adjoint
// goes to that element, ties to the first. In pullbacks and pushforwards.
// It was differentiated through libstdc++'s min_element, with errors
// inside <algorithm> ("no member named 'data' in
// 'std::initializer_list<double>'").
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s --function=lo %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"
#include <algorithm>
#include <cmath>

// DUMP-LABEL: void lo_pullback(
// DUMP: _t0 = ::std::min<double>(a * b, c);
// DUMP: _t3 = ::std::max<double>(a, b * c);
// DUMP: (_t2 < _t0 ? 1. : 0.)
[[grad, grad::forward]] double lo(double a, double b, double c) {
  return std::min({a * b, c, std::sin(a)}) + 2 * std::max({a, b * c, c});
}

int main() {
  using gradcheck::check_grad;
  // Each element the smallest, or the largest, in turn.
  check_grad("lo1", lo, lo_pullback, 0.3, 0.5, 0.8);
  check_grad("lo2", lo, lo_pullback, 1.2, 0.9, -0.4);
  check_grad("lo3", lo, lo_pullback, -0.7, -1.5, 0.6);
  // CHECK: ok lo1.d0
  // CHECK: ok lo1.d2
  // CHECK: ok lo2.d0
  // CHECK: ok lo2.d2
  // CHECK: ok lo3.d0
  // CHECK: ok lo3.d2
  // A tie (a * b == c == 0.25): the first of them, a * b.
  double da = 0, db = 0, dc = 0;
  lo_pullback(0.5, 0.5, 0.25, 1.0, &da, &db, &dc);
  // min: d(a * b) = (b, a) = (0.5, 0.5); max({0.5, 0.125, 0.25}) = a: 2.
  gradcheck::expect("tie.da", da, 0.5 + 2, 1e-15);
  gradcheck::expect("tie.db", db, 0.5, 1e-15);
  gradcheck::expect("tie.dc", dc, 0, 0, 0);
  // CHECK: ok tie.da
  // CHECK: ok tie.db
  // CHECK: ok tie.dc
  auto T = lo_pushforward(0.3, 0.5, 0.8, 1.0, -0.5, 0.25);
  double E = 1e-6;
  double Fd = (lo(0.3 + E, 0.5 - 0.5 * E, 0.8 + 0.25 * E) -
               lo(0.3 - E, 0.5 + 0.5 * E, 0.8 - 0.25 * E)) /
              (2 * E);
  gradcheck::expect("lo.fwd", T.der[0], Fd, 1e-6);
  // CHECK: ok lo.fwd
  return gradcheck::failures();
}
