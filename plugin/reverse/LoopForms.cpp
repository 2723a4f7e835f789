//===- LoopForms.cpp - Range-based for and condition variables --*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Loops lowered onto the counted loop of Loops.cpp: range-based `for`
/// over a named array or container (an index loop whose variable is the
/// element or a reference to it), and `while` / `for` with a condition
/// variable (a body that declares it and breaks when it is false).
///
//===----------------------------------------------------------------------===//

#include "ast/Diagnostics.h"
#include "analysis/Jumps.h"
#include "reverse/PullbackBuilder.h"
#include "ast/Records.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace grad {

const Stmt *PullbackBuilder::withoutConditionVariable(const Stmt *L) {
  // `while (T v = e) body` runs as `while (true) { T v = e; if (!v) break;
  // body }`, and `for (init; T v = e; inc)` likewise: `continue` still
  // reaches the increment, then the declaration.
  const auto *FS = dyn_cast<ForStmt>(L);
  const auto *WS = dyn_cast<WhileStmt>(L);
  const DeclStmt *CondDecl = FS ? FS->getConditionVariableDeclStmt()
                                : WS->getConditionVariableDeclStmt();
  Expr *Cond = const_cast<Expr *>(FS ? FS->getCond() : WS->getCond());
  Stmt *Body = const_cast<Stmt *>(FS ? FS->getBody() : WS->getBody());
  SourceLocation Loc = Cond->getBeginLoc();
  Expr *Not = UnaryOperator::Create(Ctx, new (Ctx) ParenExpr(Loc, Loc, Cond),
                                    UO_LNot, Ctx.BoolTy, VK_PRValue,
                                    OK_Ordinary, Loc, false,
                                    FPOptionsOverride());
  Stmt *Exit = IfStmt::Create(Ctx, Loc, IfStatementKind::Ordinary, nullptr,
                              nullptr, Not, Loc, Loc, new (Ctx) BreakStmt(Loc),
                              Loc, nullptr);
  Stmt *Parts[] = {const_cast<DeclStmt *>(CondDecl), Exit, Body};
  Stmt *NewBody =
      CompoundStmt::Create(Ctx, Parts, FPOptionsOverride(), Loc, Loc);
  Expr *True = CXXBoolLiteralExpr::Create(Ctx, true, Ctx.BoolTy, Loc);
  if (FS)
    return new (Ctx) ForStmt(Ctx, const_cast<Stmt *>(FS->getInit()), True,
                             nullptr, const_cast<Expr *>(FS->getInc()),
                             NewBody, FS->getForLoc(), FS->getLParenLoc(),
                             FS->getRParenLoc());
  return WhileStmt::Create(Ctx, nullptr, True, NewBody, WS->getWhileLoc(),
                           WS->getLParenLoc(), WS->getRParenLoc());
}

/// True if \p E is a chain of members of a variable or of `this` (`m.data`,
/// `s.a.v`, `this->w`, `p->v` through a reference or pointer parameter).
static bool memberPath(const Expr *E) {
  const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
  if (!ME || !isa<FieldDecl>(ME->getMemberDecl()))
    return false;
  const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
  return isa<DeclRefExpr>(Base) || isa<CXXThisExpr>(Base) || memberPath(Base);
}

/// True if \p E is an element of a variable through indices that are
/// constants or satisfy \p Counter (`a[i]`, `rows[i][2]`, `s.v[i]`).
static bool counterPath(const Expr *E,
                        llvm::function_ref<bool(const VarDecl *)> Counter) {
  auto Index = [&](const Expr *I) {
    I = I->IgnoreParenImpCasts();
    if (isa<IntegerLiteral>(I))
      return true;
    const auto *DRE = dyn_cast<DeclRefExpr>(I);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    return VD && Counter(VD);
  };
  const Expr *K = E->IgnoreParenImpCasts();
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(K))
    return Index(AS->getIdx()) &&
           (isa<DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts()) ||
            counterPath(AS->getBase(), Counter));
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(K);
      OC && OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2)
    return Index(OC->getArg(1)) &&
           (isa<DeclRefExpr>(OC->getArg(0)->IgnoreParenImpCasts()) ||
            counterPath(OC->getArg(0), Counter));
  if (const auto *ME = dyn_cast<MemberExpr>(K);
      ME && !ME->isArrow() && isa<FieldDecl>(ME->getMemberDecl()))
    return isa<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts()) ||
           counterPath(ME->getBase(), Counter);
  return false;
}

