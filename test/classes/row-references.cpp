// Range-based for binding a reference to each row of a container of
// containers (`for (const auto &row : M)`, `for (auto &row : M)`): the
// reference is an alias of row k, whose shadow is row k of the shadow (was
// "range-based 'for' loop over elements of type 'std::vector<double>'").
// std::array rows by value (copies, like a plain struct's). Rows read by
// index, by an inner range-for by value, by row.size() /
// row.back() / row.empty(), written through row[j]; a std::vector of
// std::array; a local matrix; break; a helper called twice (split halves);
// forward mode. Values against central differences. A reference to the
// elements of such a row (`for (double &v : row)`) and rows by value are
// errors.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: %dump %s --function=frob %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"
#include <array>
#include <cmath>
#include <vector>
using namespace gradcheck;
using Mat = std::vector<std::vector<double>>;

// DUMP-LABEL: void frob_pullback(
// DUMP: for (unsigned long _k0 = 0UL; _k0 < M.size(); ++_k0) {
// DUMP: const std::vector<double> &row = M[_k0];
// DUMP: while (_n0)
// DUMP: (*((*d_M).data() + _k1))[_k3] += _d_v;
[[grad]] double frob(const Mat &M) {
  double s = 0;
  for (const auto &row : M)
    for (double v : row)
      s += v * v;
  return std::sqrt(s);
}

// A residual per row (C style: index inside), tanh of a dot product.
[[grad]] double rows(const Mat &A, const std::vector<double> &x) {
  double s = 0;
  for (const auto &row : A) {
    double d = 0;
    for (std::size_t j = 0; j < row.size(); ++j)
      d += row[j] * x[j];
    s += std::tanh(d);
  }
  return s;
}

// Rows written through the reference.
[[grad]] double scaled(Mat &M, double k) {
  double s = 0;
  for (auto &row : M)
    for (std::size_t j = 0; j < row.size(); ++j) {
      row[j] *= k;
      s += row[j] * row[j] * row[j];
    }
  return s;
}

// A local matrix built from the inputs, rows of std::array, a break.
[[grad]] double local(double a, double b) {
  std::vector<std::array<double, 2>> P{{a, b}, {b * a, 1.0}, {std::sin(a), b}};
  double s = 0;
  for (const auto &p : P) {
    if (p[0] > 5)
      break;
    s += p[0] * std::exp(p[1]);
  }
  return s;
}

// std::array rows by value: copies, written in the body.
[[grad]] double copies(const std::vector<std::array<double, 2>> &P) {
  double s = 0;
  for (auto p : P) {
    p[0] *= 2;
    s += p[0] * std::sin(p[1]);
  }
  return s;
}
[[grad::forward]] double copies_fwd(const std::vector<std::array<double, 2>> &P) {
  return copies(P);
}

// Braces of std::array elements (their member array's braces implicit):
// each element's adjoint went one subscript too deep (a Sema error).
[[grad]] double nested(double a, double b) {
  std::array<std::array<double, 2>, 2> A{{{a, b}, {b * b, 1.0}}};
  std::vector<std::array<double, 2>> B{std::array<double, 2>{a, 2.0},
                                       {a * b, b}};
  return A[0][0] * A[1][0] + A[0][1] * B[1][0] + B[1][1] * B[0][0];
}

// A helper writing through its out-parameter (two halves) with a local
// std::vector of std::array rows: its shadow's size goes in the frame (was
// "vector of vectors '_d_P' in a function differentiated in two halves").
static void fillrows(const double *x, double *out) {
  std::vector<std::array<double, 2>> P;
  for (int i = 0; i < 3; ++i)
    P.push_back({x[i], x[i] * x[i]});
  double s = 0;
  for (const auto &p : P)
    s += std::sin(p[0]) * p[1];
  out[0] = s;
  out[1] = P.back()[1] * s;
}
[[grad]] double userows(const double *x) {
  double o[2];
  fillrows(x, o);
  return o[0] * o[1];
}

static double headtail(const Mat &M, double k) {
  double s = 0;
  for (const auto &row : M) {
    if (row.empty())
      break;
    s += k * std::exp(row[0]) * row.back();
  }
  return s;
}
[[grad]] double twice(const Mat &M, double k) {
  return headtail(M, k) * headtail(M, 2 * k);
}

[[grad::forward]] double frob_fwd(const Mat &M) { return frob(M); }

#ifdef ERRORS
// ERR: row-references.cpp:[[@LINE+4]]:5: error: grad: cannot differentiate range-based 'for' loop binding a reference to the elements of 'row', an element of 'M' (take the elements by value, or loop over an index) in 'inner_ref'
[[grad]] double inner_ref(Mat &M) {
  double s = 0;
  for (auto &row : M)
    for (double &v : row) {
      v *= 2;
      s += v * v;
    }
  return s;
}
// ERR: row-references.cpp:[[@LINE+3]]:3: error: grad: cannot differentiate range-based 'for' loop over elements of type 'std::vector<double>' by value (take them by reference, `const auto &`, or loop over an index) in 'by_value'
[[grad]] double by_value(const Mat &M) {
  double s = 0;
  for (std::vector<double> row : M)
    s += row[0];
  return s;
}
#endif

