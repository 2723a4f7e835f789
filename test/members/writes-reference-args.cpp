// Member functions that write through a non-const reference parameter
// (`void step(double &x)`), called on objects in a [[grad]] function: the
// call writes the caller's variable (it wrote a copy before, and the
// method's pullback started from the value after the call: d/da 2.8 for
// 1.4, found by the advice audit of issue 54), and the pullback gets the
// value before the call and the variable's adjoint in and out. Const and
// non-const methods, scalars, structs and vectors by reference, element
// and member arguments, operator(), int& counters, loops, a member calling
// a member, and a helper differentiated in two halves. An argument with
// side effects is refused (it is evaluated twice), with the rewrite
// checked in test/rewrites/misc-statements-hvp.cpp.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
#include "gradcheck.h"
#include <cmath>
#include <vector>

struct Acc { double k; void step(double &x) { k *= x; x *= 2; } };
struct Get { double k; void get(double &out) const { out = k * out; } };
struct Fill {
  double k;
  void fill(std::vector<double> &v) { for (auto &e : v) e *= k; k += 1; }
};
struct CFill {
  double k;
  void fill(std::vector<double> &v) const { for (auto &e : v) e = e * k + 1; }
};
struct State { double p, v; };
struct Integrator {
  double h;
  void advance(State &s) const { s.v -= h * std::sin(s.p); s.p += h * s.v; }
  void operator()(double &x) const { x = x * x * h; }
  void count(int &n, double &acc) const { acc += h * n; ++n; }
};
struct Outer {
  Acc a;
  double twice(double x) { double y = x; a.step(y); a.step(y); return y + a.k; }
};
struct Pair { double x, y; };

[[grad]] double f1(double a, double b) { Acc s{a}; double e = b; s.step(e); return s.k + e * e; }
[[grad]] double f2(double a, double b) { Get g{a}; double e = b; g.get(e); return e * e + a; }
[[grad]] double f3(double a, double b) {
  Fill s{a};
  std::vector<double> v{b, 2 * b};
  s.fill(v);
  return s.k * v[0] + v[1] * v[1];
}
[[grad]] double f4(double a, double b) { CFill s{a}; std::vector<double> v{b, 2 * b}; s.fill(v); return v[0] * v[1]; }
[[grad]] double f5(double a, double b) {
  Acc s{a};
  double e = b;
  for (int i = 0; i < 3; ++i)
    s.step(e);
  return s.k + e * e;
}
[[grad]] double f6(double a, double b) {
  Acc v[2] = {{a}, {b}};
  double e = b;
  v[1].step(e);
  v[0].step(e);
  return v[0].k * v[1].k + e;
}
[[grad]] double f7(double a, double b) { Acc s{a}; Acc *p = &s; double e = b; p->step(e); return s.k * e; }
[[grad]] double f8(double p0, double v0, double h) {
  Integrator in{h};
  State s{p0, v0};
  for (int i = 0; i < 4; ++i)
    in.advance(s);
  return s.p * s.v;
}
[[grad]] double f9(double a, double h) { Integrator in{h}; double x = a; in(x); in(x); return x; }
[[grad]] double f10(double a, double b) {
  Acc s{a};
  double v[3] = {a, b, a * b};
  for (int i = 0; i < 3; ++i)
    s.step(v[i]);
  return v[0] + v[1] * v[2] + s.k;
}
[[grad]] double f11(double h, double b) {
  Integrator in{h};
  int n = 1;
  double acc = b;
  in.count(n, acc);
  in.count(n, acc);
  return acc * acc;
}
[[grad]] double f12(double a, double x) { Outer o{{a}}; return o.twice(x); }
static void helper(Acc &s, double &e) { s.step(e); e += s.k; }
[[grad]] double f13(double a, double b) { Acc s{a}; double e = b; helper(s, e); helper(s, e); return e * s.k; }
[[grad]] double f14(double a, double b) { Acc s{a}; Pair q{b, a}; s.step(q.x); s.step(q.y); return q.x * q.y + s.k; }

#ifdef ERRORS
[[grad]] double f15(double a, double b) {
  Acc s{a};
  double v[2] = {a, b};
  int i = 0;
  // ERR: writes-reference-args.cpp:[[@LINE+1]]:10: error: grad: cannot differentiate argument 'v[i++]' with side effects for the reference parameter 'x' of 'step' (write the side effect as a statement of its own) in 'f15'
  s.step(v[i++]);
  return v[0] + v[1] + s.k;
}
// ERR: writes-reference-args.cpp:[[@LINE-8]]:3: note: while differentiating 'f15' requested here
#endif

int main() {
  gradcheck::check_grad("f1", f1, f1_pullback, 0.9, 1.4);
  gradcheck::check_grad("f2", f2, f2_pullback, 0.9, 1.4);
  gradcheck::check_grad("f3", f3, f3_pullback, 0.9, 1.4);
  gradcheck::check_grad("f4", f4, f4_pullback, 0.9, 1.4);
  gradcheck::check_grad("f5", f5, f5_pullback, 0.9, 1.4);
  gradcheck::check_grad("f6", f6, f6_pullback, 0.9, 1.4);
  gradcheck::check_grad("f7", f7, f7_pullback, 0.9, 1.4);
  gradcheck::check_grad("f8", f8, f8_pullback, 0.3, -0.2, 0.1);
  gradcheck::check_grad("f9", f9, f9_pullback, 0.7, 1.3);
  gradcheck::check_grad("f10", f10, f10_pullback, 0.9, 1.4);
  gradcheck::check_grad("f11", f11, f11_pullback, 0.6, 1.4);
  gradcheck::check_grad("f12", f12, f12_pullback, 0.9, 1.4);
  gradcheck::check_grad("f13", f13, f13_pullback, 0.9, 1.4);
  gradcheck::check_grad("f14", f14, f14_pullback, 0.9, 1.4);
  return gradcheck::failures();
}
// CHECK: ok f1.d0
// CHECK: ok f1.d1
// CHECK: ok f2.d1
// CHECK: ok f3.d0
// CHECK: ok f4.d1
// CHECK: ok f5.d1
// CHECK: ok f6.d1
// CHECK: ok f7.d1
// CHECK: ok f8.d2
// CHECK: ok f9.d1
// CHECK: ok f10.d0
// CHECK: ok f10.d1
// CHECK: ok f11.d1
// CHECK: ok f12.d1
// CHECK: ok f13.d1
// CHECK: ok f14.d1
