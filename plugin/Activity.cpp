//===- Activity.cpp - Activity and write analysis ---------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "Activity.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace grad {

static const VarDecl *refVar(const Expr *E) {
  if (!E)
    return nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

const CallExpr *stdGet(const Expr *E) {
  const auto *CE = dyn_cast_or_null<CallExpr>(E ? E->IgnoreParenImpCasts()
                                                : nullptr);
  if (!CE || isa<CXXOperatorCallExpr>(CE) || isa<CXXMemberCallExpr>(CE) ||
      CE->getNumArgs() != 1 || !CE->isLValue())
    return nullptr;
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD || !FD->isInStdNamespace() || !FD->getIdentifier() ||
      FD->getName() != "get" || !FD->getTemplateSpecializationArgs() ||
      !CE->getArg(0)->isLValue())
    return nullptr;
  return CE;
}

const Expr *pathBase(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  // std::get<I>(t) on a tuple, pair or array: an element like t[I].
  if (const CallExpr *Get = stdGet(E))
    return Get->getArg(0);
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return AS->getBase();
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
    if (OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2)
      return OC->getArg(0);
    // t(i, j, ...): a multi-index element of a container of floating data.
    if (OC->getOperator() == OO_Call && OC->getNumArgs() >= 2 &&
        OC->isLValue() && isFloating(OC->getType())) {
      bool Ints = true;
      for (unsigned I = 1; I < OC->getNumArgs(); ++I)
        Ints &= OC->getArg(I)->getType()->isIntegralOrEnumerationType();
      QualType OT = OC->getArg(0)->getType().getNonReferenceType();
      if (Ints && OT->isRecordType() && hasFloatingData(OT))
        return OC->getArg(0);
    }
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    if (isa<FieldDecl>(ME->getMemberDecl()))
      return ME->getBase();
  return nullptr;
}

const VarDecl *pathRoot(const Expr *E, bool &IsThis, bool Strict) {
  IsThis = false;
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (isa<CXXThisExpr>(E)) {
    IsThis = !Strict;
    return nullptr;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return Strict ? nullptr : dyn_cast<VarDecl>(DRE->getDecl());
  if (const Expr *Base = pathBase(E))
    return pathRoot(Base, IsThis, false);
  return nullptr;
}

/// The variable whose elements or members \p E accesses.
static const VarDecl *elementVar(const Expr *E) {
  bool IsThis;
  return pathRoot(E, IsThis, /*Strict=*/true);
}

static bool isThisPath(const Expr *E) {
  bool IsThis;
  pathRoot(E, IsThis, /*Strict=*/true);
  return IsThis;
}

bool Activity::compute(const Expr *E) const {
  if (!E)
    return false;
  E = E->IgnoreParens();
  QualType T = E->getType().getNonReferenceType();
  if (!isFloating(T) && !(T->isRecordType() && hasFloatingData(T)))
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    return VD && Active.count(VD);
  }
  if (const VarDecl *VD = elementVar(E))
    return Active.count(VD);
  if (isThisPath(E))
    return ThisActive;
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    if (const FunctionDecl *FD = CE->getDirectCallee())
      if (St.isNodiff(FD))
        return false;
    for (const Expr *A : CE->arguments()) {
      if (compute(A))
        return true;
      // Pointers to (and containers of) active data.
      if (const VarDecl *VD = refVar(A))
        if (Active.count(VD))
          return true;
    }
    // obj.method(...) on an object that carries derivatives.
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
      const Expr *Obj = MC->getImplicitObjectArgument();
      bool IsThis;
      const VarDecl *Root = Obj ? pathRoot(Obj, IsThis) : nullptr;
      if ((Root && Active.count(Root)) || (IsThis && ThisActive))
        return true;
    }
    return false;
  }
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (compute(CE))
        return true;
  return false;
}

bool Activity::isActive(const Expr *E) {
  if (!Done)
    return compute(E);
  auto It = Cache.find(E);
  if (It != Cache.end())
    return It->second;
  bool R = compute(E);
  Cache[E] = R;
  return R;
}

namespace {
/// Collects definitions (var = expr) and writes.
struct DefCollector : RecursiveASTVisitor<DefCollector> {
  SmallVector<std::pair<const VarDecl *, const Expr *>, 32> Defs;
  llvm::DenseSet<const VarDecl *> &Written, &WrittenData;
  bool &ThisWritten;
  DefCollector(llvm::DenseSet<const VarDecl *> &W,
               llvm::DenseSet<const VarDecl *> &WD, bool &TW)
      : Written(W), WrittenData(WD), ThisWritten(TW) {}

