// Containers and objects keeping their elements in a std::vector member
// (`struct Mat { int rows, cols; std::vector<double> data; }`) as values:
// returned from helpers (`std::vector<double> v = powers(x, 4);`,
// `Mat m = outer(x, y);`, also `[[grad]]` functions returning them, whose
// seed is `const R&`), passed by value to helpers that write their copy
// (also helpers differentiated in two halves: the argument changes after
// the call), and whole assignment of vectors (`w = v;`, `v = f(v);`,
// `v = {a, b};`, changing the size, in loops, through a reference
// parameter). (Each was an error: "construction of 'std::vector<double>'",
// "expression v, whose memory the plugin cannot track", "call to
// 'operator=' that writes differentiated memory".)
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include <vector>
#include <cmath>
#include "gradcheck.h"
using namespace gradcheck;

struct Mat {
  int rows, cols;
  std::vector<double> data;
  Mat(int r, int c) : rows(r), cols(c), data(r * c, 0.0) {}
  double &at(int i, int j) { return data[i * cols + j]; }
  double &operator()(int i, int j) { return data[i * cols + j]; }
};

std::vector<double> powers(double x, int n) {
  std::vector<double> v(n);
  double p = 1;
  for (int i = 0; i < n; ++i) {
    p *= x;
    v[i] = std::sin(p);
  }
  return v;
}

// By value, written: the helper's own copy.
double sumsq(std::vector<double> v) {
  for (auto &e : v)
    e *= e;
  double s = 0;
  for (double e : v)
    s += e;
  return s;
}

Mat outer(double a, double b) {
  Mat m(2, 2);
  m(0, 0) = a * a;
  m(0, 1) = a * b;
  m(1, 0) = b * a;
  m(1, 1) = std::exp(b);
  return m;
}

double trace2(Mat m) { // by value, written
  m.at(0, 0) *= m.at(0, 0);
  return m.at(0, 0) + m.at(1, 1);
}

double trace(Mat m) { return m.at(0, 0) + m.at(1, 1); }

[[grad]] double returned(double x) {
  std::vector<double> v = powers(x, 4);
  return v[0] * v[3] + v[1];
}

// v changes after the first call: sumsq is differentiated in two halves.
[[grad]] double byvalue(double x) {
  std::vector<double> v = powers(x, 3);
  v[1] = x * v[2];
  double s = sumsq(v);
  v[0] = s * x;
  return v[0] + sumsq(v);
}

// DUMP-LABEL: void owners_pullback(double x, double y, double d_ret, double *d_x, double *d_y) {
// DUMP: Mat m = ::outer(x, y);
// DUMP-NEXT: _d_m_s0.emplace(m);
// DUMP-NEXT: ::grad::detail::zero(_d_m.data);
// DUMP: ::outer_pullback(x, y, _d_m, &_g0, &_g1);
[[grad]] double owners(double x, double y) {
  Mat m = outer(x, y);
  m(1, 0) += x;
  double t = trace2(m) + trace(m);
  m.at(0, 1) = t * m(1, 0);
  return m(0, 1) + trace2(m);
}

[[grad]] double inloop(double x, double y) {
  double s = 0;
  for (int k = 1; k <= 3; ++k) {
    Mat m = outer(x * k, y);
    std::vector<double> v = powers(y, k + 1);
    s += trace2(m) * v[k];
  }
  return s;
}

// DUMP-LABEL: void mat_pullback(double x, double y, const Mat &d_ret, double *d_x, double *d_y) {
[[grad]] Mat mat(double x, double y) {
  Mat m = outer(x, y);
  m(0, 1) = std::sin(m(0, 0));
  return m;
}

// DUMP-LABEL: void vec_pullback(double x, double y, const std::vector<double> &d_ret, double *d_x, double *d_y) {
// DUMP: ::grad::detail::accumulate(_d_v, d_ret);
[[grad]] std::vector<double> vec(double x, double y) {
  std::vector<double> v = powers(x, 3);
  v[2] = v[1] * y;
  return v;
}

// DUMP-LABEL: void copied_pullback(double x, double d_ret, double *d_x) {
// DUMP: w = v;
// DUMP: std::vector<double> _r{{[0-9]+}} = _d_w;
// DUMP-NEXT: _d_w.assign(_o{{[0-9]+}}, 0);
// DUMP-NEXT: ::grad::detail::accumulate(_d_v, _r{{[0-9]+}});
[[grad]] double copied(double x) {
  std::vector<double> v(3, x), w(3, 0.0);
  w[0] = x * x;
  w = v;
  return w[0] * w[1] * v[2];
}

[[grad]] double fresh(double x) {
  std::vector<double> v(3, x), w(3);
  w = v;
  return w[0] * w[1] * x;
}

[[grad]] double braces(double x, double y) {
  std::vector<double> v(3, x);
  v = {x * y, y, std::sin(x)};
  return v[0] * v[2] + v.size();
}

// The size changes; v's old elements were read before.
[[grad]] double resized(double x) {
  std::vector<double> v(3, x);
  double s = v[1] * v[2];
  v = powers(x * v[0], 5);
  return s * v[4] * v[0];
}

[[grad]] double iterated(double x) {
  std::vector<double> v(3, x);
  double s = 0;
  for (int i = 0; i < 3; ++i) {
    v = powers(x + v[1], 2 + i);
    s += v.back();
  }
  return s;
}

void update(std::vector<double> &v, double x) {
  v = powers(x + v[0] * v[1], (int)v.size());
}
void grow(std::vector<double> &v, double x) {
  v = powers(x + v[0], (int)v.size() + 2);
}

