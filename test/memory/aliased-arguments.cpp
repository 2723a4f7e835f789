// A variable passed to a helper by reference and also through another
// argument (`h(t1, &t1)`, a lambda capturing `t` and a pointer to it by
// reference). The helper's pullback keeps the reference parameter's adjoint
// in a local and stores it back at the end, over what the other parameter's
// adjoint added to the same memory, and takes a write through one for none
// through the other: a wrong derivative without a diagnostic (found by the
// generator, all,memory,lambdas,structs,structops,loops seed 88309: `const
// double *q3 = &t1; [&] { t1 += ... q3[0] ... }();`). Now such a call is an
// error, unless the callee writes nothing: then the reference gets an
// adjoint of its own, added to the memory's after the call.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined -fno-sanitize-recover=all -g %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | FileCheck %s --check-prefix=ERR --implicit-check-not=error:
// RUN: %dump %s --function=reads %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"
#include <cmath>

// Takes t by non-const reference but only reads it.
double peek(double &t, const double *q) { return t * q[0] + std::sin(q[0]); }

// DUMP-LABEL: void reads_pullback(
// DUMP:         double _g{{[0-9]+}} = _d_t1;
// DUMP-NEXT:    _d_t1 = 0.;
// DUMP-NEXT:    ::_grad_peek_rev({{.*}}, &_g{{[0-9]+}}, &_d_t1 + _o{{[0-9]+}}, _stack);
// DUMP-NEXT:    _d_t1 += _g{{[0-9]+}};
[[grad]] double reads(double x) {
  double t1 = x * x;
  const double *q = &t1;
  return peek(t1, q) * x;
}
// Different elements of one array, both written: as before.
void upd(double &a, double &b) {
  a = a * b;
  b = std::sin(a) + b;
}
[[grad]] double elements(double x, double y) {
  double v[2] = {x, y};
  upd(v[0], v[1]);
  return v[0] * v[1];
}
// Different members of one struct, both written; an element and its array
// to a helper that only reads the array: its own adjoint, as for `reads`.
struct Pair2 {
  double a, b;
};
[[grad]] double members(double x, double y) {
  Pair2 p{x, y};
  upd(p.a, p.b);
  return p.a * p.b;
}
[[grad]] double inarray(double x, double y) {
  double v[2] = {x * y, y};
  return peek(v[0], v) * x;
}

