// The result of an accessor helper into a member of a struct used directly
// as an lvalue or a value is an error that says how to rewrite it (bind it
// to a local first); accessors into the elements of a pointer, a
// std::vector or a std::array are used directly (memory/accessor-results.cpp).
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
struct P {
  double x, y;
};
static double &px(P *p) { return p->x; }

[[grad]] double f(double a, double b) {
  P q{a, b};
  // CHECK: accessor-results.cpp:[[@LINE+1]]:14: error: grad: cannot differentiate value of 'px(&q)', a reference into '&q' (bind it to a local reference first) in 'f'
  double v = px(&q) * a;
  // CHECK: accessor-results.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate assignment to call to 'px' through 'px(&q)' (bind the result to a local pointer or reference first) in 'f'
  px(&q) *= b;
  return v + q.x;
}
// CHECK: 2 errors generated
