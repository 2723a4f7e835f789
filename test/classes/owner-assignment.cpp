// Whole assignment of locals whose shadow is a copy made at their
// declaration (classes keeping their elements in a std::vector member,
// vectors of vectors): `n = m;`, `m = outer(y, x);`, also changing the
// sizes (`m = wide(x, 5)` on a 2 x 2), in loops on objects declared inside
// and outside them (with `break` and `continue` after the assignment), and
// in a helper differentiated in two halves. The old shadow is saved, a new
// one made from the new value; the reverse sweep sends the new value's
// adjoint back and restores the old one. (It was an error: "call to
// non-const member function 'operator='".)
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s --function=resized %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"
#include <cmath>
#include <vector>
using namespace gradcheck;
struct Mat {
  int rows, cols;
  std::vector<double> data;
  Mat(int r, int c) : rows(r), cols(c), data(r * c, 0.0) {}
  double &at(int i, int j) { return data[i * cols + j]; }
  double &operator()(int i, int j) { return data[i * cols + j]; }
};
Mat outer(double a, double b) {
  Mat m(2, 2);
  m(0, 0) = a * a;
  m(0, 1) = a * b;
  m(1, 0) = b;
  m(1, 1) = std::exp(b);
  return m;
}
Mat wide(double a, int n) {
  Mat m(1, n);
  for (int j = 0; j < n; ++j)
    m(0, j) = std::sin(a * (j + 1));
  return m;
}
[[grad]] double copied(double x) {
  Mat m(2, 2);
  m.at(0, 1) = x;
  Mat n(2, 2);
  n(1, 1) = x * x;
  double s = n(1, 1) * n(1, 1);
  n = m;
  return n.at(0, 1) * x + s;
}
[[grad]] double computed(double x, double y) {
  Mat m = outer(x, y);
  double s = m(0, 0) * m(1, 1);
  m = outer(y * m(0, 1), x);
  return s * m(0, 0) + m(1, 1);
}
// DUMP-LABEL: void resized_pullback(double x, double d_ret, double *d_x) {
// DUMP: _d_m_s0.save();
// DUMP-NEXT: m = ::wide(x * s, 5);
// DUMP-NEXT: _d_m_s0.emplace(m);
// DUMP-NEXT: ::grad::detail::zero(_d_m.data);
// DUMP: Mat _r{{[0-9]+}} = static_cast<Mat &&>(_d_m);
// DUMP-NEXT: _d_m_s0.restore();
// DUMP: ::wide_pullback(x * s, 5, _r{{[0-9]+}}, &_g0);
[[grad]] double resized(double x) { // sizes change
  Mat m(2, 2);
  m(1, 1) = x;
  double s = std::sin(m(1, 1));
  m = wide(x * s, 5);
  return s * m(0, 4) + m(0, 0) * m(0, 0);
}
[[grad]] double loops(double x) { // in a loop, declared outside and inside
  Mat acc(1, 1);
  acc(0, 0) = x;
  double s = 0;
  for (int k = 1; k <= 3; ++k) {
    Mat t = wide(x + acc(0, 0), k + 1);
    s += t(0, k) * acc(0, 0);
    acc = wide(0.25 * s, k + 2);
    t = outer(t(0, 0), 0.5 * s);
    s += t(1, 1) * acc(0, k);
  }
  return s;
}
[[grad]] double rows(double x) { // vector of vectors
  std::vector<std::vector<double>> a(2, std::vector<double>(2, 0.0)),
      b(3, std::vector<double>(1, 0.0));
  a[1][1] = x;
  a[0][0] = 2 * x;
  b[2][0] = x * x;
  double s = b[2][0] * a[1][1];
  a = b;
  return a[2][0] * s + a[0][0];
}
void fillm(double *out, double x) {
  Mat m(2, 2);
  m(0, 0) = x;
  double s = m(0, 0) * m(0, 0);
  m = outer(x, s);
  out[0] = m(0, 0) * m(1, 1) + s;
}
[[grad]] double halves(double x) {
  double o[1];
  fillm(o, x);
  double r = o[0];
  fillm(o, r * 0.5);
  return o[0] * r;
}
[[grad]] double jumps(double x) { // a jump after the assignment
  double s = 0;
  for (int k = 1; k <= 4; ++k) {
    Mat t(1, 1);
    t(0, 0) = x * k;
    s += std::sin(t(0, 0));
    t = wide(s, k + 1);
    if (k == 3)
      break;
    s += t(0, k) * t(0, 0);
    if (k == 2)
      continue;
    s *= 0.5;
  }
  return s;
}
int main() {
  double dx = 0, dy = 0;
  copied_pullback(0.7, 1.0, &dx);
  expect("copied", dx, fd(copied, 0, 0.7));
  dx = 0;
  computed_pullback(0.7, 0.4, 1.0, &dx, &dy);
  expect("computed.x", dx, fd(computed, 0, 0.7, 0.4));
  expect("computed.y", dy, fd(computed, 1, 0.7, 0.4));
  dx = 0;
  resized_pullback(0.7, 1.0, &dx);
  expect("resized", dx, fd(resized, 0, 0.7));
  dx = 0;
  loops_pullback(0.3, 1.0, &dx);
  expect("loops", dx, fd(loops, 0, 0.3));
  dx = 0;
  rows_pullback(0.7, 1.0, &dx);
  expect("rows", dx, fd(rows, 0, 0.7));
  dx = 0;
  halves_pullback(0.7, 1.0, &dx);
  expect("halves", dx, fd(halves, 0, 0.7));
  dx = 0;
  jumps_pullback(0.7, 1.0, &dx);
  expect("jumps", dx, fd(jumps, 0, 0.7));
  return failures();
}
// CHECK: ok copied
// CHECK: ok computed.x
// CHECK: ok computed.y
// CHECK: ok resized
// CHECK: ok loops
// CHECK: ok rows
// CHECK: ok halves
// CHECK: ok jumps
