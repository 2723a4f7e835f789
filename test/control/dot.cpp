// Dot product of two const double* arrays: both adjoints, same extent.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "vecgrad.h"
#include <grad/grad.h>

// Reads of never-written arrays are re-read, not taped; the accumulator's
// update s += ... needs nothing from the tape either.
// DUMP-LABEL: void dot_pullback(const double *a, const double *b, int n, double d_ret, double *d_a, double *d_b) {
// DUMP-NOT: push(
// DUMP: d_b[i] +=
// DUMP: d_a[i] +=
// DUMP: {{^}$}}
[[grad]] double dot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s;
}

int main() {
  const int N = 7;
  auto A = vecgrad::sample(N, 1), B = vecgrad::sample(N, 2);
  std::vector<double> DA(N, 0.0), DB(N, 0.0);
  dot_pullback(A.data(), B.data(), N, 2.0, DA.data(), DB.data());
  for (int I = 0; I < N; ++I) {
    // CHECK: ok dot.da0
    // CHECK: ok dot.db6
    gradcheck::expect("dot.da" + std::to_string(I), DA[I], 2 * B[I], 1e-14);
    gradcheck::expect("dot.db" + std::to_string(I), DB[I], 2 * A[I], 1e-14);
  }
  std::vector<double> In = A;
  In.insert(In.end(), B.begin(), B.end());
  std::vector<double> D(2 * N, 0.0);
  dot_pullback(In.data(), In.data() + N, N, 1.0, D.data(), D.data() + N);
  auto F = [&](const std::vector<double> &V) { return dot(V.data(), V.data() + N, N); };
  // CHECK: ok dot.fd.d13
  vecgrad::check("dot.fd", F, In, D);
  return gradcheck::failures();
}
