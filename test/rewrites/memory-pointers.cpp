// Rewrites suggested by the refusals about pointers in reverse mode: a
// pointer loaded from memory and assigned again (a new pointer for each
// value), a pointer parameter made to point into other memory (a local
// pointer that is moved instead), the dereferenced result of a call whose
// argument cannot be evaluated again (bind the result to a local pointer),
// a pointer parameter written but left out of the wrt list (add it), and an
// iterator local (a range-based for loop, an index, or a pointer walk). The
// first part checks each message and its location; the second compiles
// the rewrites under the same names and checks their gradients against
// central finite differences.
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <algorithm>
#include <cmath>
#include <vector>

static int half(int n) { return n / 2; }

#ifdef ERRORS
// Rows of a matrix kept as row pointers: one local pointer for two rows.
// ADVICE: (declare a new pointer for each value)
// ERR: memory-pointers.cpp:[[@LINE+3]]:11: error: grad: cannot differentiate pointer 'r' loaded from memory and assigned again (declare a new pointer for each value) in 'rows'
// ERR: memory-pointers.cpp:[[@LINE+1]]:3: note: while differentiating 'rows' requested here
[[grad]] double rows(double **A, double c) {
  double *r = A[0];
  double s = r[0] * r[1];
  r = A[1];
  return s + c * r[0] * std::sin(r[1]);
}

// A weighted sum, then the weights pointer reused for the tail of x, in a
// member function (a free function's re-seated parameter is accepted:
// test/memory/reseated-parameters.cpp).
struct Tail {
  int n;
  // ADVICE: (declare a local pointer for it: 'auto *w2 = w;', then use and move w2)
  // ERR: memory-pointers.cpp:[[@LINE+6]]:5: error: grad: cannot differentiate pointer parameter 'w' made to point into other memory (declare a local pointer for it: 'auto *w2 = w;', then use and move w2) in 'tail'
  // ERR: memory-pointers.cpp:[[@LINE+1]]:5: note: while differentiating 'tail' requested here
  [[grad]] double tail(const double *x, const double *w) const {
    double s = 0;
    for (int i = 0; i < n; ++i)
      s += x[i] * w[i];
    w = x + 1;
    return s + w[0] * w[1];
  }
};

// The largest element of the upper half.
// ADVICE: (it has side effects or calls a function; bind the result to a local pointer first)
// ERR: memory-pointers.cpp:[[@LINE+3]]:28: error: grad: cannot differentiate argument 'a + half(n)' of a pointer result that is dereferenced: it cannot be evaluated again (it has side effects or calls a function; bind the result to a local pointer first) in 'peak'
// ERR: memory-pointers.cpp:[[@LINE+1]]:3: note: while differentiating 'peak' requested here
[[grad]] double peak(const double *a, int n, double s) {
  return *std::max_element(a + half(n), a + n) * s + a[0];
}

// An output array left out of the wrt list.
// ADVICE: (add it: its adjoint carries the seed of what is written there)
// ERR: memory-pointers.cpp:[[@LINE+2]]:51: error: grad: cannot differentiate pointer parameter 'out', which receives differentiated values but is not in the wrt list (add it: its adjoint carries the seed of what is written there) in 'resid'
// ERR: memory-pointers.cpp:[[@LINE+1]]:3: note: while differentiating 'resid' requested here
[[grad("x")]] void resid(const double *x, double *out) {
  out[0] = x[0] * x[1] - 1;
  out[1] = std::exp(x[0]) - x[1];
}

// A sum of squares over an iterator.
// ADVICE: (index the container, use a range-based for loop, or walk a pointer such as 'v.data()')
// ERR: memory-pointers.cpp:[[@LINE+4]]:13: error: grad: cannot differentiate iterator 'it' (index the container, use a range-based for loop, or walk a pointer such as 'v.data()') in 'norm2'
// ERR: memory-pointers.cpp:[[@LINE+1]]:3: note: while differentiating 'norm2' requested here
[[grad]] double norm2(const std::vector<double> &v) {
  double s = 0;
  for (auto it = v.begin(); it != v.end(); ++it)
    s += *it * *it;
  return s;
}
#else
[[grad]] double rows(double **A, double c) {
  double *r0 = A[0];
  double s = r0[0] * r0[1];
  double *r1 = A[1];
  return s + c * r1[0] * std::sin(r1[1]);
}

struct Tail {
  int n;
  [[grad]] double tail(const double *x, const double *w) const {
    auto *w2 = w;
    double s = 0;
    for (int i = 0; i < n; ++i)
      s += x[i] * w2[i];
    w2 = x + 1;
    return s + w2[0] * w2[1];
  }
};

[[grad]] double peak(const double *a, int n, double s) {
  const double *m = std::max_element(a + half(n), a + n);
  return *m * s + a[0];
}

[[grad("x, out")]] void resid(const double *x, double *out) {
  out[0] = x[0] * x[1] - 1;
  out[1] = std::exp(x[0]) - x[1];
}

