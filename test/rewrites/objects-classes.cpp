// Rewrites the refusals about user classes suggest, checked: each refused
// form (-DERRORS) gets its message, with its exact text and location, and
// the rewrite the message suggests compiles and has the gradient of
// central finite differences. A local class with member functions (define
// it outside the function); a constructor that computes members and builds
// a member of class type with its constructor (copy it from a parameter or
// use braces, both checked); a construction from memory the function
// changes later (copy the values into locals first); a non-const member
// function called on the reference a helper returns (call it on a local
// object). Two refusals whose suggested rewrite cannot be used, kept with
// the form that is accepted: an object without a default constructor kept
// for the reverse sweep ("initialise a local with it first" is refused the
// same way; a const reference parameter is accepted), and a standard
// class whose constructor does more than copy its parameters ("write the
// members from braces or assignments": its members are private).
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <grad/grad.h>
#include <random>
#include <vector>

// --- A local class with member functions: the derivative of a member
// function would be a member of the class, defined outside it.
#ifdef ERRORS
[[grad]] double spring(double x, double k) {
  // ADVICE: (define the class outside the function)
  // ERR: objects-classes.cpp:[[@LINE+2]]:3: error: grad: cannot differentiate local class 'Spring' with member functions (define the class outside the function) in 'spring'
  // ERR: objects-classes.cpp:[[@LINE-3]]:3: note: while differentiating 'spring' requested here
  struct Spring {
    double k;
    double energy(double d) const { return 0.5 * k * d * d; }
  };
  Spring s{k};
  return s.energy(x) + x;
}
#else
struct Spring {
  double k;
  double energy(double d) const { return 0.5 * k * d * d; }
};
[[grad]] double spring(double x, double k) {
  Spring s{k};
  return s.energy(x) + x;
}
#endif

// --- A constructor that computes members and builds a member of class
// type with that class's constructor.
struct Vec2 {
  double x, y;
  Vec2(double x, double y) : x(x), y(y) {}
};
struct Pt2 {
  double x, y;
};
#ifdef ERRORS
struct Segment {
  Vec2 dir;
  double len;
  // ERR: objects-classes.cpp:[[@LINE+1]]:35: error: grad: cannot differentiate member of class type 'Vec2' built by a constructor, in a constructor that computes members (copy it from a parameter or use braces) in 'Segment'
  Segment(double dx, double dy) : dir(dx, dy), len(std::hypot(dx, dy)) {}
};
struct Segment2 {
  Pt2 dir;
  double len;
  Segment2(double dx, double dy) : dir{dx, dy}, len(std::hypot(dx, dy)) {}
};
// ADVICE: (copy it from a parameter or use braces)
// ERR: objects-classes.cpp:[[@LINE+3]]:11: note: while differentiating 'Segment', called here
// ERR: objects-classes.cpp:[[@LINE+1]]:3: note: while differentiating 'seglen' requested here
[[grad]] double seglen(double dx, double dy) {
  Segment s(dx, dy);
  return s.len * s.dir.x;
}
#else
// Copied from a parameter:
struct Segment {
  Vec2 dir;
  double len;
  Segment(const Vec2 &d) : dir(d), len(std::hypot(d.x, d.y)) {}
};
// Or a member of a class without a constructor, from braces:
struct Segment2 {
  Pt2 dir;
  double len;
  Segment2(double dx, double dy) : dir{dx, dy}, len(std::hypot(dx, dy)) {}
};
[[grad]] double seglen(double dx, double dy) {
  Segment s(Vec2(dx, dy));
  return s.len * s.dir.x;
}
#endif
[[grad]] double seglen2(double dx, double dy) {
  Segment2 s(dx, dy);
  return s.len * s.dir.x;
}

// --- A construction from memory the function changes before the reverse
// sweep: the pullback of the constructor would read it again.
struct Mean {
  double m;
  Mean(const double *xs, int n) : m(0) {
    for (int i = 0; i < n; ++i)
      m += xs[i] / n;
  }
};
#ifdef ERRORS
// ADVICE: (copy the values into locals first)
// ERR: objects-classes.cpp:[[@LINE+4]]:8: error: grad: cannot differentiate construction of 'Mean' from memory that changes before the reverse sweep (copy the values into locals first) in 'centred'
// ERR: objects-classes.cpp:[[@LINE+1]]:3: note: while differentiating 'centred' requested here
[[grad]] double centred(double x, double y) {
  double xs[2] = {x, y};
  Mean m(xs, 2);
  xs[0] -= m.m;
  xs[1] -= m.m;
  return xs[0] * xs[0] + xs[1] * xs[1] * x;
}
#else
[[grad]] double centred(double x, double y) {
  double xs[2] = {x, y};
  const double orig[2] = {xs[0], xs[1]};
  Mean m(orig, 2);
  xs[0] -= m.m;
  xs[1] -= m.m;
  return xs[0] * xs[0] + xs[1] * xs[1] * x;
}
#endif

