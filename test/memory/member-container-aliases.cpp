// Pointers and references into the elements of a container member of a
// struct: a pointer walk over the rows of a matrix kept in a struct
// (`double *r = &m.data[i * m.cols]`), re-seated (`row += cols`), from
// `md.w.data.data()` through a nested member, through a reference and a
// pointer parameter (`p->data.data() + 1`), a reference range-for over a
// member (`for (double &v : p->data)`), into a vector of structs (offsets in
// bytes), an alias of such an alias. The forward sweep records offsets from
// the member's data(), the reverse sweep finds the adjoint at the same offset
// in the same member of the shadow. A pointer that points into different
// members at different definitions stays an error.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | FileCheck %s --check-prefix=ERR --implicit-check-not=error:
// RUN: %dump %s --function=rowsum %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"
#include <cmath>
#include <string>
#include <vector>

struct Mat {
  int rows, cols;
  std::vector<double> data;
};
struct Model {
  Mat w;
  std::vector<double> b;
};
struct Pt {
  double x, y;
};
struct Cloud {
  std::vector<Pt> pts;
  double scale;
};

[[grad]] double rowsum(Mat m, double x) {
  double s = 0;
  for (int i = 0; i < m.rows; ++i) {
    double *r = &m.data[i * m.cols];
    for (int j = 0; j < m.cols; ++j) {
      r[j] *= x;
      s += r[j] * r[j];
    }
  }
  return s;
}
// DUMP: void rowsum_pullback(Mat m, double x, double d_ret, Mat *d_m, double *d_x) {
// DUMP: double *r = &m.data[i * m.cols];
// DUMP: [[O:_o[0-9]+]] = r - m.data.data();
// DUMP: (_d_m.data.data() + [[O]])[j] = {{_r[0-9]+}} * x;

[[grad]] double nested(Model &md, double x) {
  const double *row = md.w.data.data();
  double s = 0;
  for (int i = 0; i < md.w.rows; ++i, row += md.w.cols) {
    double t = md.b[i];
    for (int j = 0; j < md.w.cols; ++j)
      t += row[j] * x;
    s += std::tanh(t);
  }
  double &first = md.w.data[0];
  first = first * s;
  return s + first;
}

[[grad]] double viaptr(Mat *p, double x) {
  for (double &v : p->data)
    v = std::sin(v * x);
  double *q = p->data.data() + 1;
  double *q2 = q + 2;
  double s = *q * x + *q2;
  for (double v : p->data)
    s += v;
  return s;
}

// A const reference parameter (it was an error: "into the elements of a
// container member of 'm'").
[[grad]] double rowread(const Mat &m) {
  const double *r = m.data.data() + m.cols;
  return r[0] * r[1];
}

[[grad]] double cloud(Cloud c, double x) {
  double s = 0;
  for (int i = 0; i < (int)c.pts.size(); ++i) {
    double *py = &c.pts[i].y;
    *py = *py * x + c.scale;
    s += c.pts[i].x * *py;
  }
  return s;
}

#ifdef ERRORS
struct Two {
  std::vector<double> a, b;
};
[[grad]] double mixed(Two t, double x, int k) {
  // ERR: member-container-aliases.cpp:[[@LINE+1]]:15: error: grad: cannot differentiate pointer or reference 'p' into the elements of a container member of 't' (of type 'Two'): index the member instead in 'mixed'
  double *p = &t.a[0];
  if (k)
    p = &t.b[1];
  *p *= x;
  return *p + t.a[0];
}
#endif

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
  Mat m{2, 3, {0.5, -1, 2, 1.5, 0.25, -0.75}};
  double x = 1.3;
  {
    Mat dm{2, 3, std::vector<double>(6, 0.0)};
    double dx = 0;
    rowsum_pullback(m, x, 1.0, &dm, &dx);
    expect("rowsum.dx", dx, fd([&] { return rowsum(m, x); }, x));
    for (int k = 0; k < 6; ++k)
      expect("rowsum.dm" + std::to_string(k), dm.data[k],
             fd([&] { return rowsum(m, x); }, m.data[k]));
  }
  // CHECK: ok rowsum.dx
  // CHECK-COUNT-6: ok rowsum.dm
  {
    Model md{m, {0.1, -0.2}}, c = md;
    Model dmd{{2, 3, std::vector<double>(6, 0.0)}, {0, 0}};
    double dx = 0;
    auto F = [&] {
      Model t = md;
      return nested(t, x);
    };
    nested_pullback(c, x, 1.0, &dmd, &dx);
    expect("nested.dx", dx, fd(F, x));
    for (int k = 0; k < 6; ++k)
      expect("nested.dw" + std::to_string(k), dmd.w.data[k],
             fd(F, md.w.data[k]));
    for (int k = 0; k < 2; ++k)
      expect("nested.db" + std::to_string(k), dmd.b[k], fd(F, md.b[k]));
    Model t = md;
    nested(t, x);
    expect("nested.written", c.w.data[0], t.w.data[0]); // as the primal
  }
  // CHECK: ok nested.dx
  // CHECK-COUNT-6: ok nested.dw
  // CHECK-COUNT-2: ok nested.db
  // CHECK: ok nested.written
  {
    Mat c = m, dm{2, 3, std::vector<double>(6, 0.0)};
    double dx = 0;
    auto F = [&] {
      Mat t = m;
      return viaptr(&t, x);
    };
    viaptr_pullback(&c, x, 1.0, &dm, &dx);
    expect("viaptr.dx", dx, fd(F, x));
    for (int k = 0; k < 6; ++k)
      expect("viaptr.dm" + std::to_string(k), dm.data[k], fd(F, m.data[k]));
  }
  // CHECK: ok viaptr.dx
  // CHECK-COUNT-6: ok viaptr.dm
  {
    Mat dm{2, 3, std::vector<double>(6, 0.0)};
    rowread_pullback(m, 1.0, &dm);
    for (int k = 0; k < 6; ++k)
      expect("rowread.dm" + std::to_string(k), dm.data[k],
             k == 3 ? m.data[4] : k == 4 ? m.data[3] : 0.0);
  }
  // CHECK-COUNT-6: ok rowread.dm
  {
    Cloud c{{{1, 2}, {-0.5, 0.7}, {0.3, 1.1}}, 0.4};
    Cloud dc{{{0, 0}, {0, 0}, {0, 0}}, 0};
    double dx = 0;
    auto F = [&] { return cloud(c, x); };
    cloud_pullback(c, x, 1.0, &dc, &dx);
    expect("cloud.dx", dx, fd(F, x));
    expect("cloud.dscale", dc.scale, fd(F, c.scale));
    for (int k = 0; k < 3; ++k) {
      expect("cloud.dpx" + std::to_string(k), dc.pts[k].x, fd(F, c.pts[k].x));
      expect("cloud.dpy" + std::to_string(k), dc.pts[k].y, fd(F, c.pts[k].y));
    }
  }
  // CHECK: ok cloud.dx
  // CHECK: ok cloud.dscale
  // CHECK-COUNT-6: ok cloud.dp
  return gradcheck::failures();
}