/// A range-based for loop as rangeFor reads it: the range, the loop
/// variable, and what the range is read through.
struct PullbackBuilder::RangeLoop {
  const CXXForRangeStmt *RF;
  const Expr *RangeE;
  const VarDecl *C; // the range's variable, if it is one
  VarDecl *MC;      // C in the pullback
  const VarDecl *V; // the loop variable
  QualType VT;
  // A reference is an alias of the element it binds to: its shadow is
  // that element's shadow (see aliasOffset).
  bool ByRef;
  QualType ET; // the element type
  const VarDecl *Root = nullptr;
  bool ThisRoot = false, ElementPath = false;
  // A reference to each element of a container of containers (`for (const
  // auto &row : rows)`) is an alias of that element.
  bool ClassRef = false;
  bool RangeActive = false;
};

Expr *PullbackBuilder::rangeOf(const RangeLoop &RL) {
  return RL.MC ? B.ref(RL.MC) : rebuild(RL.RangeE, false, /*Plain=*/true);
}

Expr *PullbackBuilder::rangeShadowOf(const RangeLoop &RL) {
  // (A local reference to a container, `auto &r = v`: v's shadow.)
  return RL.C && !isElementAccess(RL.RangeE)
             ? adjointStorage(RL.C)
             : shadowLValue(*this, B, stripExpr(RL.RangeE));
}

bool PullbackBuilder::rangeForRoot(RangeLoop &RL) {
  const Expr *RangeE = RL.RangeE;
  const VarDecl *&Root = RL.Root;
  bool &ThisRoot = RL.ThisRoot;
  // A member path (`m.data`, `s.pts`, `this->w`, `a.b.v`): the elements
  // are read by index on the path, their adjoints go to the same path on
  // the shadow.
  if (!RL.MC && memberPath(RangeE)) {
    Root = pathRoot(RangeE, ThisRoot, /*Strict=*/true);
    if (!(Root ? mapVar(Root) != nullptr : ThisRoot))
      Root = nullptr;
    else if (RL.ByRef && Act.memberPathOf(RL.V).empty()) {
      unsupported(RL.RF, "range-based 'for' loop binding a reference to the "
                         "elements of '" + spelled(RangeE) +
                         "' (take the elements by value, or loop over an "
                         "index)");
      return false;
    }
  }
  // An element of a container of containers by value (`for (double e :
  // a[i])`), indexed by counters of enclosing loops (recomputed in the
  // reverse sweep), integer parameters the function does not write, or
  // constants: read by index like a member path.
  if (!RL.MC && !Root && !ThisRoot && !RL.ByRef &&
      counterPath(RangeE, [&](const VarDecl *I) {
        return RevIndex.count(I) != 0 ||
               (isa<ParmVarDecl>(I) && !Act.isWritten(I) &&
                !I->getType()->isReferenceType() &&
                I->getType()->isIntegralOrEnumerationType());
      })) {
    Root = pathRoot(RangeE, ThisRoot, /*Strict=*/true);
    RL.ElementPath = Root && mapVar(Root) && !ThisRoot;
    if (!RL.ElementPath)
      Root = nullptr, ThisRoot = false;
  }
  if (!RL.MC && !Root && !ThisRoot) {
    unsupported(RL.RF,
                RL.ByRef && isElementAccess(stripExpr(RangeE))
                    ? "range-based 'for' loop binding a reference to the "
                      "elements of '" + spelled(RangeE) +
                          "' (take the elements by value, or loop over "
                          "an index)"
                    : std::string("range-based 'for' loop over an "
                                  "expression"));
    return false;
  }
  return true;
}

