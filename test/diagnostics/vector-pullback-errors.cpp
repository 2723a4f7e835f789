// Vector pullbacks ([[grad("lanes=N")]]) refuse what has no lanes yet
// (objects and containers: parameters, results, locals, temporaries),
// templates and member functions, with an error at the attribute or at the
// construct naming what the user wrote; all of a function's errors in one
// compile.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <array>
#include <cmath>
#include <vector>

struct Pt {
  double x, y;
};

// CHECK-DAG: vector-pullback-errors.cpp:[[@LINE+1]]:3: error: grad: cannot declare the vector pullback of 'obj': vector pullbacks do not support parameter 'p' of type 'const Pt &' yet (objects and containers have no lanes)
[[grad("lanes=2")]] double obj(const Pt &p) { return p.x * p.y; }

// CHECK-DAG: vector-pullback-errors.cpp:[[@LINE+1]]:3: error: grad: cannot declare the vector pullback of 'mk': vector pullbacks do not support the result of type 'Pt' yet (objects and containers have no lanes)
[[grad("lanes=2")]] Pt mk(double a) { return Pt{a, 2 * a}; }

// CHECK-DAG: vector-pullback-errors.cpp:[[@LINE+1]]:8: error: grad: 'lanes=0': the number of directions must be a whole number from 1 to 1024
[[grad("lanes=0")]] double zero(double a) { return a; }

// CHECK-DAG: vector-pullback-errors.cpp:[[@LINE+1]]:22: error: grad: cannot declare the vector pullback of 'sq': vector pullbacks of templates are not supported yet
template <class T> [[grad("lanes=2")]] T sq(T a) { return a * a; }

struct Spring {
  double k;
  // CHECK-DAG: vector-pullback-errors.cpp:[[@LINE+1]]:5: error: grad: cannot declare the vector pullback of 'energy': vector pullbacks do not support a member function yet
  [[grad("lanes=2")]] double energy(double x) { return k * x * x; }
};

static double norm2(const Pt &p) { return p.x * p.x + p.y * p.y; }

// CHECK-DAG: vector-pullback-errors.cpp:[[@LINE+1]]:3: note: while differentiating 'locals' requested here
[[grad("lanes=2")]] double locals(double x, double y) {
  // CHECK-DAG: vector-pullback-errors.cpp:[[@LINE+1]]:3: error: grad: cannot build the vector pullback of 'locals': the adjoint of 'q' of type 'Pt' in vector mode (objects and containers have no lanes yet)
  Pt q{x, y};
  // CHECK-DAG: vector-pullback-errors.cpp:[[@LINE+1]]:3: error: grad: cannot build the vector pullback of 'locals': the adjoint of 'q2' of type 'Pt' in vector mode (objects and containers have no lanes yet)
  Pt q2{y, x};
  // (A std::vector has lanes: a std::vector of them.)
  std::vector<double> w(3, x);
  w[1] += y;
  // CHECK-DAG: vector-pullback-errors.cpp:[[@LINE+1]]:3: error: grad: cannot build the vector pullback of 'locals': the adjoint of 'm' of type 'std::array<Pt, 2>' in vector mode (objects and containers have no lanes yet)
  std::array<Pt, 2> m{Pt{x, y}, Pt{y, x}};
  // CHECK-DAG: vector-pullback-errors.cpp:[[@LINE+1]]:3: error: grad: cannot build the vector pullback of 'locals': the adjoint of a temporary of type 'Pt' in vector mode (objects and containers have no lanes yet)
  return q.x * q.y + q2.x + w[1] + m[1].y + norm2(Pt{x, y});
}

// A callee whose pullback the user declared without a body here.
double cube(double x);
void cube_pullback(double x, double d_ret, double *d_x);
// CHECK-DAG: vector-pullback-errors.cpp:[[@LINE+1]]:47: error: grad: cannot build the vector pullback of 'opaque': call to 'cube_pullback', a pullback without a visible body (the vector form of a pullback is built from its body)
[[grad("lanes=2")]] double opaque(double x) { return cube(x) * x; }

// The scalar pullback is declared all the same.
void use(const Pt &p) {
  Pt dp{};
  obj_pullback(p, 1.0, &dp);
}
