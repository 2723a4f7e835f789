// Pointer parameters made to point into other memory (issue 49, construct
// 5): `b = a; a = 1 + a; ++b;` gave half the gradient with no diagnostic,
// then was refused. The builders now see such a parameter as a local
// pointer initialised from it at entry (driver/EntryCopies.h), which
// tracks at run time which storage it points into: to another parameter,
// to a local array or scalar, in a loop, through an output pointer, in a
// helper differentiated in two halves, and in a vector pullback (an HVP
// refuses it as it refuses a local pointer into several storages:
// test/supported/memory.cpp). Pointers assigned each other (a swap by assignments,
// ping-pong buffers in a time loop) settle to the storages of all of them.
// A pointer passed by reference to a call that may re-seat it (std::swap,
// a helper assigning it) is an error at the call; one that only moves it
// within its memory (`*p++` in a helper taking `const double *&`,
// std::advance) is followed.
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "vecgrad.h"
#include <iterator>
#include <utility>

#ifdef ERRORS
// ERR: reseated-parameters.cpp:[[@LINE+2]]:3: error: grad: cannot differentiate pointer 'a' passed by reference to 'swap', which may make it point into other memory (swap by assignments: 'auto *t = a; a = b; b = t;') in 'swapped'
[[grad]] double swapped(double *a, double *b) {
  std::swap(a, b);
  return a[0] * 2 + b[0] * 3 * b[0];
}
static void pick(double *&p, double *q) { p = q; }
// ADVICE: (assign it in this function instead)
// ERR: reseated-parameters.cpp:[[@LINE+3]]:3: error: grad: cannot differentiate pointer 'p' passed by reference to 'pick', which may make it point into other memory (assign it in this function instead) in 'picked'
[[grad]] double picked(double *a, double *b) {
  double *p = a;
  pick(p, b);
  return p[0] * 2 + b[0] * 3 * b[0];
}
// A lambda re-seating a pointer it captures by reference (reverse gave 0
// for 2 through b, no diagnostic) in both modes.
// ERR: reseated-parameters.cpp:[[@LINE+4]]:3: error: grad: cannot differentiate pointer 'p' captured by reference by 'g', which may make it point into other memory (assign it in this function instead) in 'captured'
[[grad]] double captured(const double *a, const double *b) {
  const double *p = a;
  auto g = [&] { p = b; };
  g();
  return p[0] * 2 + a[0];
}
// ERR: reseated-parameters.cpp:[[@LINE+4]]:3: error: grad: cannot differentiate call of a lambda writing 'p', which it captures by reference (assign it in this function instead) in 'fcaptured' in forward mode
[[grad::forward]] double fcaptured(const double *a, const double *b) {
  const double *p = a;
  auto g = [&] { p = b; };
  g();
  return p[0] * 2 + a[0];
}
// A member function keeps the refusal (its parameters are not rewritten).
struct M {
  double k = 2;
  // ERR: reseated-parameters.cpp:[[@LINE+2]]:5: error: grad: cannot differentiate pointer parameter 'b' made to point into other memory (declare a local pointer for it: 'auto *b2 = b;', then use and move b2) in 'm'
  [[grad]] double m(double *a, double *b) const {
    b = a;
    return k * b[0];
  }
};
#else


// The issue's form.
[[grad]] double issue(double *a, double *b) {
  double s = 0;
  b = a;
  a = 1 + a;
  ++b;
  s += a[0] + b[0];
  s += a[1] * b[1];
  return s;
}

[[grad]] double f(double *a, double *b) {
  b = a;
  ++b;
  return a[0] * 2 + b[0] * 3;
}

[[grad]] double tail(const double *x, const double *w, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * w[i];
  w = x + 1;
  return s + w[0] * w[1];
}

// Re-seated in a loop, to another parameter and back.
[[grad]] double loop(const double *p, const double *q, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    s += p[0] * p[0] + std::sin(*p);
    if (i % 2)
      p = q + i;
    else
      ++p;
  }
  return s;
}

