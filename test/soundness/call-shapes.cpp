// Every way a call is written has one shape in plugin/analysis/
// CallShapes.def, and each builder switches over all of them. Modeled
// shapes are differentiated (checked against closed forms, reverse and
// forward); guarded ones are replayed as written where no derivative flows
// through them and refused, naming the call, where one does.
// RUN: %gradxx %s -o %t && %t | FileCheck %s --check-prefix=OK --implicit-check-not=FAIL
// RUN: not %gradxx -fsyntax-only -DREFUSED %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include "gradcheck.h"
#include <cmath>
#include <cstdio>
using gradcheck::expect;

static double sq(double v) { return v * v; }
struct C {
  static double make(double v) { return 3 * v; }
};
struct M {
  double a;
  double get(double v) const { return a * v; }
};
struct V2 {
  double x, y;
  V2 operator+(const V2 &o) const { return {x + o.x, y + o.y}; }
};
V2 operator*(double s, const V2 &v) { return {s * v.x, s * v.y}; }
struct Scale {
  double k;
  double operator()(double v) const { return k * v * v; }
};
constexpr long double operator""_k(long double v) { return v * 1000; }
struct Shape {
  virtual double area(double s) const { return s * s; }
  virtual int sides() const { return 4; }
  virtual ~Shape() = default;
};
static int Logged = 0;
static void note(int n) { Logged += n; }

[[grad, grad::forward]] double modeled(double x, double y) {
  auto cube = [](double v) { return v * v * v; };
  auto twice = [](auto v) { return 2 * v; }; // a generic lambda
  return sq(x) + C::make(y) + cube(y) + twice(x) + __builtin_fabs(x) +
         0.001_k * y;
}

// (Forward mode does not differentiate member functions, functors and
// class operators yet: an error there, issue 50.)
[[grad]] double members(double x, double y) {
  M m{y};
  V2 a{x, y};
  V2 b = 2.0 * a + a;                  // free and member operators
  Scale s{0.5};
  return m.get(x) + b.x + s(y);
}

[[grad, grad::forward]] double guardedInactive(double x, const Shape &sh,
                                               void (*log)(int)) {
  log(sh.sides());                     // no derivative: replayed
  std::printf("%s", "");               // variadic, no derivative
  return x * sh.sides();
}

#ifdef REFUSED
struct N {
  double w;
  double scale(double v) const { return w * v; }
};
[[grad]] double virt(double x, const Shape &sh) {
  return sh.area(x);
  // CHECK: call-shapes.cpp:[[@LINE-1]]:10: error: grad: cannot differentiate virtual call to 'area' (which override runs is not known: make it non-virtual, or declare the class of the object 'final') in 'virt'
}
[[grad]] double viaPointer(double x, double (*g)(double)) {
  return g(x);
  // CHECK: call-shapes.cpp:[[@LINE-1]]:10: error: grad: cannot differentiate call through the function pointer 'g' in 'viaPointer'
}
[[grad]] double viaMemberPointer(double x, N n) {
  double (N::*pm)(double) const = &N::scale;
  return (n.*pm)(x);
  // CHECK: call-shapes.cpp:[[@LINE-1]]:10: error: grad: cannot differentiate call through the member function pointer 'pm' (call the member function by name) in 'viaMemberPointer'
}
double total(int n, ...);
[[grad]] double variadic(double x) {
  return total(1, x);
  // CHECK: call-shapes.cpp:[[@LINE-1]]:10: error: grad: cannot differentiate call to variadic function 'total' in 'variadic'
}
#endif

int main() {
  double x = 0.7, y = -1.3;
  double dx = 0, dy = 0;
  modeled_pullback(x, y, 1.0, &dx, &dy);
  double wx = 2 * x + 2 + 1, wy = 3 + 3 * y * y + 1;
  expect("modeled.x", dx, wx);                              // OK: ok modeled.x
  expect("modeled.y", dy, wy);                              // OK: ok modeled.y
  expect("modeled.fwd.x", modeled_pushforward(x, y, 1, 0).der[0], wx); // OK: ok modeled.fwd.x
  expect("modeled.fwd.y", modeled_pushforward(x, y, 0, 1).der[0], wy); // OK: ok modeled.fwd.y
  dx = dy = 0;
  members_pullback(x, y, 1.0, &dx, &dy);
  expect("members.x", dx, y + 3);                           // OK: ok members.x
  expect("members.y", dy, x + y);                             // OK: ok members.y
  Shape sh;
  double gx = 0;
  guardedInactive_pullback(x, sh, note, 1.0, &gx);
  expect("guarded.x", gx, 4.0);                             // OK: ok guarded.x
  expect("guarded.fwd", guardedInactive_pushforward(x, sh, note, 1.0).der[0], 4.0); // OK: ok guarded.fwd
  expect("guarded.logged", Logged, 4 * 2);                  // OK: ok guarded.logged
}
