// The refusals quoted in docs/supported.md, section "Classes": member
// function calls in forward mode and HVPs, user-written copy operations,
// pointer members, free operators in an HVP, and classes that keep their
// numbers in a std::vector member in a vector pullback.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
#include <grad/grad.h>
#include <cmath>
#include <vector>

struct Vec3 {
  double x, y, z;
  Vec3(double a, double b, double c) : x(a), y(b), z(c) {}
  double norm() const { return std::sqrt(x * x + y * y + z * z); }
};

// Const member functions called on objects and on temporaries.
namespace nf {
[[grad::forward]] double f(double x, double y) {
  Vec3 v{x, y, x * y};
  // CHECK: classes.cpp:[[@LINE+1]]:10: error: grad: cannot differentiate call to member function 'norm' in 'f' in forward mode
  return v.norm() * x;
}
} // namespace nf
namespace nh {
[[grad::hessian]] double f(double x, double y) {
  Vec3 v{x, y, x * y};
  // CHECK: classes.cpp:[[@LINE+2]]:10: error: grad: cannot build the Hessian-vector product of 'f': call to member function 'norm' (in its pullback) has no forward-mode derivative
  // CHECK: classes.cpp:[[@LINE+1]]:3: error: grad: cannot build the Hessian-vector product of 'f': call to member function 'norm' (forward mode does not differentiate member functions yet: make it a free function taking the object) (in its pullback) has no forward-mode derivative
  return v.norm() * x;
}
} // namespace nh
namespace nt {
// CHECK: classes.cpp:[[@LINE+1]]:57: error: grad: cannot differentiate call to member function 'norm' in 'f' in forward mode
[[grad::forward]] double f(double x, double y) { return Vec3(x, y, x * y).norm(); }
} // namespace nt

// Non-const member functions called on locals and through pointers.
struct Acc {
  double s;
  void add(double v) { s += v; }
};
namespace af {
[[grad::forward]] double f(double x) {
  Acc a{0};
  // CHECK: classes.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate call to member function 'add' of a differentiated object in 'f' in forward mode
  a.add(x);
  Acc *p = &a;
  // CHECK: classes.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate call to member function 'add' of a differentiated object in 'f' in forward mode
  p->add(x);
  return a.s;
}
} // namespace af
namespace ah {
[[grad::hessian]] double f(double x) {
  Acc a{0};
  // CHECK: classes.cpp:[[@LINE+2]]:3: error: grad: cannot build the Hessian-vector product of 'f': call to member function 'add' of a differentiated object (in its pullback) has no forward-mode derivative
  // CHECK: classes.cpp:[[@LINE+1]]:5: error: grad: cannot build the Hessian-vector product of 'f': call to member function 'add' of a differentiated object (in its pullback) has no forward-mode derivative
  a.add(x * x);
  return a.s;
}
} // namespace ah

// `*this = ...` in a member function, forward mode.
struct V {
  double a, b;
  void scale(double s) { *this = V{a * s, b * s}; }
};
namespace ta {
[[grad::forward]] double f(double x, double y) {
  V v{x, y};
  // CHECK: classes.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate call to member function 'scale' of a differentiated object in 'f' in forward mode
  v.scale(x);
  return v.a + v.b;
}
} // namespace ta

// User-written copy operations.
struct C {
  double v;
  C(double x) : v(x) {}
  C(const C &o) : v(o.v) {}
};
namespace uc {
[[grad]] double f(double x) {
  // CHECK: classes.cpp:[[@LINE+1]]:5: error: grad: cannot differentiate local variable of type 'C' (it has user-written copy operations or a destructor) in 'f'
  C c(x);
  return c.v * x;
}
} // namespace uc

// Pointer members, reverse and forward.
struct Node {
  double v;
  Node *next;
};
namespace pr {
[[grad]] double f(double x) {
  // CHECK: classes.cpp:[[@LINE+1]]:8: error: grad: cannot differentiate local variable of type 'Node' (it has a member of pointer or reference type) in 'f'
  Node n{x, nullptr};
  return n.v * x;
}
} // namespace pr
namespace pf {
[[grad::forward]] double f(double x) {
  // CHECK: classes.cpp:[[@LINE+1]]:13: error: grad: cannot differentiate construction from 'nullptr' in 'f' in forward mode
  Node n{x, nullptr};
  return n.v * x;
}
} // namespace pf

// Free operators on structs in an HVP.
struct V2 {
  double a, b;
};
V2 operator+(const V2 &p, const V2 &q) { return V2{p.a + q.a, p.b + q.b}; }
V2 operator*(double s, const V2 &p) { return V2{s * p.a, s * p.b}; }
namespace fo {
[[grad::hessian]] double f(double x, double y) {
  V2 u{x, y}, v{y, x};
  // CHECK: classes.cpp:[[@LINE+2]]:18: error: grad: cannot build the Hessian-vector product of 'f': call to 'operator*' (the return type 'V2' has no pushforward (a floating scalar or void is needed)) (in its pullback) has no forward-mode derivative
  // CHECK: classes.cpp:[[@LINE+1]]:12: error: grad: cannot build the Hessian-vector product of 'f': call to 'operator+' (the return type 'V2' has no pushforward (a floating scalar or void is needed)) (in its pullback) has no forward-mode derivative
  V2 w = u + 2.0 * v;
  return w.a * w.b;
}
} // namespace fo

// A class that keeps its numbers in a std::vector member, vector pullback.
struct Mat {
  int rows, cols;
  std::vector<double> data;
  Mat(int r, int c) : rows(r), cols(c), data(r * c, 0.0) {}
  double &operator()(int i, int j) { return data[i * cols + j]; }
  double get(int i, int j) const { return data[i * cols + j]; }
  void scale(double s) {
    for (int k = 0; k < rows * cols; ++k)
      data[k] *= s;
  }
};
namespace mc {
[[grad("lanes=2")]] double f(double x, int n) {
  Mat a(n, n);
  for (int i = 0; i < n; ++i)
    // CHECK: classes.cpp:[[@LINE+3]]:5: error: grad: cannot build the vector pullback of 'f': call operator of 'Mat' (forward mode does not differentiate member functions yet)
    // CHECK: classes.cpp:[[@LINE+2]]:5: error: grad: cannot build the vector pullback of 'f': call operator of 'Mat' (forward mode does not differentiate member functions yet)
    // CHECK: classes.cpp:[[@LINE+1]]:5: error: grad: cannot build the vector pullback of 'f': call operator of 'Mat' (forward mode does not differentiate member functions yet)
    a(i, i) = x * i;
  return a.get(1, 1);
}
} // namespace mc
namespace ms {
[[grad("lanes=2")]] double f(double x, int n) {
  Mat m(n, n);
  m.data[0] = x;
  // CHECK: classes.cpp:[[@LINE+2]]:3: error: grad: cannot build the vector pullback of 'f': call to member function 'scale' of a differentiated object
  // CHECK: classes.cpp:[[@LINE+1]]:5: error: grad: cannot build the vector pullback of 'f': call to member function 'scale' of a differentiated object
  m.scale(x);
  return m.get(0, 0);
}
} // namespace ms