// Re-seated in a loop to an alias of its own entry value and to another
// parameter (the alias and the parameter point into each other's
// storages: a cycle the alias analysis settles).
[[grad]] double loop0(const double *p, const double *q, int n) {
  double s = 0;
  const double *p0 = p;
  for (int i = 0; i < n; ++i) {
    if (i % 2)
      p = q + i;
    else
      p = p0 + i;
    s += p[0] * p[0] + std::sin(*p);
  }
  return s;
}

// To a local.
[[grad]] double local(const double *p, double y) {
  double t[2] = {y * y, 3 * y};
  double s = p[0] * p[1];
  p = t;
  s += p[0] * p[1];
  p = &y;
  return s + *p * s;
}

// Writes through a re-seated output pointer.
[[grad]] void out2(const double *x, double *o, double *o2) {
  o[0] = x[0] * x[1];
  o = o2;
  o[0] = std::exp(x[0]);
  o[1] = x[1] * o2[0];
}

// Called by another differentiated function (halves).
void step(double *st, double *tmp, double h) {
  tmp[0] = st[0] + h * st[1];
  tmp[1] = st[1] - h * std::sin(st[0]);
  tmp = st;
  tmp[0] = 2 * tmp[0];
}
[[grad]] double caller(double *st, double h) {
  double tmp[2];
  step(st, tmp, h);
  return tmp[0] * tmp[1] + st[0];
}


