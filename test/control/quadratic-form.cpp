// x^T A x with A a const double* n*n row-major matrix: element reads
// A[i*n+j] with computed indices; adjoints for both A and x.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "vecgrad.h"
#include <grad/grad.h>

[[grad]] double xAx(const double *A, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double r = 0;
    for (int j = 0; j < n; ++j)
      r += A[i * n + j] * x[j];
    s += x[i] * r;
  }
  return s;
}

int main() {
  const int N = 4;
  auto A = vecgrad::sample(N * N, 3), X = vecgrad::sample(N, 4);
  std::vector<double> DA(N * N, 0.0), DX(N, 0.0);
  xAx_pullback(A.data(), X.data(), N, 1.0, DA.data(), DX.data());
  // Closed forms: dA[i][j] = x_i x_j, dx = (A + A^T) x.
  for (int I = 0; I < N; ++I) {
    double Want = 0;
    for (int J = 0; J < N; ++J) {
      Want += (A[I * N + J] + A[J * N + I]) * X[J];
      gradcheck::expect("xAx.dA" + std::to_string(I * N + J), DA[I * N + J],
                        X[I] * X[J], 1e-13);
    }
    gradcheck::expect("xAx.dx" + std::to_string(I), DX[I], Want, 1e-13);
  }
  // CHECK: ok xAx.dA0
  // CHECK: ok xAx.dx3
  std::vector<double> In = A;
  In.insert(In.end(), X.begin(), X.end());
  std::vector<double> D = DA;
  D.insert(D.end(), DX.begin(), DX.end());
  auto F = [&](const std::vector<double> &V) { return xAx(V.data(), V.data() + N * N, N); };
  // CHECK: ok xAx.fd.d19
  vecgrad::check("xAx.fd", F, In, D);
  return gradcheck::failures();
}
