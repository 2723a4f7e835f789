// Checks: a matrix kept as an array of row pointers into one block of local
// storage (`double *rows[n]` set to block + i * n, then used through a
// `double **`) is refused in reverse mode at the `double **` variable, and
// forward mode refuses the row pointers at their brace initialisation.
// Found in ADOL-C's LU examples and the Numerical Recipes LU decomposition
// vendored by radproc. The same computation with flat indexing into the
// block differentiates (reverse and forward against finite differences).
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "fwdcheck.h"
#include "vecgrad.h"

#ifdef ERRORS
// ERR: row-pointer-matrix.cpp:[[@LINE+4]]:3: error: grad: cannot differentiate local variable of type 'double **' in 'rowsRev'
[[grad]] double rowsRev(const double *a) {
  double block[4];
  double *rows[2] = {block, block + 2};
  double **m = rows;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      m[i][j] = a[2 * i + j] * a[2 * i + j];
  return m[0][0] * m[1][1] - m[0][1] * m[1][0];
}
// ERR: row-pointer-matrix.cpp:[[@LINE+3]]:22: error: grad: cannot differentiate pointer 'block' into differentiated memory in the brace initialisation of 'double *[2]' (pass the pointer itself) in 'rowsFwd' in forward mode
[[grad::forward]] double rowsFwd(const double *a) {
  double block[4];
  double *rows[2] = {block, block + 2};
  double **m = rows;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      m[i][j] = a[2 * i + j] * a[2 * i + j];
  return m[0][0] * m[1][1] - m[0][1] * m[1][0];
}
#endif

[[grad, grad::forward]] double flat(const double *a) {
  double block[4];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      block[2 * i + j] = a[2 * i + j] * a[2 * i + j];
  return block[0] * block[3] - block[1] * block[2];
}

int main() {
  auto X = vecgrad::sample(4, 9);
  std::vector<double> d(4, 0.0);
  auto F = [](const std::vector<double> &Y) { return flat(Y.data()); };
  flat_pullback(X.data(), 1.0, d.data());
  vecgrad::check("rev", F, X, d);
  // CHECK: ok rev.d0
  // CHECK: ok rev.d3
  fwdcheck::each("fwd", F, [](const std::vector<double> &Y,
                              const std::vector<double> &V) {
    return flat_pushforward(Y.data(), V.data()).der[0];
  }, X);
  // CHECK: ok fwd.v4
  return gradcheck::failures();
}