/// Every adjoint of \p M against central differences of \p f.
template <class F, class PB>
void checkMat(const std::string &Name, const Mat &M, F f, PB Pb) {
  Mat D = M;
  for (auto &R : D)
    for (double &V : R)
      V = 0;
  Mat Arg = M;
  Pb(Arg, D);
  for (std::size_t I = 0; I < M.size(); ++I)
    for (std::size_t J = 0; J < M[I].size(); ++J) {
      auto G = [&](double T) {
        Mat P = M;
        P[I][J] = T;
        return f(P);
      };
      expect(Name + ".d" + std::to_string(I) + std::to_string(J), D[I][J],
             fd(G, 0, M[I][J]), 1e-8);
    }
}

int main() {
  const Mat M{{1.0, 2.0}, {3.0, 0.4, 0.5}};
  checkMat("frob", M, [](Mat P) { return frob(P); },
           [](Mat &P, Mat &D) { frob_pullback(P, 1.0, &D); });
  // CHECK-COUNT-5: ok frob.d{{[01][0-2]}}
  const std::vector<double> x{0.2, -0.3, 0.7};
  std::vector<double> dx(3);
  checkMat("rows", M, [&](Mat P) { return rows(P, x); },
           [&](Mat &P, Mat &D) { rows_pullback(P, x, 1.0, &D, &dx); });
  // CHECK-COUNT-5: ok rows.d{{[01][0-2]}}
  for (int j = 0; j < 3; ++j) {
    auto G = [&](double T) {
      std::vector<double> y = x;
      y[j] = T;
      return rows(M, y);
    };
    expect("rows.x" + std::to_string(j), dx[j], fd(G, 0, x[j]), 1e-8);
  }
  // CHECK-COUNT-3: ok rows.x{{[0-2]}}
  checkMat("scaled", M, [](Mat P) { return scaled(P, 1.5); },
           [](Mat &P, Mat &D) {
             double dk = 0;
             scaled_pullback(P, 1.5, 1.0, &D, &dk);
           });
  // CHECK-COUNT-5: ok scaled.d{{[01][0-2]}}
  {
    Mat P = M, D = M;
    for (auto &R : D)
      for (double &V : R)
        V = 0;
    double dk = 0;
    scaled_pullback(P, 1.5, 1.0, &D, &dk);
    expect("scaled.k", dk,
           fd([&](double k) { Mat Q = M; return scaled(Q, k); }, 0, 1.5), 1e-8);
  }
  // CHECK: ok scaled.k
  for (double a : {0.4, 2.5})
    check_grad("local", local, local_pullback, a, 0.3);
  // CHECK-COUNT-4: ok local.d{{[01]}}
  {
    const std::vector<std::array<double, 2>> P{{0.3, 1.1}, {-0.5, 0.2}};
    std::vector<std::array<double, 2>> dP(2);
    copies_pullback(P, 1.0, &dP);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) {
        auto G = [&](double T) {
          auto Q = P;
          Q[i][j] = T;
          return copies(Q);
        };
        double Want = fd(G, 0, P[i][j]);
        expect("copies.d" + std::to_string(i) + std::to_string(j), dP[i][j],
               Want, 1e-8);
        std::vector<std::array<double, 2>> T(2);
        T[i][j] = 1;
        expect("copies_fwd.d" + std::to_string(i) + std::to_string(j),
               copies_fwd_pushforward(P, T).der[0], Want, 1e-8);
      }
  }
  // CHECK-COUNT-8: ok copies{{(_fwd)?}}.d{{[01][01]}}
  check_grad("nested", nested, nested_pullback, 0.5, 3.0);
  // CHECK-COUNT-2: ok nested.d{{[01]}}
  {
    const double x3[3] = {0.3, 0.7, 1.1};
    double d3[3] = {};
    userows_pullback(x3, 1.0, d3);
    for (int i = 0; i < 3; ++i) {
      auto G = [&](double T) {
        double y[3] = {x3[0], x3[1], x3[2]};
        y[i] = T;
        return userows(y);
      };
      expect("userows.d" + std::to_string(i), d3[i], fd(G, 0, x3[i]), 1e-8);
    }
  }
  // CHECK-COUNT-3: ok userows.d{{[0-2]}}
  checkMat("twice", M, [](Mat P) { return twice(P, 0.7); },
           [](Mat &P, Mat &D) {
             double dk = 0;
             twice_pullback(P, 0.7, 1.0, &D, &dk);
           });
  // CHECK-COUNT-5: ok twice.d{{[01][0-2]}}
  {
    Mat T = M;
    for (auto &R : T)
      for (double &V : R)
        V = 0;
    T[1][2] = 1;
    expect("frob_fwd", frob_fwd_pushforward(M, T).der[0],
           fd([&](double t) { Mat Q = M; Q[1][2] = t; return frob(Q); }, 0,
              M[1][2]),
           1e-8);
  }
  // CHECK: ok frob_fwd
  return failures();
}