// --- A non-const member function called on the reference a helper
// returns (advance the particle that is behind).
struct Euler {
  double v;
  void step(double a, double dt) { v += a * dt; }
};
static Euler &behind(Euler &p, Euler &q) { return p.v < q.v ? p : q; }
#ifdef ERRORS
// ADVICE: (call it on a local object, a parameter, an element or through a pointer to a struct)
// ERR: objects-classes.cpp:[[@LINE+5]]:5: error: grad: cannot differentiate call to non-const member function 'step' on call to 'behind' (call it on a local object, a parameter, an element or through a pointer to a struct) in 'race'
// ERR: objects-classes.cpp:[[@LINE+1]]:3: note: while differentiating 'race' requested here
[[grad]] double race(double v0, double v1, double a) {
  Euler p{v0}, q{v1};
  for (int k = 0; k < 3; ++k)
    behind(p, q).step(a, 0.25);
  return p.v * q.v;
}
#else
[[grad]] double race(double v0, double v1, double a) {
  Euler p{v0}, q{v1};
  for (int k = 0; k < 3; ++k) {
    if (p.v < q.v)
      p.step(a, 0.25);
    else
      q.step(a, 0.25);
  }
  return p.v * q.v;
}
#endif

// --- A temporary of a class without a default constructor passed by
// value: its value is kept for the reverse sweep. The rewrite the message
// suggests (a local initialised with it) is refused the same way; passing
// it by const reference is accepted, and is what the test checks.
struct Window {
  const int *idx;
  int n;
  Window(const int *i, int n) : idx(i), n(n < 3 ? n : 3) {}
};
static const int IDX[3] = {0, 2, 1};
#ifdef ERRORS
static double wsum(const double *x, Window w) {
  double s = 0;
  for (int k = 0; k < w.n; ++k)
    s += x[w.idx[k]] * x[w.idx[k]];
  return s;
}
// ADVICE: (pass it by const reference, or give the class a default constructor)
// ERR: objects-classes.cpp:[[@LINE+3]]:18: error: grad: cannot differentiate value of Window(IDX, 2), of type 'Window' without a default constructor, kept for the reverse sweep (pass it by const reference, or give the class a default constructor) in 'picked'
// ERR: objects-classes.cpp:[[@LINE+1]]:3: note: while differentiating 'picked' requested here
[[grad]] double picked(const double *x) {
  return wsum(x, Window(IDX, 2)) * x[1];
}
// ERR: objects-classes.cpp:[[@LINE+4]]:18: error: grad: cannot differentiate value of w, of type 'Window' without a default constructor, kept for the reverse sweep (pass it by const reference, or give the class a default constructor) in 'picked_local'
// ERR: objects-classes.cpp:[[@LINE+1]]:3: note: while differentiating 'picked_local' requested here
[[grad]] double picked_local(const double *x) {
  Window w(IDX, 2);
  return wsum(x, w) * x[1];
}
#else
static double wsum(const double *x, const Window &w) {
  double s = 0;
  for (int k = 0; k < w.n; ++k)
    s += x[w.idx[k]] * x[w.idx[k]];
  return s;
}
[[grad]] double picked(const double *x) {
  return wsum(x, Window(IDX, 2)) * x[1];
}
#endif

// --- A local of a standard class whose constructor does more than copy
// its parameters into members (its members are private): constructed from
// constants, what it gives scaled and shifted.
// ADVICE: (construct it from values without derivatives, then scale or shift what it gives)
#ifdef ERRORS
// ERR: objects-classes.cpp:[[@LINE+4]]:39: error: grad: cannot differentiate argument 'mu' of a constructor of 'std::normal_distribution<double>' that does more than copy its parameters into members (construct it from values without derivatives, then scale or shift what it gives) in 'noisy'
// ERR: objects-classes.cpp:[[@LINE+1]]:3: note: while differentiating 'noisy' requested here
[[grad]] double noisy(double mu, double sigma) {
  std::mt19937 gen(42);
  std::normal_distribution<double> nd(mu, sigma);
  double z = nd(gen);
  return z * z;
}
#else
[[grad]] double noisy(double mu, double sigma) {
  std::mt19937 gen(42);
  std::normal_distribution<double> nd(0.0, 1.0);
  double z = mu + sigma * nd(gen);
  return z * z;
}
#endif

int main() {
  gradcheck::check_grad("spring", spring, spring_pullback, 0.7, 2.5);
  // CHECK: ok spring.d0
  // CHECK: ok spring.d1
  gradcheck::check_grad("seglen", seglen, seglen_pullback, 0.6, -1.3);
  // CHECK: ok seglen.d0
  // CHECK: ok seglen.d1
  gradcheck::check_grad("seglen2", seglen2, seglen2_pullback, 0.6, -1.3);
  // CHECK: ok seglen2.d0
  // CHECK: ok seglen2.d1
  gradcheck::check_grad("centred", centred, centred_pullback, 1.2, -0.4);
  // CHECK: ok centred.d0
  // CHECK: ok centred.d1
  gradcheck::check_grad("race", race, race_pullback, 1.5, 1.2, 0.8);
  // CHECK: ok race.d0
  // CHECK: ok race.d1
  // CHECK: ok race.d2
  {
    double x[3] = {0.7, -1.1, 0.4}, dx[3] = {0, 0, 0};
    picked_pullback(x, 1.0, dx);
    for (int i = 0; i < 3; ++i) {
      auto f = [&](double v) {
        double y[3] = {x[0], x[1], x[2]};
        y[i] = v;
        return picked(y);
      };
      gradcheck::expect("picked.d" + std::to_string(i), dx[i],
                        gradcheck::fd(f, 0, x[i]));
    }
  }
  // CHECK: ok picked.d0
  // CHECK: ok picked.d1
  // CHECK: ok picked.d2
  gradcheck::check_grad("noisy", noisy, noisy_pullback, 0.3, 1.7);
  // CHECK: ok noisy.d0
  // CHECK: ok noisy.d1
  return gradcheck::failures();
}
