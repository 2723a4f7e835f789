// Pullbacks are declared in the primal's namespace: nested, anonymous,
// inline and reopened namespaces, the same name in two namespaces, a call
// from inside the namespace before the definition, and qualified calls from
// outside.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
// The prototypes first, each in its namespace, then the definitions.
// DUMP: namespace outer {
// DUMP-NEXT: namespace inner {
// DUMP-NEXT: void f_pullback(double x, double d_ret, double *d_x);
// DUMP-NEXT: }
// DUMP-NEXT: }
// DUMP-NEXT: namespace other {
// DUMP-NEXT: void f_pullback(double x, double d_ret, double *d_x);
// DUMP-NEXT: }
// DUMP-NEXT: namespace {
// DUMP-NEXT: void anon_pullback(double x, double d_ret, double *d_x);
// DUMP-NEXT: }
// DUMP-NEXT: inline namespace v1 {
// DUMP-NEXT: void versioned_pullback(double x, double d_ret, double *d_x);
// DUMP-NEXT: }
// DUMP-NEXT: namespace re {
// DUMP-NEXT: void q_pullback(double x, double d_ret, double *d_x);
// DUMP-NEXT: }
// DUMP-EMPTY:
// DUMP-NEXT: namespace outer {
// DUMP-NEXT: namespace inner {
// DUMP-NEXT: void f_pullback(double x, double d_ret, double *d_x) {
// DUMP: namespace other {
// DUMP-NEXT: void f_pullback(double x, double d_ret, double *d_x) {
// DUMP: namespace {
// DUMP-NEXT: void anon_pullback(double x, double d_ret, double *d_x) {
// DUMP: inline namespace v1 {
// DUMP-NEXT: void versioned_pullback(double x, double d_ret, double *d_x) {
// DUMP: namespace re {
// DUMP-NEXT: void q_pullback(double x, double d_ret, double *d_x) {
#include "gradcheck.h"
#include <cmath>

namespace outer::inner {
[[grad]] double f(double x) { return std::sin(x) * x; }
} // namespace outer::inner

namespace other {
[[grad]] double f(double x) { return 3 * x * x; }
} // namespace other

namespace {
[[grad]] double anon(double x) { return x / (1 + x * x); }
} // namespace

inline namespace v1 {
[[grad]] double versioned(double x) { return std::exp(2 * x); }
} // namespace v1

// Declared in one block of the namespace, called in it before the
// definition, defined in a reopened block.
namespace re {
[[grad]] double q(double x);
double dq(double x) {
  double D = 0;
  q_pullback(x, 1.0, &D);
  return D;
}
} // namespace re

namespace re {
double q(double x) { return std::log(x) * x; }
} // namespace re

int main() {
  using gradcheck::check_grad;
  // CHECK: ok outer::inner::f.d0
  check_grad("outer::inner::f", outer::inner::f, outer::inner::f_pullback, 0.8);
  // CHECK: ok other::f.d0
  check_grad("other::f", other::f, other::f_pullback, 0.8);
  // CHECK: ok anon.d0
  check_grad("anon", anon, anon_pullback, 0.8);
  // CHECK: ok versioned.d0
  check_grad("versioned", versioned, versioned_pullback, 0.2);
  // CHECK: ok v1::versioned.d0
  check_grad("v1::versioned", v1::versioned, v1::versioned_pullback, 0.2);
  // CHECK: ok re::q.d0
  check_grad("re::q", re::q, re::q_pullback, 1.7);
  // CHECK: ok re::dq
  gradcheck::expect("re::dq", re::dq(1.7), std::log(1.7) + 1);
  using namespace outer;
  // CHECK: ok using.d0
  check_grad("using", inner::f, inner::f_pullback, -0.3);
  return gradcheck::failures();
}
