// The derivative is evaluated in the argument's precision: a float primal's
// pullback calls the float overloads (std::pow(float), whose body calls
// powf; the runtime's pair_cos(float), which calls cosf), a long double one
// the long double overloads; no double arithmetic appears.
// RUN: %gradxx -O0 -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s --input-file=%t.ll
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include <cmath>
#include <math.h>

// DUMP-LABEL: void fsin_pullback(float x, float d_ret, float *d_x) {
// DUMP-NEXT: grad::detail::sin_cos_pair<float> [[P:_t[0-9]+]];
// DUMP-NEXT: float _d_x = 0.F;
// DUMP-NEXT: [[P]] = ::grad::detail::pair_cos(x);
// DUMP-NEXT: _d_x += d_ret * [[P]].__cos;
// CHECK-LABEL: define {{.*}}void @_Z13fsin_pullbackffPf(
// CHECK-NOT: double
// CHECK: call <2 x float> @_ZN4grad6detail8pair_cosEf(float
// CHECK-NOT: double
// CHECK: ret void
// CHECK-LABEL: define linkonce_odr {{.*}}<2 x float> @_ZN4grad6detail8pair_cosEf(float
// CHECK-NOT: double
// CHECK: call float @cosf(float
[[grad]] float fsin(float x) { return sinf(x); }

// DUMP-LABEL: void fpow2_pullback(float a, float b, float d_ret, float *d_a, float *d_b) {
// DUMP: ::std::log(a)
// DUMP: ::std::pow(a, b - 1.F)
// CHECK-LABEL: define {{.*}}void @_Z14fpow2_pullbackfffPfS_(
// CHECK-NOT: double
// CHECK: call noundef float @_ZSt3powff(float
// CHECK-NOT: double
// CHECK: call noundef float @_ZSt3logf(float
// CHECK-NOT: double
// CHECK: ret void
// CHECK-LABEL: define linkonce_odr {{.*}}float @_ZSt3powff(
// CHECK: call float @powf(float
// CHECK-LABEL: define linkonce_odr {{.*}}float @_ZSt3logf(
// CHECK: call float @logf(float
[[grad]] float fpow2(float a, float b) { return std::pow(a, b); }

// DUMP-LABEL: void lsin_pullback(long double x, long double d_ret, long double *d_x) {
// DUMP-NEXT: grad::detail::sin_cos_pair<long double> [[P:_t[0-9]+]];
// DUMP-NEXT: long double _d_x = 0.L;
// DUMP-NEXT: [[P]] = ::grad::detail::pair_cos(x);
// CHECK-LABEL: define {{.*}}void @_Z13lsin_pullbackeePe(
// CHECK-NOT: double
// CHECK: call void @_ZN4grad6detail8pair_cosEe(ptr {{.*}}, x86_fp80
// CHECK-NOT: double
// CHECK: ret void
// CHECK-LABEL: define linkonce_odr {{.*}}void @_ZN4grad6detail8pair_cosEe(
// CHECK: call x86_fp80 @cosl(x86_fp80
[[grad]] long double lsin(long double x) { return std::sin(x); }

// The rule constant 2/sqrt(pi) is a float literal too.
// DUMP-LABEL: void ferf_pullback(float x, float d_ret, float *d_x) {
// DUMP: 1.12837923F * ::std::exp(-x * x)
// CHECK-LABEL: define {{.*}}void @_Z13ferf_pullbackffPf(
// CHECK-NOT: double
// CHECK: call noundef float @_ZSt3expf(float
// CHECK-NOT: double
// CHECK: ret void
[[grad]] float ferf(float x) { return erff(x); }
