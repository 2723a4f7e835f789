// Copies of floating elements written the C and the C++ way: std::copy and
// std::copy_n over pointers and over std::vector iterators, std::memcpy,
// std::memmove (also overlapping, both directions) and std::memset to zero.
// Their library bodies end in __builtin_memmove, which has no derivative;
// the plugin differentiates the element loop each one stands for, so the
// copied elements' adjoints go back to their source, the overwritten
// elements' adjoints are dropped, and the result pointer of std::copy
// aliases the destination. Reverse and forward mode, also under ASan.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: not %gradxx -fsyntax-only -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: %dump %s --function=rows %dflags | FileCheck %s --check-prefix=DUMP
#include "fwdcheck.h"
#include "gradcheck.h"
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace gradcheck;
using fwdcheck::both;

// std::copy into a local array, which is then overwritten in part; the
// result pointer marks where the copy ended.
[[grad, grad::forward]] double cpy(double x, double y) {
  double src[3] = {x * y, y, x - y};
  double a[5] = {1, 2, 3, 4, 5};
  double *end = std::copy(src, src + 3, a + 1);
  *end = x * x; // a[4]
  src[0] = 7;   // (the copy keeps the old value)
  a[1] *= a[2];
  return a[0] + a[1] * a[3] + a[4] * src[0];
}

// Rows of a matrix copied out with memcpy in a loop; memset clears the
// accumulator; copy_n writes into an out-parameter.
[[grad]] void rows(const double *A, int n, int m, double *out) {
  double row[4];
  double acc[4];
  std::memset(acc, 0, sizeof acc);
  for (int i = 0; i < n; ++i) {
    std::memcpy(row, A + i * m, m * sizeof(double));
    for (int j = 0; j < m; ++j)
      acc[j] += row[j] * row[j] * (i + 1);
  }
  std::copy_n(acc, m, out);
}
// DUMP: void rows_pullback(
// DUMP: ::grad::detail::_grad_zero_elements_fwd_{{[0-9]+}}(acc, _t{{[0-9]+}}, _stack);
// DUMP: ::grad::detail::_grad_move_elements_fwd_{{[0-9]+}}(row, A + i * m, _t{{[0-9]+}}, _stack);
// DUMP: ::grad::detail::_grad_copy_n_elements_rev_{{[0-9]+}}(m, _d_acc, d_out, _stack);
// DUMP: ::grad::detail::_grad_move_elements_rev_{{[0-9]+}}(A + i * m, _t{{[0-9]+}}, _d_row, d_A + i * m, _stack);
// DUMP: ::grad::detail::_grad_zero_elements_rev_{{[0-9]+}}(_t{{[0-9]+}}, _d_acc, _stack);

// memmove within one array, forwards and backwards (overlapping).
[[grad, grad::forward]] double shift(double x, double y) {
  double a[5] = {x, y, x * y, 1.0, y - x};
  std::memmove(a + 1, a, 3 * sizeof(double)); // x x y xy (y-x)
  a[0] = a[1] * a[2];
  std::memmove(a, a + 2, 3 * sizeof a[0]);    // y xy (y-x) xy (y-x)
  return a[0] * a[1] + a[2] * a[3] + a[4];
}

// Iterators of std::vector: whole ranges and offsets.
[[grad, grad::forward]] double iters(double x, double y) {
  std::vector<double> v{x, y, x * y};
  std::vector<double> w(4, 1.0);
  std::copy(v.begin() + 1, v.end(), w.begin());
  std::copy_n(v.begin(), 2, w.begin() + 2);
  v[0] = w[0] * w[3];
  return v[0] + w[1] * w[2];
}

// Scratch memory: malloc'd and new[]'d buffers get shadows, filled by
// memcpy and std::copy, reversed in place by std::reverse.
[[grad]] double scratch(const double *x, int n) {
  double *buf = (double *)std::malloc(n * sizeof(double));
  std::memcpy(buf, x, n * sizeof(double));
  double *rev = new double[n];
  std::copy(buf, buf + n, rev);
  std::reverse(rev, rev + n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += buf[i] * rev[i] * (i + 1);
  delete[] rev;
  std::free(buf);
  return s;
}

#ifdef REFUSED
[[grad]] double ones(double x) {
  double a[2];
// REFUSED: element-copies.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate call to 'memset' in 'ones': it has no visible body, no derivative rule and no user pullback
  std::memset(a, 1, sizeof a);
  a[0] = x;
  return a[0] * a[1];
}
[[grad]] double narrow(const double *x) {
  float a[2];
// REFUSED: element-copies.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate call to 'memcpy' in 'narrow': it has no visible body, no derivative rule and no user pullback
  std::memcpy(a, x, sizeof a);
  return a[0] * a[1];
}
#endif

int main() {
  both("cpy", cpy, cpy_pullback, cpy_pushforward, 1.5, 0.7);
  both("cpy2", cpy, cpy_pullback, cpy_pushforward, -0.3, 2.1);
  both("shift", shift, shift_pullback, shift_pushforward, 1.5, 0.7);
  both("iters", iters, iters_pullback, iters_pushforward, 1.5, 0.7);
  {
    double x[4] = {0.3, -1.2, 0.7, 1.9}, d[4] = {};
    scratch_pullback(x, 4, 1.0, d);
    for (int i = 0; i < 4; ++i) {
      auto fi = [&](double t) {
        double y[4] = {x[0], x[1], x[2], x[3]};
        y[i] = t;
        return scratch(y, 4);
      };
      expect("scratch.d" + std::to_string(i), d[i], fd(fi, 0, x[i]));
    }
  }
  {
    // rows: out[j] = sum_i (i + 1) A[i][j]^2; the pullback of a seed s
    // on out[j] is 2 (i + 1) A[i][j] s.
    const int n = 3, m = 4;
    double A[n * m], out[m], d_A[n * m] = {}, d_out[m];
    for (int k = 0; k < n * m; ++k)
      A[k] = 0.1 * k - 0.4;
    for (int j = 0; j < m; ++j)
      d_out[j] = 1.0 + j;
    rows(A, n, m, out);
    double want_out = 0, want_d = 0;
    for (int i = 0; i < n; ++i)
      want_out += A[i * m + 2] * A[i * m + 2] * (i + 1);
    expect("rows.out2", out[2], want_out);
    rows_pullback(A, n, m, out, d_A, d_out);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j) {
        want_d = 2.0 * (i + 1) * A[i * m + j] * (1.0 + j);
        expect("rows.dA" + std::to_string(i * m + j), d_A[i * m + j], want_d);
      }
    // The pullback takes out's adjoint in and leaves it at zero.
    expect("rows.dout", d_out[1], 0.0);
  }
  return failures();
}
// CHECK: ok cpy.d0
// CHECK: ok cpy.d1
// CHECK: ok cpy.fwd.x
// CHECK: ok cpy2.d1
// CHECK: ok shift.d0
// CHECK: ok shift.d1
// CHECK: ok shift.fwd.y
// CHECK: ok iters.d0
// CHECK: ok iters.d1
// CHECK: ok iters.fwd.x
// CHECK: ok scratch.d0
// CHECK: ok scratch.d3
// CHECK: ok rows.out2
// CHECK: ok rows.dA0
// CHECK: ok rows.dA11
// CHECK: ok rows.dout
