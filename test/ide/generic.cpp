// A function whose signature names a type that cannot be declared ahead of
// the file (a class nested in a class, an enum without a fixed underlying
// type, an unnamed struct, a constrained class template, a user alias
// template) is declared generically, as a template taking any arguments,
// with a comment saying why: calls of it are still no errors. A class with
// generated members but no GRAD_IDE_MEMBERS gets a note naming the line to
// add.
// RUN: rm -rf %t && mkdir %t
// RUN: %dump --declarations %s -o %t/decls.h %dflags 2> %t/notes.txt
// RUN: FileCheck %s --input-file=%t/decls.h
// RUN: FileCheck %s --check-prefix=NOTE --input-file=%t/notes.txt
// RUN: %cxx -fsyntax-only -include %t/decls.h %s 2>&1 | count 0

// CHECK: // 'Plain' has no GRAD_IDE_MEMBERS(Plain): an editor does not see these.
// CHECK-NEXT: #define GRAD_IDE_MEMBERS_Plain \
// CHECK-NEXT: public: void value_pullback(double x, double d_ret, double *d_x, Plain *d_this) const;
// CHECK: // generic ('Outer::In', a class member, cannot be declared before its definition):
// CHECK-NEXT: template <class... GradArgs> void nested_pullback(GradArgs &&...);
// CHECK-NEXT: // generic ('Color', an enum without a fixed underlying type, cannot be declared before its definition):
// CHECK-NEXT: template <class... GradArgs> void colored_pullback(GradArgs &&...);
// CHECK-NEXT: // generic (an unnamed type cannot be declared before its definition):
// CHECK-NEXT: template <class... GradArgs> void unnamed_pullback(GradArgs &&...);
// CHECK-NEXT: // generic ('Box', a template with constraints or a parameter of class or enum type, cannot be declared before its definition):
// CHECK-NEXT: template <class... GradArgs> void boxed_pullback(GradArgs &&...);
// CHECK-NEXT: // generic (the alias template 'Row' cannot be declared before its definition):
// CHECK-NEXT: template <class... GradArgs> void total_pullback(GradArgs &&...);
// CHECK-NEXT: void exact_pullback(double x, double d_ret, double *d_x);

// NOTE: {{.*}}generic.cpp:64:1: grad-dump: add GRAD_IDE_MEMBERS(Plain) at the end of the body of 'Plain' so that an editor sees its generated members
// NOTE-NOT: grad-dump

#include <concepts>
#include <vector>

struct Outer {
  struct In {
    double a;
  };
};
enum Color { Red, Green };
typedef struct {
  double u;
} Unnamed;
template <std::floating_point T> struct Box {
  T v;
};
template <class T> using Row = std::vector<T>;

[[grad]] double nested(Outer::In p) { return p.a * p.a; }
[[grad]] double colored(double x, Color c) { return c == Red ? x : 2 * x; }
[[grad]] double unnamed(Unnamed s) { return s.u * s.u; }
[[grad]] double boxed(const Box<double> &b) { return b.v * b.v; }
template <class T> [[grad]] T total(const Row<T> &r) {
  T s = 0;
  for (T e : r)
    s += e;
  return s;
}
[[grad]] double exact(double x) { return x * x; }

struct Plain {
  double w;
  [[grad]] double value(double x) const { return w * x; }
};

void calls() {
  double d = 0;
  Outer::In p{1}, dp{};
  nested_pullback(p, 1.0, &dp);
  colored_pullback(1.0, Red, 1.0, &d);
  Unnamed s{}, ds{};
  unnamed_pullback(s, 1.0, &ds);
  Box<double> b{}, db{};
  boxed_pullback(b, 1.0, &db);
  Row<double> r{1, 2}, dr{0, 0};
  total_pullback(r, 1.0, &dr);
  exact_pullback(1.0, 1.0, &d);
}
