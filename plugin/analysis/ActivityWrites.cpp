//===- ActivityWrites.cpp - What a body writes, and aliases -----*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "analysis/Activity.h"
#include "analysis/Callables.h"
#include "analysis/Paths.h"
#include "ast/Records.h"
#include "analysis/Selectors.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/Builtins.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace grad {

/// A local pointer or reference to floating data: an alias of the storage
/// it points into.
static bool isAliasVar(const VarDecl *VD) {
  return VD && !isa<ParmVarDecl>(VD) && VD->isLocalVarDecl() && mayAlias(VD);
}

/// A scalar (not an array, class or pointer): writes through an alias
/// change its value.
static bool isScalarStorage(const VarDecl *VD) {
  return VD && VD->getType().getNonReferenceType()->isArithmeticType();
}

/// (t = e) -= f, ++(t *= x), (a, t) = e: the lvalue the expression \p K
/// denotes (its own write is visited on its own).
static const Expr *denotedLValue(const Expr *K) {
  for (;;) {
    if (const auto *BO = dyn_cast<BinaryOperator>(K)) {
      if (BO->isAssignmentOp()) {
        K = BO->getLHS()->IgnoreParenImpCasts();
        continue;
      }
      if (BO->getOpcode() == BO_Comma) {
        K = BO->getRHS()->IgnoreParenImpCasts();
        continue;
      }
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(K);
        UO && UO->isPrefix() && UO->isIncrementDecrementOp()) {
      K = UO->getSubExpr()->IgnoreParenImpCasts();
      continue;
    }
    return K;
  }
}

namespace {
/// Collects definitions (var = expr), writes, and the effects of calls that
/// write through their arguments.
struct DefCollector : RecursiveASTVisitor<DefCollector> {
  const Activity &Act;
  SmallVector<std::pair<const VarDecl *, const Expr *>, 32> Defs;
  SmallVector<std::pair<const VarDecl *, const CallExpr *>, 8> Effects;
  llvm::DenseSet<const VarDecl *> &Written, &WrittenData, &AddressTaken;
  bool &ThisWritten;
  /// Where each storage's data is written (the assignment, increment or
  /// call being visited; null where unknown).
  Activity::SiteMap &Sites, &VarSites;
  const Stmt *Site = nullptr;
  DefCollector(const Activity &A, llvm::DenseSet<const VarDecl *> &W,
               llvm::DenseSet<const VarDecl *> &WD,
               llvm::DenseSet<const VarDecl *> &AT, bool &TW,
               Activity::SiteMap &S, Activity::SiteMap &VS)
      : Act(A), Written(W), WrittenData(WD), AddressTaken(AT),
        ThisWritten(TW), Sites(S), VarSites(VS) {}

  /// (Inside a lambda's body a write runs where the lambda is called, which
  /// may be anywhere: its site is unknown.)
  unsigned LambdaDepth = 0;
  void dataWritten(const VarDecl *R) {
    WrittenData.insert(R);
    Sites[R].push_back(LambdaDepth ? nullptr : Site);
  }
  /// The variable itself is written (assigned, incremented, bound to a
  /// non-const reference or pointer).
  void written(const VarDecl *VD) {
    Written.insert(VD);
    VarSites[VD].push_back(LambdaDepth ? nullptr : Site);
  }
  bool TraverseLambdaExpr(LambdaExpr *L) {
    ++LambdaDepth;
    bool R = RecursiveASTVisitor::TraverseLambdaExpr(L);
    --LambdaDepth;
    return R;
  }

  SmallVector<std::pair<const VarDecl *, const VarDecl *>, 4> Ranges;
  llvm::DenseSet<const VarDecl *> RangeVars;
  /// `&e` passed straight as an argument of a direct call.
  llvm::SmallPtrSet<const UnaryOperator *, 8> PassedAddrs;

