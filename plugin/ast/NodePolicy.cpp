//===- NodePolicy.cpp - What the builders do with each AST node -----------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "ast/NodePolicy.h"

using namespace clang;

namespace grad {

namespace {
struct Entry {
  NodePolicy Policy = NodePolicy::Unregistered;
  const char *Name = "";
};

/// Indexed by Stmt::StmtClass; built once from NodePolicy.def.
const Entry &entry(Stmt::StmtClass C) {
  static const auto Table = [] {
    struct Tab {
      Entry E[Stmt::lastStmtConstant + 1];
    } T;
#define NODE(CLASS, POLICY, NAME)                                              \
  T.E[Stmt::CLASS##Class] = Entry{NodePolicy::POLICY, NAME};
#include "ast/NodePolicy.def"
    return T;
  }();
  static const Entry None;
  if (C <= Stmt::NoStmtClass || C > Stmt::lastStmtConstant)
    return None;
  return Table.E[C];
}
} // namespace

NodePolicy nodePolicy(Stmt::StmtClass C) { return entry(C).Policy; }

const char *nodeName(Stmt::StmtClass C) { return entry(C).Name; }

} // namespace grad
