// Rewrites suggested by the refusals of how a call is written: a call
// through a member function pointer (call the member function by name), a
// virtual call (make it non-virtual, or declare the class 'final'; a
// qualified call is refused: make it non-virtual), a member of the reference an
// operator returns (write the call as a statement of its own), a lambda
// called in the function that captures an array by value (capture it by
// reference), and an instantiation of a [[grad]] template with an integer
// parameter, whose message ends in
// (mark it [[grad::nodiff]])
// (its ERR line spells '[[' as '{{\[\[}}' for FileCheck). The first RUN
// line checks each message, its location and its notes; the second
// compiles the rewrites under the same names and checks their gradients
// against central finite differences.
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>

// An activation chosen by a member function pointer.
struct Act {
  double slope;
  double soft(double v) const { return std::log1p(std::exp(slope * v)); }
  double lin(double v) const { return slope * v; }
};

struct V2 {
  double a, b;
};
static V2 &operator+=(V2 &p, const V2 &q) {
  p.a += q.a;
  p.b += q.b;
  return p;
}

#ifdef ERRORS
// ADVICE: (call the member function by name)
[[grad]] double activate(double x, double s) {
  Act act{s};
  double (Act::*pick)(double) const = &Act::soft;
  return (act.*pick)(x) * x;
  // ERR: calls-shapes.cpp:[[@LINE-1]]:10: error: grad: cannot differentiate call through the member function pointer 'pick' (call the member function by name) in 'activate'
  // ERR: calls-shapes.cpp:[[@LINE-5]]:3: note: while differentiating 'activate' requested here
}

// A model with a virtual response: refused, with both rewrites checked
// below (non-virtual; a final class).
// ADVICE: (which override runs is not known: make it non-virtual, or declare the class of the object 'final')
// ADVICE: (make it non-virtual)
struct Model {
  double k = 0.5;
  virtual double response(double t) const { return std::tanh(k * t) * t; }
  virtual ~Model() = default;
};
[[grad]] double fit(double x, const Model &m) {
  return m.response(x) + x;
  // ERR: calls-shapes.cpp:[[@LINE-1]]:10: error: grad: cannot differentiate virtual call to 'response' (which override runs is not known: make it non-virtual, or declare the class of the object 'final') in 'fit'
  // ERR: calls-shapes.cpp:[[@LINE-3]]:3: note: while differentiating 'fit' requested here
}
// A qualified call would be rebuilt unqualified: refused.
[[grad]] double fitQualified(double x, const Model &m) {
  return m.Model::response(x) + x;
  // ERR: calls-shapes.cpp:[[@LINE-1]]:10: error: grad: cannot differentiate qualified call to virtual member function 'Model::response' (make it non-virtual) in 'fitQualified'
  // ERR: calls-shapes.cpp:[[@LINE-3]]:3: note: while differentiating 'fitQualified' requested here
}

// ADVICE: (write the call as a statement of its own)
[[grad]] double accumulate(double x, double y) {
  V2 acc{x, y};
  double r = (acc += V2{y * y, x}).a;
  // ERR: calls-shapes.cpp:[[@LINE-1]]:14: error: grad: cannot differentiate use of the reference returned by 'operator+=' (write the call as a statement of its own) in 'accumulate'
  // ERR: calls-shapes.cpp:[[@LINE-4]]:3: note: while differentiating 'accumulate' requested here
  return r * acc.b;
}

// ADVICE: (mark it [[grad::nodiff]])
template <class T, class N> [[grad]] T power(T x, N n) {
  T r = 1;
  for (N i = 0; i < n; ++i)
    r *= x;
  return r;
}
void usePower() {
  double dx = 0;
  int dn = 0;
  // ERR: calls-shapes.cpp:[[@LINE+2]]:3: error: grad: cannot differentiate 'power<double, int>', an instantiation of the {{\[\[}}grad]] template 'power': parameter 'n' has type 'int', which has no derivative (mark it {{\[\[}}grad::nodiff]])
  // ERR: calls-shapes.cpp:[[@LINE-10]]:31: note: while differentiating 'power' requested here
  power_pullback(1.5, 3, 1.0, &dx, &dn);
}