  /// A write to the memory \p LHS denotes, with value \p RHS (or null).
  void writeTo(const Expr *LHS, const Expr *RHS) {
    const Expr *K = LHS->IgnoreParenImpCasts();
    if (const Expr *F = derefFormOf(K))
      K = F->IgnoreParenImpCasts();
    K = denotedLValue(K);
    // (c ? a : b) = e writes one of a and b.
    if (const auto *CO = dyn_cast<ConditionalOperator>(K)) {
      writeTo(CO->getTrueExpr(), RHS);
      writeTo(CO->getFalseExpr(), RHS);
      return;
    }
    // A structured binding: the part of the hidden object it names.
    if (const auto *DRE = dyn_cast<DeclRefExpr>(K))
      if (const auto *BD = dyn_cast<BindingDecl>(DRE->getDecl()))
        if (const Expr *Part = bindingPart(BD))
          K = Part->IgnoreParenImpCasts();
    if (const VarDecl *VD = refVar(K))
      return writeToVar(VD, RHS);
    if (const VarDecl *VD = elementVar(K))
      return writeToElement(VD, RHS);
    if (isThisPath(K))
      ThisWritten = true;
  }

  /// writeTo for the variable \p VD itself, or through a reference what it
  /// binds to.
  void writeToVar(const VarDecl *VD, const Expr *RHS) {
    if (isAliasVar(VD) && VD->getType()->isReferenceType()) {
      // Through a reference: the storage it binds to.
      auto Mark = [&](const VarDecl *R) {
        dataWritten(R);
        if (isScalarStorage(R))
          written(R);
        if (RHS)
          Defs.push_back({R, RHS});
      };
      if (const VarDecl *R = Act.storageOf(VD))
        Mark(R);
      for (const VarDecl *MR : Act.rootsOf(VD))
        Mark(MR);
      return;
    }
    written(VD);
    if (RHS)
      Defs.push_back({VD, RHS});
    reseated(VD, Site);
  }

  /// writeTo for an element of \p VD: the storages it points into.
  void writeToElement(const VarDecl *VD, const Expr *RHS) {
    // Through a pointer loaded from memory (`double *q = b.p;`): a write
    // to what the object it was loaded from reaches.
    if (Act.isLoadedAlias(VD)) {
      bool IsThis = false;
      if (const VarDecl *LR = pathRoot(loadedPointer(VD->getInit()), IsThis)) {
        dataWritten(LR);
        if (RHS)
          Defs.push_back({LR, RHS});
      }
    }
    const VarDecl *R = Act.storageOf(VD);
    for (const VarDecl *MR : Act.rootsOf(VD)) {
      dataWritten(MR);
      if (RHS)
        Defs.push_back({MR, RHS});
    }
    if (!R)
      return;
    dataWritten(R);
    if (isScalarStorage(R))
      written(R);
    if (RHS)
      Defs.push_back({R, RHS});
  }

