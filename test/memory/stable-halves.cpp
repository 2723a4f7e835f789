// A helper that writes through an out-parameter is called through its split
// derivative (forward half now, reverse half in the caller's reverse sweep).
// Its halves record what they read through pointer-to-const parameters,
// because the caller may change that memory before the reverse half runs.
// Where every such argument keeps its values until then (a parameter of the
// function, or its own array or vector filled before the call, also passed
// as `&q[k]`) and no argument the helper writes reaches it, the call uses a
// variant of the halves that reads it again (Qtimesx of the GMM objective:
// Qdiag and ltri). Memory written after the call, or also passed for the
// helper to write, is recorded as before (by the recording halves, or by
// the variant when the call keeps all the memory the variant re-reads).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s --function=rows %dflags | FileCheck %s --check-prefix=ROWS
// RUN: %dump %s --function=changed %dflags | FileCheck %s --check-prefix=CHANGED
// RUN: %dump %s --function=inplace %dflags | FileCheck %s --check-prefix=INPLACE
#include "gradcheck.h"
#include <cmath>
#include <vector>
using namespace gradcheck;

// out = diag(q) x + its strictly lower triangle l, like ADBench's Qtimesx.
void qtimes(int n, const double *q, const double *l, const double *x,
            double *out) {
  for (int i = 0; i < n; ++i)
    out[i] = q[i] * x[i];
  int k = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      out[j] = out[j] + l[k] * x[i];
      ++k;
    }
}

void expall(int n, const double *x, double *out) {
  for (int i = 0; i < n; ++i)
    out[i] = std::exp(x[i]);
}

// q (a local vector filled before the loop, passed as &q[r * 3]) and l (a
// parameter) are read again; xs (overwritten every row) is recorded.
[[grad]] double rows(const double *x, const double *l, double y) {
  std::vector<double> q(6);
  expall(6, x, &q[0]);
  double xs[3], o[3];
  double s = 0;
  for (int r = 0; r < 2; ++r) {
    for (int i = 0; i < 3; ++i)
      xs[i] = x[r * 3 + i] * y;
    qtimes(3, &q[r * 3], l, xs, o);
    s += o[0] * o[1] + o[2] * o[2];
  }
  return s;
}
// ROWS: _grad_qtimes_fwd_[[V:[0-9]+]](3, &q[r * 3], l, xs, o, _stack);
// ROWS: _grad_qtimes_rev_[[V]](3, &q[r * 3], l, &_d_q[r * 3], d_l, _d_xs, _d_o, _stack);
// ROWS: void _grad_qtimes_fwd_[[V]](int n, const double *q, const double *l, const double *x, double *out, ::grad::detail::stack &_stack) {
// ROWS: _t0 = x[i];
// ROWS-NEXT: out[i] = q[i] * _t0;
// ROWS-NEXT: _stack.push(_t0);
// ROWS: _t2 = x[i];
// ROWS-NEXT: out[j] = out[j] + l[_t1] * _t2;
// ROWS-NEXT: _stack.push_all(_t1, _t2);
// ROWS: void _grad_qtimes_rev_[[V]](int n, const double *q, const double *l, double *d_q, double *d_l, double *d_x, double *d_out, ::grad::detail::stack &_stack) {
// ROWS: d_x[i] += l[_t1] * _r1;
// ROWS: d_x[i] += q[i] * _r{{[0-9]+}};

// q is written again after the call: the recording halves.
[[grad]] double changed(const double *x, const double *l, double y) {
  double q[3], xs[3] = {x[3] * y, x[4], x[5]}, o[3];
  expall(3, x, q);
  qtimes(3, q, l, xs, o);
  q[1] = y * o[2];
  qtimes(3, q, l, xs, o);
  return o[0] * q[1] + o[1] * o[2];
}
// The first call keeps the recording halves, the second (q unchanged after
// it) reads q and l again.
// CHANGED: ::_grad_qtimes_rev_{{[0-9]+}}(3, q, l, _d_q, d_l, _d_xs, _d_o, _stack);
// CHANGED: _d_q[1] = 0.;
// CHANGED: ::_grad_qtimes_rev(3, _d_q, d_l, _d_xs, _d_o, _stack);

// The helper writes the memory it also reads through x (x and out the same
// vector): x is recorded, q and l are read again.
[[grad]] double inplace(const double *x, const double *l, double y) {
  std::vector<double> v{x[0] * y, x[1], x[2]};
  std::vector<double> q{x[3], x[4], x[5]};
  qtimes(3, q.data(), l, v.data(), v.data());
  return v[0] * v[1] + v[2] * q[0];
}
// INPLACE: void _grad_qtimes_fwd_[[V:[0-9]+]](int n, const double *q, const double *l, const double *x, double *out, ::grad::detail::stack &_stack) {
// INPLACE: _t0 = x[i];
// INPLACE-NEXT: out[i] = q[i] * _t0;
// INPLACE: ::_grad_qtimes_fwd_[[V]](3, q.data(), l, v.data(), v.data(), _stack);
// INPLACE: ::_grad_qtimes_rev_[[V]](3, q.data(), l, _d_q.data(), d_l, _d_v.data(), _d_v.data(), _stack);

int main() {
  const double x0[6] = {0.3, 0.7, -0.4, 1.1, 0.2, -0.6};
  const double l0[3] = {0.5, -0.25, 0.8};
  const double y = 0.9;
#define CHECK(F)                                                               \
  {                                                                            \
    double dx[6] = {0}, dl[3] = {0}, dy = 0;                                   \
    F##_pullback(x0, l0, y, 1.0, dx, dl, &dy);                                 \
    expect(#F " dy", dy, fd([&](double yy) { return F(x0, l0, yy); }, 0, y));  \
    for (int i = 0; i < 6; ++i) {                                              \
      auto h = [&](double v) {                                                 \
        double xx[6];                                                          \
        for (int k = 0; k < 6; ++k)                                            \
          xx[k] = x0[k];                                                       \
        xx[i] = v;                                                             \
        return F(xx, l0, y);                                                   \
      };                                                                       \
      expect(#F " dx", dx[i], fd(h, 0, x0[i]));                                \
    }                                                                          \
    for (int i = 0; i < 3; ++i) {                                              \
      auto h = [&](double v) {                                                 \
        double ll[3] = {l0[0], l0[1], l0[2]};                                  \
        ll[i] = v;                                                             \
        return F(x0, ll, y);                                                   \
      };                                                                       \
      expect(#F " dl", dl[i], fd(h, 0, l0[i]));                                \
    }                                                                          \
  }
  CHECK(rows) CHECK(changed) CHECK(inplace)
  return failures();
}
// CHECK-COUNT-10: ok rows
// CHECK-COUNT-10: ok changed
// CHECK-COUNT-10: ok inplace
