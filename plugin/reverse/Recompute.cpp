//===- Recompute.cpp - Iterations recomputed before their reverse ---------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A loop whose iterations overwrite scratch storage (the GMM's `xc` and
/// `Qxc` per component) records, per iteration, every value of that
/// scratch its reverse reads. When an iteration reads nothing that changes
/// between its run and its reverse, other than what it writes itself
/// first, the reverse sweep can run the iteration's forward sweep again
/// just before reversing it: the scratch then holds that iteration's
/// values, which the reverse reads in place. The forward sweep runs the
/// plain body; only the values the iteration records despite that (a
/// counter it increments, say) travel through the stack, pushed and popped
/// within the same reverse iteration.
///
/// iterationRecomputable() is the check (what the body reads, writes and
/// calls; see its comment), loop() builds the body a second time with
/// RecomputeRoot set, which lets readOnly() read such scratch in place,
/// and a cost model picks one of the two builds.
///
//===----------------------------------------------------------------------===//

#include "ast/Diagnostics.h"
#include "analysis/Jumps.h"
#include "reverse/PullbackBuilder.h"
#include "ast/Records.h"
#include "ast/Rules.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace grad {

namespace {

/// Cost weights: an inner loop counts as running this many times (both
/// sides of the comparison use it); a call of a math function costs this
/// many floating-point operations. Integer work (indices, counters) is
/// not counted: both sweeps do it anyway.
constexpr unsigned InnerTrips = 8, CallCost = 10;
/// Recompute when the values no longer recorded, times this, reach the
/// floating-point operations recomputed. On the GMM objective (80 values
/// for 163 operations per iteration) a value's push and pop cost about
/// four operations: its gradient took 25% less time recomputing.
constexpr unsigned PushCost = 3;

bool scalarOrArray(QualType T) {
  while (const ArrayType *AT = T->getAsArrayTypeUnsafe())
    T = AT->getElementType();
  return T->isArithmeticType();
}

/// A std::vector of numbers.
bool numberVector(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T->getAsCXXRecordDecl());
  return Spec && isStdClass(T, "vector") &&
         Spec->getTemplateArgs().size() >= 1 &&
         Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type &&
         Spec->getTemplateArgs()[0].getAsType()->isArithmeticType();
}

/// Storage an iteration may keep its scratch in: numbers, arrays of
/// numbers, std::vectors of numbers (declared outside the loop: only their
/// elements are read and written, through `[]`).
bool scratchType(QualType T) {
  return scalarOrArray(T) || numberVector(T);
}

/// `v[i]` on a std::vector of numbers: v (and \p Idx), else null.
const VarDecl *vectorElement(const Expr *E, const Expr **Idx) {
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(E->IgnoreParens());
  if (!OC || OC->getOperator() != OO_Subscript || OC->getNumArgs() != 2)
    return nullptr;
  const VarDecl *V = refVar(OC->getArg(0));
  if (!V || !numberVector(V->getType()))
    return nullptr;
  *Idx = OC->getArg(1);
  return V;
}

/// Walks a loop body in execution order and checks that every iteration
/// can run again later with the same result.
class IterationCheck {
public:
  IterationCheck(const Activity &Act,
                 const llvm::DenseSet<const VarDecl *> &TopLevel,
                 const llvm::DenseMap<const VarDecl *, VarDecl *> &RevIndex,
                 const ForStmt *L, const VarDecl *Index)
      : Act(Act), TopLevel(TopLevel), RevIndex(RevIndex), L(L),
        Index(Index) {}

  bool run(std::string &Why, unsigned &Ops) {
    const Stmt *Body = L->getBody();
    if (const auto *CS = dyn_cast<CompoundStmt>(Body)) {
      for (const Stmt *S : CS->body())
        if (!topLevel(S))
          break;
    } else {
      topLevel(Body);
    }
    Why = Reason;
    Ops = Count;
    return Reason.empty();
  }

private:
  const Activity &Act;
  const llvm::DenseSet<const VarDecl *> &TopLevel;
  const llvm::DenseMap<const VarDecl *, VarDecl *> &RevIndex;
  const ForStmt *L;
  const VarDecl *Index;
  std::string Reason;
  unsigned Count = 0, Weight = 1;
  /// Declared inside the body: fresh in every iteration.
  llvm::DenseSet<const VarDecl *> Inner;
  /// Storage declared outside that the iteration writes before reading:
  /// scalars (null) and arrays written at [0, bound).
  llvm::DenseMap<const VarDecl *, const Expr *> Killed;
  /// Counters of the loops around the statement being walked.
  llvm::SmallVector<std::pair<const VarDecl *, const ForStmt *>, 4> Counters;

