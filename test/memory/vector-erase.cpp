// std::vector::erase of one element or a range, on locals and by-value
// parameters, also in a loop: the shadow loses the same elements in the
// forward sweep and gets zeros back at the same place in the reverse sweep
// (nothing after the call reads what was erased). In forward mode the
// tangent vector loses the same elements.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <vector>

using namespace gradcheck;

[[grad, grad::forward]] double one(double x, double y) {
  std::vector<double> v{x, y, x * y, y - x};
  double p = v[0] * v[2];
  v.erase(v.begin() + 1);
  v[1] *= y;
  return p + v[0] * v[1] + v[2] * v.size();
}

[[grad, grad::forward]] double range(double x, double y) {
  std::vector<double> v{x, y, x * y, y * y, 2.0};
  v.erase(v.begin() + 1, v.begin() + 3);
  v.push_back(x * x);
  return v[0] * v[1] + v[2] * v[3];
}

// Drop the smallest element until three remain.
[[grad, grad::forward]] double trim(std::vector<double> v, double x) {
  for (auto &e : v)
    e *= x;
  while (v.size() > 3) {
    int k = 0;
    for (int i = 1; i < (int)v.size(); ++i)
      if (v[i] < v[k])
        k = i;
    v.erase(v.begin() + k);
  }
  return v[0] * v[1] * v[2];
}

int main() {
  check_grad("one", one, one_pullback, 0.7, 1.3);
  check_grad("range", range, range_pullback, 0.7, 1.3);
  expect("one.fwd.x", one_pushforward(0.7, 1.3, 1, 0).der[0],
         fd(one, 0, 0.7, 1.3));
  expect("one.fwd.y", one_pushforward(0.7, 1.3, 0, 1).der[0],
         fd(one, 1, 0.7, 1.3));
  expect("range.fwd.x", range_pushforward(0.7, 1.3, 1, 0).der[0],
         fd(range, 0, 0.7, 1.3));
  expect("range.fwd.y", range_pushforward(0.7, 1.3, 0, 1).der[0],
         fd(range, 1, 0.7, 1.3));
  std::vector<double> V{0.5, 1.5, -2.5, 3.0, 0.25, 2.0};
  std::vector<double> DV(V.size(), 0.0);
  double Dx = 0;
  trim_pullback(V, 1.3, 1.0, &DV, &Dx);
  auto f = [&](std::size_t I, double H) {
    std::vector<double> W = V;
    double x = 1.3;
    if (I < W.size())
      W[I] += H;
    else
      x += H;
    return trim(W, x);
  };
  for (std::size_t I = 0; I <= V.size(); ++I) {
    double H = 1e-5;
    double Want = (f(I, H) - f(I, -H)) / (2 * H);
    expect("trim.d" + std::to_string(I), I < V.size() ? DV[I] : Dx, Want,
           1e-6, 1e-7);
    std::vector<double> TV(V.size(), 0.0);
    if (I < V.size())
      TV[I] = 1;
    expect("trim.fwd" + std::to_string(I),
           trim_pushforward(V, 1.3, TV, I < V.size() ? 0.0 : 1.0).der[0],
           Want, 1e-6, 1e-7);
  }
  return failures();
}
// CHECK: ok one.d0
// CHECK: ok one.d1
// CHECK: ok range.d0
// CHECK: ok range.d1
// CHECK: ok one.fwd.x
// CHECK: ok one.fwd.y
// CHECK: ok range.fwd.x
// CHECK: ok range.fwd.y
// CHECK: ok trim.d0
// CHECK: ok trim.d1
// CHECK: ok trim.d2
// CHECK: ok trim.d3
// CHECK: ok trim.d4
// CHECK: ok trim.d5
// CHECK: ok trim.d6
// CHECK: ok trim.fwd6
