// Forward mode refuses what it cannot differentiate with an error at the
// construct, all of a function's errors in one compile, never a silently
// wrong tangent.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <cmath>

double opaque(double); // no body, no rule

struct Acc {
  // CHECK-DAG: errors.cpp:[[@LINE+1]]:5: error: grad: cannot declare the pushforward of 'add': forward mode does not support a member function yet
  [[grad::forward]] double add(double x) { return s += x; }
  double s = 0;
};

// CHECK-DAG: errors.cpp:[[@LINE+1]]:3: error: grad: cannot declare the pushforward of 'ret': the return type 'int' has no pushforward (a floating scalar or void is needed)
[[grad::forward]] int ret(double x) { return x; }

struct Ring {
  double v[3];
  double *begin() { return v; }
  double *end() { return v + 3; }
};

[[grad::forward]] double many(double x, int k, double *arr, double y) {
  double s = x;
  Ring r{{x, y, x}};
  for (double e : r) // CHECK-DAG: errors.cpp:[[@LINE]]:3: error: grad: cannot differentiate range-based 'for' over 'Ring' (arrays, std::vector, std::array and std::initializer_list only) in 'many' in forward mode
    s += e * k;
  // CHECK-DAG: errors.cpp:[[@LINE+1]]:8: error: grad: cannot differentiate call to 'opaque' (it has no visible body, no derivative rule and no user pushforward) in 'many' in forward mode
  s += opaque(s);
  static double g = 0;
  // CHECK-DAG: errors.cpp:[[@LINE-1]]:3: error: grad: cannot differentiate 'static' local 'g' in 'many' in forward mode
  return s + y;
}

// A `T[]` parameter gets a read-only tangent.
[[grad::forward]] void scale(double a[], int n, double s) {
  for (int i = 0; i < n; ++i)
    a[i] *= s; // CHECK-DAG: errors.cpp:[[@LINE]]:5: error: grad: cannot differentiate write to 'a[i]', whose tangent is read-only (a 'T[]' parameter gets a 'const T *' tangent: declare it 'T *') in 'scale' in forward mode
}

double later(double x);
// CHECK-DAG: errors.cpp:[[@LINE+1]]:55: error: grad: cannot differentiate call to 'later' (it has no visible body, no derivative rule and no user pushforward) in 'useslater' in forward mode
[[grad::forward]] double useslater(double x) { return later(x) * 2; }
// CHECK-DAG: note: declare a pushforward to supply the derivative: '::grad::dual<double> later_pushforward(double x, double t_x)'
// CHECK-DAG: note: declare a pushforward to supply the derivative: '::grad::dual<double> opaque_pushforward(double p0, double t_p0)'

// An overloaded operator of a struct would change values without their
// tangents: an error, never a silently constant tangent.
struct V2 {
  double a, b;
  V2 &operator+=(const V2 &o) {
    a += o.a;
    b += o.b;
    return *this;
  }
};
[[grad::forward]] double structop(double x) {
  V2 v{x, 2 * x}, w{x, x};
  v += w; // CHECK-DAG: errors.cpp:[[@LINE]]:3: error: grad: cannot differentiate operator '+=' on 'V2' in 'structop' in forward mode
  return v.a;
}

// Hessian-vector products: read-only parameters, and what the pullback
// does must have a pushforward.
// CHECK-DAG: errors.cpp:[[@LINE+1]]:3: error: grad: cannot declare the pushforward of 'hw': parameter 'x' may be written (Hessian-vector products need read-only parameters: make it const)
[[grad::hessian]] double hw(double &x) { return x * x; }

double op(double x);
void op_pullback(double x, double d_ret, double *d_x); // defined elsewhere
// CHECK-DAG: errors.cpp:[[@LINE+1]]:41: error: grad: cannot differentiate call to 'op_pullback' (it has no visible body, no derivative rule and no user pushforward) in 'hu' in forward mode
[[grad::hessian]] double hu(double x) { return op(x) * x; }
// CHECK-DAG: note: declare a pushforward to supply the derivative: 'void op_pullback_pushforward(double x, double d_ret, double *d_x, double t_x, double t_d_ret, double *t_d_x)'

