// The refusals quoted in docs/supported.md, section "Memory": pointers,
// out-parameters, heap memory, owning pointers, containers of pointers,
// std::vector in HVPs and vector modes, each with the text the plugin
// prints.
// RUN: not %gradxx -fsyntax-only -ferror-limit=0 %s 2>&1 | %FileCheck-strict %s
#include <grad/grad.h>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

// Pointers to the rows of a local 2-D array, HVP and vector pullback.
namespace rh {
[[grad::hessian]] double f(double x, double y) {
  double m[2][2] = {{x, y}, {y, x}};
  // CHECK-DAG: memory.cpp:[[@LINE+2]]:3: error: grad: cannot build the Hessian-vector product of 'f': cast of a pointer to differentiated memory (in its pullback) has no forward-mode derivative
  // CHECK-DAG: memory.cpp:[[@LINE+1]]:3: error: grad: cannot build the Hessian-vector product of 'f': cast of a pointer to differentiated memory (in its pullback) has no forward-mode derivative
  const double *r0 = m[0], *r1 = m[1];
  // CHECK-DAG: memory.cpp:[[@LINE+4]]:3: error: grad: cannot build the Hessian-vector product of 'f': cast of a pointer to differentiated memory (in its pullback) has no forward-mode derivative
  // CHECK-DAG: memory.cpp:[[@LINE+3]]:3: error: grad: cannot build the Hessian-vector product of 'f': cast of a pointer to differentiated memory (in its pullback) has no forward-mode derivative
  // CHECK-DAG: memory.cpp:[[@LINE+2]]:3: error: grad: cannot build the Hessian-vector product of 'f': cast of a pointer to differentiated memory (in its pullback) has no forward-mode derivative
  // CHECK-DAG: memory.cpp:[[@LINE+1]]:3: error: grad: cannot build the Hessian-vector product of 'f': cast of a pointer to differentiated memory (in its pullback) has no forward-mode derivative
  return r0[0] * r1[1] + r0[1] * r1[0];
}
} // namespace rh
namespace rp {
[[grad("lanes=2")]] double f(double x, double y) {
  double m[2][2] = {{x, y}, {y, x}};
  const double *r0 = m[0], *r1 = m[1];
  // CHECK-DAG: memory.cpp:[[@LINE+4]]:3: error: grad: cannot build the vector pullback of 'f': write of a differentiated value to 'return', which has no tangent (memory outside the function's differentiated parameters)
  // CHECK-DAG: memory.cpp:[[@LINE+3]]:3: error: grad: cannot build the vector pullback of 'f': write of a differentiated value to 'return', which has no tangent (memory outside the function's differentiated parameters)
  // CHECK-DAG: memory.cpp:[[@LINE+2]]:3: error: grad: cannot build the vector pullback of 'f': write of a differentiated value to 'return', which has no tangent (memory outside the function's differentiated parameters)
  // CHECK-DAG: memory.cpp:[[@LINE+1]]:3: error: grad: cannot build the vector pullback of 'f': write of a differentiated value to 'return', which has no tangent (memory outside the function's differentiated parameters)
  return r0[0] * r1[1] + r0[1] * r1[0];
}
} // namespace rp

// A local pointer into several storages (also what a re-seated pointer
// parameter is to the builders) in an HVP.
namespace ph {
[[grad::hessian]] double f(const double *a, const double *b, int n) {
  const double *a2 = a;
  double s = 0;
  for (int i = 0; i < n; ++i)
    // CHECK-DAG: memory.cpp:[[@LINE+2]]:5: error: grad: cannot build the Hessian-vector product of 'f': read of the adjoint 'd_a' (only accumulated into here) (in its pullback) has no forward-mode derivative
    // CHECK-DAG: memory.cpp:[[@LINE+1]]:5: error: grad: cannot build the Hessian-vector product of 'f': read of the adjoint 'd_a' (only accumulated into here) (in its pullback) has no forward-mode derivative
    s += a2[i] * a2[i];
  a2 = b;
  // CHECK-DAG: memory.cpp:[[@LINE+1]]:3: error: grad: cannot build the Hessian-vector product of 'f': read of the adjoint 'd_a' (only accumulated into here) (in its pullback) has no forward-mode derivative
  return s + a2[0];
}
} // namespace ph

// An out-parameter left out of the wrt list, forward mode.
namespace ow {
// CHECK-DAG: memory.cpp:[[@LINE+1]]:56: error: grad: cannot differentiate write of a differentiated value to 'out[0]', which has no tangent (memory outside the function's differentiated parameters) in 'f' in forward mode
[[grad::forward("x")]] void f(double x, double *out) { out[0] = x * x; }
} // namespace ow

