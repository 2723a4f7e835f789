// Class-type values the plugin refuses, each named as written: delegating
// constructors whose target computes members, constructors building
// members of class type, a class that owns memory.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
#include <cmath>
#include <vector>

struct Vec3 {
  double x, y, z;
  Vec3(double x, double y, double z) : x(x), y(y), z(z) {}
  double norm() const { return std::sqrt(x * x + y * y + z * z); }
};
struct Both {
  double a, b;
  Both(double a, double b) : a(a), b(a * b) {}
  Both(double a) : Both(a, 2 * a) {}
};
struct Seg {
  Vec3 p;
  double len;
  Seg(double x, double y) : p(x, y, 0), len(std::hypot(x, y)) {}
};
struct Mean {
  double m;
  Mean(const double *xs, int n) : m(0) { for (int i = 0; i < n; ++i) m += xs[i] / n; }
};
struct Grid {
  std::vector<double> v;
  double h;
};

// Constructors that compute members are differentiated on demand, except
// delegating ones whose target computes members, members of class type
// built by a constructor, and constructions from memory the function
// changes before its reverse sweep.
// CHECK: class-values.cpp:[[@LINE-20]]:20: error: grad: cannot differentiate delegating constructor (its target computes member 'b': initialize the members here instead) in 'Both'
// CHECK: class-values.cpp:[[@LINE+3]]:8: note: while differentiating 'Both', called here
// CHECK: class-values.cpp:[[@LINE+1]]:3: note: while differentiating 'delegating' requested here
[[grad]] double delegating(double x) {
  Both q(x);
  return q.a + q.b;
}
// CHECK: class-values.cpp:[[@LINE-22]]:29: error: grad: cannot differentiate member of class type 'Vec3' built by a constructor, in a constructor that computes members (copy it from a parameter or use braces) in 'Seg'
// CHECK: class-values.cpp:[[@LINE+3]]:7: note: while differentiating 'Seg', called here
// CHECK: class-values.cpp:[[@LINE+1]]:3: note: while differentiating 'segment' requested here
[[grad]] double segment(double x, double y) {
  Seg s(x, y);
  return s.len * s.p.x;
}
// CHECK: class-values.cpp:[[@LINE+4]]:8: error: grad: cannot differentiate construction of 'Mean' from memory that changes before the reverse sweep (copy the values into locals first) in 'later'
// CHECK: class-values.cpp:[[@LINE+1]]:3: note: while differentiating 'later' requested here
[[grad]] double later(double x, double y) {
  double xs[2] = {x, y};
  Mean m(xs, 2);
  xs[0] = 3 * y;
  return m.m * xs[0];
}