bool PullbackBuilder::rangeElementsModelled(const RangeLoop &RL,
                                            bool ArrayCopy) {
  QualType ET = RL.ET;
  const VarDecl *C = RL.C;
  if (!ET->isArithmeticType() && !isPlainStruct(ET) && !RL.ClassRef &&
      !ArrayCopy) {
    unsupported(RL.RF, "range-based 'for' loop over elements of type '" +
                           ET.getAsString() + "'" +
                           (isStdClass(ET, "vector") || isStdClass(ET, "array")
                                ? " by value (take them by reference, `const "
                                  "auto &`, or loop over an index)"
                                : ""));
    return false;
  }
  // The elements of such a reference are not at an offset from the outer
  // container's data(): a reference to them is refused like `double &r =
  // m[i][j]`.
  if (RL.ByRef && !RL.ClassRef && C) {
    const VarDecl *SR = Act.storageOf(C);
    if (SR && SR != C && isNestedContainer(SR->getType())) {
      unsupported(RL.RF, "range-based 'for' loop binding a reference to the "
                         "elements of '" + spelled(RL.RangeE) +
                             "', an element of '" + SR->getNameAsString() +
                             "' (take the elements by value, or loop over "
                             "an index)");
      return false;
    }
  }
  return true;
}

bool PullbackBuilder::rangeElementReread(const RangeLoop &RL) {
  const VarDecl *Root = RL.Root;
  // (Not in a split derivative's reverse half when the range is a
  // parameter it does not receive: the caller may have changed it.)
  const auto *CP = dyn_cast_or_null<ParmVarDecl>(Root);
  // (Nor when the range's variable is declared in a block the reverse
  // sweep is outside of.)
  return (Root ? !Act.isDataWritten(Root) && inScopeInReverse(Root)
               : !Act.ThisWritten) &&
         !Act.isWritten(RL.V) &&
         (Half == SplitHalf::None ||
          (RL.C && (!CP || Entry.reverseHalfTakes(
                               CP->getFunctionScopeIndex()))));
}

VarDecl *PullbackBuilder::rangeElementInReverse(const RangeLoop &RL,
                                                VarDecl *RK) {
  // A reference to a container element: an alias of element RK of the
  // range, whose shadow is element RK of the range's shadow; re-read by
  // reference, not copied.
  // (An element path with the reverse sweep's counters.)
  Expr *RevRange =
      RL.ElementPath ? valPath(stripExpr(RL.RangeE)) : rangeOf(RL);
  VarDecl *RV = B.var(PB, RL.V->getName(), RL.ClassRef ? RL.VT : RL.ET,
                      B.subscript(RevRange, B.ref(RK)));
  RevIndex[RL.V] = RV;
  return RV;
}

Stmt *PullbackBuilder::rangeForReverse(const RangeLoop &RL, LoopInfo *LI,
                                       VarDecl *RK, VarDecl *RV,
                                       Stmts &BodyRev) {
  Stmts RevBody;
  RevBody.push_back(B.declStmt(RK));
  if (RV)
    RevBody.push_back(B.declStmt(RV));
  if (LI->Flag)
    RevBody.push_back(pop(LI->Flag));
  RevBody.insert(RevBody.end(), BodyRev.begin(), BodyRev.end());
  if (!RL.ByRef && Act.isActive(RL.V) && RL.RangeActive) {
    // The element's adjoint flows back into the range's adjoint.
    VarDecl *A = adjointOf(RL.V);
    if (RL.ET->isRecordType()) {
      accumulateObject(B.subscript(rangeShadowOf(RL), B.ref(RK)), B.ref(A),
                       RL.ET, RevBody);
      RevBody.push_back(B.callRuntime("zero", {}, {B.ref(A)}));
    } else {
      RevBody.push_back(
          B.addAssign(B.subscript(rangeShadowOf(RL), B.ref(RK)), B.ref(A)));
      RevBody.push_back(B.assign(B.ref(A), B.zero(A->getType())));
    }
  }
  Stmts R;
  if (LI->Nested)
    R.push_back(pop(LI->Count));
  R.push_back(B.whileStmt(B.ref(LI->Count), B.block(RevBody)));
  return B.block(R);
}