  /// A pointer parameter to floating data assigned a pointer that is not
  /// based on its own entry value.
  SmallVector<std::pair<const VarDecl *, const Expr *>, 1> Reseated;
  void reseated(const VarDecl *VD, const Stmt *At) {
    // (`++p`, `p += 4`, a call taking p by reference: within its memory.)
    const auto *BO = dyn_cast_or_null<BinaryOperator>(At);
    if (BO && reseatedParam(BO) == VD)
      Reseated.push_back({VD, BO});
  }
  /// `delete p`, `free(p)`: the memory p points into is gone, as if
  /// overwritten: nothing may read it again after this point (the reverse
  /// sweep records what it needs of it, objects included).
  void freed(const Expr *P) {
    bool IsThis = false;
    if (const VarDecl *R = Act.rootOf(P, IsThis))
      dataWritten(R);
  }
  bool VisitCXXDeleteExpr(CXXDeleteExpr *DE) {
    Site = DE;
    freed(DE->getArgument());
    return true;
  }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *RF) {
    RangeVars.insert(RF->getLoopVariable());
    // Over a variable, or a member path (`m.data`, `this->w`: null for
    // `this`).
    bool IsThis = false;
    const VarDecl *C = refVar(RF->getRangeInit());
    if (!C)
      C = pathRoot(RF->getRangeInit(), IsThis, /*Strict=*/true);
    if (C || IsThis)
      Ranges.push_back({RF->getLoopVariable(), C});
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    Site = nullptr; // (a reference bound here: its writes are anywhere)
    if (!VD->hasInit())
      return true;
    Defs.push_back({VD, VD->getInit()});
    if (VD->getType()->isReferenceType() &&
        !VD->getType().getNonReferenceType().isConstQualified()) {
      // A non-const reference may write what it binds to.
      bool IsThis = false;
      if (const VarDecl *R = Act.rootOf(VD->getInit(), IsThis)) {
        AddressTaken.insert(R);
        if (isScalarStorage(R))
          written(R);
      }
    }
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    Site = BO;
    if (BO->isAssignmentOp())
      writeTo(BO->getLHS(), BO->getRHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    Site = UO;
    if (UO->isIncrementDecrementOp()) {
      writeTo(UO->getSubExpr(), nullptr);
    } else if (UO->getOpcode() == UO_AddrOf) {
      bool IsThis = false;
      if (const VarDecl *R = Act.rootOf(UO->getSubExpr(), IsThis)) {
        // (The address of an element passed straight to a call, `&v[i]`,
        // is no alias: the call is a write site if it may write, like
        // `v.data() + i`.)
        if (isScalarStorage(R) || !PassedAddrs.count(UO))
          AddressTaken.insert(R);
        if (isScalarStorage(R))
          written(R);
      }
      if (const VarDecl *VD = refVar(UO->getSubExpr()))
        written(VD);
    }
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    // What the call may write through: non-const pointer and reference
    // parameters, and the object of a non-const member function.
    const FunctionDecl *FD = CE->getDirectCallee();
    Site = CE;
    if (FD && !isa<CXXOperatorCallExpr>(CE))
      for (const Expr *A : CE->arguments())
        if (const auto *UO = dyn_cast<UnaryOperator>(A->IgnoreParenImpCasts());
            UO && UO->getOpcode() == UO_AddrOf)
          PassedAddrs.insert(UO);
    if (isDeallocation(FD)) {
      // free(p): what p points to is gone, as if overwritten.
      if (CE->getNumArgs())
        freed(CE->getArg(0));
      return true;
    }
    if (accessorArg(CE) || writesNothing(FD))
      return true;
    lambdaCallWrites(CE, FD);
    unsigned Shift = objectWrites(CE, FD);
    for (unsigned I = Shift; I < CE->getNumArgs(); ++I) {
      const Expr *A = CE->getArg(I);
      QualType PT = FD && I - Shift < FD->getNumParams()
                        ? FD->getParamDecl(I - Shift)->getType()
                        : A->getType();
      bool ByRef = PT->isReferenceType() &&
                   !PT.getNonReferenceType().isConstQualified();
      if (writableParam(PT))
        writtenThrough(CE, A, ByRef);
      if (ByRef)
        reseatedByCall(CE, A, FD && I - Shift < FD->getNumParams()
                                  ? FD->getParamDecl(I - Shift)
                                  : nullptr);
    }
    return true;
  }

  /// A pointer variable to floating data passed by non-const reference
  /// (`std::swap(p, q)`, `pick(p, q)`) to a callee that may make it point
  /// into other memory (keepsWithin).
  void reseatedByCall(const CallExpr *CE, const Expr *A,
                      const ParmVarDecl *Param) {
    const VarDecl *VD = refVar(A);
    // (std::move(p), std::forward<T>(p): casts.)
    if (const FunctionDecl *FD = CE->getDirectCallee();
        FD && (FD->getBuiltinID() == Builtin::BImove ||
               FD->getBuiltinID() == Builtin::BIforward ||
               FD->getBuiltinID() == Builtin::BImove_if_noexcept))
      return;
    if (!VD || !VD->getType()->isPointerType() ||
        !hasFloatingData(VD->getType()->getPointeeType()) ||
        (Param && keepsWithin(Param)))
      return;
    Reseated.push_back({VD, CE});
  }

  /// The call \p CE may write through its argument \p A. \p ByRef: the
  /// parameter binds the argument itself (a reference), so a variable
  /// passed is written as a whole (a pointer re-seated).
  void writtenThrough(const CallExpr *CE, const Expr *A, bool ByRef) {
    bool IsThis = false;
    const VarDecl *R = Act.rootOf(A, IsThis);
    if (IsThis) {
      ThisWritten = true;
      return;
    }
    if (const VarDecl *VD = refVar(A); VD && ByRef)
      written(VD);
    if (const VarDecl *Base = pathRoot(A, IsThis))
      for (const VarDecl *MR : Act.rootsOf(Base)) {
        dataWritten(MR);
        Effects.push_back({MR, CE});
      }
    if (!R)
      return;
    dataWritten(R);
    if (isScalarStorage(R))
      written(R);
    Effects.push_back({R, CE});
  }

  /// A call of a local lambda writes what its body writes by reference.
  void lambdaCallWrites(const CallExpr *CE, const FunctionDecl *FD) {
    const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
    if (!OC || OC->getOperator() != OO_Call || OC->getNumArgs() == 0)
      return;
    const LambdaExpr *L = findLambda(OC->getArg(0));
    if (!L)
      return;
    LambdaInfo Info;
    Info.Lambda = L;
    // (A generic lambda: the specialization called; not the
    // operator() of a std::function naming the lambda.)
    const auto *Op = dyn_cast_or_null<CXXMethodDecl>(FD);
    Info.Callee = Op && Op->getParent() == L->getLambdaClass()
                      ? Op
                      : L->getCallOperator();
    if (Info.Callee->getBody())
      classify(Info);
    for (const LiftedCapture &C : Info.Caps)
      if (C.Written && C.ByRef && C.Var) {
        // (A pointer it may make point into other memory.)
        if (C.Var->getType()->isPointerType() &&
            hasFloatingData(C.Var->getType()->getPointeeType()) &&
            !keepsWithin(Info.Callee->getBody(), C.Var))
          Reseated.push_back({C.Var, CE});
        dataWritten(C.Var);
        if (isScalarStorage(C.Var))
          written(C.Var);
        Effects.push_back({C.Var, CE});
      }
  }

  /// The object a member function or member operator may write; returns
  /// the number of leading arguments that are the object (0 or 1).
  unsigned objectWrites(const CallExpr *CE, const FunctionDecl *FD) {
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
      const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
      if (writesObject(MD) && !isStdAccessor(MD))
        writtenThrough(CE, MC->getImplicitObjectArgument(), false);
    } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE)) {
      const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
      if (MD && !MD->isStatic()) {
        if (writesObject(MD) && OC->getNumArgs() &&
            OC->getOperator() != OO_Subscript && OC->getOperator() != OO_Call)
          writtenThrough(CE, OC->getArg(0), false);
        return 1;
      }
    }
    return 0;
  }
};

