// A float mixed with a double literal: a warning at the expression with a
// fix-it that adds the f suffix; applying it removes the warning.
// RUN: %gradxx -fsyntax-only -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp
// RUN: %gradxx -fsyntax-only -Xclang -fixit %t.cpp 2>/dev/null || true
// RUN: %gradxx -fsyntax-only %t.cpp 2>&1 | count 0
// RUN: FileCheck %s --check-prefix=FIXED < %t.cpp

[[grad]] float leaky(float x) {
  // CHECK: literal-fixit.cpp:[[@LINE+2]]:27: warning: grad: implicit promotion from 'float' to 'double' in 'leaky'
  // CHECK: fix-it:"{{.*}}":{[[@LINE+1]]:26-[[@LINE+1]]:26}:"f"
  return x > 0 ? x : 0.01 * x;
  // FIXED: return x > 0 ? x : 0.01f * x;
}

[[grad]] float scaled(float x) {
  float y = x;
  // CHECK: literal-fixit.cpp:[[@LINE+2]]:5: warning: grad: implicit promotion from 'float' to 'double' in 'scaled'
  // CHECK: fix-it:"{{.*}}":{[[@LINE+1]]:11-[[@LINE+1]]:11}:"f"
  y *= 0.5;
  // FIXED: y *= 0.5f;
  return y;
}
// CHECK: 2 warnings generated
