// Objects holding references (the usual least-squares residual functor,
// `struct Residual { const std::vector<double> &xs, &ys; ... }`). When what
// they refer to is data without derivatives, the object needs no adjoint
// and its member functions are differentiated for their arguments only
// (this used to fail inside the generated code, assigning through a const
// reference). A reference member to differentiated values has no adjoint
// object that could refer to the values' adjoints: a plugin error naming
// the member, before any code is generated (it used to be an internal
// error and Clang errors in the generated code); so is such an object
// passed to a function differentiated in two halves, whose forward half
// cannot record it. The first RUN line checks each message, its location
// and its notes; the second compiles the rewrites under the same names and
// checks their derivatives against central finite differences.
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <vector>

using V = std::vector<double>;

struct Residual {
  const V &xs, &ys;
  double operator()(double a, double b) const {
    double s = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      double r = a * std::exp(b * xs[i]) - ys[i];
      s += r * r;
    }
    return s;
  }
};

// Accepted: the object refers to data only (a and b carry the derivatives).
[[grad("a,b")]] double fit(double a, double b, const V &xs, const V &ys) {
  Residual r{xs, ys};
  double s = 0;
  for (int k = 0; k < 3; ++k)
    s += 0.1 * r(a + 0.5 * k, b);
  return s;
}

template <class F> double trapezoid(const F &f, double lo, double hi, int n) {
  double h = (hi - lo) / n, s = 0.5 * (f(lo) + f(hi));
  for (int i = 1; i < n; ++i)
    s += f(lo + i * h);
  return s * h;
}

template <class F> double halfCost(const F &f, double a, double b) {
  return 0.5 * f(a, b) + a * b;
}

#ifdef ERRORS
struct Scaled {
  const double &k;
  double operator()(double x) const { return k * x * x; }
};

// ADVICE: (hold a copy of the value, or pass it as an argument)
[[grad]] double area(double k, double hi) {
  return trapezoid(Scaled{k}, 0.0, hi, 8);
  // ERR: objects-references.cpp:[[@LINE-1]]:10: error: grad: cannot differentiate call to 'trapezoid' (parameter 'f' of type 'Scaled' holds the reference member 'k' (hold a copy of the value, or pass it as an argument)) in 'area'
  // ERR: objects-references.cpp:[[@LINE-3]]:3: note: while differentiating 'area' requested here
}

// ADVICE: (call the object in the function that builds it)
[[grad("a,b")]] double fit2(double a, double b, const V &xs, const V &ys) {
  return halfCost(Residual{xs, ys}, a, b);
  // ERR: objects-references.cpp:[[@LINE-20]]:27: error: grad: cannot differentiate parameter 'f' of type 'Residual', which holds the reference member 'xs', used by the reverse sweep of a function differentiated in two halves (call the object in the function that builds it) in 'halfCost'
  // ERR: objects-references.cpp:[[@LINE-2]]:10: note: while differentiating 'halfCost', called here
  // ERR: objects-references.cpp:[[@LINE-4]]:3: note: while differentiating 'fit2' requested here
}

// Forward mode: member functions are not differentiated yet.
[[grad::forward("a,b")]] double fitted(double a, double b, const V &xs,
                                       const V &ys) {
  Residual r{xs, ys};
  return r(a, b);
  // ERR: objects-references.cpp:[[@LINE-1]]:10: error: grad: cannot differentiate call operator of 'Residual' (forward mode does not differentiate member functions yet) in 'fitted' in forward mode
  // ERR: objects-references.cpp:[[@LINE-5]]:3: note: while differentiating 'fitted' requested here
}
#else
struct Scaled {
  double k;
  double operator()(double x) const { return k * x * x; }
};

[[grad]] double area(double k, double hi) {
  return trapezoid(Scaled{k}, 0.0, hi, 8);
}

[[grad("a,b")]] double fit2(double a, double b, const V &xs, const V &ys) {
  Residual r{xs, ys};
  return 0.5 * r(a, b) + a * b;
}
#endif

int main() {
  const V xs{0.1, 0.5, 0.9}, ys{1.0, 1.7, 2.2};
  auto checkAB = [&](const char *Name, auto f, auto pb) {
    double da = 0, db = 0;
    pb(1.1, 0.8, xs, ys, 1.0, &da, &db);
    gradcheck::expect(std::string(Name) + ".a", da,
                      gradcheck::fd([&](double a) { return f(a, 0.8, xs, ys); },
                                    0, 1.1));
    gradcheck::expect(std::string(Name) + ".b", db,
                      gradcheck::fd([&](double b) { return f(1.1, b, xs, ys); },
                                    0, 0.8));
  };
  checkAB("fit", fit, [](auto... A) { fit_pullback(A...); });
  // CHECK: ok fit.a
  // CHECK: ok fit.b
#ifndef ERRORS
  checkAB("fit2", fit2, [](auto... A) { fit2_pullback(A...); });
  gradcheck::check_grad("area", area, area_pullback, 1.3, 2.0);
#endif
  // CHECK: ok fit2.a
  // CHECK: ok fit2.b
  // CHECK: ok area.d0
  // CHECK: ok area.d1
  return gradcheck::failures();
}
