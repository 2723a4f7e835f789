// Writes to members of `this` in a non-const member function
// (`w -= lr * g * x`): their shadows are the members of *d_this, in/out like
// a reference parameter's (d_this holds the adjoint of the object after the
// call on entry, of the object before it on return). Setters on struct
// parameters likewise.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "vecgrad.h"
#include <cmath>

struct Lin {
  double w = 0.5, b = 0.1;
  // DUMP-LABEL: inline void Lin::step_pullback({{.*}}) {
  // DUMP: this->w -= lr * g * x;
  // DUMP: [[P:_t[0-9]+]] = ::grad::detail::pair_cos(this->w);
  // DUMP-NEXT: d_this->w += d_ret * [[P]].__cos;
  [[grad]] double step(double x, double lr) {
    double g = w * x + b;
    w -= lr * g * x;
    b -= lr * g;
    return w * b + std::sin(w);
  }
};

struct P2 {
  double x, y;
  void set(double a) { x = a; }
};
[[grad]] double setter(P2 &p, double s) {
  p.y *= s;
  p.x = p.y * p.x + s;
  return p.x * p.y;
}

int main() {
  {
    Lin L, dL{0, 0};
    double dx = 0, dlr = 0;
    L.step_pullback(0.7, 0.1, 1, &dx, &dlr, &dL);
    // CHECK: ok step.d0
    // CHECK: ok step.d3
    vecgrad::check("step", [](const std::vector<double> &V) {
      Lin M{V[2], V[3]};
      return M.step(V[0], V[1]);
    }, {0.7, 0.1, 0.5, 0.1}, {dx, dlr, dL.w, dL.b});
    // The object was updated as the primal updates it.
    // CHECK: ok step.w
    gradcheck::expect("step.w", L.w, 0.5 - 0.1 * (0.5 * 0.7 + 0.1) * 0.7, 1e-12);
  }
  {
    P2 p{0.3, 0.8}, dp{0, 0};
    double ds = 0;
    setter_pullback(p, 1.7, 1, &dp, &ds);
    // CHECK: ok setter.d0
    // CHECK: ok setter.d2
    vecgrad::check("setter", [](const std::vector<double> &V) {
      P2 q{V[0], V[1]};
      return setter(q, V[2]);
    }, {0.3, 0.8, 1.7}, {dp.x, dp.y, ds});
  }
  return gradcheck::failures();
}