void PullbackBuilder::rangeFor(const CXXForRangeStmt *RF, Stmts &Fwd,
                               Stmts &Rev) {
  RangeLoop RL;
  RL.RF = RF;
  const Expr *RangeE = RL.RangeE = RF->getRangeInit();
  const auto *DRE = dyn_cast<DeclRefExpr>(RangeE->IgnoreParenImpCasts());
  const auto *C = RL.C = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  RL.MC = C ? mapVar(C) : nullptr;
  const VarDecl *V = RL.V = RF->getLoopVariable();
  QualType VT = RL.VT = V->getType();
  bool ByRef = RL.ByRef = VT->isReferenceType();
  QualType ET = RL.ET = VT.getNonReferenceType().getUnqualifiedType();
  RL.Root = C;
  if (!rangeForRoot(RL))
    return;
  QualType RangeT = RangeE->getType().getNonReferenceType();
  RL.RangeActive = C ? Act.isActive(C)
                   : RL.ThisRoot ? Act.ThisActive
                                 : Act.isActive(RL.Root);
  RL.ClassRef =
      ByRef && (isStdClass(ET, "vector") || isStdClass(ET, "array"));
  // A std::array of numbers by value: a copy like a plain struct's.
  bool ArrayCopy = !ByRef && isStdClass(ET, "array") &&
                   elementTypeOf(Ctx, ET)->isArithmeticType();
  if (!rangeElementsModelled(RL, ArrayCopy))
    return;
  LoopInfo *LI = newLoop(hasJumps(RF->getBody()));
  QualType SizeT = Ctx.getSizeType();
  Expr *N;
  if (const auto *CAT = Ctx.getAsConstantArrayType(RangeT))
    N = B.intLit(CAT->getSize().getZExtValue(), SizeT);
  else
    N = B.memberCall(rangeOf(RL), "size", {});
  VarDecl *K = B.var(PB, fresh("_k"), SizeT, B.intLit(0, SizeT));
  Stmts Outer;
  Outer.push_back(B.assign(B.ref(LI->Count), B.intLit(0, SizeT)));

  // The element, re-read in the reverse sweep when the range is not written.
  bool Reread = rangeElementReread(RL);
  VarDecl *RK = B.var(PB, fresh("_k"), SizeT,
                      B.unop(UO_PreDec, B.ref(LI->Count)));
  VarDecl *RV = Reread ? rangeElementInReverse(RL, RK) : nullptr;
  if (RL.ClassRef)
    AliasOffsets[V] = RK;
  Loops.push_back(LI);
  LI->BodyFrame = Frames.size();
  Stmts BodyFwd, BodyRev;
  BodyFwd.push_back(B.unop(UO_PreInc, B.ref(LI->Count)));
  VarDecl *NV = B.var(PB, V->getName(), ByRef ? VT : ET,
                      B.subscript(rangeOf(RL), B.ref(K)));
  VarMap[V] = NV;
  BodyFwd.push_back(B.declStmt(NV));
  stmt(RF->getBody(), BodyFwd, BodyRev);
  if (LI->Flag)
    BodyFwd.push_back(pushValue(B.intLit(0, SizeT), SizeT));
  Loops.pop_back();
  RevIndex.erase(V);
  if (RL.ClassRef)
    AliasOffsets.erase(V);
  if (Failed)
    return;
  Outer.push_back(B.forStmt(B.declStmt(K), B.binop(BO_LT, B.ref(K), N),
                            B.unop(UO_PreInc, B.ref(K)), B.block(BodyFwd)));
  if (LI->Nested)
    Outer.push_back(push(LI->Count));
  Fwd.push_back(B.block(Outer));
  Rev.push_back(rangeForReverse(RL, LI, RK, RV, BodyRev));
}

} // namespace grad
