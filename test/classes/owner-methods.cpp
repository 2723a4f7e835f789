// Member functions of a class that keeps its elements in a std::vector
// member, called on objects the function writes: setters (`m.set(i, j, v)`),
// non-const members that read what they write (`m.scale(s)`, `m.mul(i, j,
// v)`), a member calling another (`fill` calling `set`), and const members
// read after writes (`m.get(i, j)`, `m.trace()`), on locals, in loops, on
// an object declared in a loop body, through a pointer, on a member of a
// struct, on by-value and reference parameters (a split derivative). They
// were errors ("call to non-const member function 'set' on 'm' of type
// 'Mat', which keeps its elements in a container member", "call to 'get' on
// 'm', whose elements the function writes"). Reverse mode against finite
// differences; the generated code runs the pullbacks of a setter and of a
// linear accessor on the object itself, any other on a copy kept at the
// call.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s --function=local %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"
#include <cmath>
#include <string>
#include <vector>

struct Mat {
  int rows, cols;
  std::vector<double> data;
  Mat(int r, int c) : rows(r), cols(c), data(r * c, 0.0) {}
  void set(int i, int j, double v) { data[i * cols + j] = v; }
  void add(int i, int j, double v) { data[i * cols + j] += v; }
  void mul(int i, int j, double v) { data[i * cols + j] *= v; }
  void scale(double s) {
    for (int k = 0; k < rows * cols; ++k)
      data[k] *= s;
  }
  void fill(const double *x) {
    for (int k = 0; k < rows * cols; ++k)
      set(k / cols, k % cols, std::sin(x[k]));
  }
  double get(int i, int j) const { return data[i * cols + j]; }
  // Linear in the elements, but the partials for s read them: kept.
  double scaled(int i, int j, double s) const {
    return data[i * cols + j] * s;
  }
  double over(int k, double s) const { return data[k] / s; }
  // A constant factor: runs on the object.
  double half(int k) const { return 0.5 * data[k] - data[0] / 4; }
  double sq(int i, int j) const {
    return data[i * cols + j] * data[i * cols + j];
  }
  double trace() const {
    double t = 0;
    for (int i = 0; i < rows; ++i)
      t += data[i * cols + i] * data[i * cols + i];
    return t;
  }
};

struct Net {
  Mat w;
  double b;
};

// DUMP-LABEL: void local_pullback(
// DUMP: m.set(0, 0, x);
// DUMP: ::grad::detail::keep(m);
// DUMP-NEXT: m.scale(y);
// DUMP: m.get_pullback(1, 0, {{.*}}, &_d_m);
// DUMP: Mat [[O:_o[0-9]+]] = ::grad::detail::kept<Mat>();
// DUMP-NEXT: [[O]].scale_pullback(y, &_d_y, &_d_m);
// DUMP: m.set_pullback(0, 0, x, &_d_x, &_d_m);
[[grad]] double local(double x, double y) {
  Mat m(2, 2);
  m.set(0, 0, x);
  m.set(0, 1, y);
  m.set(1, 0, x * y);
  m.set(1, 1, 1.0);
  m.scale(y);
  return m.get(0, 0) * m.get(1, 1) - m.get(0, 1) * m.get(1, 0);
}

// Values read before a later write keep theirs.
[[grad]] double overwritten(double x, double y) {
  Mat m(2, 2);
  m.set(0, 0, x);
  m.set(1, 1, y);
  double p = m.sq(0, 0) * m.get(1, 1);
  m.set(0, 0, 5.0);
  m.mul(1, 1, x);
  return p + m.get(0, 0) * m.sq(1, 1) * y;
}

// Accessors whose other inputs' partials read the elements, then writes
// (the first version ran them on the object as the reverse sweep found it:
// d/dx -12.99 instead of -1.35).
[[grad]] double factors(double x, double y) {
  Mat m(2, 2);
  m.set(0, 0, x);
  m.set(0, 1, y);
  double r = m.scaled(0, 0, y) + m.over(1, x) + m.half(1) * y;
  m.set(0, 0, 5.0);
  m.set(0, 1, 7.0);
  return r + m.half(0);
}

// An object without derivatives whose kept member gets a differentiated
// argument: the pullback's adjoint for the object is a zeroed copy (it was
// declared without an initializer: no default constructor, a clang error in
// the generated code; found by the generator, ownermethods seed 84604).
[[grad]] double inactive(double x, double y) {
  Mat m(2, 2);
  m.set(0, 0, 3.0);
  double r = std::tanh(m.scaled(0, 0, y)) * x;
  m.set(0, 0, 1.0);
  return r;
}

