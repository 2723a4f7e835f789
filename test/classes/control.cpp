// Control flow of issue 13: `switch` on an enum and an `enum class`, `if`
// with an init-statement and with a condition variable (a block that
// declares them first), `while`/`for` with a condition variable, a `for` loop whose floating variable steps by a
// differentiated amount (`t += dt`).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "vecgrad.h"
#include <cmath>
#include <utility>
enum class Act { Relu, Tanh, Sq };
enum Mode { A, B };
[[grad]] double act(double x, Act a) {
  switch (a) {
  case Act::Relu: return x > 0 ? x : 0.0;
  case Act::Tanh: return std::tanh(x);
  default: return x * x;
  }
}
[[grad]] double mode(double x, Mode m) {
  double r = 0;
  switch (m) { case A: r = x * 2; break; case B: r = std::sin(x); break; }
  return r;
}
[[grad]] double initif(double x, double y) {
  if (double t = x * y; t > 0.5) return t * x;
  if (double u = x - y) return u * u;
  return y;
}
[[grad]] double fltloop(double x, double dt) {
  double s = 0;
  for (double t = 0; t < 1.0; t += dt) s += x * t;
  return s;
}
// `while` and `for` with a condition variable (the loop declares it each
// iteration and stops when it converts to false), and a floating value as
// a loop condition (control flow only: no derivative through it).
[[grad]] double condloop(double x, double y) {
  double s = x;
  int k = 0;
  while (double d = k < 5 ? s * y : 0.0) {
    s += 0.1 * d;
    ++k;
  }
  for (int i = 0; int left = 4 - i; ++i)
    s = s * x + left;
  double w = y;
  while (w) {
    s += w * x;
    w = k++ < 8 ? w * 0.5 : 0.0;
  }
  return s;
}
// Structured bindings of values without derivatives are replayed.
struct Dims { int n, m; };
[[grad]] double intbind(double x, double y) {
  Dims d{2, 3};
  auto [n, m] = d;
  return x * n + y * m + x * y * n * m;
}
int main() {
  { double dx = 0; act_pullback(0.7, Act::Tanh, 1, &dx);
    vecgrad::check("act", [](const std::vector<double>& V){ return act(V[0], Act::Tanh); }, {0.7}, {dx}); }
  { double dx = 0; mode_pullback(0.7, B, 1, &dx);
    vecgrad::check("mode", [](const std::vector<double>& V){ return mode(V[0], B); }, {0.7}, {dx}); }
  { double dx = 0, dy = 0; initif_pullback(0.7, 1.3, 1, &dx, &dy);
    vecgrad::check("initif", [](const std::vector<double>& V){ return initif(V[0], V[1]); }, {0.7, 1.3}, {dx, dy}); }
  { double dx = 0, dy = 0; fltloop_pullback(0.7, 0.23, 1, &dx, &dy);
    vecgrad::check("fltloop", [](const std::vector<double>& V){ return fltloop(V[0], V[1]); }, {0.7, 0.23}, {dx, dy}); }
  { double dx = 0, dy = 0; condloop_pullback(0.7, 1.3, 1, &dx, &dy);
    vecgrad::check("condloop", [](const std::vector<double>& V){ return condloop(V[0], V[1]); }, {0.7, 1.3}, {dx, dy}); }
  { double dx = 0, dy = 0; intbind_pullback(0.7, 1.3, 1, &dx, &dy);
    vecgrad::check("intbind", [](const std::vector<double>& V){ return intbind(V[0], V[1]); }, {0.7, 1.3}, {dx, dy}); }
  // CHECK: ok act.d0
  // CHECK: ok mode.d0
  // CHECK: ok initif.d0
  // CHECK: ok fltloop.d0
  // CHECK: ok fltloop.d1
  // CHECK: ok condloop.d0
  // CHECK: ok condloop.d1
  // CHECK: ok intbind.d1
  return gradcheck::failures();
}
