// Member functions that return a reference into their object found from
// its other members (`double &at(int i, int j) { return a[i * n + j]; }`,
// `v[j * nx + i]` in an operator()): the element is reached at the offset
// the forward sweep finds in the object, never by calling the function on
// the shadow, whose integer members are zero (it used to index `a[j]` for
// every i: wrong gradients without a diagnostic). Also with sizes that
// change per iteration, an aggregate whose sizes are written after its
// declaration, a helper writing through the accessor of an out-parameter,
// a const reference parameter whose shadow the caller zeroed whole, and
// such calls read in a branch of ?:.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "vecgrad.h"
#include <cmath>

struct Mat {
  int rows, cols;
  double data[6];
  Mat(int r, int c) : rows(r), cols(c) {}
  double &operator()(int i, int j) { return data[i * cols + j]; }
};

struct Mat3 {
  int n = 3;
  double a[9];
  double &at(int i, int j) { return a[i * n + j]; }
  double &operator[](int k) { return a[k]; } // reads no size: called on the shadow
  double get(int i, int j) const { return a[i * n + j]; }
};

struct Grid {
  int nx, ny;
  double h;
  double v[12];
  double &operator()(int i, int j) { return v[j * nx + i]; }
  const double &operator()(int i, int j) const { return v[j * nx + i]; }
};

// Pointers into the object (a method and a helper returning a row), a
// helper returning a reference into it, a method writing through its own
// members, and a matrix inside another struct.
struct Rows {
  int rows, cols;
  double data[6];
  double *row(int i) { return data + i * cols; }
  void set(int i, int j, double v) { data[i * cols + j] = v; }
  double sum() const {
    double s = 0;
    for (int k = 0; k < rows * cols; ++k)
      s += data[k] * (k + 1);
    return s;
  }
};
static double &at(Rows &m, int i, int j) { return m.data[i * m.cols + j]; }
static double *rowOf(Rows &m, int i) { return m.data + i * m.cols; }
struct Model { int k; Rows w; };

[[grad]] double rowptr(double x, double y) {
  Rows m{2, 3, {}};
  double *r = m.row(1);
  r[0] = x;
  r[2] = y * x;
  m.row(0)[1] = y;
  rowOf(m, 0)[2] = x * x;
  return m.sum();
}
[[grad]] double setter(double x, double y) {
  Model md{1, {3, 2, {}}};
  md.w.set(1, 0, x);
  md.w.set(0, 1, x * y);
  at(md.w, 2, 1) = y / x;
  return md.w.sum();
}

// Read in conditions inside a branch of ?: (where no address can be kept:
// the call is made again as written); this crashed clang (endless
// recursion), also for helpers into arrays.
static double &elem(double *A, int n, int i, int j) { return A[i * n + j]; }
static double *arow(double *A, int n, int i) { return A + i * n; }
[[grad]] double conds(double x, double y) {
  Rows m{2, 3, {}};
  double a[6] = {};
  m.row(1)[0] = x * y;
  at(m, 0, 1) = y;
  arow(a, 3, 1)[0] = x;
  elem(a, 3, 0, 2) = y * y;
  double s = x > 0 ? (m.row(1)[0] > 0.2 ? x : y) : (at(m, 0, 1) > 0.5 ? y : x);
  double t = y > 0 ? (arow(a, 3, 1)[0] > 0.2 ? y : x) : (elem(a, 3, 0, 2) > 0.5 ? y : x);
  return s * t + m.sum() + a[2] * a[3];
}

// DUMP-LABEL: void det_pullback({{.*}}) {
// DUMP: _o{{[0-9]+}} = _p{{[0-9]+}} - reinterpret_cast<const double *>(&m);
// DUMP: (*(reinterpret_cast<double *>(&_d_m) + _o{{[0-9]+}})) += 
[[grad]] double det(double x, double y) {
  Mat m(2, 2);
  m(0, 0) = x;
  m(0, 1) = x * y;
  m(1, 0) = std::sin(y);
  m(1, 1) = y;
  return m(0, 0) * m(1, 1) - m(0, 1) * m(1, 0);
}

// A 2 x k matrix per iteration: the offsets of (1, 0) differ.
[[grad]] double widths(double x, double y) {
  double s = 0;
  for (int k = 1; k < 4; ++k) {
    Mat m(2, k);
    m(0, 0) = x * k;
    m(1, 0) = std::sin(y);
    if (k > 1)
      m(0, 1) = x * y;
    s += m(0, 0) * m(1, 0);
    if (k > 1)
      s -= m(0, 1);
  }
  return s;
}