// A class keeping its elements in a std::vector member (or a container of
// containers): its shadow is a copy made at the declaration, so a
// constructor may not compute its elements from differentiated values, its
// sizes may not change after it, calls returning values are not kept per
// call, and no pointer reaches its elements from the object.
// CHECK: class-values.cpp:[[@LINE+3]]:36: error: grad: cannot differentiate construction of 'std::vector<std::vector<double> >' in 'owner'
// CHECK: class-values.cpp:[[@LINE+1]]:3: note: while differentiating 'owner' requested here
[[grad]] double owner(double x) {
  std::vector<std::vector<double>> a(2, std::vector<double>(3, x));
  return a[0][1] * a[1][2];
}
struct Mat {
  int rows, cols;
  std::vector<double> data;
  Mat(int r, int c) : rows(r), cols(c), data(r * c, 0.0) {}
  double &operator()(int i, int j) { return data[i * cols + j]; }
  double get(int i, int j) const { return data[i * cols + j]; }
  void set(int i, int j, double v) { data[i * cols + j] = v; }
  double sq(int i, int j) const { return get(i, j) * get(i, j); }
};
// CHECK: class-values.cpp:[[@LINE+5]]:3: error: grad: cannot differentiate write to 'm.cols', which the shadow of a class that keeps its elements in a container member does not follow (set the sizes where the object is constructed) in 'reshape'
// CHECK: class-values.cpp:[[@LINE+1]]:3: note: while differentiating 'reshape' requested here
[[grad]] double reshape(double x) {
  Mat m(2, 2);
  m(1, 0) = x;
  m.cols = 4;
  return m(0, 2) * x;
}
// A member function of such a class, kept per call, in a branch of `?:`.
// CHECK: class-values.cpp:[[@LINE+5]]:18: error: grad: cannot differentiate call to 'sq' on 'm', whose elements the function writes, in a branch of '?:' in 'branchget'
// CHECK: class-values.cpp:[[@LINE+1]]:3: note: while differentiating 'branchget' requested here
[[grad]] double branchget(double x) {
  Mat m(2, 2);
  m.set(0, 0, x);
  return x > 0 ? m.sq(0, 0) : x;
}
// A vector of vectors: its shadow is a copy made at the declaration, so
// its sizes may not change after it.
// CHECK: class-values.cpp:[[@LINE+5]]:3: error: grad: cannot differentiate call 'a.push_back({x, x})', which changes the sizes of an object whose shadow is a copy made at its declaration (give it its sizes where it is constructed) in 'grow'
// CHECK: class-values.cpp:[[@LINE+1]]:3: note: while differentiating 'grow' requested here
[[grad]] double grow(double x) {
  std::vector<std::vector<double>> a(2, std::vector<double>(2));
  a[0][0] = x;
  a.push_back({x, x});
  return a[0][0] * a[2][1];
}
// CHECK: class-values.cpp:[[@LINE+5]]:3: error: grad: cannot differentiate call 'a[1] = std::vector<double>(3, x)', which changes the sizes of an object whose shadow is a copy made at its declaration (give it its sizes where it is constructed) in 'growrow'
// CHECK: class-values.cpp:[[@LINE+1]]:3: note: while differentiating 'growrow' requested here
[[grad]] double growrow(double x) {
  std::vector<std::vector<double>> a(2, std::vector<double>(2));
  a[0][0] = x;
  a[1] = std::vector<double>(3, x);
  return a[0][0] * a[1][2];
}
// (Likewise into a row of a vector of vectors: rows are not at an offset
// from the outer vector's data.)
// CHECK: class-values.cpp:[[@LINE+3]]:21: error: grad: cannot differentiate pointer or reference 'r' into the elements of an element of 'm' (of type 'std::vector<std::vector<double>>'): index it instead in 'nestedrow'
// CHECK: class-values.cpp:[[@LINE+1]]:3: note: while differentiating 'nestedrow' requested here
[[grad]] double nestedrow(const std::vector<std::vector<double>> &m) {
  const double *r = m[1].data();
  return r[0] * r[1];
}
// A function returning a non-const reference: its result must be discarded,
// and it may return only a reference parameter, '*this', or a reference
// into one parameter's memory.
struct V2 {
  double a, b;
  V2 &operator-=(const V2 &o) { a -= o.a; b -= o.b; return *this; }
};
static V2 &operator+=(V2 &p, const V2 &q) { p.a += q.a; p.b += q.b; return p; }
static V2 scratch;
static V2 &operator*=(V2 &p, double s) { p.a *= s; p.b *= s; return scratch; }
// CHECK: class-values.cpp:[[@LINE+5]]:14: error: grad: cannot differentiate use of the reference returned by 'operator+=' (write the call as a statement of its own) in 'refs'
// CHECK: class-values.cpp:[[@LINE+2]]:3: note: while differentiating 'refs' requested here
// CHECK: class-values.cpp:[[@LINE+5]]:14: error: grad: cannot differentiate use of the reference returned by 'operator-=' (write the call as a statement of its own) in 'refs'
[[grad]] double refs(double x, double y) {
  V2 acc{x, y};
  double r = (acc += V2{y, x}).a;
  acc *= x;
  double q = (acc -= V2{x, x}).b;
  return r + q;
}
// CHECK: class-values.cpp:[[@LINE-11]]:69: error: grad: cannot differentiate returned reference (a function returning a non-const reference may return only a reference parameter, '*this', or a reference into one pointer or reference parameter) in 'operator*='
// CHECK: class-values.cpp:[[@LINE-5]]:7: note: while differentiating 'operator*=', called here
// A const member of floating type: the adjoint object cannot be written
// member by member (it was a clang error inside the generated code).
struct KC {
  const double c;
  double v;
};
// CHECK: class-values.cpp:[[@LINE+3]]:6: error: grad: cannot differentiate local variable of type 'KC' (it has a const member 'c' of floating type) in 'constmember'
// CHECK: class-values.cpp:[[@LINE+1]]:3: note: while differentiating 'constmember' requested here
[[grad]] double constmember(double a) {
  KC k{2 * a, a};
  return k.v + k.c;
}
// CHECK: class-values.cpp:[[@LINE+2]]:38: error: grad: cannot differentiate parameter 'k' of type 'KC' (it has a const member 'c' of floating type, which its adjoint cannot accumulate) in 'constparam'
// CHECK: class-values.cpp:[[@LINE+1]]:3: note: while differentiating 'constparam' requested here
[[grad]] double constparam(const KC &k, double a) { return k.v * a + k.c; }
// A member call on the value of a helper returning such an object (the
// helper is differentiated in two halves: m changes after the call):
// declare a local first.
Mat scaled(Mat m, double s) {
  m(0, 0) *= s;
  return m;
}
double first(const Mat &m) { return m.get(0, 0); }
// CHECK: class-values.cpp:[[@LINE+5]]:14: error: grad: cannot differentiate member call on call to 'scaled' in 'unheld'
// CHECK: class-values.cpp:[[@LINE+1]]:3: note: while differentiating 'unheld' requested here
[[grad]] double unheld(double a) {
  Mat m(1, 1);
  m(0, 0) = a;
  double r = scaled(m, a).get(0, 0);
  m(0, 0) = r * a;
  return m(0, 0);
}
// CHECK: 15 errors generated
