// -fplugin-arg-grad-dump prints every generated function as C++ to stderr
// (stdout stays clean), also when compiling to an object file.
// RUN: %gradxx -fsyntax-only -fplugin-arg-grad-dump %s 2>&1 >/dev/null | FileCheck %s
// RUN: %gradxx -c -o %t.o -fplugin-arg-grad-dump %s 2>&1 >/dev/null | FileCheck %s
// RUN: %gradxx -c -o %t.o -fplugin-arg-grad-dump %s 2>/dev/null | count 0

// CHECK-LABEL: void f_pullback(double x, double y, double d_ret, double *d_x, double *d_y) {
// CHECK: *d_x += _d_x;
// CHECK-NEXT: *d_y += _d_y;
// CHECK-NEXT: }
[[grad]] double f(double x, double y) { return x * y + x; }