  bool fail(std::string Why) {
    if (Reason.empty())
      Reason = std::move(Why);
    return false;
  }
  static std::string quoted(const VarDecl *V) {
    return "'" + V->getNameAsString() + "'";
  }

  /// Never written anywhere in the function.
  bool unwritten(const VarDecl *V) const {
    return !Act.isWritten(V) && !Act.isDataWritten(V) && !Act.isAlias(V) &&
           !Act.isAddressTaken(V);
  }

  /// A loop bound whose value every use sees alike: a literal or a
  /// variable nothing writes.
  bool sameBound(const Expr *A, const Expr *B) const {
    A = A->IgnoreParenImpCasts();
    B = B->IgnoreParenImpCasts();
    if (const auto *IA = dyn_cast<IntegerLiteral>(A))
      if (const auto *IB = dyn_cast<IntegerLiteral>(B))
        return IA->getValue() == IB->getValue();
    const VarDecl *VA = refVar(A);
    return VA && VA == refVar(B) && unwritten(VA);
  }
  const ForStmt *counterLoop(const VarDecl *V) const {
    for (auto &[C, FS] : Counters)
      if (C == V)
        return FS;
    return nullptr;
  }
  bool nonNegative(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    if (const auto *IL = dyn_cast<IntegerLiteral>(E))
      return IL->getValue().isNonNegative();
    if (const auto *BO = dyn_cast<BinaryOperator>(E))
      return BO->getOpcode() == BO_Add && nonNegative(BO->getLHS()) &&
             nonNegative(BO->getRHS());
    const VarDecl *V = refVar(E);
    const ForStmt *FS = V ? counterLoop(V) : nullptr;
    int Step = 0;
    return FS && canonicalIndex(FS, Step) == V && Step > 0 &&
           nonNegative(V->getInit());
  }
  /// \p Idx is in [0, Bound): a counter counting up from >= 0 while below
  /// the same bound, or a literal below a literal bound.
  bool inRange(const Expr *Idx, const Expr *Bound) const {
    Idx = Idx->IgnoreParenImpCasts();
    if (const auto *IL = dyn_cast<IntegerLiteral>(Idx))
      if (const auto *BL = dyn_cast<IntegerLiteral>(Bound->IgnoreParenImpCasts()))
        return IL->getValue().ult(BL->getValue());
    const VarDecl *V = refVar(Idx);
    const ForStmt *FS = V ? counterLoop(V) : nullptr;
    if (!FS || !nonNegative(Idx))
      return false;
    const auto *C = dyn_cast_or_null<BinaryOperator>(
        FS->getCond() ? FS->getCond()->IgnoreParenImpCasts() : nullptr);
    return C && C->getOpcode() == BO_LT && refVar(C->getLHS()) == V &&
           sameBound(C->getRHS(), Bound);
  }

  /// A read of \p V (of element \p Idx of a one-dimensional array, if
  /// given).
  bool read(const VarDecl *V, const Expr *Idx) {
    if (Inner.count(V) || V == Index || RevIndex.count(V))
      return true;
    auto K = Killed.find(V);
    if (K != Killed.end()) {
      if (!K->second || (Idx && inRange(Idx, K->second)))
        return true;
      return fail("it reads " + quoted(V) +
                  " where the iteration may not have written it first");
    }
    if (isa<ParmVarDecl>(V) || !V->isLocalVarDeclOrParm()) {
      if (!unwritten(V))
        return fail("it reads " + quoted(V) + ", which the function writes");
      if (!isa<ParmVarDecl>(V) && !V->getType().isConstQualified() &&
          !(V->getType()->isArrayType() &&
            V->getType()->getAsArrayTypeUnsafe()->getElementType()
                .isConstQualified()))
        return fail("it reads the global " + quoted(V));
      return true;
    }
    if (!TopLevel.count(V))
      return fail("it reads " + quoted(V) + ", declared in an enclosing block");
    if (!scratchType(V->getType()) || Act.isAlias(V) ||
        Act.isAddressTaken(V) ||
        (Act.isWritten(V) && !Act.valueUnchangedAfter(V, L)))
      return fail("it reads " + quoted(V) +
                  ", which an earlier iteration or later code may change");
    if (Act.isDataWritten(V) && !Act.unchangedAfter(V, L))
      return fail("it reads " + quoted(V) +
                  ", which an earlier iteration or later code may change");
    return true;
  }
  bool write(const VarDecl *V) {
    if (Inner.count(V))
      return true;
    if (!TopLevel.count(V) || !scratchType(V->getType()) ||
        Act.isAlias(V) || Act.isAddressTaken(V))
      return fail("it writes " + quoted(V) +
                  ", which outlives the function's locals");
    return true;
  }

