// fdcheck.h - harness of the C-style programs in test/programs.
//
// Every test packs the inputs of one [[grad]] function into a labelled flat
// vector (fdc::Vars), writes a scalar loss L over them (fdc::Loss, reading the
// values back with fdc::Reader in the same order), and compares the adjoints
// returned by the pullback (packed in the same order) against central finite
// differences of L (Richardson-extrapolated, O(h^4)).
//
// For in/out buffers the loss is L = sum_i seed_i * out_i (+ seed_ret * ret),
// evaluated on fresh copies of the entry values, so d/d(entry value) is what
// the pullback must leave in the in/out adjoint.
//
// Output: `ok F.d_x[i]` or `FAIL F.d_x[i] got G want W` (%.17g), tolerance
// 1e-6 relative + 1e-9 absolute. Each FD value is also recomputed with a
// step 8x smaller; a disagreement (a kink or branch switch next to the test
// point) is reported as `FAIL ... fd-unstable`, so a bad test point shows up
// when the harness is validated with -DPRIMAL_ONLY.
//
// With -DPRIMAL_ONLY (no plugin) the got-values are absent: check() only
// evaluates the primal and the FD values and prints `fd F.d_x[i] = W`.
#ifndef GRAD_TEST_FDCHECK_H
#define GRAD_TEST_FDCHECK_H

#ifndef PRIMAL_ONLY
#include <grad/grad.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace fdc {

inline int &failures() {
  static int n = 0;
  return n;
}

// A labelled flat list of doubles: the test point, or the adjoints.
struct Vars {
  std::vector<double> v;
  std::vector<std::string> names;
  Vars &add(const std::string &nm, double x) {
    v.push_back(x);
    names.push_back(nm);
    return *this;
  }
  Vars &add(const std::string &nm, const double *x, int n) {
    for (int i = 0; i < n; ++i)
      add(nm + "[" + std::to_string(i) + "]", x[i]);
    return *this;
  }
  Vars &add(const std::string &nm, const std::vector<double> &x) {
    return add(nm, x.data(), (int)x.size());
  }
  // Unlabelled forms, for packing the adjoints.
  Vars &add(double x) { return add(std::string(), x); }
  Vars &add(const double *x, int n) { return add(std::string(), x, n); }
  Vars &add(const std::vector<double> &x) { return add(std::string(), x); }
};

// Reads a perturbed test point back in packing order.
struct Reader {
  const std::vector<double> &q;
  size_t i = 0;
  explicit Reader(const std::vector<double> &q) : q(q) {}
  double get() { return i < q.size() ? q[i++] : (++i, NAN); }
  void get(double *d, int n) {
    for (int k = 0; k < n; ++k)
      d[k] = get();
  }
  std::vector<double> vec(int n) {
    std::vector<double> r(n);
    get(r.data(), n);
    return r;
  }
};

using Loss = std::function<double(Reader &)>;

inline double dot(const double *s, const double *y, int n) {
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += s[i] * y[i];
  return r;
}
inline double dot(const std::vector<double> &s, const std::vector<double> &y) {
  return dot(s.data(), y.data(), (int)std::min(s.size(), y.size()));
}

inline double eval(const std::string &fn, const Loss &L,
                   const std::vector<double> &q) {
  Reader r(q);
  double y = L(r);
  if (r.i != q.size()) {
    std::printf("FAIL %s harness: loss read %zu of %zu values\n", fn.c_str(),
                r.i, q.size());
    ++failures();
  }
  return y;
}

inline double fd1(const std::string &fn, const Loss &L,
                  const std::vector<double> &x, size_t i, double scale) {
  double h = scale * 1e-3 * std::max(1.0, std::fabs(x[i]));
  auto D = [&](double h) {
    auto y = x, z = x;
    y[i] += h;
    z[i] -= h;
    return (eval(fn, L, y) - eval(fn, L, z)) / (2 * h);
  };
  return (4 * D(h / 2) - D(h)) / 3;
}

inline bool close(double got, double want) {
  return std::isfinite(got) &&
         std::fabs(got - want) <= 1e-9 + 1e-6 * std::fabs(want);
}

inline bool expect(const std::string &nm, double got, double want) {
  bool ok = close(got, want);
  if (ok)
    std::printf("ok %s\n", nm.c_str());
  else {
    std::printf("FAIL %s got %.17g want %.17g\n", nm.c_str(), got, want);
    ++failures();
  }
  return ok;
}

// Compares every adjoint in `got` with FD of L at `at`.
inline void check(const std::string &fn, const Vars &at, const Loss &L,
                  const Vars &got) {
  double base = eval(fn, L, at.v);
  std::printf("primal %s L = %.17g\n", fn.c_str(), base);
  if (!std::isfinite(base)) {
    std::printf("FAIL %s harness: loss is not finite\n", fn.c_str());
    ++failures();
    return;
  }
#ifndef PRIMAL_ONLY
  if (got.v.size() != at.v.size()) {
    std::printf("FAIL %s harness: %zu adjoints packed, %zu inputs\n",
                fn.c_str(), got.v.size(), at.v.size());
    ++failures();
    return;
  }
#else
  (void)got;
#endif
  for (size_t i = 0; i < at.v.size(); ++i) {
    std::string nm = fn + ".d_" + at.names[i];
    double want = fd1(fn, L, at.v, i, 1.0);
    double want2 = fd1(fn, L, at.v, i, 0.125);
    if (!std::isfinite(want) || !close(want2, want)) {
      std::printf("FAIL %s fd-unstable %.17g vs %.17g\n", nm.c_str(), want,
                  want2);
      ++failures();
      continue;
    }
#ifdef PRIMAL_ONLY
    std::printf("fd %s = %.17g\n", nm.c_str(), want);
#else
    expect(nm, got.v[i], want);
#endif
  }
}

// The pullback replays the primal's writes on the caller's storage.
inline void same(const std::string &nm, const double *got, const double *want,
                 int n) {
  for (int i = 0; i < n; ++i)
    expect(nm + ".replay[" + std::to_string(i) + "]", got[i], want[i]);
}

inline int finish() {
  std::printf("summary: %d failure(s)\n", failures());
  return failures() != 0;
}

} // namespace fdc

#endif
