// Local objects of classes that keep their elements in a std::vector
// member (`struct Mat { int rows, cols; std::vector<double> data; }`, the
// way matrix classes are written): the shadow is a copy of the object made
// where it is declared, floating data zeroed, so its sizes are the
// object's and member functions indexing with them (`m(i, j)`) work on it.
// Declared in a loop with a size that changes per iteration, in a branch,
// passed to helpers by reference, nested in another such class, and a
// struct with a std::string member, and copies of such objects. (It was an
// error: "not trivially copyable".)
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include <vector>
#include <string>
#include <utility>
#include <cmath>
#include "gradcheck.h"

struct Mat {
  int rows, cols;
  std::vector<double> data;
  Mat(int r, int c) : rows(r), cols(c), data(r * c, 0.0) {}
  double &operator()(int i, int j) { return data[i * cols + j]; }
  const double &operator()(int i, int j) const { return data[i * cols + j]; }
};

struct Layer {
  Mat W;
  std::vector<double> b;
  Layer(int n, int m) : W(n, m), b(n, 0.0) {}
};

struct Named {
  std::string name;
  double a, b;
};

static void fill(Mat &m, double x) {
  for (int i = 0; i < m.rows; ++i)
    for (int j = 0; j < m.cols; ++j)
      m(i, j) = std::cos(x * (i + 1) + j);
}

static double frob(const Mat &m) {
  double s = 0;
  for (int k = 0; k < m.rows * m.cols; ++k)
    s += m.data[k] * m.data[k];
  return s;
}

// Loop-local matrix whose size changes per iteration: each iteration's
// shadow is saved where the iteration's block exits and restored where the
// reverse sweep enters the iteration.
// DUMP-LABEL: void loopmat_pullback({{.*}}) {
// DUMP: grad::detail::slot<Mat> _d_t_s0;
// DUMP-NEXT: Mat &_d_t = _d_t_s0.get();
// DUMP: Mat t(it, it + 1);
// DUMP-NEXT: _d_t_s0.emplace(t);
// DUMP-NEXT: ::grad::detail::zero(_d_t.data);
// DUMP: _z0 = 1UL;
// DUMP-NEXT: _d_t_s0.save();
// DUMP: if (_z0 != 0UL)
// DUMP-NEXT: _d_t_s0.restore();
// DUMP: _d_t(i, 0) +=
[[grad]] double loopmat(double x, int n) {
  double s = 0;
  for (int it = 1; it <= n; ++it) {
    Mat t(it, it + 1);
    for (int i = 0; i < t.rows; ++i)
      for (int j = 0; j < t.cols; ++j)
        t(i, j) = std::sin(x * (i + 2 * j + it));
    for (int i = 0; i < t.rows; ++i)
      s += t(i, t.cols - 1) * t(i, 0) * x;
  }
  return s;
}

// Helpers with Mat & and const Mat &.
[[grad]] double helpers(double x, double y) {
  Mat m(2, 3);
  fill(m, x);
  m(1, 2) *= y;
  return frob(m) + m(0, 1) * y;
}

// Nested owner.
[[grad]] double layer(const double *in, double x) {
  Layer L(2, 3);
  for (int i = 0; i < 2; ++i) {
    L.b[i] = x * (i + 1);
    for (int j = 0; j < 3; ++j)
      L.W(i, j) = in[j] * x + i;
  }
  double s = 0;
  for (int i = 0; i < 2; ++i) {
    double z = L.b[i];
    for (int j = 0; j < 3; ++j)
      z += L.W(i, j) * in[j];
    s += std::tanh(z);
  }
  return s;
}

// A struct with a std::string member.
[[grad]] double named(double x, double y) {
  Named p{"p", 0, 0};
  p.a = x * y;
  p.b = std::exp(p.a) + y;
  return p.a * p.b + (p.name.size() > 0 ? x : y);
}

// In a branch.
[[grad]] double branch(double x, int n) {
  double s = x;
  if (n > 1) {
    Mat m(n, n);
    for (int i = 0; i < n; ++i)
      m(i, i) = x * (i + 1);
    for (int i = 0; i < n; ++i)
      s += m(i, i) * m(i, i);
  }
  return s;
}

// Pointer walks over rows.
[[grad]] double rows(double x) {
  Mat m(3, 2);
  for (int i = 0; i < 3; ++i) {
    m.data[i * m.cols] = x * i;
    m.data[i * m.cols + 1] = std::sin(x + i);
  }
  double s = 0;
  for (int k = 0; k < 6; ++k)
    s += m.data[k] * m.data[k];
  return s;
}

