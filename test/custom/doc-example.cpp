// The worked example of docs/custom-derivatives.md, extracted from the page
// itself (between the begin/end example markers), compiled and run: the
// custom j0 pullback must match central finite differences.
// RUN: sed -n "/<!-- begin example -->/,/<!-- end example -->/p" %srcroot/docs/custom-derivatives.md > %t.md
// RUN: grep -v -e "^<!--" -e "^[[:punct:]]\{3\}[a-z]*$" %t.md > %t.cpp
// RUN: %gradxx %t.cpp -o %t 2>&1 | count 0
// RUN: %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %t.cpp %dflags | FileCheck %s --check-prefix=DUMP

// CHECK: ok wave.dr
// CHECK: ok wave.dk
// CHECK-COUNT-4: ok j0

// DUMP-NOT: j0_pullback(double x, double d_ret, double *d_x) {
// DUMP-LABEL: void wave_pullback(double r, double k, double d_ret, double *d_r, double *d_k) {
// DUMP: j0_pullback(