[[grad]] double loops(const double *x, int n) {
  Mat m(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      m.set(i, j, x[i] * x[j] + i);
  double s = 0;
  for (int i = 0; i < n; ++i) {
    m.add(i, i, x[i] * x[i]);
    s += m.get(i, i) * m.trace();
  }
  return s;
}

[[grad]] double blocks(const double *x, int n) {
  double s = 0;
  for (int k = 0; k < n; ++k) {
    Mat m(2, 2);
    m.set(0, 0, x[k]);
    m.set(1, 1, x[(k + 1) % n] * s);
    m.mul(0, 0, x[k]);
    m.add(0, 1, s);
    s += m.get(0, 0) * m.get(1, 1) + m.trace() * m.get(0, 1);
  }
  return s;
}

[[grad]] double pointer(double x, double y) {
  Mat m(2, 2);
  Mat *p = &m;
  p->set(0, 0, x);
  p->mul(0, 0, y);
  p->add(1, 1, x * y);
  return m.sq(0, 0) + p->get(1, 1) * y;
}

[[grad]] double member(double x, double y) {
  Net n{Mat(2, 2), y};
  n.w.set(0, 0, x);
  n.w.mul(0, 0, y);
  return n.w.sq(0, 0) + n.b * n.w.get(0, 0);
}

// By value (written) and by reference (in/out): a split derivative.
[[grad]] double params(Mat a, Mat &b, const double *x) {
  a.set(0, 0, x[0] * a.get(0, 1));
  b.add(1, 1, x[1] * a.get(0, 0));
  b.fill(x);
  b.mul(0, 1, x[2]);
  return a.trace() + b.trace() * a.get(0, 0);
}

template <class F> static double fd(F f, double &v) {
  double h = 1e-6, o = v;
  v = o + h;
  double a = f();
  v = o - h;
  double b = f();
  v = o;
  return (a - b) / (2 * h);
}

int main() {
  using gradcheck::expect;
  double x = 0.7, y = 1.3;
  auto XY = [&](const char *Name, auto F, auto Pb) {
    double dx = 0, dy = 0;
    Pb(x, y, 1.0, &dx, &dy);
    expect(std::string(Name) + ".dx", dx, fd([&] { return F(x, y); }, x));
    expect(std::string(Name) + ".dy", dy, fd([&] { return F(x, y); }, y));
  };
  XY("local", local, local_pullback);
  XY("overwritten", overwritten, overwritten_pullback);
  XY("pointer", pointer, pointer_pullback);
  XY("member", member, member_pullback);
  XY("factors", factors, factors_pullback);
  XY("inactive", inactive, inactive_pullback);
  // CHECK: ok local.dx
  // CHECK-NEXT: ok local.dy
  // CHECK-NEXT: ok overwritten.dx
  // CHECK-NEXT: ok overwritten.dy
  // CHECK-NEXT: ok pointer.dx
  // CHECK-NEXT: ok pointer.dy
  // CHECK-NEXT: ok member.dx
  // CHECK-NEXT: ok member.dy
  // CHECK-NEXT: ok factors.dx
  // CHECK-NEXT: ok factors.dy
  // CHECK-NEXT: ok inactive.dx
  // CHECK-NEXT: ok inactive.dy
  // Closed form of `local`: (x - x y^2) y^2.
  {
    double dx = 0, dy = 0;
    local_pullback(x, y, 1.0, &dx, &dy);
    expect("local.closed.dx", dx, y * y - y * y * y * y);
    expect("local.closed.dy", dy, 2 * x * y - 4 * x * y * y * y);
  }
  // CHECK-NEXT: ok local.closed.dx
  // CHECK-NEXT: ok local.closed.dy
  auto Arr = [&](const char *Name, auto F, auto Pb) {
    double v[3] = {0.3, -0.7, 1.1}, dv[3] = {0, 0, 0};
    Pb(v, 3, 1.0, dv);
    for (int i = 0; i < 3; ++i)
      expect(std::string(Name) + ".dx" + std::to_string(i), dv[i],
             fd([&] { return F(v, 3); }, v[i]));
  };
  Arr("loops", loops, loops_pullback);
  Arr("blocks", blocks, blocks_pullback);
  // CHECK-COUNT-3: ok loops.dx
  // CHECK-COUNT-3: ok blocks.dx
  Mat a(2, 2), b(2, 2), da(2, 2), db(2, 2);
  a.data = {1, 2, 3, 4};
  b.data = {0.5, 0.1, 0.2, 0.9};
  db.data = {0.25, -0.5, 1.5, 2.0}; // in: the adjoint of b's value at exit
  double xs[4] = {0.2, 0.4, 0.6, 0.8}, dxs[4] = {0, 0, 0, 0};
  const Mat b0 = b, db0 = db;
  params_pullback(a, b, xs, 1.0, &da, &db, dxs);
  // The pullback leaves b as the function does (a setter's pullback run on
  // b itself in the reverse sweep added to it again).
  {
    Mat c = b0;
    params(a, c, xs);
    for (int k = 0; k < 4; ++k)
      expect("params.b" + std::to_string(k), b.data[k], c.data[k], 0, 0);
  }
  // The objective: the value plus <db0, b at exit>, from b's entry value.
  Mat bb = b0;
  auto G = [&] {
    Mat c = bb;
    double r = params(a, c, xs);
    for (int k = 0; k < 4; ++k)
      r += db0.data[k] * c.data[k];
    return r;
  };
  for (int i = 0; i < 4; ++i)
    expect("params.dx" + std::to_string(i), dxs[i], fd(G, xs[i]));
  for (int i = 0; i < 4; ++i)
    expect("params.da" + std::to_string(i), da.data[i], fd(G, a.data[i]));
  for (int i = 0; i < 4; ++i)
    expect("params.db" + std::to_string(i), db.data[i], fd(G, bb.data[i]));
  // CHECK-COUNT-4: ok params.b
  // CHECK-COUNT-4: ok params.dx
  // CHECK-COUNT-4: ok params.da
  // CHECK-COUNT-4: ok params.db
  return gradcheck::failures();
}