/// The definitions of local pointers and references: initializers and
/// assignments.
struct AliasDefs : RecursiveASTVisitor<AliasDefs> {
  llvm::MapVector<const VarDecl *, SmallVector<const Expr *, 2>> Defs;
  /// Loop variables of range-based for loops: bound to an element of the
  /// range (not to the iterator their implicit initializer reads).
  llvm::DenseSet<const VarDecl *> LoopVars;
  bool VisitVarDecl(VarDecl *VD) {
    if (isAliasVar(VD) && !LoopVars.count(VD)) {
      auto &L = Defs[VD];
      if (VD->hasInit())
        L.push_back(VD->getInit());
    }
    return true;
  }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *RF) {
    const VarDecl *V = RF->getLoopVariable();
    LoopVars.insert(V);
    if (isAliasVar(V))
      Defs[V].push_back(RF->getRangeInit());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_Assign)
      if (const VarDecl *VD = refVar(BO->getLHS()))
        if (isAliasVar(VD) && VD->getType()->isPointerType())
          Defs[VD].push_back(BO->getRHS());
    return true;
  }
};
} // namespace

void Activity::collectWrites(const Stmt *Body, Writes &W) {
  DefCollector C(*this, Written, WrittenData, AddressTaken, ThisWritten,
                 DataSites, VarSites);
  C.TraverseStmt(const_cast<Stmt *>(Body));
  W.Defs = std::move(C.Defs);
  W.Effects = std::move(C.Effects);
  W.Ranges = std::move(C.Ranges);
  W.RangeVars = std::move(C.RangeVars);
  Reseated = std::move(C.Reseated);
}

namespace {
/// The storages the definitions of an alias point into.
struct AliasTargets {
  /// The one storage of every definition, if Known.
  const VarDecl *Root = nullptr;
  bool Known = true, Unknown = false;
  /// Every storage named, in order.
  SmallVector<const VarDecl *, 2> All;
};
} // namespace

