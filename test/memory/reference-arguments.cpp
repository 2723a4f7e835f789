// A local reference into memory (`double &r = o[1]`, `V2 &q = arr[1]`,
// `std::vector<double> &r = v`) used as an argument whose adjoint the
// pullback receives through a pointer: a constructor's (`P3(r, 2., x)`), a
// member function's (`v.dot(r)`, `p.bump(r)`), a helper's reference
// parameter, a lambda's capture, the range of a range-based for. The
// adjoint must reach the memory the reference binds to. It went to a local
// adjoint of the reference that nothing read (a wrong derivative without a
// diagnostic, found by the generator: seed 85119 of
// all,memory,structs,structops,ctors,values,temps,loops), and a range-based
// for over a reference to a vector wrote past the end of an empty local
// vector. Reverse mode against finite differences.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <string>
#include <vector>

struct P3 {
  double x, y, z;
  P3(double a, double b, double c) : x(a * b), y(b - c) { z = c * x + 0.5 * y; }
  double lam(double t) const { return x * t + y * z; }
  void bump(double v) { x += v * v; }
};
struct V2 { double a, b; double dot(double s) const { return a * s + b; } };
static void addsq(double &a, double v) { a += v * v; }
[[grad]] double ctor(double x, double y) {
  double o[2] = {x, y};
  double &r = o[1];
  double t = P3(r, 2., x).lam(r);
  o[1] = std::tan(0.1 * t);
  return o[0] * o[1] + t;
}
[[grad]] double method(double x, double y) {
  double o[2] = {x, y};
  double &r = o[1];
  V2 v{x, y};
  double t = v.dot(r);
  P3 p(x, y, 1.0);
  p.bump(r);
  o[1] = std::sin(t);
  return o[1] * p.x + t;
}
[[grad]] double refhelper(double x, double y) {
  double o[2] = {x, y};
  double &r = o[1];
  double *q = &o[0];
  addsq(r, *q);
  addsq(*q, r);
  return o[0] * o[1];
}
[[grad]] double capture(double x, double y) {
  double o[2] = {x, y};
  double &r = o[1];
  auto f = [&r](double s) { return r * s; };
  auto g = [&](double s) { return r * r * s; };
  double t = f(x) + g(y);
  o[1] = 0.0;
  return t + o[1];
}
[[grad]] double rangeref(double x, double y) {
  std::vector<double> v{x, y, x * y};
  std::vector<double> &r = v;
  double s = 0;
  for (double e : r)
    s += e * e;
  return s;
}
[[grad]] double structref(double x, double y) {
  V2 arr[2] = {{x, y}, {y, x}};
  V2 &q = arr[1];
  double t = q.dot(x) + V2{q.a, q.b * y}.dot(y);
  P3 p(q.a, q.b, x);
  return t + p.z;
}
// A reference declared in a loop, per iteration.
[[grad]] double inloop(double x, double y) {
  double o[3] = {x, y, x * y};
  double s = 0;
  for (int i = 0; i < 4; ++i) {
    double &r = o[i % 3];
    s += P3(r, y, s * 0.1).lam(r);
    o[i % 3] = std::sin(r + s * 0.01);
  }
  return s + o[0];
}

int main() {
  using gradcheck::check_grad;
  check_grad("ctor", ctor, ctor_pullback, 0.7, 1.3);
  check_grad("method", method, method_pullback, 0.7, 1.3);
  check_grad("refhelper", refhelper, refhelper_pullback, 0.7, 1.3);
  check_grad("capture", capture, capture_pullback, 0.7, 1.3);
  check_grad("rangeref", rangeref, rangeref_pullback, 0.7, 1.3);
  check_grad("structref", structref, structref_pullback, 0.7, 1.3);
  check_grad("inloop", inloop, inloop_pullback, 0.7, 1.3);
  // CHECK: ok ctor.d0
  // CHECK-NEXT: ok ctor.d1
  // CHECK-NEXT: ok method.d0
  // CHECK-NEXT: ok method.d1
  // CHECK-NEXT: ok refhelper.d0
  // CHECK-NEXT: ok refhelper.d1
  // CHECK-NEXT: ok capture.d0
  // CHECK-NEXT: ok capture.d1
  // CHECK-NEXT: ok rangeref.d0
  // CHECK-NEXT: ok rangeref.d1
  // CHECK-NEXT: ok structref.d0
  // CHECK-NEXT: ok structref.d1
  // CHECK-NEXT: ok inloop.d0
  // CHECK-NEXT: ok inloop.d1
  return gradcheck::failures();
}
