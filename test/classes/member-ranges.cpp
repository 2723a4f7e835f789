// Range-based for over a member of an object (`for (double v : m.data)`,
// `for (double c : p.c)` of a parameter, `for (double wi : w)` and
// `this->w` in a const member function, `o.p.c` nested): an index loop on
// the member path, whose elements' adjoints go to the same path on the
// shadow. Also in a helper differentiated in two halves. (It was an
// error: "range-based 'for' loop over an expression".) A reference loop
// variable over such a member writes its elements; over a row of a
// container of containers it is an error naming the row.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: not %gradxx -fsyntax-only -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: %dump %s --function=owner %dflags | FileCheck %s --check-prefix=DUMP
#include <array>
#include <cmath>
#include <vector>
#include "gradcheck.h"
using namespace gradcheck;

struct Mat {
  int rows, cols;
  std::vector<double> data;
  Mat(int r, int c) : rows(r), cols(c), data(r * c, 0.0) {}
  double &at(int i, int j) { return data[i * cols + j]; }
};

struct Poly {
  std::array<double, 3> c;
  double shift;
};

struct Net {
  std::vector<double> w;
  double b;
  double eval(double x) const {
    double s = b;
    for (double wi : w)
      s += std::tanh(wi * x);
    return s;
  }
  double evalThis(double x) const {
    double s = b;
    for (double wi : this->w)
      s += wi * wi * x;
    return s;
  }
};

struct Outer {
  Poly p;
  int k;
};

// DUMP-LABEL: void owner_pullback(double x, double d_ret, double *d_x) {
// DUMP: for (unsigned long _k{{[0-9]+}} = 0UL; _k{{[0-9]+}} < m.data.size(); ++_k{{[0-9]+}}) {
// DUMP: double v = m.data[_k{{[0-9]+}}];
// DUMP: _d_m.data[_k{{[0-9]+}}] += _d_v;
[[grad]] double owner(double x) {
  Mat m(2, 2);
  m.at(0, 0) = x;
  m.at(1, 1) = x * x;
  double s = 0;
  for (double v : m.data)
    s += v * v;
  m.at(0, 1) = s;
  for (double v : m.data)
    s += std::sin(v);
  return s;
}

[[grad]] double param(const Poly &p, double x) {
  double s = 0, xp = 1;
  for (double c : p.c) {
    s += c * xp;
    xp *= x + p.shift;
  }
  return s;
}

[[grad]] double method(const Net &n, double x) {
  return n.eval(x) + n.evalThis(x);
}

[[grad]] double nested(const Outer &o, double x) {
  double s = 0;
  for (auto c : o.p.c)
    s += c * x * c;
  return s;
}

// m is written after each call: the helper is differentiated in two halves.
double split(Mat &m, double x) {
  double s = 0;
  for (double v : m.data)
    s += v * x;
  m.at(0, 0) = s;
  return s;
}

[[grad]] double halves(double x) {
  Mat m(2, 2);
  m.at(0, 0) = x;
  m.at(1, 0) = 2 * x;
  double a = split(m, x);
  m.at(1, 1) = a * x;
  return split(m, x) * m.at(1, 1);
}

// By reference: the loop variable is an alias into the member's elements
// (test/memory/member-container-aliases.cpp).
[[grad]] double byRef(double x) {
  Mat m(2, 2);
  m.at(0, 0) = x;
  m.at(1, 1) = x * x;
  for (double &v : m.data)
    v *= x;
  return m.at(0, 0) + m.at(1, 1);
}

#ifdef REFUSED
// A row of a container of containers, by reference.
[[grad]] double rowRef(double x) {
  std::vector<std::vector<double>> a = {{x, 2 * x}, {x, x}};
  // REFUSED: member-ranges.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate range-based 'for' loop binding a reference to the elements of 'a[0]' (take the elements by value, or loop over an index) in 'rowRef'
  for (double &e : a[0])
    e *= x;
  return a[0][1];
}
#endif

int main() {
  double dx = 0;
  owner_pullback(0.7, 1.0, &dx);
  expect("owner", dx, fd(owner, 0, 0.7));
  dx = 0;
  byRef_pullback(0.7, 1.0, &dx);
  expect("byRef", dx, fd(byRef, 0, 0.7));
  expect("byRef.closed", dx, 2 * 0.7 + 3 * 0.7 * 0.7);
  Poly p{{1.5, -0.5, 0.25}, 0.3}, dp{};
  dx = 0;
  param_pullback(p, 0.7, 1.0, &dp, &dx);
  expect("param.x", dx, fd([&](double x) { return param(p, x); }, 0, 0.7));
  expect("param.c1", dp.c[1], fd([&](double c) {
           Poly q = p;
           q.c[1] = c;
           return param(q, 0.7);
         }, 0, p.c[1]));
  expect("param.shift", dp.shift, fd([&](double s) {
           Poly q = p;
           q.shift = s;
           return param(q, 0.7);
         }, 0, p.shift));
  Net n{{0.5, -1.0, 0.25}, 0.1}, dn{{0, 0, 0}, 0};
  dx = 0;
  method_pullback(n, 0.7, 1.0, &dn, &dx);
  expect("method.x", dx, fd([&](double x) { return method(n, x); }, 0, 0.7));
  expect("method.w2", dn.w[2], fd([&](double w) {
           Net q = n;
           q.w[2] = w;
           return method(q, 0.7);
         }, 0, n.w[2]));
  expect("method.b", dn.b, 2.0);
  Outer o{p, 1}, dout{};
  dx = 0;
  nested_pullback(o, 0.7, 1.0, &dout, &dx);
  expect("nested.x", dx, fd([&](double x) { return nested(o, x); }, 0, 0.7));
  expect("nested.c0", dout.p.c[0], fd([&](double c) {
           Outer q = o;
           q.p.c[0] = c;
           return nested(q, 0.7);
         }, 0, o.p.c[0]));
  dx = 0;
  halves_pullback(0.7, 1.0, &dx);
  expect("halves", dx, fd(halves, 0, 0.7));
  return failures();
}
// CHECK: ok owner
// CHECK: ok byRef
// CHECK: ok byRef.closed
// CHECK: ok param.x
// CHECK: ok param.c1
// CHECK: ok param.shift
// CHECK: ok method.x
// CHECK: ok method.w2
// CHECK: ok method.b
// CHECK: ok nested.x
// CHECK: ok nested.c0
// CHECK: ok halves
