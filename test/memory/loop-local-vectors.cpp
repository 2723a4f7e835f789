// std::vectors declared inside a loop body (or in the header of an `if`
// inside a loop): every iteration builds a new one, whose size can differ
// from one iteration to the next and change within the iteration (push_back,
// insert, erase, resize, a helper that grows it by reference). The reverse
// sweep of each iteration must start with the shadow at the size that
// iteration left it at, also when a `continue`, `break` or `return` left
// the block early. Before the fix, `shrink` gave d/dx = 44.1 instead of
// 185.1 without any diagnostic (the shadow kept the last iteration's size),
// and size changes crashed the pullback.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: not %gradxx -fsyntax-only -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: %dump %s --function=jumps %dflags | FileCheck %s --check-prefix=DUMP
// RUN: %dump %s --function=shrink %dflags | FileCheck %s --check-prefix=NOJUMP
#include "fwdcheck.h"
#include "gradcheck.h"
#include <vector>

using namespace gradcheck;
using fwdcheck::both;

// A size per iteration, no size change within it.
[[grad, grad::forward]] double shrink(double x, double y) {
  double s = 0;
  for (int i = 0; i < 4; ++i) {
    std::vector<double> v(4 - i, x * (i + 1));
    v[0] *= y;
    for (std::size_t k = 0; k < v.size(); ++k)
      s += v[k] * v[k] * double(k + 1);
  }
  return s;
}

static void grow(std::vector<double> &v, double z) {
  v.push_back(z * z);
  v.push_back(z);
}

// Jumps before the declaration, after it, from a nested block, and a
// vector in a nested block resized by a helper.
[[grad, grad::forward]] double jumps(double x, double y) {
  double s = 0;
  for (int i = 0; i < 6; ++i) {
    if (i == 2)
      continue;
    std::vector<double> v{x};
    v.push_back(y * i);
    if (i == 1) {
      s += v[1] * v[0];
      continue;
    }
    double a[2] = {x * y, y};
    v.insert(v.begin() + 1, a, a + 2);
    if (i == 3) {
      std::vector<double> w(i, y);
      w.push_back(x);
      grow(w, x);
      for (double e : w)
        s += e * v[0];
    }
    v.erase(v.begin());
    if (i == 4) {
      s += v[0] * v.back();
      break;
    }
    grow(v, y);
    for (std::size_t k = 0; k < v.size(); ++k)
      s += v[k] * (k + 1.0) * x;
  }
  return s;
}
// The size where the block is left (0 before the declaration), pushed
// with the jump id, and the shadow resized to it first in the reverse:
// DUMP: void jumps_pullback(
// DUMP: _z[[Z:[0-9]+]] = 0UL;
// DUMP: if (_c{{[0-9]+}}) {
// DUMP-NEXT: _stack.push(_c{{[0-9]+}});
// DUMP-NEXT: _stack.push(_z[[Z]]);
// DUMP-NEXT: _stack.push(1UL);
// DUMP-NEXT: continue;
// DUMP: std::vector<double> v = {x};
// DUMP: _z[[Z]] = v.size();
// DUMP-NEXT: _stack.push(_z[[Z]]);
// DUMP-NEXT: _stack.push(2UL);
// DUMP-NEXT: continue;
// DUMP: _z[[Z]] = v.size();
// DUMP-NEXT: _stack.push(_z[[Z]]);
// DUMP-NEXT: _stack.push(3UL);
// DUMP-NEXT: break;
// DUMP: _z[[Z]] = v.size();
// DUMP-NEXT: }
// DUMP-NEXT: _stack.push(_z[[Z]]);
// DUMP-NEXT: _stack.push(0UL);
// DUMP: _stack.pop(_z[[Z]]);
// DUMP-NEXT: {
// DUMP-NEXT: _d_v.assign(_z[[Z]], 0);

// A return from inside the loop, and a while loop.
[[grad, grad::forward]] double inwhile(double x, double y) {
  double s = 0;
  int i = 0;
  while (i < 5) {
    std::vector<double> v;
    for (int k = 0; k <= i; ++k)
      v.push_back(x * k + y);
    ++i;
    if (v.size() > 3) {
      v.resize(2);
      s += v[1] * y;
    }
    if (i == 4)
      return s * v[0];
    s += v.back() * v.front();
  }
  return s;
}

// In the init statement of an `if`, and in nested loops.
[[grad, grad::forward]] double ifinit(double x, double y) {
  double s = 0;
  for (int i = 0; i < 4; ++i) {
    if (std::vector<double> v{x, y}; i % 2 == 0) {
      v.push_back(x * y * i);
      s += v[2] * v[0];
    } else {
      s += v[1];
    }
    for (int j = 0; j < i; ++j) {
      std::vector<double> u(j + 1, y);
      u.insert(u.begin(), 2, x);
      s += u[0] * u.back() * (j + 1);
    }
  }
  return s;
}

// In the init statement of a loop that runs once: no per-iteration size.
[[grad, grad::forward]] double forinit(double x, double y) {
  double s = 0;
  for (std::vector<double> v{x}; v.size() < 4;) {
    v.push_back(y * v.back());
    s += v.back() * x;
  }
  return s;
}

#ifdef REFUSED
// In the header of an inner loop: a new vector per outer iteration that
// lives outside any block.
[[grad]] double inner(double x, double y) {
  double s = 0;
  for (int i = 0; i < 3; ++i)
    for (std::vector<double> v{x}; v.size() < 3;) {
// REFUSED: loop-local-vectors.cpp:[[@LINE+1]]:7: error: grad: cannot differentiate size change of 'v', a std::vector declared in the header of a loop inside a loop (declare it before the inner loop) in 'inner'
      v.push_back(y * v.back());
      s += v.back() * x;
    }
  return s;
}
#endif

int main() {
  both("shrink", shrink, shrink_pullback, shrink_pushforward, 1.5, 0.7);
  both("jumps", jumps, jumps_pullback, jumps_pushforward, 1.5, 0.7);
  both("jumps2", jumps, jumps_pullback, jumps_pushforward, -0.4, 1.3);
  both("inwhile", inwhile, inwhile_pullback, inwhile_pushforward, 1.5, 0.7);
  both("ifinit", ifinit, ifinit_pullback, ifinit_pushforward, 1.5, 0.7);
  both("forinit", forinit, forinit_pullback, forinit_pushforward, 1.5, 0.7);
  return failures();
}
// CHECK: ok shrink.d0
// CHECK: ok shrink.d1
// CHECK: ok shrink.fwd.x
// CHECK: ok jumps.d0
// CHECK: ok jumps.d1
// CHECK: ok jumps2.d0
// CHECK: ok jumps2.d1
// CHECK: ok inwhile.d0
// CHECK: ok inwhile.d1
// CHECK: ok ifinit.d0
// CHECK: ok ifinit.d1
// CHECK: ok forinit.d0
// CHECK: ok forinit.d1

// No jump before the declaration: the recorded size is only ever the
// vector's (no zero first).
// NOJUMP: void shrink_pullback(
// NOJUMP-NOT: _z{{[0-9]+}} = 0UL;
// NOJUMP: _z[[Z:[0-9]+]] = v.size();
// NOJUMP-NEXT: }
// NOJUMP-NEXT: _stack.push(_z[[Z]]);
