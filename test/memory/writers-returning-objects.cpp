// Helpers that write through a reference parameter and return an object
// (a struct, std::pair, std::complex, std::array, std::vector, or a class
// keeping its elements in a std::vector member; a std::tuple is an error):
// the call is a side effect of its statement, its value goes to a
// temporary whose adjoint (an object shaped like the value) receives what
// the statement sends back. The adjoint of a returned
// struct was dropped (a wrong gradient without a diagnostic: `V2 n =
// growp(m, x);` gave 1.372 for 3.744), the others did not compile.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: not %gradxx -fsyntax-only -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: %dump %s --function=plain %dflags | FileCheck %s --check-prefix=DUMP
#include <array>
#include <complex>
#include <utility>
#include <tuple>
#include <vector>
#include "gradcheck.h"
using namespace gradcheck;

struct V2 {
  double a, b;
};

V2 growp(V2 &m, double s) {
  m.a *= s;
  return V2{m.a * 2, m.b + s};
}

// DUMP-LABEL: void plain_pullback(double x, double d_ret, double *d_x) {
// DUMP: V2 _d_t[[T:[0-9]+]] = {};
// DUMP: _t{{[0-9]+}} = ::_grad_growp_fwd(m, x, _stack);
// DUMP: _d_t[[T]].b += _d_n.b;
// DUMP: ::_grad_growp_rev(x, _d_t[[T]], &_d_m, &_g0, _stack);
[[grad]] double plain(double x) {
  V2 m{x, 1.0};
  V2 n = growp(m, x);
  return n.a * m.a + n.b;
}

[[grad]] double inloop(double x) {
  V2 m{x, 1.0};
  double s = 0;
  for (int i = 0; i < 3; ++i) {
    V2 n = growp(m, x);
    s += n.a * n.b;
  }
  return s + m.a;
}

std::array<double, 2> growa(double &m, double s) {
  m *= s;
  return {m, m * s};
}

[[grad]] double array(double x) {
  double m = x;
  std::array<double, 2> n = growa(m, x);
  return n[0] * n[1] + m;
}

std::vector<double> growv(std::vector<double> &m, double s) {
  m[0] *= s;
  std::vector<double> r(2);
  r[0] = m[0] * s;
  r[1] = s * s;
  return r;
}

[[grad]] double vector(double a) {
  std::vector<double> m(1, a);
  std::vector<double> n = growv(m, a);
  return n[0] * m[0] + n[1];
}

struct Mat {
  int rows = 1, cols = 1;
  std::vector<double> data;
  Mat() : data(1, 0.0) {}
  Mat(int r, int c) : rows(r), cols(c), data(r * c, 0.0) {}
  double &operator()(int i, int j) { return data[i * cols + j]; }
};

Mat growm(Mat &m, double s) {
  m(0, 0) *= s;
  Mat r(1, 2);
  r(0, 0) = m(0, 0) * m(0, 0);
  r(0, 1) = s;
  return r;
}

[[grad]] double owner(double a) {
  Mat m(1, 1);
  m(0, 0) = a;
  Mat n = growm(m, a);
  return n(0, 0) * m(0, 0) + n(0, 1);
}

std::pair<double, double> growpair(double &m, double s) {
  m *= s;
  return {m * s, s};
}

std::complex<double> growc(double &m, double s) {
  m *= s;
  return {m, s * m};
}

[[grad]] double pairs(double x) {
  double m = x;
  auto p = growpair(m, x);
  auto c = growc(m, p.first);
  return p.first * p.second + c.real() * c.imag() + m;
}

std::tuple<double, int, double> growt(double &m, double s) {
  m *= s;
  return {m * s, 2, s * s};
}

#ifdef REFUSED
// REFUSED: writers-returning-objects.cpp:[[@LINE+3]]:12: error: grad: cannot differentiate value of growt(m, x), of type 'std::tuple<double, int, double>', returned by a call that also writes through its arguments (return a struct or a std::pair, or return it through a reference parameter) in 'tuple'
[[grad]] double tuple(double x) {
  double m = x;
  auto t = growt(m, x);
  return std::get<0>(t) * std::get<2>(t) + m;
}

// Shaped by its value: not kept per iteration.
[[grad]] double vectorLoop(double a) {
  std::vector<double> m(1, a);
  double s = 0;
  for (int i = 0; i < 2; ++i) {
    // REFUSED: writers-returning-objects.cpp:[[@LINE+1]]:29: error: grad: cannot differentiate value of growv(m, a), of type 'std::vector<double>', returned by a call that also writes through its arguments, inside a loop (return it through a reference parameter) in 'vectorLoop'
    std::vector<double> n = growv(m, a);
    s += n[1];
  }
  return s;
}
#endif

int main() {
  double dx = 0;
  plain_pullback(0.7, 1.0, &dx);
  expect("plain", dx, fd(plain, 0, 0.7));
  dx = 0;
  inloop_pullback(0.7, 1.0, &dx);
  expect("inloop", dx, fd(inloop, 0, 0.7));
  dx = 0;
  array_pullback(0.7, 1.0, &dx);
  expect("array", dx, fd(array, 0, 0.7));
  dx = 0;
  vector_pullback(0.7, 1.0, &dx);
  expect("vector", dx, fd(vector, 0, 0.7));
  dx = 0;
  owner_pullback(0.7, 1.0, &dx);
  expect("owner", dx, fd(owner, 0, 0.7));
  dx = 0;
  pairs_pullback(0.7, 1.0, &dx);
  expect("pairs", dx, fd(pairs, 0, 0.7));
  return failures();
}
// CHECK: ok plain
// CHECK: ok inloop
// CHECK: ok array
// CHECK: ok vector
// CHECK: ok owner
// CHECK: ok pairs
