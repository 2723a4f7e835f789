// An error inside an element of braces (`V3 t{table(x), ...}`, a
// std::array's, a std::vector's) is reported and the rest of the function
// still checked: the element left no expression behind, and building the
// braces without it crashed clang (found by the fuzz structs features,
// seed 47001: the plugin then refused a pointer into a scalar and a struct).
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
#include <array>
#include <vector>

struct V3 {
  double x, y, z;
};
double (*table)(double) = nullptr;

// CHECK: init-list-errors.cpp:[[@LINE+3]]:8: error: grad: cannot differentiate call through the function pointer 'table' in 'f'
// CHECK: init-list-errors.cpp:[[@LINE+1]]:3: note: while differentiating 'f' requested here
[[grad]] double f(double x, double y) {
  V3 t{table(x), y * x, x};
  return t.x + t.y * t.z;
}

// CHECK: init-list-errors.cpp:[[@LINE+4]]:30: error: grad: cannot differentiate call through the function pointer 'table' in 'h'
// CHECK: init-list-errors.cpp:[[@LINE+4]]:28: error: grad: cannot differentiate call through the function pointer 'table' in 'h'
// CHECK: init-list-errors.cpp:[[@LINE+1]]:3: note: while differentiating 'h' requested here
[[grad]] double h(double x, double y) {
  std::array<double, 3> a = {table(x), y, x};
  std::vector<double> v{x, table(y)};
  return a[0] * a[1] + v[1];
}

// CHECK: init-list-errors.cpp:[[@LINE+3]]:8: error: grad: cannot differentiate call through the function pointer 'table' in 'g' in forward mode
// CHECK: init-list-errors.cpp:[[@LINE+1]]:3: note: while differentiating 'g' requested here
[[grad::forward]] double g(double x, double y) {
  V3 t{table(x), y * x, x};
  return t.x + t.y * t.z;
}
