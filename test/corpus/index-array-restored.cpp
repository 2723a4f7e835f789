// Checks: a helper reads differentiated memory through an integer index
// array that the caller changes after the call (and, in the recursive form,
// changes before recursing and restores afterwards). The helper's reverse
// half must use the index as it was when the helper ran, not as it is when
// the reverse sweep reaches it. Found in CppAD (its speed-test determinant
// by expansion in minors keeps the rows and columns still in use in shared
// index vectors); with the plugin of the first corpus run the gradient went
// to the wrong elements. Reverse and forward against finite differences.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "fwdcheck.h"
#include "vecgrad.h"

// Flat form: a[idx[0]] is read by the helper with idx[0] == 2, then idx[0]
// is set to 0 and read through again, directly and by the helper.
double through(const double *a, const int *idx) { return a[idx[0]]; }

[[grad, grad::forward]] double flat(const double *a) {
  int idx[1] = {2};
  double r = through(a, idx);
  idx[0] = 0;
  return r * a[idx[0]] + std::sin(a[1]) * through(a, idx);
}

// Recursive form: a determinant by expansion along the first row. The
// columns still free are kept in one array that every level shrinks (the
// last entry fills the hole) before recursing and restores afterwards.
double expand(const double *m, int n, int row, int *cols, int k) {
  if (k == 1)
    return m[row * n + cols[0]];
  double det = 0, sign = 1;
  for (int j = 0; j < k; ++j) {
    int c = cols[j];
    cols[j] = cols[k - 1];
    double sub = expand(m, n, row + 1, cols, k - 1);
    cols[j] = c;
    det += sign * m[row * n + c] * sub;
    sign = -sign;
  }
  return det;
}

[[grad, grad::forward]] double det3(const double *m) {
  int cols[3] = {0, 1, 2};
  return expand(m, 3, 0, cols, 3);
}

int main() {
  auto X = vecgrad::sample(9, 5);
  for (double &v : X)
    v += 0.1;

  std::vector<double> a(X.begin(), X.begin() + 3), da(3, 0.0);
  auto F = [](const std::vector<double> &Y) { return flat(Y.data()); };
  flat_pullback(a.data(), 1.0, da.data());
  vecgrad::check("flat", F, a, da);
  // CHECK: ok flat.d0
  // CHECK: ok flat.d1
  // CHECK: ok flat.d2
  fwdcheck::each("flat.fwd", F, [](const std::vector<double> &Y,
                                   const std::vector<double> &V) {
    return flat_pushforward(Y.data(), V.data()).der[0];
  }, a);
  // CHECK: ok flat.fwd.v3

  std::vector<double> dm(9, 0.0);
  auto D = [](const std::vector<double> &Y) { return det3(Y.data()); };
  det3_pullback(X.data(), 1.0, dm.data());
  vecgrad::check("det3", D, X, dm);
  // CHECK: ok det3.d0
  // CHECK: ok det3.d4
  // CHECK: ok det3.d8
  fwdcheck::each("det3.fwd", D, [](const std::vector<double> &Y,
                                   const std::vector<double> &V) {
    return det3_pushforward(Y.data(), V.data()).der[0];
  }, X);
  // CHECK: ok det3.fwd.v9
  return gradcheck::failures();
}
