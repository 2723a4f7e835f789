//===- CallMemory.cpp - Memory a call reads ---------------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Whether the memory a callee reads through its pointer, reference and
/// object arguments is still as it was when the reverse sweep passes the
/// call again: if not, a free function is differentiated in two halves
/// (memoryUnstable), a member function is an error (memberArgsStable); if
/// so, a split callee may use halves that re-read it (stableMemory,
/// stableHalves).
///
//===----------------------------------------------------------------------===//

#include "ast/Diagnostics.h"
#include "reverse/PullbackBuilder.h"
#include "ast/Records.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace grad {

bool PullbackBuilder::memoryUnstable(const FunctionDecl *FD,
                                     ArrayRef<const Expr *> Args) {
  return unstableArg(FD, Args) != nullptr;
}

bool PullbackBuilder::memberArgsStable(const CXXMethodDecl *MD,
                                       ArrayRef<const Expr *> Args) {
  // (Values, references and objects are recorded at the call; a pointer's
  // memory is not.)
  SmallVector<const Expr *, 4> Pointers(Args.begin(), Args.end());
  for (unsigned I = 0; I < Pointers.size(); ++I)
    if (I >= MD->getNumParams() ||
        !MD->getParamDecl(I)->getType()->isPointerType())
      Pointers[I] = nullptr;
  const Expr *A = nullptr;
  if (Half == SplitHalf::None) {
    A = unstableArg(MD, Pointers);
  } else {
    // A split half re-reads only the memory behind parameters its callers
    // keep unchanged.
    for (unsigned I = 0; I < Pointers.size() && !A; ++I)
      if (Pointers[I] &&
          hasFloatingData(MD->getParamDecl(I)->getType()->getPointeeType()) &&
          !readOnly(stripExpr(Pointers[I]), true))
        A = Pointers[I];
  }
  if (!A)
    return true;
  unsupported(A, "argument '" + spelled(A) + "' of member function '" +
                     MD->getNameAsString() +
                     "': memory that may change before the reverse sweep, "
                     "where the method's pullback reads it again (make '" +
                     MD->getNameAsString() +
                     "' a free function taking the object, whose derivative "
                     "records what it reads)");
  return false;
}

const Expr *PullbackBuilder::unstableArg(const FunctionDecl *FD,
                                         ArrayRef<const Expr *> Args) {
  for (unsigned I = 0; I < FD->getNumParams(); ++I) {
    QualType PT = FD->getParamDecl(I)->getType();
    const Expr *A = I < Args.size() ? Args[I] : nullptr;
    if (!A || !(PT->isPointerType() || PT->isReferenceType() ||
                PT->isRecordType()))
      continue;
    // (Any memory the callee reads counts, integers too: an index table
    // `a[idx[0]]` read again after the caller changed idx sends the adjoint
    // to another element.)
    QualType Pointee =
        PT->isPointerType() ? PT->getPointeeType() : PT.getNonReferenceType();
    if (Pointee->isFunctionType() || (!PT->isPointerType() &&
                                      !PT->isReferenceType() &&
                                      !hasFloatingData(Pointee)))
      continue;
    // A temporary object is kept by value for the reverse sweep.
    if (temporaryObject(PT, stripExpr(A)))
      continue;
    // A reverse half cannot re-read anything.
    if (Half != SplitHalf::None)
      return A;
    bool IsThis = false;
    const VarDecl *R = Act.rootOf(A, IsThis);
    if (IsThis) {
      if (Act.ThisWritten)
        return A;
      continue;
    }
    if (!R || Act.isOwner(R) || Act.isDataWritten(R) || Act.isWritten(R) ||
        !inScopeInReverse(R))
      return A;
    // The argument itself is rebuilt in the reverse sweep: an alias in it
    // must still be there and point where it did.
    if (const VarDecl *Root = pathRoot(A, IsThis))
      if (Root != R && (Act.isWritten(Root) || !inScopeInReverse(Root)))
        return A;
  }
  return nullptr;
}

bool PullbackBuilder::stableMemory(const CallExpr *CE, unsigned I) const {
  if (Half != SplitHalf::None)
    return false;
  const FunctionDecl *FD = CE->getDirectCallee();
  bool IsThis = false;
  const VarDecl *R = Act.rootOf(CE->getArg(I), IsThis);
  // (A parameter, whose caller does not change it while the pullback runs,
  // or the function's own array or vector.)
  if (IsThis || !R || (!isa<ParmVarDecl>(R) && !R->hasLocalStorage()) ||
      Act.isOwner(R) || Act.isWritten(R) || !inScopeInReverse(R))
    return false;
  if (const VarDecl *Root = pathRoot(CE->getArg(I), IsThis))
    if (Root != R && (Act.isWritten(Root) || !inScopeInReverse(Root)))
      return false;
  for (unsigned J = 0; J < FD->getNumParams() && J < CE->getNumArgs(); ++J) {
    QualType PT = FD->getParamDecl(J)->getType();
    if (J == I || !(PT->isPointerType() || PT->isReferenceType()))
      continue;
    QualType Pointee =
        PT->isPointerType() ? PT->getPointeeType() : PT.getNonReferenceType();
    if (Pointee.isConstQualified())
      continue;
    bool ThisJ = false;
    const VarDecl *RJ = Act.rootOf(CE->getArg(J), ThisJ);
    if (ThisJ || !RJ || RJ == R)
      return false;
  }
  if (!Act.isDataWritten(R))
    return true;
  // Written only before the call, outside any loop around it (Qdiags
  // filled before the loops that pass it).
  QualType T = R->getType();
  return R->isLocalVarDecl() &&
         (T->isArrayType() || isStdClass(T, "vector") ||
          isStdClass(T, "array")) &&
         Act.unchangedAfter(R, CE);
}

PullbackEntry *PullbackBuilder::stableHalves(const CallExpr *CE,
                                             PullbackEntry &PE) {
  const FunctionDecl *FD = CE->getDirectCallee();
  // (Only for a function defined in this translation unit, which builds
  // the variant's halves: another one's defines only the recording ones.)
  if (PE.UserProvided || Half != SplitHalf::None ||
      !D.options().RereadHalves || isa<CXXMethodDecl>(FD) ||
      !(FD->isDefined() || FD->isImplicitlyInstantiable()))
    return &PE;
  WrtMask Stable(FD->getNumParams(), false);
  bool Any = false;
  for (unsigned I = 0; I < FD->getNumParams() && I < CE->getNumArgs(); ++I) {
    QualType PT = FD->getParamDecl(I)->getType();
    if (PT->isPointerType() && PT->getPointeeType().isConstQualified() &&
        isFloating(PT->getPointeeType().getUnqualifiedType()) &&
        stableMemory(CE, I))
      Any = Stable[I] = true;
  }
  if (!Any)
    return &PE;
  PullbackEntry *V = PE.StableVariant
                         ? PE.StableVariant
                         : D.stableVariant(PE, Stable);
  // (One variant per function: calls that keep less memory unchanged than
  // it re-reads use the recording halves.)
  for (unsigned I = 0; I < V->Stable.size(); ++I)
    if (V->Stable[I] && !Stable[I])
      return &PE;
  return V;
}

} // namespace grad
