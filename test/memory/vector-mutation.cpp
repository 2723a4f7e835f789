// Mutations of a std::vector keep its shadow the same size as the primal at
// every point: push_back, emplace_back, pop_back, resize, assign, insert,
// clear and reserve on locals, on by-value parameters and inside helpers
// that take the vector by reference (the caller's shadow follows the size
// the helper left). The values that go in receive the adjoints of the
// elements they became.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "vecgrad.h"
#include <cmath>
#include <vector>

// DUMP-LABEL: void grow_pullback(const double *x, int n, double d_ret, double *d_x) {
// DUMP: v.push_back(x[i] * x[i]);
// DUMP-NEXT: _d_v.resize(v.size());
// DUMP: _d_v.pop_back();
[[grad]] double grow(const double *x, int n) {
  std::vector<double> v;
  v.reserve(n);
  for (int i = 0; i < n; ++i)
    v.push_back(x[i] * x[i]);
  v.emplace_back(std::sin(x[0]));
  double s = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    s += v[i] * (i + 1);
  v.pop_back();
  v.resize(n + 2, x[1]);
  for (std::size_t i = 0; i < v.size(); ++i)
    s += v[i] * v[i];
  v.insert(v.begin() + 1, x[2] * 3);
  s += v[1] * v[0];
  v.assign(3, x[0] * x[1]);
  s += v[2] * 2 + v[0];
  v.clear();
  v.push_back(x[1]);
  return s + v[0] * v.size();
}

// A stack of partial results, popped in a loop.
[[grad]] double stack(const double *x, int n) {
  std::vector<double> st;
  for (int i = 0; i < n; ++i) {
    st.push_back(std::exp(x[i]));
    if (st.size() >= 2) {
      double a = st.back();
      st.pop_back();
      double b = st.back();
      st.pop_back();
      st.push_back(a * b + 0.5 * a);
    }
  }
  double s = 0;
  while (!st.empty()) {
    s += std::log(st.back());
    st.pop_back();
  }
  return s;
}

static void append(std::vector<double> &v, double a) {
  v.push_back(a * a);
  v.push_back(a + 1);
}

[[grad]] double viaHelper(const double *x) {
  std::vector<double> v{x[1]};
  append(v, x[0]);
  append(v, x[1]);
  double s = 0;
  for (double e : v)
    s += e * e;
  return s;
}

// A by-value parameter that grows.
[[grad]] double byValue(std::vector<double> v, double x) {
  v[0] *= 2;
  v.push_back(x);
  double s = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    s += v[i] * v[i] * (i + 1);
  return s;
}

int main() {
  const int N = 4;
  auto X = vecgrad::sample(N, 5);
  for (auto &V : X)
    V = 0.4 + 0.5 * V; // positive, for log(exp(..) ...)
  {
    std::vector<double> D(N, 0.0);
    grow_pullback(X.data(), N, 1.0, D.data());
    // CHECK: ok grow.d0
    // CHECK: ok grow.d3
    vecgrad::check("grow", [&](const std::vector<double> &Y) {
      return grow(Y.data(), N);
    }, X, D);
  }
  {
    std::vector<double> D(N, 0.0);
    stack_pullback(X.data(), N, 1.0, D.data());
    // CHECK: ok stack.d0
    // CHECK: ok stack.d3
    vecgrad::check("stack", [&](const std::vector<double> &Y) {
      return stack(Y.data(), N);
    }, X, D);
  }
  {
    std::vector<double> D(2, 0.0);
    viaHelper_pullback(X.data(), 1.0, D.data());
    // CHECK: ok viaHelper.d0
    // CHECK: ok viaHelper.d1
    vecgrad::check("viaHelper", [&](const std::vector<double> &Y) {
      return viaHelper(Y.data());
    }, {X[0], X[1]}, D);
  }
  {
    std::vector<double> V{X[0], X[1], X[2]}, Dv(3, 0.0);
    double Dx = 0;
    byValue_pullback(V, X[3], 1.0, &Dv, &Dx);
    // CHECK: ok byValue.d0
    // CHECK: ok byValue.d3
    vecgrad::check("byValue", [&](const std::vector<double> &Y) {
      return byValue({Y[0], Y[1], Y[2]}, Y[3]);
    }, X, {Dv[0], Dv[1], Dv[2], Dx});
  }
  return gradcheck::failures();
}
