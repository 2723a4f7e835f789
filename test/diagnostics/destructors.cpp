// Classes whose destructor writes memory (a global, its own member): the
// derivative's copies of such objects (shadows, kept values) would run it
// too, so locals and temporaries of them are errors naming the destructor.
// (Destructors that write nothing: test/classes/destructors.cpp.)
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
double total = 0;
struct G {
  double v;
  ~G() { total += v; }
  double get() const { return v; }
};
struct Z {
  double v;
  ~Z() { v = 0; }
};
static G makeg(double x) { return G{x}; }

// CHECK: destructors.cpp:[[@LINE+2]]:34: error: grad: cannot differentiate local variable of type 'G' (its destructor '~G' writes memory, and the derivative's copies of it would run it too) in 'w1'
// CHECK: destructors.cpp:[[@LINE+1]]:3: note: while differentiating 'w1' requested here
[[grad]] double w1(double x) { G g{x}; return g.get() * x; }
// CHECK: destructors.cpp:[[@LINE+2]]:39: error: grad: cannot differentiate member call on call to 'makeg', a temporary of type 'G' kept for the reverse sweep (its destructor '~G' writes memory, and the derivative's copies of it would run it too) in 'w2'
// CHECK: destructors.cpp:[[@LINE+1]]:3: note: while differentiating 'w2' requested here
[[grad]] double w2(double x) { return makeg(x).get() * x; }
// CHECK: destructors.cpp:[[@LINE+2]]:34: error: grad: cannot differentiate local variable of type 'Z' (its destructor '~Z' writes memory, and the derivative's copies of it would run it too) in 'w3'
// CHECK: destructors.cpp:[[@LINE+1]]:3: note: while differentiating 'w3' requested here
[[grad]] double w3(double x) { Z z{x}; return z.v * x; }
// CHECK: 3 errors generated
