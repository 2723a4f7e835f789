//===- NodePolicyTest.cpp - Every Clang statement class is registered -----===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
//
// Enumerates the concrete statement and expression classes of the Clang the
// plugin is built against (clang/AST/StmtNodes.inc) and fails, naming them,
// when one has no line in NodePolicy.def: default deny holds only if the
// registry knows every class (docs/reliability.md).
//
//===----------------------------------------------------------------------===//

#include "ast/NodePolicy.h"

#include <cstdio>

int main() {
  unsigned Classes = 0, Missing = 0, Refused = 0;
  auto Check = [&](clang::Stmt::StmtClass C, const char *Name) {
    ++Classes;
    if (grad::nodePolicy(C) == grad::NodePolicy::Unregistered) {
      std::printf("FAIL: %s has no entry in plugin/ast/NodePolicy.def\n", Name);
      ++Missing;
    }
    Refused += grad::nodeRefused(C);
  };
#define STMT(CLASS, PARENT) Check(clang::Stmt::CLASS##Class, #CLASS);
#define ABSTRACT_STMT(S)
#include "clang/AST/StmtNodes.inc"
  // Every class of call expression has its shapes in CallShapes.def.
  unsigned Calls = 0;
  auto CheckCall = [&](clang::Stmt::StmtClass C, const char *Name) {
    ++Calls;
    for (clang::Stmt::StmtClass K : grad::CallClasses)
      if (K == C)
        return;
    std::printf("FAIL: call class %s is not classified by callShape "
                "(plugin/analysis/CallShapes.cpp)\n", Name);
    ++Missing;
  };
#define CALLEXPR(CLASS, PARENT) CheckCall(clang::Stmt::CLASS##Class, #CLASS);
#define STMT(CLASS, PARENT)
#define ABSTRACT_STMT(S)
#include "clang/AST/StmtNodes.inc"
  // An unknown class (a newer Clang's) is refused, never modelled.
  if (!grad::nodeRefused(clang::Stmt::NoStmtClass)) {
    std::printf("FAIL: an unregistered class is not refused\n");
    ++Missing;
  }
  std::printf("%u statement classes, %u refused, %u call classes, %u "
              "without an entry\n",
              Classes, Refused, Calls, Missing);
  return Missing ? 1 : 0;
}