  /// The storage \p E denotes, written (and read too if \p AlsoRead).
  bool target(const Expr *E, bool AlsoRead) {
    E = E->IgnoreParens();
    if (const VarDecl *V = refVar(E))
      return write(V) && (!AlsoRead || read(V, nullptr));
    const Expr *VIdx = nullptr;
    if (const VarDecl *V = vectorElement(E, &VIdx))
      return write(V) && (!AlsoRead || read(V, VIdx)) && expr(VIdx);
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      // a[i] or a[i][j]: the array a, one or more indices.
      llvm::SmallVector<const Expr *, 2> Idx;
      const Expr *Base = AS;
      while (const auto *Sub =
                 dyn_cast<ArraySubscriptExpr>(Base->IgnoreParenImpCasts())) {
        Idx.push_back(Sub->getIdx());
        Base = Sub->getBase();
      }
      const VarDecl *V = refVar(Base);
      if (!V || !V->getType()->isArrayType())
        return fail("it writes through a pointer");
      if (!write(V) ||
          (AlsoRead && !read(V, Idx.size() == 1 ? Idx[0] : nullptr)))
        return false;
      for (const Expr *I : Idx)
        if (!expr(I))
          return false;
      return true;
    }
    return fail("it writes memory other than its locals");
  }

  /// The weight of \p E if it computes a floating-point value.
  unsigned flops(const Expr *E) const {
    return E->getType()->isRealFloatingType() ? Weight : 0;
  }

  bool expr(const Expr *E) {
    E = E->IgnoreParens();
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(E))
      return expr(IC->getSubExpr());
    if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
      return expr(MT->getSubExpr()); // (`std::min(0.5, t)`)
    if (const auto *EC = dyn_cast<ExprWithCleanups>(E))
      return expr(EC->getSubExpr());
    if (isa<IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr,
            CharacterLiteral, UnaryExprOrTypeTraitExpr>(E))
      return true;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (isa<EnumConstantDecl>(DRE->getDecl()))
        return true;
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        return read(V, nullptr);
      return fail("it names '" + DRE->getDecl()->getNameAsString() + "'");
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      const Expr *Base = AS->getBase()->IgnoreParenImpCasts();
      if (const VarDecl *V = refVar(Base)) {
        if (!read(V, V->getType()->isArrayType() ? AS->getIdx() : nullptr))
          return false;
      } else if (!expr(Base)) {
        return false;
      }
      return expr(AS->getIdx());
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E))
      return binary(BO);
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      return unary(UO);
    const Expr *VIdx = nullptr;
    if (const VarDecl *V = vectorElement(E, &VIdx))
      return read(V, VIdx) && expr(VIdx);
    if (const auto *CO = dyn_cast<ConditionalOperator>(E))
      return expr(CO->getCond()) && expr(CO->getTrueExpr()) &&
             expr(CO->getFalseExpr());
    if (const auto *EC = dyn_cast<ExplicitCastExpr>(E)) {
      if (!E->getType()->isArithmeticType())
        return fail("it converts to a type that is not arithmetic");
      return expr(EC->getSubExpr());
    }
    if (const auto *CE = dyn_cast<CallExpr>(E))
      return call(CE);
    return fail("it contains " + constructName(E));
  }

  /// An assignment (to an accumulator, or a target) or arithmetic.
  bool binary(const BinaryOperator *BO) {
    if (BO->isAssignmentOp()) {
      Count += BO->isCompoundAssignmentOp() ? flops(BO) : 0;
      // An accumulator (`s += e` on a scalar declared outside): its
      // value is read by no derivative and, as nothing else in the
      // iteration may read it (it is written), by no recomputation.
      if (BO->getOpcode() == BO_AddAssign || BO->getOpcode() == BO_SubAssign)
        if (const VarDecl *V = refVar(BO->getLHS());
            V && !Inner.count(V) && !V->getType()->isArrayType() &&
            V->getType()->isArithmeticType())
          return expr(BO->getRHS()) && write(V);
      return expr(BO->getRHS()) &&
             target(BO->getLHS(), BO->isCompoundAssignmentOp());
    }
    Count += flops(BO);
    return expr(BO->getLHS()) && expr(BO->getRHS());
  }

  bool unary(const UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp()) {
      Count += flops(UO);
      return target(UO->getSubExpr(), true);
    }
    if (UO->getOpcode() == UO_Deref) {
      const VarDecl *V = refVar(UO->getSubExpr());
      return V && isa<ParmVarDecl>(V) ? read(V, nullptr)
                                      : fail("it reads through a pointer");
    }
    if (UO->getOpcode() == UO_AddrOf)
      return fail("it takes an address");
    Count += UO->getOpcode() == UO_Plus ? 0 : flops(UO);
    return expr(UO->getSubExpr());
  }

  /// A call of a function with a derivative rule (sin, exp, ...).
  bool call(const CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD || isa<CXXMemberCallExpr, CXXOperatorCallExpr>(CE) || !findRule(FD))
      return fail("it calls " + (FD ? "'" + nameOf(FD) + "'"
                                    : std::string("a function")));
    Count += CallCost * Weight;
    for (const Expr *A : CE->arguments())
      if (!expr(A))
        return false;
    return true;
  }

  bool stmt(const Stmt *S) {
    if (const auto *E = dyn_cast<Expr>(S))
      return expr(E);
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *C : CS->body())
        if (!stmt(C))
          return false;
      return true;
    }
    if (isa<NullStmt>(S))
      return true;
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *Dc : DS->decls()) {
        const auto *V = dyn_cast<VarDecl>(Dc);
        if (!V || !V->hasLocalStorage() || !scalarOrArray(V->getType()) ||
            V->getType()->isVariableArrayType())
          return fail("it declares " +
                      (V ? quoted(V) : std::string("something")) +
                      ", which is not a number or an array of numbers");
        if (const Expr *Init = V->getInit()) {
          if (const auto *IL = dyn_cast<InitListExpr>(Init->IgnoreImplicit())) {
            for (const Expr *I : IL->inits())
              if (!expr(I))
                return false;
          } else if (!expr(Init)) {
            return false;
          }
        }
        Inner.insert(V);
      }
      return true;
    }
    if (const auto *FS = dyn_cast<ForStmt>(S)) {
      if (FS->getConditionVariable())
        return fail("it declares a variable in a loop condition");
      if (FS->getInit() && !stmt(FS->getInit()))
        return false;
      int Step = 0;
      const VarDecl *C = canonicalIndex(FS, Step);
      if (C)
        Counters.push_back({C, FS});
      unsigned Saved = Weight;
      Weight *= InnerTrips;
      bool OK = (!FS->getCond() || expr(FS->getCond())) &&
                (!FS->getInc() || expr(FS->getInc())) && stmt(FS->getBody());
      Weight = Saved;
      if (C)
        Counters.pop_back();
      return OK;
    }
    if (isa<WhileStmt, DoStmt>(S)) {
      const auto *WS = dyn_cast<WhileStmt>(S);
      if (WS && WS->getConditionVariable())
        return fail("it declares a variable in a loop condition");
      const Expr *Cond = WS ? WS->getCond() : cast<DoStmt>(S)->getCond();
      const Stmt *Body = WS ? WS->getBody() : cast<DoStmt>(S)->getBody();
      unsigned Saved = Weight;
      Weight *= InnerTrips;
      bool OK = expr(Cond) && stmt(Body);
      Weight = Saved;
      return OK;
    }
    if (const auto *IS = dyn_cast<IfStmt>(S)) {
      if (IS->getInit() || IS->getConditionVariable() || IS->isConsteval())
        return fail("it has an 'if' with a declaration");
      return expr(IS->getCond()) && stmt(IS->getThen()) &&
             (!IS->getElse() || stmt(IS->getElse()));
    }
    return fail("it contains " + constructName(S));
  }

  /// A statement the iteration runs exactly once, in order: also kills.
  bool topLevel(const Stmt *S) {
    // `v = e;` for a scalar declared outside: written before any read.
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->getOpcode() == BO_Assign)
      if (const VarDecl *V = refVar(BO->getLHS());
          V && !Inner.count(V) && !V->getType()->isArrayType()) {
        if (!stmt(S))
          return false;
        Killed.insert({V, nullptr});
        return true;
      }
    // for (int c = 0; c < n; ++c) a[c] = e; (b[c] = f; ...): a and b are
    // written at [0, n) before any read.
    if (const auto *FS = dyn_cast<ForStmt>(S)) {
      int Step = 0;
      const VarDecl *C = canonicalIndex(FS, Step);
      const auto *Cond = dyn_cast_or_null<BinaryOperator>(
          FS->getCond() ? FS->getCond()->IgnoreParenImpCasts() : nullptr);
      const auto *Zero = C ? dyn_cast<IntegerLiteral>(
                                 C->getInit()->IgnoreParenImpCasts())
                           : nullptr;
      llvm::SmallVector<const VarDecl *, 2> Filled;
      if (C && Step > 0 && Zero && Zero->getValue() == 0 && Cond &&
          Cond->getOpcode() == BO_LT && refVar(Cond->getLHS()) == C &&
          sameBound(Cond->getRHS(), Cond->getRHS())) {
        const Stmt *Body = FS->getBody();
        llvm::ArrayRef<Stmt *> Parts;
        if (const auto *CS = dyn_cast<CompoundStmt>(Body))
          Parts = llvm::ArrayRef<Stmt *>(CS->body_begin(), CS->body_end());
        else
          Parts = llvm::ArrayRef<Stmt *>(const_cast<Stmt **>(&Body), 1);
        for (const Stmt *P : Parts) {
          const auto *A = dyn_cast<BinaryOperator>(P);
          const Expr *LHS =
              A && A->getOpcode() == BO_Assign ? A->getLHS() : nullptr;
          const auto *AS = LHS ? dyn_cast<ArraySubscriptExpr>(
                                     LHS->IgnoreParens())
                               : nullptr;
          const Expr *Idx = AS ? AS->getIdx() : nullptr;
          const VarDecl *V =
              AS ? refVar(AS->getBase()->IgnoreParenImpCasts())
                 : LHS ? vectorElement(LHS, &Idx) : nullptr;
          bool OneDim =
              V && (numberVector(V->getType()) ||
                    (V->getType()->isConstantArrayType() &&
                     !V->getType()->getAsArrayTypeUnsafe()->getElementType()
                          ->isArrayType()));
          if (!V || refVar(Idx) != C || Inner.count(V) || !OneDim) {
            Filled.clear();
            break;
          }
          Filled.push_back(V);
        }
      }
      if (!stmt(S))
        return false;
      for (const VarDecl *V : Filled)
        Killed.insert({V, Cond->getRHS()});
      return true;
    }
    return stmt(S);
  }
};