static double trace(const Mat3 &m) { return m.get(0, 0) + m.get(1, 1) + m.get(2, 2); }
static void setRow(Mat3 &m, int i, double x) {
  for (int j = 0; j < 3; ++j)
    m.at(i, j) = x * (j + 1);
}

// DUMP-LABEL: void mat3_pullback({{.*}}) {
// DUMP: _d_m[4]
[[grad]] double mat3(double x, double y) {
  Mat3 m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      m.at(i, j) = std::sin(x * (i + 1) + y * j);
  m[4] *= y;
  setRow(m, 2, y * y);
  return trace(m) + m.at(2, 1) * m.get(1, 2);
}

// C style: the sizes are written after the declaration.
[[grad]] double grid(double x, double y) {
  Grid gr;
  gr.nx = 4;
  gr.ny = 3;
  gr.h = x;
  for (int j = 0; j < gr.ny; ++j)
    for (int i = 0; i < gr.nx; ++i)
      gr(i, j) = gr.h * i + y * j * j;
  const Grid &c = gr;
  double s = 0;
  for (int j = 0; j < gr.ny; ++j)
    for (int i = 1; i < gr.nx; ++i)
      s += (c(i, j) - c(i - 1, j)) * (c(i, j) - c(i - 1, j)) / gr.h;
  return s;
}

[[grad]] double weigh(const Grid &gr, double y) {
  double s = 0;
  for (int j = 0; j < gr.ny; ++j)
    for (int i = 0; i < gr.nx; ++i)
      s += gr(i, j) * y * (i + 2 * j);
  return s;
}

// Read in a branch of ?: (also in a loop, where the row length changes):
// the address and offset are found where the branch is taken (this was an
// error).
[[grad]] double branchy(double x, double y) {
  double s = 0;
  double a[6] = {x, y, x * y, 1, 2, 3};
  for (int k = 0; k < 4; ++k) {
    Mat m(2, 2 + k % 2);
    m(0, 0) = x * k;
    m(0, 1) = y;
    m(1, 0) = m(0, 0) * m(0, 1);
    s += k > 1 ? m(1, 0) * m(0, 1) : std::sin(m(0, 0));
    s += (k % 2 ? elem(a, 3, 0, k % 3) : arow(a, 3, 1)[k % 3]) * x;
    s -= k == 2 ? (m(0, 1) > 0.5 ? m(0, 0) : m(0, 1)) : y;
  }
  return s;
}

int main() {
#define XY(F) { double dx = 0, dy = 0; F##_pullback(0.7, 1.3, 1, &dx, &dy); \
    vecgrad::check(#F, [](const std::vector<double>& V){ return F(V[0], V[1]); }, {0.7, 1.3}, {dx, dy}); }
  XY(det) XY(widths) XY(mat3) XY(grid) XY(rowptr) XY(setter) XY(conds) XY(branchy)
  {
    Grid g{4, 3, 0.1, {}};
    for (int k = 0; k < 12; ++k)
      g.v[k] = 0.1 * k;
    Grid dg{}; // nx = ny = 0: the shadow's sizes are not read
    double dy = 0;
    weigh_pullback(g, 0.7, 1, &dg, &dy);
    std::vector<double> X(g.v, g.v + 12), D(dg.v, dg.v + 12);
    X.push_back(0.7);
    D.push_back(dy);
    vecgrad::check("weigh", [&](const std::vector<double> &V) {
      Grid h = g;
      for (int k = 0; k < 12; ++k)
        h.v[k] = V[k];
      return weigh(h, V[12]);
    }, X, D);
  }
  // CHECK: ok det.d0
  // CHECK: ok det.d1
  // CHECK: ok widths.d0
  // CHECK: ok widths.d1
  // CHECK: ok mat3.d0
  // CHECK: ok mat3.d1
  // CHECK: ok grid.d0
  // CHECK: ok grid.d1
  // CHECK: ok rowptr.d0
  // CHECK: ok rowptr.d1
  // CHECK: ok setter.d0
  // CHECK: ok setter.d1
  // CHECK: ok conds.d0
  // CHECK: ok conds.d1
  // CHECK: ok branchy.d0
  // CHECK: ok branchy.d1
  // CHECK: ok weigh.d0
  // CHECK: ok weigh.d12
  return gradcheck::failures();
}