/// The choices \p E makes between storages, into \p Flat: `c ? a : b`
/// defines the pointer as one of two storages. (Also std::max(a, b),
/// std::clamp(v, lo, hi): their '?:' forms.)
static void flattenChoices(const Facts &St, const Expr *E,
                           SmallVectorImpl<const Expr *> &Flat) {
  const Expr *K = E->IgnoreParenImpCasts();
  const auto *CO = dyn_cast<ConditionalOperator>(K);
  if (!CO)
    CO = selectorForm(St, K);
  if (!CO) {
    Flat.push_back(E);
    return;
  }
  flattenChoices(St, CO->getTrueExpr(), Flat);
  flattenChoices(St, CO->getFalseExpr(), Flat);
}

/// Where the definitions \p Flat of the alias \p VD point into.
static AliasTargets aliasTargets(const Activity &A, const VarDecl *VD,
                                 ArrayRef<const Expr *> Flat) {
  ASTContext &Ctx = VD->getASTContext();
  AliasTargets T;
  for (const Expr *E : Flat) {
    if (E->IgnoreParenImpCasts()->isNullPointerConstant(
            Ctx, Expr::NPC_ValueDependentIsNotNull))
      continue;
    // `p = p + 1`, `p = next(p)`: the storage it already points into.
    if (basedOn(E, VD))
      continue;
    bool IsThis = false;
    // A pointer that owns heap memory is the root of that memory.
    const VarDecl *R =
        allocation(E).K != Allocation::None ? VD : A.rootOf(E, IsThis);
    if (!R && !IsThis) {
      // Through another alias into several storages: each of them.
      SmallVector<const VarDecl *, 2> Rs = A.mayReach(E);
      for (const VarDecl *X : Rs)
        if (!llvm::is_contained(T.All, X))
          T.All.push_back(X);
      if (!Rs.empty()) {
        T.Known = false;
        continue;
      }
      if (A.pendingAlias(E, VD))
        continue;
    }
    if (!R || R == VD)
      T.Unknown = true;
    else if (!llvm::is_contained(T.All, R))
      T.All.push_back(R);
    if (!R || (T.Root && R != T.Root)) {
      T.Known = false;
      continue;
    }
    T.Root = R;
  }
  return T;
}

bool Activity::updateAlias(const VarDecl *VD, ArrayRef<const Expr *> Defs) {
  bool Changed = false;
  SmallVector<const Expr *, 4> Flat;
  for (const Expr *E : Defs)
    flattenChoices(St, E, Flat);
  AliasTargets T = aliasTargets(*this, VD, Flat);
  T.Known = T.Known && !Defs.empty();
  // Every definition loads a pointer from memory (`*pa`, `pp[i]`):
  // the pointer's storage is not one of the function's variables.
  bool AllLoaded = !Flat.empty() && llvm::all_of(Flat, [](const Expr *E) {
    return loadsPointer(E);
  });
  if (AllLoaded) {
    T.Known = false;
    T.Unknown = true;
    T.All.clear();
    if (Loaded.insert(VD).second) {
      Changed = true;
      for (const Expr *E : Flat) {
        bool IsThis = false;
        const VarDecl *From = pathRoot(loadedPointer(E), IsThis);
        LoadRoots[VD].push_back(From != VD ? From : nullptr);
      }
    }
  }
  const VarDecl *New = T.Known ? T.Root : nullptr;
  if (T.Unknown && !New)
    UnknownAliases.insert(VD);
  // Pointers and references into several known storages.
  if (!T.Known && !T.Unknown && T.All.size() > 1) {
    if (Roots[VD] != T.All) {
      Roots[VD] = T.All;
      Changed = true;
    }
  } else if (Roots.count(VD)) {
    Roots.erase(VD);
    Changed = true;
  }
  if (Alias[VD] != New) {
    Alias[VD] = New;
    Changed = true;
  }
  return Changed;
}