[[grad]] double throughref(double x) {
  std::vector<double> v(3, x);
  v[1] = x * x;
  update(v, x);
  update(v, 2 * x);
  grow(v, x);
  return v[0] * v[4];
}

struct P {
  double a, b;
};

[[grad]] double structs(double x) {
  std::vector<P> v(2), w;
  v[0].a = x;
  v[1].a = x;
  v[0].b = v[1].b = 1.0;
  w = v;
  w[1].b = x * w[0].a;
  v = w;
  return v[1].b * v[0].a;
}

std::vector<double> vscale(std::vector<double> a, double s) {
  for (std::size_t i = 0; i < a.size(); ++i)
    a[i] *= s;
  return a;
}

Mat mscale(Mat m, double s) { // (Mat has no default constructor)
  m(0, 0) *= s;
  m(1, 1) *= s;
  return m;
}

// The arguments are written after the calls: the helpers returning objects
// are differentiated in two halves.
// DUMP-LABEL: Mat _grad_mscale_fwd(Mat m, double s, ::grad::detail::stack &_stack) {
// DUMP: grad::detail::slot<Mat> _value{{[0-9]+}};
// DUMP: _value{{[0-9]+}}.emplace(m);
// DUMP: return ::std::move(_value{{[0-9]+}}.get());
[[grad]] double splitReturns(double x) {
  std::vector<double> v(3, x);
  v[1] = x * x;
  std::vector<double> w = vscale(v, x);
  v[0] = w[1] * x;
  Mat m = outer(x, 0.5);
  Mat n = mscale(m, x);
  m(0, 0) = n(1, 1) * x;
  return w[0] * w[1] + v[0] * v[1] + n(0, 0) * m(0, 0);
}

int main() {
  double dx = 0, dy = 0;
  returned_pullback(0.7, 1.0, &dx);
  expect("returned", dx, fd(returned, 0, 0.7));
  dx = 0;
  byvalue_pullback(0.7, 1.0, &dx);
  expect("byvalue", dx, fd(byvalue, 0, 0.7));
  dx = dy = 0;
  owners_pullback(0.7, 0.4, 1.0, &dx, &dy);
  expect("owners.x", dx, fd(owners, 0, 0.7, 0.4));
  expect("owners.y", dy, fd(owners, 1, 0.7, 0.4));
  dx = dy = 0;
  inloop_pullback(0.7, 0.4, 1.0, &dx, &dy);
  expect("inloop.x", dx, fd(inloop, 0, 0.7, 0.4));
  expect("inloop.y", dy, fd(inloop, 1, 0.7, 0.4));
  {
    Mat seed(2, 2);
    seed(0, 1) = 1.0;
    seed(1, 1) = 2.0;
    dx = dy = 0;
    mat_pullback(0.7, 0.4, seed, &dx, &dy);
    auto g = [](double x, double y) {
      Mat m = mat(x, y);
      return m(0, 1) + 2 * m(1, 1);
    };
    expect("mat.x", dx, fd(g, 0, 0.7, 0.4));
    expect("mat.y", dy, fd(g, 1, 0.7, 0.4));
  }
  {
    std::vector<double> seed{0.5, 0.0, 1.0};
    dx = dy = 0;
    vec_pullback(0.7, 0.4, seed, &dx, &dy);
    auto g = [](double x, double y) {
      auto v = vec(x, y);
      return 0.5 * v[0] + v[2];
    };
    expect("vec.x", dx, fd(g, 0, 0.7, 0.4));
    expect("vec.y", dy, fd(g, 1, 0.7, 0.4));
  }
  dx = 0;
  copied_pullback(0.7, 1.0, &dx);
  expect("copied", dx, fd(copied, 0, 0.7));
  dx = 0;
  fresh_pullback(0.7, 1.0, &dx);
  expect("fresh", dx, fd(fresh, 0, 0.7));
  dx = dy = 0;
  braces_pullback(0.7, 0.3, 1.0, &dx, &dy);
  expect("braces.x", dx, fd(braces, 0, 0.7, 0.3));
  expect("braces.y", dy, fd(braces, 1, 0.7, 0.3));
  dx = 0;
  resized_pullback(0.7, 1.0, &dx);
  expect("resized", dx, fd(resized, 0, 0.7));
  dx = 0;
  iterated_pullback(0.7, 1.0, &dx);
  expect("iterated", dx, fd(iterated, 0, 0.7));
  dx = 0;
  throughref_pullback(0.7, 1.0, &dx);
  expect("throughref", dx, fd(throughref, 0, 0.7));
  dx = 0;
  structs_pullback(0.7, 1.0, &dx);
  expect("structs", dx, fd(structs, 0, 0.7));
  dx = 0;
  splitReturns_pullback(0.7, 1.0, &dx);
  expect("splitReturns", dx, fd(splitReturns, 0, 0.7));
  return failures();
}
// CHECK: ok returned
// CHECK: ok byvalue
// CHECK: ok owners.x
// CHECK: ok owners.y
// CHECK: ok inloop.x
// CHECK: ok inloop.y
// CHECK: ok mat.x
// CHECK: ok mat.y
// CHECK: ok vec.x
// CHECK: ok vec.y
// CHECK: ok copied
// CHECK: ok fresh
// CHECK: ok braces.x
// CHECK: ok braces.y
// CHECK: ok resized
// CHECK: ok iterated
// CHECK: ok throughref
// CHECK: ok structs
// CHECK: ok splitReturns