// A struct without a default constructor whose constructor computes a
// member: errors only (its tangent used to be declared with `{}`, a clang
// error inside the generated code).
struct NoDef3 {
  double a, b;
  NoDef3(double p, double q) : a(p * q), b(q) {}
};
[[grad::hessian]] double hnodef(double x) {
  // CHECK-DAG: errors.cpp:[[@LINE+2]]:10: error: grad: cannot build the Hessian-vector product of 'hnodef': constructor call of 'NoDef3' (in its pullback) has no forward-mode derivative
  // CHECK-DAG: errors.cpp:[[@LINE+1]]:3: error: grad: cannot build the Hessian-vector product of 'hnodef': call to constructor 'NoDef3' of a differentiated object (in its pullback) has no forward-mode derivative
  NoDef3 s(x, 2 * x);
  return s.a * s.b;
}

// CHECK-DAG: errors.cpp:[[@LINE+1]]:3: warning: unknown attribute 'hessian' ignored; clang-grad's attribute is spelled 'grad::hessian'
[[hessian]] double bare(double x) { return x; }

// Calls that would change differentiated memory without its tangent.
#include <cstring>
#include <vector>
[[grad::forward("x")]] double writes(double x, std::vector<double> &data) {
  double a[3] = {x, 2 * x, 3 * x};
  // CHECK-DAG: errors.cpp:[[@LINE+1]]:15: error: grad: cannot differentiate call to 'memset', which may write the differentiated memory 'a' and has no visible body or user pushforward in 'writes' in forward mode
  std::memset(a, 1, sizeof a); // (to zero is a loop of its own)
  // CHECK-DAG: errors.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate 'push_back' of a differentiated value into 'data', which has no tangent in 'writes' in forward mode
  data.push_back(x * x);
  data.push_back(1.0); // fine: a constant
  return a[0] + data.back();
}

// Heap memory whose owner is re-seated: its tangent memory could not be
// freed with it.
#include <cstdlib>
[[grad::forward]] double reseated(double x) {
  // CHECK-DAG: errors.cpp:[[@LINE+1]]:15: error: grad: cannot differentiate pointer 'w' that owns memory and is assigned again in 'reseated' in forward mode
  double *w = new double[2];
  w[0] = x;
  double *keep = w;
  w = keep + 1;
  *w = x * x;
  double s = keep[0] * keep[1];
  delete[] keep;
  return s;
}

// Member functions run as written only when nothing differentiated flows
// through them (issue 49: an out-parameter left with a zero tangent, a
// vector result given an empty tangent).
#include <vector>
struct Problem {
  void eval(int n, const double *x, double &out) {
    out = 0;
    for (int i = 0; i < n; ++i)
      out += x[i] * x[i];
  }
  bool valid(const double *x) const { return x[0] > 0; }
};
struct Layer {
  double w;
  std::vector<double> forward(const std::vector<double> &h) const {
    std::vector<double> r(h.size());
    for (std::size_t i = 0; i < h.size(); ++i)
      r[i] = std::tanh(w * h[i]);
    return r;
  }
};
[[grad::forward]] double members(const double *x) {
  Problem p;
  double obj = 0;
  // CHECK-DAG: errors.cpp:[[@LINE+1]]:16: error: grad: cannot differentiate call to member function 'eval', which may write the differentiated memory 'obj' (forward mode does not differentiate member functions yet: make it a free function taking the object) in 'members' in forward mode
  p.eval(2, x, obj);
  std::vector<double> h{x[0], x[1]};
  const Layer la{0.5};
  // CHECK-DAG: errors.cpp:[[@LINE+1]]:7: error: grad: cannot differentiate call to member function 'forward' returning 'std::vector<double>' (forward mode does not differentiate member functions yet: make it a free function taking the object) in 'members' in forward mode
  h = la.forward(h);
  return p.valid(x) ? obj + h[0] : 0.0; // fine: a bool
}
