// Rewrites the refusals about changing std::vector locals suggest, checked:
// each refused form (-DERRORS) gets its message, with its exact text and
// location, and the rewrite the message suggests compiles and has the
// gradient of central finite differences. A vector declared in the header
// of an inner loop that grows (declare it before the inner loop); a swap
// with a vector that is not a variable (swap two variables); insert and
// assign from reversed ranges (insert one value, a count, or a pointer
// range; assign a count and a value, or two pointers); a vector
// constructed from reversed iterators (copy the elements in a loop).
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <grad/grad.h>
#include <vector>

// --- A vector declared in the header of an inner loop, grown in it.
#ifdef ERRORS
[[grad]] double series(double x, double y) {
  double s = 0;
  for (int i = 0; i < 3; ++i)
    for (std::vector<double> t{x}; t.size() < 4;) {
      // ADVICE: (declare it before the inner loop)
      // ERR: objects-containers.cpp:[[@LINE+2]]:7: error: grad: cannot differentiate size change of 't', a std::vector declared in the header of a loop inside a loop (declare it before the inner loop) in 'series'
      // ERR: objects-containers.cpp:[[@LINE-6]]:3: note: while differentiating 'series' requested here
      t.push_back(y * t.back() / (i + 1));
      s += t.back();
    }
  return s;
}
#else
[[grad]] double series(double x, double y) {
  double s = 0;
  for (int i = 0; i < 3; ++i) {
    std::vector<double> t{x};
    while (t.size() < 4) {
      t.push_back(y * t.back() / (i + 1));
      s += t.back();
    }
  }
  return s;
}
#endif

// --- A swap with a vector that is not a variable (a row of a container
// of containers).
#ifdef ERRORS
[[grad]] double smooth(double x, double y) {
  std::vector<double> u{x, y, x * y};
  std::vector<std::vector<double>> buf(1, std::vector<double>(3, 0.0));
  for (int it = 0; it < 2; ++it) {
    for (int i = 0; i < 3; ++i)
      buf[0][i] = 0.5 * (u[i] + u[(i + 1) % 3]);
    // ADVICE: (swap two std::vector variables that both carry derivatives, or neither)
    // ERR: objects-containers.cpp:[[@LINE+2]]:5: error: grad: cannot differentiate call to 'swap' on u with buf[0] (swap two std::vector variables that both carry derivatives, or neither) in 'smooth'
    // ERR: objects-containers.cpp:[[@LINE-8]]:3: note: while differentiating 'smooth' requested here
    u.swap(buf[0]);
  }
  return u[0] * u[1] + u[2];
}
#else
[[grad]] double smooth(double x, double y) {
  std::vector<double> u{x, y, x * y};
  std::vector<double> next(3, 0.0);
  for (int it = 0; it < 2; ++it) {
    for (int i = 0; i < 3; ++i)
      next[i] = 0.5 * (u[i] + u[(i + 1) % 3]);
    u.swap(next);
  }
  return u[0] * u[1] + u[2];
}
#endif

// --- insert and assign from reversed ranges (a palindrome of the
// samples).
#ifdef ERRORS
[[grad]] double mirror(double x, double y) {
  std::vector<double> v{x, y, x * y};
  // ADVICE: (insert one value, a count of one value, or a pointer range at a position)
  // ERR: objects-containers.cpp:[[@LINE+2]]:3: error: grad: cannot differentiate call to 'insert' with these arguments (insert one value, a count of one value, or a pointer range at a position) in 'mirror'
  // ERR: objects-containers.cpp:[[@LINE-4]]:3: note: while differentiating 'mirror' requested here
  v.insert(v.end(), v.rbegin(), v.rend());
  double s = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    s += v[i] * (i + 1);
  return s;
}
[[grad]] double reversed(double x, double y) {
  std::vector<double> v{x, y, x * y};
  std::vector<double> w;
  // ADVICE: (use a count and a value, or two pointers)
  // ERR: objects-containers.cpp:[[@LINE+2]]:3: error: grad: cannot differentiate call to 'assign' with these arguments (use a count and a value, or two pointers) in 'reversed'
  // ERR: objects-containers.cpp:[[@LINE-5]]:3: note: while differentiating 'reversed' requested here
  w.assign(v.rbegin(), v.rend());
  return w[0] * std::sin(w[1]) + w[2];
}
#else
[[grad]] double mirror(double x, double y) {
  std::vector<double> v{x, y, x * y};
  for (int k = 2; k >= 0; --k)
    v.insert(v.end(), v[k]);
  double s = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    s += v[i] * (i + 1);
  return s;
}
[[grad]] double reversed(double x, double y) {
  std::vector<double> v{x, y, x * y};
  std::vector<double> w;
  w.assign(3, 0.0);
  for (int k = 0; k < 3; ++k)
    w[k] = v[2 - k];
  return w[0] * std::sin(w[1]) + w[2];
}
#endif

// --- A vector constructed from reversed iterators.
#ifdef ERRORS
[[grad]] double backwards(double x, double y) {
  std::vector<double> v{x, y, x * y};
  // ADVICE: (copy the elements in a loop instead)
  // ERR: objects-containers.cpp:[[@LINE+2]]:25: error: grad: cannot differentiate 'std::vector<double>' constructed from 'v.rbegin()' (copy the elements in a loop instead) in 'backwards'
  // ERR: objects-containers.cpp:[[@LINE-4]]:3: note: while differentiating 'backwards' requested here
  std::vector<double> w(v.rbegin(), v.rend());
  return w[0] * std::exp(w[1]) - w[2];
}
#else
[[grad]] double backwards(double x, double y) {
  std::vector<double> v{x, y, x * y};
  std::vector<double> w(v.size());
  for (std::size_t k = 0; k < v.size(); ++k)
    w[k] = v[v.size() - 1 - k];
  return w[0] * std::exp(w[1]) - w[2];
}
#endif

int main() {
  gradcheck::check_grad("series", series, series_pullback, 0.7, 1.3);
  // CHECK: ok series.d0
  // CHECK: ok series.d1
  gradcheck::check_grad("smooth", smooth, smooth_pullback, 0.7, 1.3);
  // CHECK: ok smooth.d0
  // CHECK: ok smooth.d1
  gradcheck::check_grad("mirror", mirror, mirror_pullback, 0.7, 1.3);
  // CHECK: ok mirror.d0
  // CHECK: ok mirror.d1
  gradcheck::check_grad("reversed", reversed, reversed_pullback, 0.7, 1.3);
  // CHECK: ok reversed.d0
  // CHECK: ok reversed.d1
  gradcheck::check_grad("backwards", backwards, backwards_pullback, 0.7, 1.3);
  // CHECK: ok backwards.d0
  // CHECK: ok backwards.d1
  return gradcheck::failures();
}
