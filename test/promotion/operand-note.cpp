// A float mixed with a double variable or call result: no fix-it, a note
// names the double operand.
// RUN: %gradxx -fsyntax-only -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s --implicit-check-not=fix-it
#include <cmath>

double Gain = 2.0;

[[grad]] float var(float x) {
  // CHECK: operand-note.cpp:[[@LINE+2]]:12: warning: grad: implicit promotion from 'float' to 'double' in 'var'
  // CHECK: operand-note.cpp:[[@LINE+1]]:14: note: this operand has type 'double'
  return x * Gain;
}

[[grad]] float call(float x, double d) {
  // CHECK: operand-note.cpp:[[@LINE+2]]:22: warning: grad: implicit promotion from 'float' to 'double' in 'call'
  // CHECK: operand-note.cpp:[[@LINE+1]]:10: note: this operand has type 'double'
  return std::exp(d) + x;
}
