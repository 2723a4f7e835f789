// --declarations writes the header when the file has errors too (an editor
// needs it most then): it declares what the plugin declared, including the
// pullback whose derivative failed, says on stderr that there were errors,
// and exits 0. -o writes the header (creating its directory), --depfile a
// Makefile rule naming the files it read.
// RUN: rm -rf %t && mkdir %t
// RUN: %dump --declarations %s -o %t/out/decls.h --depfile=%t/out/decls.d %dflags 2> %t/err.txt
// RUN: FileCheck %s --input-file=%t/out/decls.h
// RUN: FileCheck %s --check-prefix=ERR --input-file=%t/err.txt
// RUN: FileCheck %s --check-prefix=DEP --input-file=%t/out/decls.d
// RUN: not %dump %s %dflags > /dev/null 2> %t/dump-err.txt
// RUN: FileCheck %s --check-prefix=DUMP --input-file=%t/dump-err.txt

// CHECK: void good_pullback(double x, double d_ret, double *d_x);
// CHECK-NEXT: void jumps_pullback(double x, double d_ret, double *d_x);

// ERR: grad-dump: the file has 1 error(s) (grad-dump without --declarations shows them); the header declares what the plugin could
// ERR-NOT: error:

// DEP: {{.*}}decls.h: \
// DEP-DAG: {{.*}}errors.cpp
// DEP-DAG: {{.*}}grad/core.h

// DUMP: error: grad: cannot differentiate 'goto' in 'jumps'

[[grad]] double good(double x) { return x * x; }

[[grad]] double jumps(double x) {
  if (x > 0)
    goto out;
  x = -x;
out:
  return x;
}

double use() {
  double d = 0;
  good_pullback(1.0, 1.0, &d);
  jumps_pullback(1.0, 1.0, &d);
  return d;
}