  SmallVector<std::pair<const VarDecl *, const VarDecl *>, 4> Ranges;
  llvm::DenseSet<const VarDecl *> RangeVars;
  bool VisitCXXForRangeStmt(CXXForRangeStmt *RF) {
    RangeVars.insert(RF->getLoopVariable());
    if (const VarDecl *C = refVar(RF->getRangeInit()))
      Ranges.push_back({RF->getLoopVariable(), C});
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->hasInit())
      Defs.push_back({VD, VD->getInit()});
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (!BO->isAssignmentOp())
      return true;
    if (const VarDecl *VD = refVar(BO->getLHS())) {
      Written.insert(VD);
      Defs.push_back({VD, BO->getRHS()});
    } else if (const VarDecl *VD = elementVar(BO->getLHS())) {
      WrittenData.insert(VD);
      Defs.push_back({VD, BO->getRHS()});
    } else if (isThisPath(BO->getLHS())) {
      ThisWritten = true;
    }
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) {
      if (const VarDecl *VD = refVar(UO->getSubExpr()))
        Written.insert(VD);
      if (const VarDecl *VD = elementVar(UO->getSubExpr()))
        WrittenData.insert(VD);
      if (isThisPath(UO->getSubExpr()))
        ThisWritten = true;
    }
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    // A variable bound to a non-const reference parameter may be written.
    const FunctionDecl *FD = CE->getDirectCallee();
    for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
      const VarDecl *VD = refVar(CE->getArg(I));
      if (!VD)
        continue;
      if (!FD || I >= FD->getNumParams()) {
        continue;
      }
      QualType PT = FD->getParamDecl(I)->getType();
      if (PT->isReferenceType() && !PT.getNonReferenceType().isConstQualified())
        Written.insert(VD);
      if ((PT->isPointerType() && !PT->getPointeeType().isConstQualified()) ||
          (PT->isReferenceType() && !PT.getNonReferenceType().isConstQualified()))
        WrittenData.insert(VD);
    }
    return true;
  }
};
} // namespace

void Activity::run(const FunctionDecl *FD, const WrtMask &Wrt) {
  ThisActive = hasThisAdjoint(FD) && Wrt.size() > FD->getNumParams() &&
               Wrt.back();
  for (unsigned I = 0; I < FD->getNumParams(); ++I)
    if (I < Wrt.size() && Wrt[I]) {
      Active.insert(FD->getParamDecl(I));
      Order.push_back(FD->getParamDecl(I));
    }
  DefCollector C(Written, WrittenData, ThisWritten);
  C.TraverseStmt(FD->getBody());
  // Fixed point: a variable is active if any definition of it is active.
  // Each round adds at least one variable, so this is linear in the number
  // of variables times the number of definitions in the worst case and one
  // or two rounds in practice.
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (auto &[V, Range] : C.Ranges)
      if (!Active.count(V) && Active.count(Range)) {
        Active.insert(V);
        Order.push_back(V);
        Changed = true;
      }
    for (auto &[VD, Init] : C.Defs) {
      if (C.RangeVars.count(VD))
        continue;
      if (Active.count(VD) ||
          !(isFloating(VD->getType().getNonReferenceType()) ||
            classifyParam(const_cast<ASTContext &>(VD->getASTContext()),
                          VD->getType())
                    .Kind != ParamKind::None ||
            (VD->getType()->isArrayType() &&
             isFloating(QualType(
                 VD->getType()->getPointeeOrArrayElementType(), 0)))))
        continue;
      if (compute(Init)) {
        Active.insert(VD);
        Order.push_back(VD);
        Changed = true;
      }
    }
  }
  Done = true;
}

std::string Activity::print() const {
  std::string S = "active:";
  for (const VarDecl *VD : Order)
    S += " " + VD->getNameAsString();
  S += "; written:";
  SmallVector<std::string, 8> W;
  for (const VarDecl *VD : Written)
    W.push_back(VD->getNameAsString());
  llvm::sort(W);
  for (const std::string &N : W)
    S += " " + N;
  return S;
}

} // namespace grad