/// Values pushed on the stack by \p S (inner loops weighted).
struct PushCounter : RecursiveASTVisitor<PushCounter> {
  const VarDecl *Stack;
  /// Values verify mode keeps (not counted: verify changes no choice).
  const llvm::DenseSet<const VarDecl *> *Skip;
  unsigned Weight = 1, Count = 0;
  bool loopBody(Stmt *S) {
    unsigned Saved = Weight;
    Weight *= InnerTrips;
    bool R = TraverseStmt(S);
    Weight = Saved;
    return R;
  }
  bool TraverseForStmt(ForStmt *FS) { return loopBody(FS->getBody()); }
  bool TraverseWhileStmt(WhileStmt *WS) { return loopBody(WS->getBody()); }
  bool TraverseDoStmt(DoStmt *DS) { return loopBody(DS->getBody()); }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
    const auto *M = MC->getMethodDecl();
    if (M && M->getIdentifier() &&
        refVar(MC->getImplicitObjectArgument()) == Stack) {
      if (M->getName() == "push" || M->getName() == "push_all")
        for (const Expr *A : MC->arguments())
          if (!Skip->count(refVar(A->IgnoreParenImpCasts())))
            Count += Weight;
    }
    return true;
  }
};

} // namespace

bool PullbackBuilder::iterationRecomputable(const ForStmt *L,
                                            const VarDecl *Index,
                                            std::string &Why,
                                            unsigned &Ops) const {
  IterationCheck C(Act, TopLevelLocals, RevIndex, L, Index);
  return C.run(Why, Ops);
}

