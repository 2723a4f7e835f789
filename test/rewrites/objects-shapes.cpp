// Rewrites the refusals about the shapes of objects and how loops and
// bindings reach their elements suggest, checked: each refused form
// (-DERRORS) gets its message, with its exact text and location, and the
// rewrite the message suggests compiles and has the gradient of central
// finite differences. A vector of vectors grown after its declaration
// (give it its sizes where it is constructed); the sizes of a class
// keeping its elements in a std::vector member written later (set them
// where it is constructed); a structured binding of a copy of an array
// (bind a reference); a range-for binding references to the elements of
// a row of a container of containers (take them by value); a range-for
// over rows by value (take them by reference).
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <grad/grad.h>
#include <vector>

// --- A vector of vectors grown row by row.
#ifdef ERRORS
// ADVICE: (give it its sizes where it is constructed)
// ERR: objects-shapes.cpp:[[@LINE+5]]:5: error: grad: cannot differentiate call 'rows.push_back({x * i, y})', which changes the sizes of an object whose shadow is a copy made at its declaration (give it its sizes where it is constructed) in 'table'
// ERR: objects-shapes.cpp:[[@LINE+1]]:3: note: while differentiating 'table' requested here
[[grad]] double table(double x, double y) {
  std::vector<std::vector<double>> rows;
  for (int i = 0; i < 3; ++i)
    rows.push_back({x * i, y});
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += rows[i][0] * rows[i][1];
  return s;
}
#else
[[grad]] double table(double x, double y) {
  std::vector<std::vector<double>> rows(3, std::vector<double>(2));
  for (int i = 0; i < 3; ++i) {
    rows[i][0] = x * i;
    rows[i][1] = y;
  }
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += rows[i][0] * rows[i][1];
  return s;
}
#endif

// --- A matrix class keeping its elements in a std::vector member, whose
// sizes are set after its construction.
struct Mat {
  int rows = 0, cols = 0;
  std::vector<double> data;
  Mat() = default;
  Mat(int r, int c) : rows(r), cols(c), data(r * c, 0.0) {}
  double &operator()(int i, int j) { return data[i * cols + j]; }
};
#ifdef ERRORS
// ADVICE: (set the sizes where the object is constructed)
// ERR: objects-shapes.cpp:[[@LINE+4]]:3: error: grad: cannot differentiate write to 'm.rows', which the shadow of a class that keeps its elements in a container member does not follow (set the sizes where the object is constructed) in 'outer'
// ERR: objects-shapes.cpp:[[@LINE+1]]:3: note: while differentiating 'outer' requested here
[[grad]] double outer(double x, double y) {
  Mat m;
  m.rows = 2;
  m.cols = 2;
  m.data.assign(4, 0.0);
  m(0, 0) = x * x;
  m(1, 1) = x * y;
  return m(0, 0) + m(1, 1) * y;
}
#else
[[grad]] double outer(double x, double y) {
  Mat m(2, 2);
  m(0, 0) = x * x;
  m(1, 1) = x * y;
  return m(0, 0) + m(1, 1) * y;
}
#endif

// --- A structured binding of a copy of an array.
#ifdef ERRORS
[[grad]] double area(double x, double y) {
  double p[2] = {x, y};
  // ADVICE: (bind a reference, 'auto &[a, b] = arr;', or name the elements)
  // ERR: objects-shapes.cpp:[[@LINE+2]]:3: error: grad: cannot differentiate structured binding of a copy of an array (bind a reference, 'auto &[a, b] = arr;', or name the elements) in 'area'
  // ERR: objects-shapes.cpp:[[@LINE-4]]:3: note: while differentiating 'area' requested here
  auto [w, h] = p;
  return w * h + std::sqrt(w * w + h * h);
}
#else
[[grad]] double area(double x, double y) {
  double p[2] = {x, y};
  auto &[w, h] = p;
  return w * h + std::sqrt(w * w + h * h);
}
#endif

// --- A range-for binding references to the elements of a row of a
// container of containers.
#ifdef ERRORS
[[grad]] double rownorm(double x, double y) {
  std::vector<std::vector<double>> a = {{x, 2 * y}, {y, x}};
  double s = 0;
  // ADVICE: (take the elements by value, or loop over an index)
  // ERR: objects-shapes.cpp:[[@LINE+2]]:3: error: grad: cannot differentiate range-based 'for' loop binding a reference to the elements of 'a[0]' (take the elements by value, or loop over an index) in 'rownorm'
  // ERR: objects-shapes.cpp:[[@LINE-5]]:3: note: while differentiating 'rownorm' requested here
  for (const double &e : a[0])
    s += e * e * a[1][1];
  return s;
}
#else
[[grad]] double rownorm(double x, double y) {
  std::vector<std::vector<double>> a = {{x, 2 * y}, {y, x}};
  double s = 0;
  for (double e : a[0])
    s += e * e * a[1][1];
  return s;
}
#endif

// --- A range-for over the rows of a matrix, by value.
#ifdef ERRORS
// ADVICE: (take them by reference, `const auto &`, or loop over an index)
// ERR: objects-shapes.cpp:[[@LINE+4]]:3: error: grad: cannot differentiate range-based 'for' loop over elements of type 'std::vector<double>' by value (take them by reference, `const auto &`, or loop over an index) in 'rowsums'
// ERR: objects-shapes.cpp:[[@LINE+1]]:3: note: while differentiating 'rowsums' requested here
[[grad]] double rowsums(const std::vector<std::vector<double>> &m) {
  double s = 0;
  for (std::vector<double> row : m)
    s += row[0] * row[1];
  return s;
}
#else
[[grad]] double rowsums(const std::vector<std::vector<double>> &m) {
  double s = 0;
  for (const auto &row : m)
    s += row[0] * row[1];
  return s;
}
#endif

int main() {
  gradcheck::check_grad("table", table, table_pullback, 0.7, 1.3);
  // CHECK: ok table.d0
  // CHECK: ok table.d1
  gradcheck::check_grad("outer", outer, outer_pullback, 0.7, 1.3);
  // CHECK: ok outer.d0
  // CHECK: ok outer.d1
  gradcheck::check_grad("area", area, area_pullback, 0.7, 1.3);
  // CHECK: ok area.d0
  // CHECK: ok area.d1
  gradcheck::check_grad("rownorm", rownorm, rownorm_pullback, 0.7, 1.3);
  // CHECK: ok rownorm.d0
  // CHECK: ok rownorm.d1
  {
    auto f = [](double a, double b, double c, double d) {
      return rowsums({{a, b}, {c, d}});
    };
    std::vector<std::vector<double>> m = {{0.5, -1.2}, {0.8, 2.0}};
    std::vector<std::vector<double>> dm = {{0, 0}, {0, 0}};
    rowsums_pullback(m, 1.0, &dm);
    gradcheck::expect("rowsums.d00", dm[0][0], gradcheck::fd(f, 0, 0.5, -1.2, 0.8, 2.0));
    gradcheck::expect("rowsums.d01", dm[0][1], gradcheck::fd(f, 1, 0.5, -1.2, 0.8, 2.0));
    gradcheck::expect("rowsums.d10", dm[1][0], gradcheck::fd(f, 2, 0.5, -1.2, 0.8, 2.0));
    gradcheck::expect("rowsums.d11", dm[1][1], gradcheck::fd(f, 3, 0.5, -1.2, 0.8, 2.0));
  }
  // CHECK: ok rowsums.d00
  // CHECK: ok rowsums.d01
  // CHECK: ok rowsums.d10
  // CHECK: ok rowsums.d11
  return gradcheck::failures();
}
