//===- Writes.cpp - Helpers that write nothing their caller sees -*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A helper with non-const pointer parameters may still only read through
/// them: a search loop (`double *argmax(double *a, int n)`),
/// `std::max_element` over `double *`, a comparator taking iterators by
/// value. Such a call writes nothing of its caller's memory, so it needs no
/// split derivative and leaves what it is given unchanged. The analysis is
/// conservative: any write that is not to a local variable of the helper
/// (a write through a pointer, a reference, a member, a global), a lambda,
/// `new` / `delete`, a call through a function pointer, a virtual call, or
/// a call that may write through what it is given and whose body is not
/// visible (or nests too deeply) counts as a write.
///
//===----------------------------------------------------------------------===//

#include "analysis/Paths.h"
#include "analysis/Facts.h"
#include "ast/Records.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/Builtins.h"

using namespace clang;

namespace grad {

static bool bodyWritesNothing(const FunctionDecl *FD, unsigned Depth);

/// A local variable of the helper \p Owner itself (not a reference, not
/// static; a lambda's body writing a variable it captures by reference
/// writes its caller's).
static bool localValue(const Expr *E, const FunctionDecl *Owner) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && VD->isLocalVarDeclOrParm() && !VD->isStaticLocal() &&
         !VD->getType()->isReferenceType() && Owner &&
         Owner->Encloses(VD->getDeclContext());
}

/// True if the call or construction \p Callee(\p Args) writes nothing
/// through what it is given.
static bool callWritesNothing(const FunctionDecl *Callee,
                              ArrayRef<const Expr *> Args, bool Object,
                              unsigned Depth) {
  if (!Callee)
    return false; // through a function pointer
  // std::move, std::forward, std::as_const, std::addressof: casts, which
  // clang folds without instantiating a body.
  switch (Callee->getBuiltinID()) {
  case Builtin::BImove:
  case Builtin::BImove_if_noexcept:
  case Builtin::BIforward:
  case Builtin::BIforward_like:
  case Builtin::BIas_const:
  case Builtin::BIaddressof:
  case Builtin::BI__addressof:
    return true;
  default:
    break;
  }
  // (A virtual call may run an override that writes.)
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Callee); MD && MD->isVirtual())
    return false;
  bool Writable = Object;
  for (unsigned I = 0; I < Args.size() && !Writable; ++I) {
    QualType PT = I < Callee->getNumParams()
                      ? Callee->getParamDecl(I)->getType()
                      : Args[I]->getType(); // variadic: as passed
    Writable = writableParam(PT);
  }
  return !Writable || bodyWritesNothing(Callee, Depth + 1);
}

namespace {
struct WriteFinder {
  unsigned Depth;
  const FunctionDecl *Owner;
  bool Found = false;

  void walk(const Stmt *S) {
    if (!S || Found)
      return;
    if (isa<LambdaExpr, CXXNewExpr, CXXDeleteExpr, AsmStmt>(S)) {
      Found = true;
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp() && !localValue(BO->getLHS(), Owner)) {
      Found = true;
      return;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && UO->isIncrementDecrementOp() &&
        !localValue(UO->getSubExpr(), Owner)) {
      Found = true;
      return;
    }
    if (const auto *CE = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *FD = CE->getDirectCallee();
      SmallVector<const Expr *, 4> Args(CE->arguments());
      bool Object = false;
      // The object of a member call: written unless the method is const.
      if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
          MD && MD->isInstance()) {
        Object = writesObject(MD);
        if (isa<CXXOperatorCallExpr>(CE) && !Args.empty())
          Args.erase(Args.begin());
      }
      if (!callWritesNothing(FD, Args, Object, Depth)) {
        Found = true;
        return;
      }
    }
    if (const auto *CC = dyn_cast<CXXConstructExpr>(S)) {
      const CXXConstructorDecl *Ctor = CC->getConstructor();
      SmallVector<const Expr *, 4> Args(CC->arguments());
      if (!Ctor->isTrivial() &&
          !callWritesNothing(Ctor, Args, /*Object=*/false, Depth)) {
        Found = true;
        return;
      }
    }
    for (const Stmt *C : S->children())
      walk(C);
  }
};
} // namespace