unsigned PullbackBuilder::pushCount(ArrayRef<Stmt *> Sts) const {
  if (!Stack)
    return 0;
  PushCounter C;
  C.Stack = Stack;
  C.Skip = &VerifyTemps;
  for (Stmt *S : Sts)
    C.TraverseStmt(S);
  return C.Count;
}

Stmt *PullbackBuilder::withoutPushes(Stmt *S) {
  if (!S)
    return S;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
    const auto *M = MC->getMethodDecl();
    if (M && M->getIdentifier() &&
        (M->getName() == "push" || M->getName() == "push_all") &&
        refVar(MC->getImplicitObjectArgument()) == Stack)
      return nullptr;
    return S;
  }
  if (auto *CS = dyn_cast<CompoundStmt>(S)) {
    Stmts Kept;
    for (Stmt *C : CS->body())
      if (Stmt *K = withoutPushes(C))
        Kept.push_back(K);
    return B.block(Kept);
  }
  auto Body = [&](Stmt *Sub) {
    Stmt *K = withoutPushes(Sub);
    return K ? K : B.block({});
  };
  if (auto *FS = dyn_cast<ForStmt>(S))
    FS->setBody(Body(FS->getBody()));
  else if (auto *WS = dyn_cast<WhileStmt>(S))
    WS->setBody(Body(WS->getBody()));
  else if (auto *DS = dyn_cast<DoStmt>(S))
    DS->setBody(Body(DS->getBody()));
  else if (auto *IS = dyn_cast<IfStmt>(S)) {
    IS->setThen(Body(IS->getThen()));
    if (IS->getElse())
      IS->setElse(Body(IS->getElse()));
  }
  return S;
}