bool Activity::pendingAlias(const Expr *E, const VarDecl *Of) const {
  const Expr *K = E->IgnoreParenImpCasts();
  while (const Expr *B = pointerBase(K))
    K = B->IgnoreParenImpCasts();
  const VarDecl *V = refVar(K);
  return V && V != Of && Alias.count(V) && !Alias.lookup(V) &&
         !Roots.count(V) && !Loaded.count(V) && !UnknownAliases.count(V);
}

void Activity::computeAliases(const Stmt *Body) {
  AliasDefs AD;
  AD.TraverseStmt(const_cast<Stmt *>(Body));
  if (AD.Defs.empty())
    return;
  for (auto &[VD, L] : AD.Defs)
    Alias[VD] = nullptr;
  // Aliases of aliases: a few rounds settle chains in any order.
  for (unsigned Round = 0; Round < 8; ++Round) {
    bool Changed = false;
    for (auto &[VD, L] : AD.Defs)
      Changed |= updateAlias(VD, L);
    if (!Changed)
      break;
  }
  computeMemberPaths(AD.Defs);
}

/// The members from a variable to the container member \p E reaches
/// (through `&`, `[]`, pointer arithmetic, `.data()`), into \p Path: false
/// if \p E reaches no container member of a variable. An alias on the way
/// lends its own path (\p Paths).
static bool containerPath(
    const Expr *E,
    const llvm::DenseMap<const VarDecl *, SmallVector<const FieldDecl *, 2>>
        &Paths,
    SmallVectorImpl<const FieldDecl *> &Path) {
  for (const Expr *K = E; K;) {
    K = K->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(K)) {
      auto It = Paths.find(dyn_cast<VarDecl>(DRE->getDecl()));
      if (It == Paths.end())
        return false;
      Path.assign(It->second.begin(), It->second.end());
      return true;
    }
    const auto *ME = dyn_cast<MemberExpr>(K);
    if (ME && isa<FieldDecl>(ME->getMemberDecl()) &&
        (isStdClass(ME->getType(), "vector") ||
         isStdClass(ME->getType(), "array"))) {
      SmallVector<const FieldDecl *, 2> Fields;
      const Expr *X = ME;
      while (const auto *M = dyn_cast<MemberExpr>(X->IgnoreParenImpCasts())) {
        const auto *FD = dyn_cast<FieldDecl>(M->getMemberDecl());
        // (`p->a.v` only at the root: a pointer parameter.)
        if (!FD || (M->isArrow() &&
                    !isa<DeclRefExpr>(M->getBase()->IgnoreParenImpCasts())))
          return false;
        Fields.push_back(FD);
        X = M->getBase();
      }
      if (!isa<DeclRefExpr>(X->IgnoreParenImpCasts()))
        return false;
      Path.assign(Fields.rbegin(), Fields.rend());
      return true;
    }
    const Expr *Next = pathBase(K);
    K = Next ? Next : pointerBase(K);
  }
  return false;
}

void Activity::computeMemberPaths(
    const llvm::MapVector<const VarDecl *, SmallVector<const Expr *, 2>>
        &Defs) {
  // (Aliases of aliases in any order: a few rounds.)
  for (unsigned Round = 0; Round < 4; ++Round) {
    bool Changed = false;
    for (const auto &[VD, L] : Defs) {
      const VarDecl *R = storageOf(VD);
      if (!R || R == VD)
        continue;
      ASTContext &Ctx = VD->getASTContext();
      SmallVector<const FieldDecl *, 2> Path;
      bool First = true, Same = true;
      for (const Expr *E : L) {
        if (E->IgnoreParenImpCasts()->isNullPointerConstant(
                Ctx, Expr::NPC_ValueDependentIsNotNull) ||
            basedOn(E, VD))
          continue;
        SmallVector<const FieldDecl *, 2> P;
        containerPath(E, MemberPaths, P);
        if (First)
          Path = P;
        else if (P != Path)
          Same = false;
        First = false;
      }
      if (!Same)
        Path.clear();
      auto It = MemberPaths.find(VD);
      if (Path.empty() ? It != MemberPaths.end()
                       : It == MemberPaths.end() || It->second != Path) {
        if (Path.empty())
          MemberPaths.erase(It);
        else
          MemberPaths[VD] = Path;
        Changed = true;
      }
    }
    if (!Changed)
      break;
  }
}

} // namespace grad
