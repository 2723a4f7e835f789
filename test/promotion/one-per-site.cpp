// One warning per promotion: in (0.01 * x) * x the outer product is double
// only because of the inner one, whose fix-it (0.01f) makes both float.
// RUN: %gradxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=note:
// RUN: %gradxx -fsyntax-only -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s --check-prefix=FIX

// CHECK: one-per-site.cpp:[[@LINE+2]]:41: warning: grad: implicit promotion from 'float' to 'double' in 'f'
// FIX: fix-it:"{{.*}}one-per-site.cpp":{[[@LINE+1]]:40-[[@LINE+1]]:40}:"f"
[[grad]] float f(float x) { return 0.01 * x * x; }

// Two sites, two warnings.
// CHECK: one-per-site.cpp:[[@LINE+2]]:41: warning: grad: implicit promotion from 'float' to 'double' in 'g'
// CHECK: one-per-site.cpp:[[@LINE+1]]:49: warning: grad: implicit promotion from 'float' to 'double' in 'g'
[[grad]] float g(float x) { return 0.01 * x + x * 0.5; }
// CHECK: 3 warnings generated
