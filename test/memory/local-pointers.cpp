// Local pointers and references into parameters and local storage: reads
// and writes through them reach the adjoint of what they point into (the
// shadow of the root plus the pointer's offset), re-seated pointers record
// their offset per use, and aliases of the same cell share one adjoint.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "vecgrad.h"
#include <cmath>

// A row pointer into a matrix parameter, declared in the loop.
// DUMP-LABEL: void rows_pullback(const double *A, const double *v, int n, double d_ret, double *d_A, double *d_v) {
// DUMP: const double *row = A + i * n;
// DUMP: (d_A + _o{{[0-9]+}})[j]
[[grad]] double rows(const double *A, const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    const double *row = A + i * n;
    double t = 0;
    for (int j = 0; j < n; ++j)
      t += row[j] * v[j];
    s += std::sin(t);
  }
  return s;
}

// Written through a pointer into a local array, then read back.
[[grad]] double scratch(const double *x, int n) {
  double buf[8];
  double *q = buf + 1;
  for (int i = 0; i < n; ++i)
    q[i] = x[i] * x[i];
  buf[0] = x[0];
  double s = 0;
  for (int i = 0; i <= n; ++i)
    s += std::cos(buf[i]) * buf[i];
  return s;
}

// A pointer parameter walked forward: *p++ style, re-seated in the body.
[[grad]] double walk(const double *p, int n) {
  double s = 0;
  const double *end = p + n;
  while (p != end) {
    s = s * 0.5 + *p * *p;
    p = p + 1;
  }
  return s;
}

// References: an accumulator bound to an output element, a scalar alias.
[[grad]] void refs(const double *x, double *out, int n) {
  for (int i = 0; i < n; ++i) {
    double &acc = out[i % 2];
    acc += x[i] * x[i];
    acc *= 0.9;
  }
  double t = x[0];
  double &r = t;
  r = r * x[1];
  out[2] = t;
}

int main() {
  const int N = 3;
  auto A = vecgrad::sample(N * N, 1), V = vecgrad::sample(N, 2);
  {
    std::vector<double> In = A;
    In.insert(In.end(), V.begin(), V.end());
    std::vector<double> DA(N * N), DV(N);
    rows_pullback(A.data(), V.data(), N, 1.0, DA.data(), DV.data());
    std::vector<double> D = DA;
    D.insert(D.end(), DV.begin(), DV.end());
    // CHECK: ok rows.d0
    // CHECK: ok rows.d11
    vecgrad::check("rows", [&](const std::vector<double> &X) {
      return rows(X.data(), X.data() + N * N, N);
    }, In, D);
  }
  {
    auto X = vecgrad::sample(5, 3);
    std::vector<double> DX(5);
    scratch_pullback(X.data(), 5, 1.0, DX.data());
    // CHECK: ok scratch.d0
    // CHECK: ok scratch.d4
    vecgrad::check("scratch", [](const std::vector<double> &Y) {
      return scratch(Y.data(), 5);
    }, X, DX);
  }
  {
    auto X = vecgrad::sample(6, 4);
    std::vector<double> DX(6);
    walk_pullback(X.data(), 6, 1.0, DX.data());
    // CHECK: ok walk.d0
    // CHECK: ok walk.d5
    vecgrad::check("walk", [](const std::vector<double> &Y) {
      return walk(Y.data(), 6);
    }, X, DX);
  }
  {
    // L = sum seed_i * out_i after refs; out is in/out.
    auto X = vecgrad::sample(5, 5), O = vecgrad::sample(3, 6),
         Seed = vecgrad::sample(3, 7);
    auto L = [&](const std::vector<double> &In) {
      std::vector<double> Out(In.begin() + 5, In.end());
      refs(In.data(), Out.data(), 5);
      double S = 0;
      for (int I = 0; I < 3; ++I)
        S += Seed[I] * Out[I];
      return S;
    };
    std::vector<double> In = X;
    In.insert(In.end(), O.begin(), O.end());
    std::vector<double> DX(5), DO = Seed, Work = O;
    refs_pullback(X.data(), Work.data(), 5, DX.data(), DO.data());
    std::vector<double> D = DX;
    D.insert(D.end(), DO.begin(), DO.end());
    // CHECK: ok refs.d0
    // CHECK: ok refs.d7
    vecgrad::check("refs", L, In, D);
  }
  return gradcheck::failures();
}