#ifdef ERRORS
void h(double &t, const double *q) { t += 0.5 * std::tanh(2.0 * q[0] * t); }
void h3(double &t, double *q) { q[0] = 2 * t * q[0]; t = t * std::sin(q[0]); }
void h4(double &t, double &u) { u = 2 * t * u; t = t * std::sin(u); }
struct S {
  double w;
  void m(double &t) { w += t * w; t *= std::cos(w); }
};
// ERR: aliased-arguments.cpp:[[@LINE+4]]:5: error: grad: cannot differentiate call to 'h' passing 't1' by reference and the same memory through its parameter 'q' (the derivative would take them for different memory: pass a copy) in 'e1'
[[grad]] double e1(double x) {
  double t1 = x;
  const double *q = &t1;
  h(t1, q);
  return t1 * x;
}
// ERR: aliased-arguments.cpp:[[@LINE+3]]:6: error: grad: cannot differentiate call to 'h3' passing 't1' by reference and the same memory through its parameter 'q' (the derivative would take them for different memory: pass a copy) in 'e3'
[[grad]] double e3(double x) {
  double t1 = x;
  h3(t1, &t1);
  return t1 * x;
}
// ERR: aliased-arguments.cpp:[[@LINE+3]]:6: error: grad: cannot differentiate call to 'h4' passing 't1' by reference and the same memory through its parameter 'u' (the derivative would take them for different memory: pass a copy) in 'e4'
[[grad]] double e4(double x) {
  double t1 = x;
  h4(t1, t1);
  return t1 * x;
}
// ERR: aliased-arguments.cpp:[[@LINE+3]]:7: error: grad: cannot differentiate call to 'm' passing 's.w' by reference, which is part of the object it is called on (pass a copy) in 'e5'
[[grad]] double e5(double x) {
  S s{x};
  s.m(s.w);
  return s.w * x;
}
// ERR: aliased-arguments.cpp:[[@LINE+4]]:{{[0-9]+}}: error: grad: cannot differentiate call of a lambda capturing 't1' by reference and the same memory through 'q3' (the derivative would take them for different memory: pass a copy) in 'e6'
[[grad]] double e6(double x) {
  double t1 = x;
  const double *q3 = &t1;
  [&] { t1 += 0.5 * std::tanh(2.0 * std::erf(0.5 * q3[0]) * t1); }();
  return t1 * x;
}
// A pointer into one of several storages may reach the reference's
// variable: reassigned (`w = &x; w = &z;`), chosen by a condition, or read
// in a lambda (pointers in lambdas are differentiated since 2026-12-04).
// Were wrong gradients without a diagnostic (d/dz half the right value;
// found by the generator, all,memory,lambdas,intalias,vectors,temps,values
// seed 40105).
// ERR: aliased-arguments.cpp:[[@LINE+4]]:5: error: grad: cannot differentiate call to 'h' passing 'z' by reference and memory that may be the same through its parameter 'q' (the derivative would take them for different memory: pass a copy) in 'e7'
[[grad]] double e7(double x, double y, double z) {
  double *w = &x;
  w = &z;
  h(z, w);
  return y * z;
}
// ERR: aliased-arguments.cpp:[[@LINE+3]]:5: error: grad: cannot differentiate call to 'h' passing 'z' by reference and memory that may be the same through its parameter 'q' (the derivative would take them for different memory: pass a copy) in 'e8'
[[grad]] double e8(double x, double z, bool c) {
  const double *w = c ? &x : &z;
  h(z, w);
  return x * z;
}
// ERR: aliased-arguments.cpp:[[@LINE+4]]:3: error: grad: cannot differentiate call of a lambda capturing 'z' by reference and memory that may be the same through 'w' (the derivative would take them for different memory: pass a copy) in 'e9'
[[grad]] double e9(double x, double y, double z) {
  auto *w = &x;
  w = &z;
  [&] { y += 0.5 * std::tanh(*w * z); }();
  return y * x;
}
// An element and a pointer into its array (the helper may read any
// element), or two elements whose indices may be equal: possibly the same
// memory (wrong gradients without a diagnostic before: d/dz 1.0992 instead
// of 1.0984 for e10).
// ERR: aliased-arguments.cpp:[[@LINE+3]]:5: error: grad: cannot differentiate call to 'h' passing 'a[0]' by reference and memory that may be the same through its parameter 'q' (the derivative would take them for different memory: pass a copy) in 'e10'
[[grad]] double e10(double x, double z) {
  double a[2] = {z, x};
  h(a[0], a);
  return a[0] * x;
}
// ERR: aliased-arguments.cpp:[[@LINE+4]]:5: error: grad: cannot differentiate call to 'h' passing 'a[0]' by reference and memory that may be the same through its parameter 'q' (the derivative would take them for different memory: pass a copy) in 'e11'
[[grad]] double e11(double x, double z) {
  double a[2] = {z, x};
  const double *w = &a[0];
  h(a[0], w);
  return a[0] * x;
}
// (Two elements whose indices may be equal, `upd(v[i], v[j])`, both
// references to numbers: accepted, the pullback of upd checks at its entry
// that they are not one element, test/memory/runtime-aliased-arguments.cpp.)
#endif

int main() {
  using gradcheck::check_grad;
  check_grad("reads", reads, reads_pullback, 0.7);
  check_grad("elements", elements, elements_pullback, 0.7, 1.3);
  check_grad("members", members, members_pullback, 0.7, 1.3);
  check_grad("inarray", inarray, inarray_pullback, 0.7, 1.3);
  // CHECK: ok reads.d0
  // CHECK-NEXT: ok elements.d0
  // CHECK-NEXT: ok elements.d1
  // CHECK-NEXT: ok members.d0
  // CHECK-NEXT: ok members.d1
  // CHECK-NEXT: ok inarray.d0
  // CHECK-NEXT: ok inarray.d1
  // Closed form of `reads`: (x^4 + sin x^2) x -> 5 x^4 + sin x^2 + 2 x^2 cos x^2.
  double dx = 0, x = 0.7;
  reads_pullback(x, 1.0, &dx);
  gradcheck::expect("reads.closed", dx,
                    5 * std::pow(x, 4) + std::sin(x * x) +
                        2 * x * x * std::cos(x * x));
  // CHECK-NEXT: ok reads.closed
  return gradcheck::failures();
}