// The rewrites: the swap by assignments, the pointer assigned here, and a
// lambda moving its captured pointer within its memory (accepted).
// ADVICE: (swap by assignments: 'auto *t = a; a = b; b = t;')
[[grad]] double swapped(double *a, double *b) {
  auto *t = a;
  a = b;
  b = t;
  return a[0] * 2 + b[0] * 3 * b[0];
}
[[grad]] double picked(double *a, double *b) {
  double *p = a;
  p = b;
  return p[0] * 2 + b[0] * 3 * b[0];
}
[[grad]] double captured(const double *a, const double *b) {
  const double *p = a;
  auto g = [&] { ++p; };
  g();
  p = b;
  return p[0] * 2 + a[0];
}
// Moved within its memory by a helper and by std::advance.
static double take(const double *&p) { return *p++; }
[[grad]] double walk(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += take(x) * (i + 1) * s + 1;
  return s;
}
[[grad]] double adv(const double *x) {
  const double *p = x;
  std::advance(p, 2);
  double s = p[0] * x[0];
  std::advance(x, 1);
  return s * x[0];
}
// Ping-pong buffers: two arrays, the pointers swapped after each step.
[[grad]] double heat(const double *u0, int n, int steps, double k) {
  std::vector<double> A(u0, u0 + n), Bv(n);
  double *cur = A.data(), *nxt = Bv.data();
  for (int s = 0; s < steps; ++s) {
    for (int i = 1; i < n - 1; ++i)
      nxt[i] = cur[i] + k * (cur[i - 1] - 2 * cur[i] + cur[i + 1]) +
               0.1 * std::sin(cur[i]);
    nxt[0] = cur[0];
    nxt[n - 1] = cur[n - 1];
    double *t = cur;
    cur = nxt;
    nxt = t;
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += cur[i] * cur[i];
  return s;
}
// The same over the caller's arrays (the work array a parameter).
[[grad]] void heat2(double *u, double *work, int n, int steps, double k) {
  double *cur = u, *nxt = work;
  for (int s = 0; s < steps; ++s) {
    for (int i = 1; i < n - 1; ++i)
      nxt[i] = cur[i] + k * (cur[i - 1] - 2 * cur[i] + cur[i + 1]) * cur[i];
    nxt[0] = cur[0];
    nxt[n - 1] = cur[n - 1];
    double *t = cur;
    cur = nxt;
    nxt = t;
  }
  if (cur != u)
    for (int i = 0; i < n; ++i)
      u[i] = cur[i];
}
// The vector pullback of a re-seating function.
[[grad("lanes=2")]] double lanes2(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * a[i];
  a = b + 1;
  return s + a[0] * b[0];
}

int main() {
  auto X = vecgrad::sample(6, 3);
  auto split = [](const std::vector<double> &Y, auto fn) {
    std::vector<double> u(Y.begin(), Y.begin() + 3), v(Y.begin() + 3, Y.end());
    return fn(u.data(), v.data());
  };
  std::vector<double> a(X.begin(), X.begin() + 3), b(X.begin() + 3, X.end()), da(3), db(3);
  issue_pullback(a.data(), b.data(), 1.0, da.data(), db.data());
  vecgrad::check("issue", [&](const std::vector<double> &Y) { return split(Y, [](double *u, double *v) { return issue(u, v); }); }, X, {da[0], da[1], da[2], db[0], db[1], db[2]});
  // CHECK: ok issue.d5
  da.assign(3, 0); db.assign(3, 0);
  f_pullback(a.data(), b.data(), 1.0, da.data(), db.data());
  vecgrad::check("f", [&](const std::vector<double> &Y) { return split(Y, [](double *u, double *v) { return f(u, v); }); }, X, {da[0], da[1], da[2], db[0], db[1], db[2]});
  // CHECK: ok f.d5
  da.assign(3, 0); db.assign(3, 0);
  tail_pullback(a.data(), b.data(), 3, 1.0, da.data(), db.data());
  vecgrad::check("tail", [&](const std::vector<double> &Y) { return split(Y, [](double *u, double *v) { return tail(u, v, 3); }); }, X, {da[0], da[1], da[2], db[0], db[1], db[2]});
  // CHECK: ok tail.d5
  da.assign(3, 0); db.assign(3, 0);
  loop_pullback(a.data(), b.data(), 3, 1.0, da.data(), db.data());
  vecgrad::check("loop", [&](const std::vector<double> &Y) { return split(Y, [](double *u, double *v) { return loop(u, v, 3); }); }, X, {da[0], da[1], da[2], db[0], db[1], db[2]});
  // CHECK: ok loop.d5
  da.assign(3, 0); db.assign(3, 0);
  loop0_pullback(a.data(), b.data(), 3, 1.0, da.data(), db.data());
  vecgrad::check("loop0", [&](const std::vector<double> &Y) { return split(Y, [](double *u, double *v) { return loop0(u, v, 3); }); }, X, {da[0], da[1], da[2], db[0], db[1], db[2]});
  // CHECK: ok loop0.d5
  {
    std::vector<double> dp(2); double dy = 0;
    local_pullback(a.data(), 0.7, 1.0, dp.data(), &dy);
    vecgrad::check("local", [&](const std::vector<double> &Y) { return local(Y.data(), Y[2]); }, {a[0], a[1], 0.7}, {dp[0], dp[1], dy});
  }
  {
    // out2: o[0] and o2[0..1] -> weighted sum
    std::vector<double> x(a.begin(), a.begin() + 2), o(1), o2(2), dx(2), dol = {0.3}, do2 = {0.7, -1.1};
    out2_pullback(x.data(), o.data(), o2.data(), dx.data(), dol.data(), do2.data());
    // CHECK: ok local.d2
    vecgrad::check("out2", [&](const std::vector<double> &Y) { std::vector<double> oo(1), oo2(2); out2(Y.data(), oo.data(), oo2.data()); return 0.3 * oo[0] + 0.7 * oo2[0] - 1.1 * oo2[1]; }, x, dx);
  }
  {
    std::vector<double> st(a.begin(), a.begin() + 2), dst(2); double dh = 0;
    caller_pullback(st.data(), 0.1, 1.0, dst.data(), &dh);
    // CHECK: ok out2.d1
    vecgrad::check("caller", [&](const std::vector<double> &Y) { std::vector<double> s(Y.begin(), Y.begin() + 2); return caller(s.data(), Y[2]); }, {a[0], a[1], 0.1}, {dst[0], dst[1], dh});
  }
  // CHECK: ok caller.d2
  {
    std::vector<double> a(X.begin(), X.begin() + 1), b(X.begin() + 1, X.begin() + 2);
    double ga = 0, gb = 0;
    swapped_pullback(a.data(), b.data(), 1.0, &ga, &gb);
    vecgrad::check("swapped", [&](const std::vector<double> &Y) { double u = Y[0], v = Y[1]; return swapped(&u, &v); }, {a[0], b[0]}, {ga, gb});
  }
  // CHECK: ok swapped.d1
  {
    std::vector<double> a(X.begin(), X.begin() + 2), b(X.begin() + 2, X.begin() + 4), da(2), db(2);
    picked_pullback(a.data(), b.data(), 1.0, da.data(), db.data());
    std::vector<double> ab(X.begin(), X.begin() + 4);
    vecgrad::check("picked", [](const std::vector<double> &Y) {
      std::vector<double> u(Y.begin(), Y.begin() + 2), v(Y.begin() + 2, Y.end());
      return picked(u.data(), v.data()); }, ab, {da[0], da[1], db[0], db[1]});
    da.assign(2, 0);
    db.assign(2, 0);
    captured_pullback(a.data(), b.data(), 1.0, da.data(), db.data());
    vecgrad::check("captured", [](const std::vector<double> &Y) {
      return captured(Y.data(), Y.data() + 2); }, ab, {da[0], da[1], db[0], db[1]});
  }
  // CHECK: ok picked.d3
  // CHECK: ok captured.d3
  {
    std::vector<double> x(X.begin(), X.begin() + 3), dx(3);
    walk_pullback(x.data(), 3, 1.0, dx.data());
    vecgrad::check("walk", [&](const std::vector<double> &Y) { return walk(Y.data(), 3); }, x, dx);
    dx.assign(3, 0);
    adv_pullback(x.data(), 1.0, dx.data());
    vecgrad::check("adv", [&](const std::vector<double> &Y) { return adv(Y.data()); }, x, dx);
  }
  // CHECK: ok walk.d2
  // CHECK: ok adv.d2
  {
    std::vector<double> d(6), XK(X);
    double dk = 0;
    heat_pullback(X.data(), 6, 5, 0.2, 1.0, d.data(), &dk);
    XK.push_back(0.2);
    d.push_back(dk);
    vecgrad::check("heat", [](const std::vector<double> &Y) { return heat(Y.data(), 6, 5, Y[6]); }, XK, d);
    for (int steps : {4, 5}) {
      std::vector<double> u(X), w(6, 0.0), du(6), dw(6, 0.0);
      for (int i = 0; i < 6; ++i)
        du[i] = 0.3 + 0.1 * i;
      std::vector<double> seed(du);
      double dk2 = 0;
      heat2_pullback(u.data(), w.data(), 6, steps, 0.2, du.data(), dw.data(), &dk2);
      du.push_back(dk2);
      vecgrad::check("heat2." + std::to_string(steps), [&](const std::vector<double> &Y) {
        std::vector<double> uu(Y.begin(), Y.begin() + 6), ww(6, 0.0);
        heat2(uu.data(), ww.data(), 6, steps, Y[6]);
        double s = 0;
        for (int i = 0; i < 6; ++i)
          s += seed[i] * uu[i];
        return s;
      }, XK, du);
    }
  }
  // CHECK: ok heat.d6
  // CHECK: ok heat2.4.d6
  // CHECK: ok heat2.5.d6
  {
    // Both lanes at once: seeds 1 and -2.
    std::vector<double> a(X.begin(), X.begin() + 3), b(X.begin() + 3, X.end());
    grad::lanes<double, 2> da[3], db[3];
    lanes2_pullback(a.data(), b.data(), 3, grad::lanes<double, 2>{{1.0, -2.0}}, da, db);
    for (int l = 0; l < 2; ++l) {
      double w = l ? -2.0 : 1.0;
      std::vector<double> g;
      for (int i = 0; i < 3; ++i)
        g.push_back(da[i][l] / w);
      for (int i = 0; i < 3; ++i)
        g.push_back(db[i][l] / w);
      vecgrad::check("lanes2." + std::to_string(l), [&](const std::vector<double> &Y) {
        return lanes2(Y.data(), Y.data() + 3, 3); }, X, g);
    }
  }
  // CHECK: ok lanes2.0.d5
  // CHECK: ok lanes2.1.d5
  return gradcheck::failures();
}
#endif
