// Classes with a user-written destructor that writes nothing (`~Box() {}`,
// one that logs with std::puts, one inherited through a member): locals,
// temporaries whose member functions are called (`make_box(x).get()`),
// copies, assignment, non-const member calls, by-value parameters and
// results, in loops (their values go on the tape as bytes). They were
// errors ("local variable of type 'Box' (it has user-written copy
// operations or a destructor)", "member call on call to 'make_box'").
// Destructors run as written; a destructor that writes memory is an error
// (test/diagnostics/destructors.cpp). Reverse mode against finite
// differences and closed forms.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <cstdio>
#include <string>

struct Box {
  double v;
  ~Box() {}
  double get() const { return v * v; }
  void scale(double s) { v *= s; }
};
static Box make_box(double x) { return Box{3 * x}; }

// Logs when destroyed (only when asked, so that the output stays checkable).
static bool Verbose = false;
struct Logged {
  double a, b;
  Logged(double a, double b) : a(a), b(b) {}
  ~Logged() {
    if (Verbose)
      std::puts("~Logged");
  }
  double dot(const Logged &o) const { return a * o.a + b * o.b; }
};

// No destructor of its own, but a member with one.
struct Pair2 {
  Box first;
  double second;
};

static double area(Box b, double t) { return b.v * t; }
static Logged twice(const Logged &l) { return Logged(2 * l.a, l.b * l.b); }

[[grad]] double temporaries(double x, double y) {
  return make_box(x).get() + Box{y}.get() * x;
}

[[grad]] double locals(double x, double y) {
  Box b{x};
  Box c = b;
  c.scale(y);
  b = c;
  Logged l(x, y);
  Logged m = twice(l);
  return b.get() + area(c, x) + l.dot(m);
}

[[grad]] double loops(double x, double y) {
  double s = 0;
  Box acc{1.0};
  for (int i = 0; i < 4; ++i) {
    Box b{x + i * y};
    b.scale(std::sin(s + x));
    acc.scale(b.v);
    Pair2 p{b, s};
    p.first.scale(y);
    s += p.first.get() * 0.1 + p.second * y;
    Logged l(s, x);
    s = std::tanh(l.dot(Logged(y, 0.5)));
  }
  return s + acc.v;
}

int main() {
  using gradcheck::check_grad;
  check_grad("temporaries", temporaries, temporaries_pullback, 0.7, 1.3);
  check_grad("locals", locals, locals_pullback, 0.7, 1.3);
  check_grad("loops", loops, loops_pullback, 0.7, 1.3);
  // CHECK: ok temporaries.d0
  // CHECK-NEXT: ok temporaries.d1
  // CHECK-NEXT: ok locals.d0
  // CHECK-NEXT: ok locals.d1
  // CHECK-NEXT: ok loops.d0
  // CHECK-NEXT: ok loops.d1
  // Closed form: 9 x^2 + y^2 x.
  double dx = 0, dy = 0;
  temporaries_pullback(0.7, 1.3, 1.0, &dx, &dy);
  gradcheck::expect("temporaries.closed.dx", dx, 18 * 0.7 + 1.3 * 1.3);
  gradcheck::expect("temporaries.closed.dy", dy, 2 * 1.3 * 0.7);
  // CHECK-NEXT: ok temporaries.closed.dx
  // CHECK-NEXT: ok temporaries.closed.dy
  // The primal's destructors run as written: `l` and `m` of `locals`.
  Verbose = true;
  std::printf("primal %.6f\n", locals(0.7, 1.3));
  Verbose = false;
  // CHECK-NEXT: ~Logged
  // CHECK-NEXT: ~Logged
  // CHECK-NEXT: primal
  return gradcheck::failures();
}