// The same memory through two arguments of a writing helper.
void h(double &t, const double *q) { t = t * q[0]; }
namespace al {
[[grad]] double f(double x) {
  double t = x;
  // CHECK-DAG: memory.cpp:[[@LINE+1]]:5: error: grad: cannot differentiate call to 'h' passing 't' by reference and the same memory through its parameter 'q' (the derivative would take them for different memory: pass a copy) in 'f'
  h(t, &t);
  return t;
}
} // namespace al

// Heap arrays in an HVP.
namespace ha {
[[grad::hessian]] double f(const double *x, int n) {
  // CHECK-DAG: memory.cpp:[[@LINE+1]]:3: error: grad: cannot build the Hessian-vector product of 'f': call to 'shadow_free', which may write the differentiated memory 'double' and has no visible body or user pushforward (in its pullback) has no forward-mode derivative
  double *w = new double[n];
  for (int i = 0; i < n; ++i)
    w[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += w[i];
  delete[] w;
  return s;
}
} // namespace ha

// A member call on a single heap object, forward mode.
struct T2 {
  double a, b;
  double get() const { return a * b; }
};
namespace ho {
[[grad::forward]] double f(double x, double y) {
  T2 *t = new T2{x, y};
  t->a *= y;
  // CHECK-DAG: memory.cpp:[[@LINE+1]]:14: error: grad: cannot differentiate call to member function 'get' in 'f' in forward mode
  double r = t->get();
  delete t;
  return r;
}
} // namespace ho

// An owning pointer assigned again; realloc.
namespace oa {
[[grad]] double f(double x) {
  // CHECK-DAG: memory.cpp:[[@LINE+1]]:11: error: grad: cannot differentiate pointer 'w' that owns memory and is assigned again in 'f'
  double *w = new double[2];
  w[0] = x;
  w[1] = x * x;
  double *keep = w;
  w = keep + 1;
  double r = w[0] * x;
  delete[] keep;
  return r;
}
} // namespace oa
namespace rl {
[[grad]] double f(double x) {
  double *w = (double *)std::malloc(2 * sizeof(double));
  // CHECK-DAG: memory.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate pointer 'w' whose target the plugin cannot track in 'f'
  w[0] = x;
  w = (double *)std::realloc(w, 4 * sizeof(double));
  // CHECK-DAG: memory.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate pointer 'w' whose target the plugin cannot track in 'f'
  w[3] = w[0] * x;
  // CHECK-DAG: memory.cpp:[[@LINE+1]]:14: error: grad: cannot differentiate pointer 'w' whose target the plugin cannot track in 'f'
  double r = w[3];
  std::free(w);
  return r;
}
} // namespace rl

// std::unique_ptr<T[]>, reverse and forward.
namespace ur {
[[grad]] double f(double x) {
  // CHECK-DAG: memory.cpp:[[@LINE+1]]:29: error: grad: cannot differentiate local variable of type 'std::unique_ptr<double[]>' (its destructor '~unique_ptr' writes memory, and the derivative's copies of it would run it too) in 'f'
  std::unique_ptr<double[]> w(new double[2]);
  w[0] = x * x;
  return w[0];
}
} // namespace ur
namespace uf {
[[grad::forward]] double f(double x) {
  // CHECK-DAG: memory.cpp:[[@LINE+1]]:31: error: grad: cannot differentiate construction from 'new double[2]' in 'f' in forward mode
  std::unique_ptr<double[]> w(new double[2]);
  w[0] = x * x;
  return w[0];
}
} // namespace uf

// T** parameters in an HVP.
namespace pp {
[[grad::hessian]] double f(const double *const *m, int r, int c) {
  double s = 0;
  for (int i = 0; i < r; ++i) {
    // CHECK-DAG: memory.cpp:[[@LINE+1]]:5: error: grad: cannot build the Hessian-vector product of 'f': read of the adjoint 'd_m' (only accumulated into here) (in its pullback) has no forward-mode derivative
    const double *row = m[i];
    for (int j = 0; j < c; ++j)
      s += row[j] * row[j];
  }
  return s;
}
} // namespace pp

// A std::vector of pointers, forward mode.
namespace vp {
[[grad::forward]] double f(double *a, double x) {
  std::vector<double *> rows;
  // CHECK-DAG: memory.cpp:[[@LINE+1]]:18: error: grad: cannot differentiate call to 'push_back' with the argument 'a' in 'f' in forward mode
  rows.push_back(a);
  // CHECK-DAG: memory.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate write of a differentiated value to 'rows[0][0]', which has no tangent (memory outside the function's differentiated parameters) in 'f' in forward mode
  rows[0][0] = x * x;
  return x;
}
} // namespace vp

// An object holding a pointer into differentiated memory, forward mode.
struct Buf {
  double *p;
  int n;
};
namespace bf {
[[grad::forward]] void f(double x, double *out) {
  // CHECK-DAG: memory.cpp:[[@LINE+1]]:9: error: grad: cannot differentiate pointer 'out' into differentiated memory in the brace initialisation of 'Buf' (pass the pointer itself) in 'f' in forward mode
  Buf b{out, 1};
  b.p[0] = x * x;
}
} // namespace bf

// memset to another value.
namespace ms {
[[grad]] double f(double x) {
  double a[2] = {x, x};
  // CHECK-DAG: memory.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate call to 'memset' in 'f': it has no visible body, no derivative rule and no user pullback
  std::memset(a, 1, sizeof a);
  return a[0] * x;
}
} // namespace ms

// std::vector parameters, read, in an HVP: accepted (values:
// test/forward/hvp-vector-params.cpp; by value and resized:
// memory-byvalue.cpp).
namespace vr {
[[grad::hessian]] double f(const std::vector<double> &v) {
  double s = 0;
  for (int i = 0; i < (int)v.size(); ++i)
    s += v[i] * v[i];
  return s;
}
} // namespace vr

// std::vector mutation and swapping in a vector pullback. The message
// names the call the pullback makes on the adjoint, not the user's call:
// 'erase' at the user's insert, 'insert' at the user's erase.
namespace vm {
[[grad("lanes=2")]] double f(double x, double y) {
  std::vector<double> v{x, y};
  v.push_back(x);
  v.resize(3, y);
  // CHECK-DAG: memory.cpp:[[@LINE+1]]:5: error: grad: cannot build the vector pullback of 'f': call to 'erase' on the adjoint of 'v' (the vector pullback of a container supports element access, size and resizing)
  v.insert(v.begin(), v[0] * y);
  // CHECK-DAG: memory.cpp:[[@LINE+1]]:5: error: grad: cannot build the vector pullback of 'f': call to 'insert' on the adjoint of 'v' (the vector pullback of a container supports element access, size and resizing)
  v.erase(v.begin() + 1);
  return v[0] * v[1];
}
} // namespace vm
namespace vs {
[[grad("lanes=2")]] double f(double x, double y) {
  std::vector<double> u{x, y}, next{y * x, x};
  // CHECK-DAG: memory.cpp:[[@LINE+1]]:3: error: grad: cannot build the vector pullback of 'f': call to 'swap' on the adjoint of 'u' (the vector pullback of a container supports element access, size and resizing)
  std::swap(u, next);
  return u[0] * next[1];
}
} // namespace vs

// Iterators over a local vector, forward mode: the same message as over a
// parameter (the page quotes `expression of type 'bool'`, `call of
// 'operator*'`).
namespace it {
[[grad::forward]] double f(double x, double y) {
  std::vector<double> v{x, y};
  double s = 0;
  // CHECK-DAG: memory.cpp:[[@LINE+1]]:18: error: grad: cannot differentiate iterator 'it' (index the container, use a range-based for loop, or walk a pointer such as 'v.data()') in 'f' in forward mode
  for (auto it = v.begin(); it != v.end(); ++it)
    s += *it * *it;
  return s;
}
} // namespace it

// Containers of containers in a vector pullback.
namespace nv {
[[grad("lanes=2")]] double f(double x, int n) {
  std::vector<std::vector<double>> a(n, std::vector<double>(2));
  for (int i = 0; i < n; ++i)
    a[i][0] = x * i;
  double s = 0;
  for (int i = 0; i < n; ++i)
    // CHECK-DAG: memory.cpp:[[@LINE+2]]:5: error: grad: cannot build the vector pullback of 'f': write of a differentiated value to 's', which has no tangent (memory outside the function's differentiated parameters)
    // CHECK-DAG: memory.cpp:[[@LINE+1]]:5: error: grad: cannot build the vector pullback of 'f': write of a differentiated value to 's', which has no tangent (memory outside the function's differentiated parameters)
    s += a[i][0] * a[i][0];
  return s;
}
} // namespace nv
