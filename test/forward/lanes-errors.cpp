// Vector mode refuses what has no lanes yet (objects, containers, accessors
// into tangent memory, a user's scalar pushforward taking pointers) with an
// error at the construct, and checks its option.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <cmath>
#include <vector>

struct Pt {
  double x, y;
};

// CHECK-DAG: lanes-errors.cpp:[[@LINE+1]]:3: error: grad: cannot declare the pushforward of 'obj': vector mode does not support parameter 'p' of type 'const Pt &' yet (objects and containers have no lanes)
[[grad::forward("lanes=2")]] double obj(const Pt &p) { return p.x * p.y; }

// CHECK-DAG: lanes-errors.cpp:[[@LINE+1]]:3: error: grad: cannot declare the pushforward of 'vec': vector mode does not support parameter 'v' of type 'const std::vector<double> &' yet (objects and containers have no lanes)
[[grad::forward("lanes=2")]] double vec(const std::vector<double> &v) { return v[0]; }

static double &at(double *a, int i) { return a[i]; }

double slot(double);
grad::dual<double> slot_pushforward(double, double);
static void bump(double *p) { *p += 1; }
void bump_pushforward(double *p, double *t_p) { *p += 1; }

[[grad::forward("lanes=4")]] double locals(double x, double y) {
  // CHECK-DAG: lanes-errors.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate local 'q' of type 'Pt' in vector mode (objects and containers have no lanes yet) in 'locals' in forward mode
  Pt q{x, y};
  // CHECK-DAG: lanes-errors.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate local 'w' of type 'std::vector<double>' in vector mode (objects and containers have no lanes yet) in 'locals' in forward mode
  std::vector<double> w(3, x);
  double a[2] = {x, y};
  // An accessor's location in tangent memory, in a loop increment.
  // CHECK-DAG: lanes-errors.cpp:[[@LINE+1]]:26: error: grad: cannot differentiate call to 'at', which returns a location in its argument, in vector mode (only element locations of floating arrays, outside loop headers) in 'locals' in forward mode
  for (int i = 0; i < 2; at(a, i) *= x, ++i)
    ;
  // Read in a condition (no tangent needed): fine.
  while (at(a, 0) > 10)
    a[0] -= 1;
  // CHECK-DAG: lanes-errors.cpp:[[@LINE+1]]:8: error: grad: cannot differentiate call to 'bump', whose user pushforward 'bump_pushforward' has scalar tangents, in vector mode (lanes are passed one at a time for floating scalar parameters only: declare an overload taking grad::lanes) in 'locals' in forward mode
  bump(&a[0]);
  // CHECK-DAG: lanes-errors.cpp:[[@LINE+1]]:12: error: grad: cannot differentiate temporary of type 'Pt' in vector mode (objects and containers have no lanes yet) in 'locals' in forward mode
  return Pt{a[0], a[1]}.x + slot(x);
}

// A range over an object with lanes would need them: the local is refused
// where it is declared.
[[grad::forward("lanes=2")]] double ranges(double x) {
  // CHECK-DAG: lanes-errors.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate local 'v' of type 'std::vector<double>' in vector mode (objects and containers have no lanes yet) in 'ranges' in forward mode
  std::vector<double> v{x, 2 * x};
  double s = 0;
  for (double e : v)
    s += e;
  return s;
}

// CHECK-DAG: lanes-errors.cpp:[[@LINE+1]]:17: error: grad: 'lanes=0': the number of directions must be a whole number from 1 to 1024
[[grad::forward("lanes=0")]] double zero(double x) { return x; }
// CHECK-DAG: lanes-errors.cpp:[[@LINE+1]]:17: error: grad: 'lanes=four': the number of directions must be a whole number from 1 to 1024
[[grad::forward("lanes=four")]] double four(double x) { return x; }
// CHECK-DAG: lanes-errors.cpp:[[@LINE+1]]:28: error: grad: unknown attribute argument 'lanes=2'
[[grad::forward("lanes=3", "lanes=2")]] double twice(double x) { return x; }
// ([[grad("lanes=N")]] declares a vector pullback: basic/vector-pullback.cpp.)