// ADVICE: (capture it by reference)
[[grad]] double quadratic(double x, double a) {
  double c[3] = {a, 2 * a, a * a};
  auto poly = [c](double t) { return c[0] + c[1] * t + c[2] * t * t; };
  return poly(x) * x;
  // ERR: calls-shapes.cpp:[[@LINE-1]]:10: error: grad: cannot differentiate call of lambda 'poly', which captures the array 'c' by value (capture it by reference) in 'quadratic'
  // ERR: calls-shapes.cpp:[[@LINE-5]]:3: note: while differentiating 'quadratic' requested here
}
#else
[[grad]] double quadratic(double x, double a) {
  double c[3] = {a, 2 * a, a * a};
  auto poly = [&c](double t) { return c[0] + c[1] * t + c[2] * t * t; };
  return poly(x) * x;
}

[[grad]] double activate(double x, double s) {
  Act act{s};
  return act.soft(x) * x;
}

struct Model {
  double k = 0.5;
  double response(double t) const { return std::tanh(k * t) * t; }
};
[[grad]] double fit(double x, const Model &m) {
  return m.response(x) + x;
}

[[grad]] double accumulate(double x, double y) {
  V2 acc{x, y};
  acc += V2{y * y, x};
  double r = acc.a;
  return r * acc.b;
}

template <class T, class N> [[grad]] T power(T x, [[grad::nodiff]] N n) {
  T r = 1;
  for (N i = 0; i < n; ++i)
    r *= x;
  return r;
}
#endif

// The other rewrite: the object's class is final, so the override that
// runs is known.
struct Base {
  double k = 0.5;
  virtual double response(double t) const { return std::tanh(k * t) * t; }
  virtual ~Base() = default;
};
struct Leaf final : Base {
  double response(double t) const override { return k * t * t; }
};
[[grad]] double fitLeaf(double x, const Leaf &m) { return m.response(x) + x; }

int main() {
  Leaf leaf, dleaf;
  leaf.k = 0.7;
  dleaf.k = 0;
  double dl = 0;
  fitLeaf_pullback(0.9, leaf, 1.0, &dl, &dleaf);
  gradcheck::expect("leaf.x", dl, 2 * 0.7 * 0.9 + 1);
  gradcheck::expect("leaf.k", dleaf.k, 0.9 * 0.9);
  // CHECK: ok leaf.x
  // CHECK: ok leaf.k
  gradcheck::check_grad("activate", activate, activate_pullback, 0.7, 1.3);
  // CHECK: ok activate.d0
  // CHECK: ok activate.d1
  Model m;
  double dx = 0;
  Model dm;
  dm.k = 0;
  fit_pullback(0.9, m, 1.0, &dx, &dm);
  gradcheck::expect("fit.x", dx,
                    gradcheck::fd([&](double t) { return fit(t, m); }, 0, 0.9));
  gradcheck::expect("fit.k", dm.k, gradcheck::fd(
                                       [&](double k) {
                                         Model mk;
                                         mk.k = k;
                                         return fit(0.9, mk);
                                       },
                                       0, 0.5));
  // CHECK: ok fit.x
  // CHECK: ok fit.k
  gradcheck::check_grad("accumulate", accumulate, accumulate_pullback, 0.4,
                        -1.1);
  // CHECK: ok accumulate.d0
  // CHECK: ok accumulate.d1
#ifndef ERRORS
  dx = 0;
  power_pullback(1.5, 3, 1.0, &dx);
  gradcheck::expect("power.x", dx, gradcheck::fd(
                                       [](double t) { return power(t, 3); }, 0,
                                       1.5));
#endif
  // CHECK: ok power.x
  gradcheck::check_grad("quadratic", quadratic, quadratic_pullback, 0.7, -1.2);
  // CHECK: ok quadratic.d0
  // CHECK: ok quadratic.d1
  return gradcheck::failures();
}