// Copies (`Mat c = a;`, `std::move` of a vector of vectors), also in a
// loop: the copy's adjoints go to the original's shadow where the reverse
// sweep reaches the declaration, member by member.
struct Scaled {
  int rows, cols;
  std::vector<double> data;
  double scale;
  Scaled(int r, int c) : rows(r), cols(c), data(r * c, 0.0), scale(1) {}
  double &operator()(int i, int j) { return data[i * cols + j]; }
};
// DUMP-LABEL: void copies_pullback({{.*}}) {
// DUMP: Scaled c = a;
// DUMP-NEXT: _d_c_s0.emplace(c);
// DUMP-NEXT: ::grad::detail::zero(_d_c.data);
// DUMP-NEXT: _d_c.scale = 0.;
// DUMP: ::grad::detail::accumulate(_d_a.data, _d_c.data);
// DUMP-NEXT: _d_a.scale += _d_c.scale;
[[grad]] double copies(double x, double y) {
  Scaled a(2, 2);
  a(0, 0) = x;
  a(1, 1) = y * x;
  a.scale = y;
  Scaled c = a;
  c(0, 0) *= c(1, 1);
  a(1, 1) = 3 * x;
  return c(0, 0) * a(1, 1) + c.scale * c(1, 1);
}
[[grad]] double moved(double x, double y) {
  std::vector<std::vector<double>> a(2, std::vector<double>(2));
  a[0][0] = x;
  a[1][1] = y * x;
  std::vector<std::vector<double>> c = std::move(a);
  return c[0][0] * c[1][1];
}
[[grad]] double copyloop(double x, int n) {
  Scaled a(1, 2);
  double s = 0;
  for (int i = 0; i < n; ++i) {
    a(0, 0) = x * (i + 1);
    a(0, 1) = std::sin(x + i);
    Scaled b = a;
    b(0, 1) *= b(0, 0);
    s += b(0, 1) + a(0, 0) * b(0, 0);
  }
  return s;
}

int main() {
  using namespace gradcheck;
  {
    double dx = 0;
    loopmat_pullback(0.4, 3, 1.0, &dx);
    expect("loopmat", dx, fd([](double x) { return loopmat(x, 3); }, 0, 0.4));
  }
  {
    double dx = 0, dy = 0;
    helpers_pullback(0.4, 1.3, 1.0, &dx, &dy);
    expect("helpers.x", dx, fd(helpers, 0, 0.4, 1.3));
    expect("helpers.y", dy, fd(helpers, 1, 0.4, 1.3));
  }
  {
    double in[3] = {0.2, -0.5, 0.9}, din[3] = {}, dx = 0;
    layer_pullback(in, 0.7, 1.0, din, &dx);
    for (int k = 0; k < 3; ++k) {
      double a[3] = {in[0], in[1], in[2]}, b[3] = {in[0], in[1], in[2]};
      a[k] += 1e-6; b[k] -= 1e-6;
      expect("layer.in", din[k], (layer(a, 0.7) - layer(b, 0.7)) / 2e-6);
    }
    expect("layer.x", dx, fd([&](double x) { return layer(in, x); }, 0, 0.7));
  }
  {
    double dx = 0, dy = 0;
    named_pullback(0.4, 1.3, 1.0, &dx, &dy);
    expect("named.x", dx, fd(named, 0, 0.4, 1.3));
    expect("named.y", dy, fd(named, 1, 0.4, 1.3));
  }
  {
    double dx = 0;
    branch_pullback(0.4, 3, 1.0, &dx);
    expect("branch", dx, fd([](double x) { return branch(x, 3); }, 0, 0.4));
  }
  {
    double dx = 0;
    rows_pullback(0.4, 1.0, &dx);
    expect("rows", dx, fd(rows, 0, 0.4));
  }
  {
    double dx = 0, dy = 0;
    copies_pullback(0.7, -0.4, 1.0, &dx, &dy);
    expect("copies.x", dx, fd(copies, 0, 0.7, -0.4));
    expect("copies.y", dy, fd(copies, 1, 0.7, -0.4));
    dx = dy = 0;
    moved_pullback(0.7, -0.4, 1.0, &dx, &dy);
    expect("moved.x", dx, fd(moved, 0, 0.7, -0.4));
    expect("moved.y", dy, fd(moved, 1, 0.7, -0.4));
    dx = 0;
    copyloop_pullback(0.7, 3, 1.0, &dx);
    expect("copyloop", dx, fd([](double x) { return copyloop(x, 3); }, 0, 0.7));
  }
  return failures();
}
// CHECK: ok loopmat
// CHECK: ok helpers.x
// CHECK: ok helpers.y
// CHECK-COUNT-3: ok layer.in
// CHECK: ok layer.x
// CHECK: ok named.x
// CHECK: ok named.y
// CHECK: ok branch
// CHECK: ok rows
// CHECK: ok copies.x
// CHECK: ok copies.y
// CHECK: ok moved.x
// CHECK: ok moved.y
// CHECK: ok copyloop
