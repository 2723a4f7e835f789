// std::sort and std::stable_sort of floating elements (pointers, or
// iterators of a std::vector / std::array), with or without a comparator
// (std::greater<double>(), a function such as `byAbs`): the runtime's
// sort_elements in their place (before, errors inside libstdc++'s
// stl_algo.h). The order is found on the values (no derivative flows
// through a comparison), then the elements are swapped into place, so each
// output's adjoint goes back to the input it came from. Both modes, and a
// 200-element sort whose gradient is the vector of ranks.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s --function=median %dflags | FileCheck %s --check-prefix=DUMP
#include "fwdcheck.h"
#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

using namespace gradcheck;

[[grad, grad::forward]] double median(double x, double y) {
  double a[5] = {x, y, x * y, 1.0, std::sin(x)};
  std::sort(a, a + 5);
  return a[2] + 0.5 * a[4];
}

[[grad, grad::forward]] double vectorSort(double x, double y) {
  std::vector<double> v{x, y, x * y, 1.0};
  std::sort(v.begin(), v.end());
  return v[0] * v[3];
}

[[grad, grad::forward]] double descending(double x, double y) {
  double a[6] = {x, y, x * y, -1.0, std::sin(x), y * y};
  std::sort(a, a + 6, std::greater<double>());
  double s = 0;
  for (int i = 0; i < 6; ++i)
    s += a[i] * (i + 1);
  return s;
}

static bool byAbs(double a, double b) { return std::fabs(a) < std::fabs(b); }

[[grad, grad::forward]] double stable(double x, double y) {
  std::vector<double> v{x, -y, x * y, -2.0};
  std::stable_sort(v.begin(), v.end(), byAbs);
  return v[0] + 2 * v[1] + 3 * v[2] * v[3];
}

// A trimmed mean through a helper that sorts its argument's copy.
static double trimmed(const double *p, int n) {
  std::vector<double> v(p, p + n);
  std::sort(v.begin(), v.end());
  double s = 0;
  for (int i = 1; i + 1 < n; ++i)
    s += v[i];
  return s / (n - 2);
}

[[grad]] double ranks(const double *p, int n) {
  std::vector<double> v(p, p + n);
  std::sort(v.begin(), v.end());
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += v[i] * i;
  return s + trimmed(p, n);
}

int main() {
  fwdcheck::both("median", median, median_pullback, median_pushforward, 1.3,
                 -0.7);
  fwdcheck::both("vectorSort", vectorSort, vectorSort_pullback,
                 vectorSort_pushforward, 1.3, -0.7);
  fwdcheck::both("descending", descending, descending_pullback,
                 descending_pushforward, 1.3, -0.7);
  fwdcheck::both("stable", stable, stable_pullback, stable_pushforward, 1.3,
                 -0.7);
  const int N = 200;
  std::vector<double> P(N), DP(N, 0.0);
  for (int i = 0; i < N; ++i)
    P[i] = std::sin(i * 1.7);
  ranks_pullback(P.data(), N, 1.0, DP.data());
  // d/dp[k]: the rank of p[k], plus 1/(n-2) unless p[k] is the smallest or
  // the largest.
  int Bad = 0;
  for (int K = 0; K < N; ++K) {
    int R = 0;
    for (int J = 0; J < N; ++J)
      R += P[J] < P[K];
    double Want = R + (R == 0 || R == N - 1 ? 0.0 : 1.0 / (N - 2));
    Bad += std::fabs(DP[K] - Want) > 1e-12;
  }
  expect("ranks.wrong", Bad, 0);
  return failures();
}

// CHECK: ok median.d0
// CHECK: ok median.fwd.y
// CHECK: ok vectorSort.d1
// CHECK: ok descending.d0
// CHECK: ok descending.fwd.x
// CHECK: ok stable.d1
// CHECK: ok stable.fwd.val
// CHECK: ok ranks.wrong

// DUMP: void median_pullback(double x, double y, double d_ret, double *d_x, double *d_y) {
// DUMP: ::grad::detail::_grad_sort_elements_fwd_0(a, a + 5, _stack);
// DUMP: ::grad::detail::_grad_sort_elements_rev_0(_d_a, _d_a + 5, _stack);