// The three loops the advice names.
[[grad]] double norm2(const std::vector<double> &v) {
  double s = 0;
  for (double e : v)
    s += e * e;
  for (std::size_t i = 0; i < v.size(); ++i)
    s += v[i] * v[i];
  for (const double *p = v.data(); p != v.data() + v.size(); ++p)
    s += *p * *p;
  return s;
}
#endif

int main() {
  {
    auto f = [](double a, double b, double c, double d, double k) {
      double r0[2] = {a, b}, r1[2] = {c, d};
      double *A[2] = {r0, r1};
      return rows(A, k);
    };
    double r0[2] = {0.3, -1.2}, r1[2] = {0.7, 0.4};
    double *A[2] = {r0, r1};
    double d0[2] = {0, 0}, d1[2] = {0, 0};
    double *dA[2] = {d0, d1};
    double dk = 0;
    rows_pullback(A, 0.9, 1.0, dA, &dk);
    const double *D[5] = {&d0[0], &d0[1], &d1[0], &d1[1], &dk};
    for (int i = 0; i < 5; ++i)
      gradcheck::expect("rows.d" + std::to_string(i), *D[i],
                        gradcheck::fd(f, i, 0.3, -1.2, 0.7, 0.4, 0.9));
  }
  // CHECK: ok rows.d0
  // CHECK: ok rows.d1
  // CHECK: ok rows.d2
  // CHECK: ok rows.d3
  // CHECK: ok rows.d4
  {
    auto f = [](double x0, double x1, double x2, double w0, double w1,
                double w2) {
      double x[3] = {x0, x1, x2}, w[3] = {w0, w1, w2};
      return Tail{3}.tail(x, w);
    };
    double x[3] = {0.5, -0.8, 1.1}, w[3] = {0.2, 0.9, -0.4};
    double dx[3] = {0, 0, 0}, dw[3] = {0, 0, 0};
    Tail t{3};
    t.tail_pullback(x, w, 1.0, dx, dw);
    for (int i = 0; i < 3; ++i) {
      gradcheck::expect("tail.dx" + std::to_string(i), dx[i],
                        gradcheck::fd(f, i, 0.5, -0.8, 1.1, 0.2, 0.9, -0.4));
      gradcheck::expect("tail.dw" + std::to_string(i), dw[i],
                        gradcheck::fd(f, 3 + i, 0.5, -0.8, 1.1, 0.2, 0.9,
                                      -0.4));
    }
  }
  // CHECK: ok tail.dx0
  // CHECK: ok tail.dw0
  // CHECK: ok tail.dx1
  // CHECK: ok tail.dw1
  // CHECK: ok tail.dx2
  // CHECK: ok tail.dw2
  {
    auto f = [](double a0, double a1, double a2, double a3, double s) {
      double a[4] = {a0, a1, a2, a3};
      return peak(a, 4, s);
    };
    double a[4] = {0.5, 2.0, 0.3, 1.4}, da[4] = {0, 0, 0, 0}, ds = 0;
    peak_pullback(a, 4, 1.7, 1.0, da, &ds);
    for (int i = 0; i < 4; ++i)
      gradcheck::expect("peak.da" + std::to_string(i), da[i],
                        gradcheck::fd(f, i, 0.5, 2.0, 0.3, 1.4, 1.7));
    gradcheck::expect("peak.ds", ds,
                      gradcheck::fd(f, 4, 0.5, 2.0, 0.3, 1.4, 1.7));
  }
  // CHECK: ok peak.da0
  // CHECK: ok peak.da1
  // CHECK: ok peak.da2
  // CHECK: ok peak.da3
  // CHECK: ok peak.ds
#ifndef ERRORS
  {
    // The gradient of out[k]: seed d_out[k] = 1.
    for (int k = 0; k < 2; ++k) {
      auto f = [k](double x0, double x1) {
        double x[2] = {x0, x1}, out[2] = {0, 0};
        resid(x, out);
        return out[k];
      };
      double x[2] = {0.6, -0.3}, out[2] = {0, 0}, dx[2] = {0, 0};
      double dout[2] = {0, 0};
      dout[k] = 1;
      resid_pullback(x, out, dx, dout);
      for (int i = 0; i < 2; ++i)
        gradcheck::expect("resid.out" + std::to_string(k) + ".dx" +
                              std::to_string(i),
                          dx[i], gradcheck::fd(f, i, 0.6, -0.3));
    }
  }
#endif
  // CHECK: ok resid.out0.dx0
  // CHECK: ok resid.out0.dx1
  // CHECK: ok resid.out1.dx0
  // CHECK: ok resid.out1.dx1
  {
    auto f = [](double a, double b, double c) {
      return norm2(std::vector<double>{a, b, c});
    };
    std::vector<double> v{0.4, -1.3, 2.2}, dv(3, 0.0);
    norm2_pullback(v, 1.0, &dv);
    for (int i = 0; i < 3; ++i)
      gradcheck::expect("norm2.d" + std::to_string(i), dv[i],
                        gradcheck::fd(f, i, 0.4, -1.3, 2.2));
  }
  // CHECK: ok norm2.d0
  // CHECK: ok norm2.d1
  // CHECK: ok norm2.d2
  return gradcheck::failures();
}
