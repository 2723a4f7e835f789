// -fplugin-arg-grad-remarks states each generated pullback, at the primal,
// for [[grad]] functions and for callees differentiated on demand. Remarks
// stay remarks under -Werror.
// RUN: %gradxx -fsyntax-only -fplugin-arg-grad-remarks %s 2>&1 | %FileCheck-strict %s
// RUN: %gradxx -fsyntax-only -Werror -fplugin-arg-grad-remarks %s 2>&1 | %FileCheck-strict %s
// RUN: %gradxx -fsyntax-only %s 2>&1 | count 0

// CHECK-DAG: remarks.cpp:[[@LINE+1]]:8: remark: grad: generated 'sq_pullback' for 'sq'
double sq(double x) { return x * x; }

// CHECK-DAG: remarks.cpp:[[@LINE+1]]:17: remark: grad: generated 'f_pullback' for 'f'
[[grad]] double f(double x) { return sq(x) + x; }
