// Classes that keep their elements in a std::vector member and also hold an
// array of numbers (`struct Layer { int n; std::vector<double> w; double
// bias[2]; }`): locals from braces, in loops, copied and assigned whole,
// written by a helper differentiated in two halves, through a pointer into
// the array member, and a const reference parameter. The shadow is a copy of
// the object with the vector and the array zeroed. (It was an error: "its
// member 'bias' of type 'double[2]' has no shadow".) Reverse mode against
// finite differences.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <string>
#include <vector>

struct Layer {
  int n;
  std::vector<double> w;
  double bias[2];
};

static double apply(const Layer &L, double x) {
  double s = 0;
  for (int i = 0; i < L.n; ++i)
    s += std::tanh(L.w[i] * x + L.bias[i % 2]);
  return s;
}
static void bump(Layer &L, double x) {
  L.bias[0] += x * L.w[0];
  L.w[1] *= L.bias[1];
}

[[grad]] double local(double x, double y) {
  Layer L{3, {x, y, x * y}, {y, 0.5}};
  L.bias[1] = L.w[0] * y;
  Layer C = L;
  C.bias[0] *= x;
  double s = apply(L, x) + apply(C, y);
  for (int i = 0; i < 2; ++i)
    s += L.bias[i] * C.bias[i];
  return s;
}

[[grad]] double inLoop(double x, double y) {
  double s = 0;
  for (int k = 0; k < 3; ++k) {
    Layer L{2, {x, y * k}, {y, 0.5 * k}};
    bump(L, x);
    double *b = L.bias;
    b[1] += s * 0.1;
    Layer C = L;
    C.bias[0] *= y;
    L = C;
    s += L.bias[0] * L.w[1] + b[1];
  }
  return s;
}

[[grad]] double param(const Layer &L, double x) {
  return apply(L, x) * L.bias[0] + L.bias[1];
}

template <class F> static double fd(F f, double &v) {
  double h = 1e-6, o = v;
  v = o + h;
  double a = f();
  v = o - h;
  double b = f();
  v = o;
  return (a - b) / (2 * h);
}

int main() {
  using gradcheck::expect;
  double x = 0.7, y = 1.3;
  auto XY = [&](const char *Name, auto F, auto Pb) {
    double dx = 0, dy = 0;
    Pb(x, y, 1.0, &dx, &dy);
    expect(std::string(Name) + ".dx", dx, fd([&] { return F(x, y); }, x));
    expect(std::string(Name) + ".dy", dy, fd([&] { return F(x, y); }, y));
  };
  XY("local", local, local_pullback);
  XY("inLoop", inLoop, inLoop_pullback);
  // CHECK: ok local.dx
  // CHECK-NEXT: ok local.dy
  // CHECK-NEXT: ok inLoop.dx
  // CHECK-NEXT: ok inLoop.dy
  Layer L{3, {0.3, -0.4, 0.8}, {0.2, -0.6}}, dL{3, {0, 0, 0}, {0, 0}};
  double t = 0.9, dt = 0;
  param_pullback(L, t, 1.0, &dL, &dt);
  auto F = [&] { return param(L, t); };
  expect("param.dx", dt, fd(F, t));
  for (int i = 0; i < 3; ++i)
    expect("param.dw" + std::to_string(i), dL.w[i], fd(F, L.w[i]));
  for (int i = 0; i < 2; ++i)
    expect("param.dbias" + std::to_string(i), dL.bias[i], fd(F, L.bias[i]));
  // CHECK-NEXT: ok param.dx
  // CHECK-COUNT-3: ok param.dw
  // CHECK-COUNT-2: ok param.dbias
  return gradcheck::failures();
}