bool PullbackBuilder::recomputeIterations(const ForStmt *L,
                                          const VarDecl *Index,
                                          Stmts &BodyFwd, Stmts &BodyRev,
                                          Stmts &Again) {
  unsigned Recorded = pushCount(BodyFwd);
  if (!Recorded || !D.options().Recompute)
    return false;
  std::string Why;
  unsigned Ops = 0;
  if (!iterationRecomputable(L, Index, Why, Ops))
    return false;
  // The second build: the iteration's forward sweep as the reverse sweep
  // runs it, with the loop indices of the reverse sweep and its scratch
  // read in place. Recorded values are looked up by primal expression:
  // those of the first build must not be found.
  // (Declined, the second build leaves no trace: its temporaries and
  // names go.)
  auto SavedValues = Values;
  auto SavedNames = Names;
  auto SavedAdjoints = Adjoints;
  size_t SavedPrologue = Prologue.size(), SavedHoisted = Hoisted.size();
  struct Nodes : RecursiveASTVisitor<Nodes> {
    llvm::DenseMap<const Expr *, VarDecl *> *Values;
    bool VisitExpr(Expr *E) {
      Values->erase(E);
      return true;
    }
  } N;
  N.Values = &Values;
  N.TraverseStmt(const_cast<Stmt *>(L->getBody()));
  auto SavedMap = VarMap;
  for (auto &[Primal, Rev] : RevIndex)
    VarMap[Primal] = Rev;
  RecomputeRoot = L;
  Stmts Fwd2, Rev2;
  stmt(L->getBody(), Fwd2, Rev2);
  RecomputeRoot = nullptr;
  VarMap = std::move(SavedMap);
  if (Failed)
    return false;
  unsigned Still = pushCount(Fwd2);
  unsigned Saved = Recorded > Still ? Recorded - Still : 0;
  bool Chosen = Saved && (PushCost * Saved >= Ops ||
                          D.options().RecomputeAlways);
  if (D.options().Remarks && Saved)
    report(S.Diags,
           Chosen ? Diag::RemarkRecompute : Diag::RemarkRecomputeDeclined,
           L->getBeginLoc())
        << nameOf(Primal) << Saved << Ops;
  if (!Chosen) {
    Values = std::move(SavedValues);
    Names = std::move(SavedNames);
    Adjoints = std::move(SavedAdjoints);
    Prologue.resize(SavedPrologue);
    Hoisted.resize(SavedHoisted);
    return false;
  }
  for (Stmt *&St : BodyFwd)
    St = withoutPushes(St);
  llvm::erase(BodyFwd, nullptr);
  BodyRev = std::move(Rev2);
  Again = std::move(Fwd2);
  ++RecomputedLoops;
  return true;
}

} // namespace grad
