// Checks: a small "view" object holding a pointer to the outputs, built as a
// temporary and passed to a helper that writes through its reference-
// returning operator(), is refused at the argument instead of being taken
// for read-only data. Found in Ceres Solver (its rotation routines write a
// 3x3 matrix through a matrix-adapter temporary); with the plugin of the
// first corpus run these gave a zero gradient and no diagnostic. Braces, a
// constructor call and a helper's result are all refused, also when the
// view is built in a callee; the rewrite the message suggests (pass the
// pointer itself) gives the right gradient, checked against finite
// differences in reverse and forward mode.
// Still open (not tested here): the same view as a class template
// specialisation is accepted and its writes are lost.
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "fwdcheck.h"

#ifdef ERRORS
struct Grid {
  double *cells;
  double &operator()(int r, int c) const { return cells[2 * r + c]; }
};
struct Strided {
  explicit Strided(double *p) : base(p) {}
  double &operator()(int i) const { return base[2 * i]; }
  double *base;
};
Grid gridOf(double *p) { return Grid{p}; }

void outer(double x, const Grid &g) {
  g(0, 0) = x * x;
  g(1, 1) = std::cos(x);
}
void evens(double x, const Strided &s) {
  s(0) = x;
  s(1) = x * x * x;
}
void viaCallee(double x, double *out) { outer(x, Grid{out}); }

// ERR: view-temporary-argument.cpp:[[@LINE+2]]:16: error: grad: cannot differentiate argument 'Grid{out}' of type 'const Grid' holding a pointer into differentiated memory (pass the pointer itself) in 'braces'
[[grad]] void braces(const double *in, double *out) {
  outer(in[0], Grid{out});
}
// ERR: view-temporary-argument.cpp:[[@LINE+2]]:16: error: grad: cannot differentiate argument 'Strided(out)' of type 'const Strided' holding a pointer into differentiated memory (pass the pointer itself) in 'constructed'
[[grad]] void constructed(const double *in, double *out) {
  evens(in[0], Strided(out));
}
// ERR: view-temporary-argument.cpp:[[@LINE+2]]:16: error: grad: cannot differentiate argument 'gridOf(out)' of type 'const Grid' holding a pointer into differentiated memory (pass the pointer itself) in 'returned'
[[grad]] void returned(const double *in, double *out) {
  outer(in[0], gridOf(out));
}
// ERR: view-temporary-argument.cpp:[[@LINE-14]]:50: error: grad: cannot differentiate argument 'Grid{out}' of type 'const Grid' holding a pointer into differentiated memory (pass the pointer itself) in 'viaCallee'
[[grad]] void nested(const double *in, double *out) { viaCallee(in[0], out); }
#endif

// The suggested rewrite: the helper takes the pointer and indexes it.
void outerPtr(double x, double *cells) {
  cells[0] = x * x;
  cells[3] = std::cos(x);
}
[[grad, grad::forward]] void viaPointer(const double *in, double *out) {
  outerPtr(in[0], out);
}

int main() {
  // Seeds w on the four outputs: d/dx of w0 x^2 + w3 cos x.
  const double W[4] = {0.7, 0.0, 0.0, -1.3};
  auto F = [&](const std::vector<double> &Y) {
    double out[4] = {0, 0, 0, 0}, in = Y[0];
    viaPointer(&in, out);
    return W[0] * out[0] + W[3] * out[3];
  };
  std::vector<double> X = {0.9};
  double in = X[0], out[4] = {0, 0, 0, 0}, din = 0;
  double dout[4] = {W[0], W[1], W[2], W[3]};
  viaPointer_pullback(&in, out, &din, dout);
  gradcheck::expect("rev", din, fwdcheck::fdAlong(F, X, {1.0}));
  // CHECK: ok rev
  fwdcheck::each("fwd", F, [&](const std::vector<double> &Y,
                               const std::vector<double> &V) {
    double x = Y[0], t = V[0], o[4] = {0, 0, 0, 0}, to[4] = {0, 0, 0, 0};
    viaPointer_pushforward(&x, o, &t, to);
    return W[0] * to[0] + W[3] * to[3];
  }, X);
  // CHECK: ok fwd.v0
  // CHECK: ok fwd.v1
  return gradcheck::failures();
}
