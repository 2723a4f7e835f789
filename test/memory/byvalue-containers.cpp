// Container parameters passed by value and written in the body get a shadow
// of their own, shaped like the entry value: the caller's adjoint receives
// the adjoint of the entry value and accumulates (pre-filled adjoints are
// kept), whether or not the parameter is in the wrt list.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "vecgrad.h"
#include <array>
#include <cmath>
#include <vector>

// DUMP-LABEL: void scale_pullback(std::vector<double> v, double x, double d_ret, std::vector<double> *d_v, double *d_x) {
// DUMP: _d_v.assign(v.size(), 0);
// DUMP: ::grad::detail::accumulate(*d_v, _d_v);
[[grad]] double scale(std::vector<double> v, double x) {
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = v[i] * x;
  double s = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    s += std::sin(v[i]);
  return s;
}

// Not in the wrt list: still a sized local shadow.
[[grad("x")]] double first(std::vector<double> v, double x) {
  v[0] *= x;
  v[1] += v[0] * x;
  return v[0] * v[1];
}

[[grad]] double arr(std::array<double, 3> a, double x) {
  a[1] = a[0] * x + a[2];
  a[2] *= a[1];
  return a[0] + a[1] * a[2];
}

int main() {
  std::vector<double> V{0.3, -0.5, 0.9};
  {
    std::vector<double> X = V;
    X.push_back(1.3);
    // Pre-filled adjoints accumulate.
    std::vector<double> Dv(3, 0.25);
    double Dx = 0.5;
    scale_pullback(V, 1.3, 1.0, &Dv, &Dx);
    std::vector<double> Got{Dv[0] - 0.25, Dv[1] - 0.25, Dv[2] - 0.25, Dx - 0.5};
    auto F = [](const std::vector<double> &Y) {
      return scale(std::vector<double>(Y.begin(), Y.begin() + 3), Y[3]);
    };
    // CHECK: ok scale.d0
    // CHECK: ok scale.d3
    vecgrad::check("scale", F, X, Got);
  }
  {
    double Dx = 0;
    first_pullback(V, 1.3, 1.0, &Dx);
    auto F = [&](const std::vector<double> &Y) { return first(V, Y[0]); };
    // CHECK: ok first.d0
    vecgrad::check("first", F, {1.3}, {Dx});
  }
  {
    std::array<double, 3> A{0.4, 0.7, -0.2}, Da{};
    double Dx = 0;
    arr_pullback(A, 0.8, 1.0, &Da, &Dx);
    auto F = [](const std::vector<double> &Y) {
      return arr({Y[0], Y[1], Y[2]}, Y[3]);
    };
    // CHECK: ok arr.d0
    // CHECK: ok arr.d3
    vecgrad::check("arr", F, {0.4, 0.7, -0.2, 0.8}, {Da[0], Da[1], Da[2], Dx});
  }
  return gradcheck::failures();
}
