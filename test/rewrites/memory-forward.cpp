// Rewrites suggested by the refusals about memory in forward mode: a write
// through a 'T[]' parameter, whose tangent is a 'const T *' (declare it
// 'T *'), pointers into differentiated memory in braces (pass the pointers
// themselves), and a pushforward built without the runtime header, which
// declares grad::dual (include <grad/grad.h>; this file is compiled with
// -fplugin-arg-grad-no-runtime-include and includes it itself). The first
// parts check each message and its location; the last compiles the
// rewrites under the same names and checks their tangents against central
// finite differences.
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: not %gradxx -fplugin-arg-grad-no-runtime-include -fsyntax-only -DNO_RUNTIME %s 2>&1 | %FileCheck-strict %s --check-prefix=NORT
// RUN: %gradxx -fplugin-arg-grad-no-runtime-include %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#ifdef NO_RUNTIME
#include <cmath>
// ADVICE: (include <grad/grad.h>)
// NORT: memory-forward.cpp:[[@LINE+1]]:3: error: grad: cannot declare the pushforward of 'logistic': the runtime type 'grad::dual' is not declared (include <grad/grad.h>)
[[grad::forward]] double logistic(double x) { return 1 / (1 + std::exp(-x)); }
#else
#include "gradcheck.h"
#include <cmath>
#include <grad/grad.h>

[[grad::forward]] double logistic(double x) { return 1 / (1 + std::exp(-x)); }

#ifdef ERRORS
// ADVICE: (a 'T[]' parameter gets a 'const T *' tangent: declare it 'T *')
// ERR: memory-forward.cpp:[[@LINE+4]]:5: error: grad: cannot differentiate write to 'a[i]', whose tangent is read-only (a 'T[]' parameter gets a 'const T *' tangent: declare it 'T *') in 'scale' in forward mode
// ERR: memory-forward.cpp:[[@LINE+1]]:3: note: while differentiating 'scale' requested here
[[grad::forward]] void scale(double a[], int n, double s) {
  for (int i = 0; i < n; ++i)
    a[i] *= std::sin(s);
}

// Two rows of a matrix as row pointers, for a helper over 'double **'.
static double sumsq(double **A, int n, int m) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      s += A[i][j] * A[i][j];
  return s;
}
// ADVICE: (pass the pointer itself)
// ERR: memory-forward.cpp:[[@LINE+4]]:19: error: grad: cannot differentiate pointer 'r0' into differentiated memory in the brace initialisation of 'double *[2]' (pass the pointer itself) in 'frob' in forward mode
// ERR: memory-forward.cpp:[[@LINE+1]]:3: note: while differentiating 'frob' requested here
[[grad::forward]] double frob(double x, double y) {
  double r0[2] = {x, y}, r1[2] = {y * x, 1.0};
  double *A[2] = {r0, r1};
  return sumsq(A, 2, 2);
}
#else
[[grad::forward]] void scale(double *a, int n, double s) {
  for (int i = 0; i < n; ++i)
    a[i] *= std::sin(s);
}

static double sumsq(const double *r0, const double *r1, int m) {
  double s = 0;
  for (int j = 0; j < m; ++j)
    s += r0[j] * r0[j] + r1[j] * r1[j];
  return s;
}
[[grad::forward]] double frob(double x, double y) {
  double r0[2] = {x, y}, r1[2] = {y * x, 1.0};
  return sumsq(r0, r1, 2);
}
#endif

int main() {
  gradcheck::expect("logistic.t",
                    logistic_pushforward(0.4, 1.0).der[0],
                    gradcheck::fd(logistic, 0, 0.4));
  // CHECK: ok logistic.t
  {
    // The tangent of a[k] along each input.
    auto f = [](int k, double a0, double a1, double s) {
      double a[2] = {a0, a1};
      scale(a, 2, s);
      return a[k];
    };
    const double X[3] = {0.8, -1.1, 0.6};
    for (int j = 0; j < 3; ++j) {
      double a[2] = {X[0], X[1]}, ta[2] = {j == 0 ? 1.0 : 0.0, j == 1 ? 1.0 : 0.0};
      scale_pushforward(a, 2, X[2], ta, j == 2 ? 1.0 : 0.0);
      for (int k = 0; k < 2; ++k)
        gradcheck::expect(
            "scale.a" + std::to_string(k) + ".t" + std::to_string(j), ta[k],
            gradcheck::fd([&](double a0, double a1,
                              double s) { return f(k, a0, a1, s); },
                          j, X[0], X[1], X[2]));
    }
  }
  // CHECK: ok scale.a0.t0
  // CHECK: ok scale.a1.t0
  // CHECK: ok scale.a0.t1
  // CHECK: ok scale.a1.t1
  // CHECK: ok scale.a0.t2
  // CHECK: ok scale.a1.t2
  gradcheck::expect("frob.tx", frob_pushforward(0.7, -1.2, 1, 0).der[0],
                    gradcheck::fd(frob, 0, 0.7, -1.2));
  gradcheck::expect("frob.ty", frob_pushforward(0.7, -1.2, 0, 1).der[0],
                    gradcheck::fd(frob, 1, 0.7, -1.2));
  // CHECK: ok frob.tx
  // CHECK: ok frob.ty
  return gradcheck::failures();
}
#endif