static bool bodyWritesNothing(const FunctionDecl *FD, unsigned Depth) {
  if (!FD || Depth > 6 || FD->isVariadic())
    return false;
  ASTContext &Ctx = FD->getASTContext();
  Facts &St = Facts::get(Ctx);
  // A function template's specialization may not be instantiated yet.
  if (Sema *S = St.S; S && !FD->hasBody())
    instantiatedDefinition(*S, FD, FD->getLocation());
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def || !Def->getBody())
    return false;
  // Walked once; a helper reached again while it is walked (recursion)
  // counts as writing.
  auto [It, New] = St.WritesNothing.try_emplace(Def->getCanonicalDecl(), false);
  if (!New)
    return It->second;
  WriteFinder W{Depth, Def};
  W.walk(Def->getBody());
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      W.walk(Init->getInit());
  St.WritesNothing[Def->getCanonicalDecl()] = !W.Found;
  return !W.Found;
}

const CXXMethodDecl *virtualDispatch(const CallExpr *CE) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee());
  if (!MD || !MD->isVirtual())
    return nullptr;
  // `s->Base::f()` calls Base::f; a final class or method has one override.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
    if (ME && ME->hasQualifier())
      return nullptr;
    if (const Expr *Obj = MC->getImplicitObjectArgument();
        Obj && MD->getDevirtualizedMethod(Obj, /*IsAppleKext=*/false) == MD)
      return nullptr;
  }
  return MD;
}

std::string virtualCallName(const CXXMethodDecl *MD) {
  std::string N = MD->getNameAsString();
  return "virtual call to '" + N +
         "' (which override runs is not known: make it non-virtual, or "
         "declare the class of the object 'final')";
}

bool writesNothing(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD)
    return false;
  // (Which override runs is not known here.)
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->isVirtual())
    return false;
  // `bool operator()(It a, It b) const { return *a < *b; }`.
  if (FD->hasBody(Def) && Def)
    if (const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
        Body && Body->size() == 1)
      if (const auto *RS = dyn_cast<ReturnStmt>(Body->body_front()))
        if (const Expr *V = RS->getRetValue();
            V && !V->HasSideEffects(Def->getASTContext(),
                                    /*IncludePossibleEffects=*/true))
          return true;
  // (A non-const member function may write its object: callers that
  // write through what it returns attribute the write to the call.)
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      MD && writesObject(MD))
    return false;
  return bodyWritesNothing(FD, 0);
}

// (ast/Records.cpp asks through the hook: ast is below analysis.)
static const bool DestroysNothingInstalled = [] {
  DestroysNothingHook = &destroysNothing;
  return true;
}();

bool destroysNothing(const CXXRecordDecl *RD) {
  (void)DestroysNothingInstalled;
  if (!RD || !RD->hasDefinition())
    return false;
  if (RD->hasTrivialDestructor())
    return true;
  const CXXDestructorDecl *D = RD->getDestructor();
  if (!D || D->isVirtual() || D->isDeleted())
    return false;
  // An implicit or defaulted destructor that is not trivial destroys
  // members: theirs must write nothing either.
  if (!D->isUserProvided()) {
    for (const CXXBaseSpecifier &Base : RD->bases())
      if (!destroysNothing(Base.getType()->getAsCXXRecordDecl()))
        return false;
    for (const FieldDecl *F : RD->fields()) {
      QualType T = F->getASTContext().getBaseElementType(F->getType());
      if (const auto *FRD = T->getAsCXXRecordDecl();
          FRD && !destroysNothing(FRD))
        return false;
    }
    return true;
  }
  return bodyWritesNothing(D, 0);
}

} // namespace grad
