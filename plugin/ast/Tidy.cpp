//===- Tidy.cpp - Removing what generated code never reads ------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "ast/Tidy.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace grad {
namespace {

/// The variable \p E writes as a whole when its value is discarded
/// (`v = e`, `v op= e`, `++v`, `v--`), or null.
const VarDecl *writtenVar(const Expr *E, const Expr **Rhs) {
  E = E->IgnoreParens();
  *Rhs = nullptr;
  const Expr *Target = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (!BO->isAssignmentOp())
      return nullptr;
    Target = BO->getLHS();
    *Rhs = BO->getRHS();
  } else if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (!UO->isIncrementDecrementOp())
      return nullptr;
    Target = UO->getSubExpr();
  } else {
    return nullptr;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Target->IgnoreParens()))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

/// Is \p VD a local whose dead writes may go: scalar, not a reference, not
/// volatile, not static.
bool removable(const VarDecl *VD) {
  if (!VD || isa<ParmVarDecl>(VD) || !VD->isLocalVarDecl() ||
      VD->isStaticLocal() || VD->hasAttrs())
    return false;
  QualType T = VD->getType();
  return T->isScalarType() && !T.isVolatileQualified();
}

/// The runtime stack binding (`stack &_stack = thread_stack()`), which
/// has no effect worth keeping when nothing uses it.
bool isStackBinding(const VarDecl *VD) {
  if (!VD->getType()->isReferenceType() || !VD->getInit())
    return false;
  const auto *CE = dyn_cast<CallExpr>(VD->getInit()->IgnoreImplicit());
  const FunctionDecl *F = CE ? CE->getDirectCallee() : nullptr;
  return F && F->getIdentifier() && F->getName() == "thread_stack";
}

/// The <cmath> / <algorithm> functions that only compute a value.
bool isMathName(StringRef N) {
  static const llvm::StringSet<> Names = {
      "sin",   "cos",   "tan",   "asin",     "acos",      "atan",  "atan2",
      "sinh",  "cosh",  "tanh",  "asinh",    "acosh",     "atanh", "exp",
      "exp2",  "expm1", "log",   "log2",     "log10",     "log1p", "sqrt",
      "cbrt",  "pow",   "hypot", "fabs",     "abs",       "fmin",  "fmax",
      "fma",   "erf",   "erfc",  "floor",    "ceil",      "round", "trunc",
      "min",   "max",   "clamp", "copysign", "remainder", "fmod",  "ldexp"};
  return Names.contains(N);
}

/// True if evaluating \p E only computes a value: arithmetic, reads,
/// builtins and math library functions, and the accessors of standard
/// classes. (A dead write's right operand
/// that is not effect-free stays as a statement.)
bool effectFree(const Expr *E, const ASTContext &Ctx) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const Builtin::Context *Builtins = nullptr;
    bool Effect = false;
    /// A builtin that only computes (sin, fabs; not printf or free).
    bool pureBuiltin(unsigned ID) const {
      return ID && (Builtins->isConst(ID) || Builtins->isPure(ID) ||
                    Builtins->isConstWithoutErrnoAndExceptions(ID) ||
                    Builtins->isConstWithoutExceptions(ID));
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      Effect |= BO->isAssignmentOp();
      return !Effect;
    }
    bool VisitUnaryOperator(UnaryOperator *UO) {
      Effect |= UO->isIncrementDecrementOp();
      return !Effect;
    }
    bool VisitCallExpr(CallExpr *CE) {
      const FunctionDecl *F = CE->getDirectCallee();
      bool Free = false;
      if (F) {
        if (pureBuiltin(F->getBuiltinID()) || F->hasAttr<ConstAttr>() ||
            F->hasAttr<PureAttr>())
          Free = true;
        else if (const auto *MD = dyn_cast<CXXMethodDecl>(F))
          // Accessors of standard classes (not `at`, which may throw);
          // a user's const member function may still print or throw.
          Free = MD->getParent()->isInStdNamespace() &&
                 (MD->getOverloadedOperator() == OO_Subscript ||
                  (MD->isConst() && MD->getIdentifier() &&
                   MD->getName() != "at"));
        else if (F->isInStdNamespace() && F->getIdentifier())
          // std::sin, std::pow, std::max, ... of arithmetic arguments.
          Free = isMathName(F->getName()) &&
                 llvm::all_of(F->parameters(), [](const ParmVarDecl *P) {
                   return P->getType()
                       .getNonReferenceType()
                       ->isArithmeticType();
                 });
      }
      // A call returning nothing is made for its effects (a generated
      // pullback is a const member of std::multiplies, say).
      Effect |= !Free || CE->getType()->isVoidType();
      return !Effect;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *) {
      Effect = true;
      return false;
    }
    bool VisitCXXNewExpr(CXXNewExpr *) {
      Effect = true;
      return false;
    }
    bool VisitCXXDeleteExpr(CXXDeleteExpr *) {
      Effect = true;
      return false;
    }
    bool VisitCXXThrowExpr(CXXThrowExpr *) {
      Effect = true;
      return false;
    }
    bool VisitLambdaExpr(LambdaExpr *) {
      Effect = true;
      return false;
    }
    bool VisitStmtExpr(StmtExpr *) {
      Effect = true;
      return false;
    }
  } F;
  F.Builtins = &Ctx.BuiltinInfo;
  F.TraverseStmt(const_cast<Expr *>(E));
  return !F.Effect && !E->getType().isVolatileQualified();
}

/// Counts, per variable, the occurrences that read it (every occurrence but
/// a dead write's target).
struct Uses : RecursiveASTVisitor<Uses> {
  llvm::DenseMap<const VarDecl *, unsigned> Reads;
  /// Targets of writes whose value is discarded: not reads.
  llvm::DenseSet<const DeclRefExpr *> WriteTargets;

  /// Inside an expression (a lambda's or a statement expression's body)
  /// every occurrence is a read: the remover does not go there.
  unsigned InExpr = 0;
  bool TraverseLambdaExpr(LambdaExpr *E) {
    ++InExpr;
    bool R = RecursiveASTVisitor::TraverseLambdaExpr(E);
    --InExpr;
    return R;
  }
  bool TraverseStmtExpr(StmtExpr *E) {
    ++InExpr;
    bool R = RecursiveASTVisitor::TraverseStmtExpr(E);
    --InExpr;
    return R;
  }

  void discarded(const Expr *E) {
    if (!E || InExpr)
      return;
    E = E->IgnoreParens();
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && BO->getOpcode() == BO_Comma) {
      discarded(BO->getLHS());
      discarded(BO->getRHS());
      return;
    }
    const Expr *Rhs;
    if (const VarDecl *VD = writtenVar(E, &Rhs); VD && removable(VD)) {
      const Expr *Target = isa<BinaryOperator>(E)
                               ? cast<BinaryOperator>(E)->getLHS()
                               : cast<UnaryOperator>(E)->getSubExpr();
      WriteTargets.insert(cast<DeclRefExpr>(Target->IgnoreParens()));
    }
  }
  bool VisitCompoundStmt(CompoundStmt *CS) {
    for (Stmt *St : CS->body())
      if (auto *E = dyn_cast_or_null<Expr>(St))
        discarded(E);
    return true;
  }
  bool VisitForStmt(ForStmt *FS) {
    discarded(FS->getInc());
    if (auto *E = dyn_cast_or_null<Expr>(FS->getInit()))
      discarded(E);
    if (auto *E = dyn_cast_or_null<Expr>(FS->getBody()))
      discarded(E);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (!WriteTargets.count(DRE))
        ++Reads[VD];
    return true;
  }
};

class Remover {
public:
  Remover(ASTContext &Ctx, const llvm::DenseMap<const VarDecl *, unsigned> &R)
      : Ctx(Ctx), Reads(R) {}
  bool Changed = false;

  bool dead(const VarDecl *VD) const {
    return (removable(VD) || isStackBinding(VD)) && !Reads.count(VD);
  }

  /// \p E with its dead writes removed (null if nothing remains), for a
  /// context that discards its value.
  Expr *discarded(Expr *E) {
    Expr *Bare = E->IgnoreParens();
    if (auto *BO = dyn_cast<BinaryOperator>(Bare);
        BO && BO->getOpcode() == BO_Comma) {
      Expr *L = discarded(BO->getLHS());
      Expr *R = discarded(BO->getRHS());
      if (!L || !R) {
        Changed |= true;
        return L ? L : R;
      }
      BO->setLHS(L);
      BO->setRHS(R);
      return E;
    }
    const Expr *Rhs;
    if (const VarDecl *VD = writtenVar(Bare, &Rhs); VD && dead(VD)) {
      Changed = true;
      return Rhs && !effectFree(Rhs, Ctx) ? const_cast<Expr *>(Rhs) : nullptr;
    }
    // `*p++;`: only the increment matters.
    if (auto *UO = dyn_cast<UnaryOperator>(Bare);
        UO && UO->getOpcode() == UO_Deref &&
        !UO->getType().isVolatileQualified() &&
        !effectFree(UO->getSubExpr(), Ctx)) {
      Changed = true;
      return discarded(UO->getSubExpr());
    }
    // A value nobody reads, without effects: `u` left of a comma.
    if (effectFree(E, Ctx)) {
      Changed = true;
      return nullptr;
    }
    return E;
  }

  /// \p St rewritten; null if it goes away.
  Stmt *stmt(Stmt *St) {
    if (!St)
      return nullptr;
    if (auto *E = dyn_cast<Expr>(St))
      return discarded(E);
    if (auto *DS = dyn_cast<DeclStmt>(St)) {
      if (!DS->isSingleDecl())
        return St;
      const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl());
      if (!VD || !dead(VD))
        return St;
      Changed = true;
      Expr *Init = const_cast<Expr *>(VD->getInit());
      if (Init && !isStackBinding(VD) && !effectFree(Init, Ctx))
        return Init;
      return nullptr;
    }
    if (auto *CS = dyn_cast<CompoundStmt>(St)) {
      llvm::SmallVector<Stmt *, 16> Kept;
      bool Any = false;
      for (Stmt *Child : CS->body()) {
        Stmt *N = stmt(Child);
        Any |= N != Child;
        if (N)
          Kept.push_back(N);
      }
      if (!Any)
        return CS;
      return CompoundStmt::Create(Ctx, Kept,
                                  CS->hasStoredFPFeatures()
                                      ? CS->getStoredFPFeatures()
                                      : FPOptionsOverride(),
                                  CS->getLBracLoc(), CS->getRBracLoc());
    }
    if (auto *FS = dyn_cast<ForStmt>(St)) {
      if (Expr *Inc = FS->getInc())
        FS->setInc(discarded(Inc));
      if (auto *Init = dyn_cast_or_null<Expr>(FS->getInit()))
        FS->setInit(discarded(Init));
      FS->setBody(nonNull(stmt(FS->getBody()), FS->getBody()));
      return FS;
    }
    // Other statements: their statement children (not expressions:
    // conditions, values).
    for (Stmt *&Child : St->children())
      if (Child && !isa<Expr>(Child))
        Child = nonNull(stmt(Child), Child);
    // An `if` left with nothing to do in either branch.
    auto Empty = [](const Stmt *S) {
      const auto *CS = dyn_cast_or_null<CompoundStmt>(S);
      return !S || isa<NullStmt>(S) || (CS && CS->body_empty());
    };
    if (auto *IS = dyn_cast<IfStmt>(St);
        IS && !IS->getInit() && !IS->getConditionVariable() &&
        !IS->isConstexpr() && Empty(IS->getThen()) && Empty(IS->getElse()) &&
        effectFree(IS->getCond(), Ctx)) {
      Changed = true;
      return nullptr;
    }
    return St;
  }

private:
  /// A removed statement in a position that needs one becomes `;`.
  Stmt *nonNull(Stmt *N, Stmt *Old) {
    if (N)
      return N;
    return new (Ctx) NullStmt(Old->getBeginLoc());
  }

  ASTContext &Ctx;
  const llvm::DenseMap<const VarDecl *, unsigned> &Reads;
};

/// Is \p T the runtime's grad::detail::sin_cos_pair<F>?
bool isSinCosPair(QualType T) {
  const auto *RD = T->getAsCXXRecordDecl();
  return RD && RD->getIdentifier() && RD->getName() == "sin_cos_pair";
}

/// The uses of each sin_cos_pair variable: whole, by member, and the
/// sin_cos calls assigned to it.
struct SinCosPairUses : RecursiveASTVisitor<SinCosPairUses> {
  struct Use {
    unsigned All = 0, Members = 0;
    bool Sin = false, Cos = false;
    llvm::SmallVector<CallExpr *, 2> Calls;
  };
  llvm::DenseMap<const VarDecl *, Use> Pairs;
  static const VarDecl *pairVar(const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    return VD && isSinCosPair(VD->getType()) ? VD : nullptr;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const VarDecl *VD = pairVar(DRE))
      ++Pairs[VD].All;
    return true;
  }
  bool VisitMemberExpr(MemberExpr *ME) {
    if (const VarDecl *VD = pairVar(ME->getBase())) {
      Use &U = Pairs[VD];
      ++U.Members;
      StringRef N = ME->getMemberDecl()->getName();
      (N == "__sin" ? U.Sin : U.Cos) = true;
    }
    return true;
  }
  // (`_tN = sin_cos(x)` calls the pair's operator=.)
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    if (OC->getOperator() != OO_Equal || OC->getNumArgs() != 2)
      return true;
    const VarDecl *VD = pairVar(OC->getArg(0));
    auto *CE = dyn_cast<CallExpr>(OC->getArg(1)->IgnoreImplicit());
    const FunctionDecl *F = CE ? CE->getDirectCallee() : nullptr;
    if (VD && F && F->getIdentifier() && F->getName() == "sin_cos") {
      Use &U = Pairs[VD];
      ++U.Members; // (the target is not a read)
      U.Calls.push_back(CE);
    }
    return true;
  }
};

/// The runtime's `pair_sin` (\p Sin) or `pair_cos` next to \p SinCos, of
/// the same parameter and result types; null if there is none.
FunctionDecl *singleValueFunction(ASTContext &Ctx, const FunctionDecl *SinCos,
                                  bool Sin) {
  const DeclContext *DC = SinCos->getDeclContext();
  FunctionDecl *NewF = nullptr;
  for (NamedDecl *ND :
       DC->lookup(&Ctx.Idents.get(Sin ? "pair_sin" : "pair_cos")))
    if (auto *Cand = dyn_cast<FunctionDecl>(ND))
      if (Cand->getNumParams() == 1 &&
          Ctx.hasSameType(Cand->getParamDecl(0)->getType(),
                          SinCos->getParamDecl(0)->getType()) &&
          Ctx.hasSameType(Cand->getReturnType(), SinCos->getReturnType()))
        NewF = Cand;
  return NewF;
}

/// A pullback's forward sweep computes an active sin(x) or cos(x) as
/// `_tN = sin_cos(x)` (reverse/ForwardSweep.cpp); when nothing reads the call's own value
/// (it only fed a discarded return value), only the partial's member is
/// read: the call then computes that one value (`pair_cos(x)`), which costs
/// one libm call where sincos costs about one and a half.
void narrowSinCosPairs(Stmt *Body, ASTContext &Ctx) {
  SinCosPairUses F;
  F.TraverseStmt(Body);
  // Calls on the same argument are merged into one by the optimiser (the
  // primal's sin(theta) and cos(theta)): a pair that has such a sibling
  // stays whole.
  auto Key = [&](const CallExpr *CE) {
    llvm::FoldingSetNodeID ID;
    CE->getArg(0)->IgnoreParenImpCasts()->Profile(ID, Ctx, /*Canonical=*/true);
    return ID;
  };
  auto HasSibling = [&](const CallExpr *CE) {
    llvm::FoldingSetNodeID K = Key(CE);
    for (auto &[OtherVD, Other] : F.Pairs)
      for (const CallExpr *O : Other.Calls)
        if (O != CE && O->getNumArgs() == 1 && Key(O) == K)
          return true;
    return false;
  };
  for (auto &[VD, U] : F.Pairs) {
    // Read whole (pushed on the stack, kept by a split half), or both
    // members read, or not made by sin_cos: left as it is.
    if (U.All != U.Members || U.Sin == U.Cos || U.Calls.empty())
      continue;
    for (CallExpr *CE : U.Calls) {
      auto *Old = dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreImplicit());
      const FunctionDecl *OldF = CE->getDirectCallee();
      if (!Old || !OldF || CE->getNumArgs() != 1 || HasSibling(CE))
        continue;
      FunctionDecl *NewF = singleValueFunction(Ctx, OldF, U.Sin);
      if (!NewF)
        continue;
      auto *Ref = DeclRefExpr::Create(
          Ctx, Old->getQualifierLoc(), SourceLocation(), NewF,
          /*RefersToEnclosingVariableOrCapture=*/false, Old->getLocation(),
          NewF->getType(), VK_LValue);
      CE->setCallee(ImplicitCastExpr::Create(
          Ctx, Ctx.getPointerType(NewF->getType()),
          CK_FunctionToPointerDecay, Ref, nullptr, VK_PRValue,
          FPOptionsOverride()));
      NewF->setIsUsed();
    }
  }
}

/// Statements whose value is discarded and whose form Clang warns about
/// (`a.f() + y;`, `*p++;`, a [[nodiscard]] call) become
/// `static_cast<void>(...)`: the builders replay expressions for their
/// effects, and the printed code says so (-Wunused-value).
struct DiscardValues : RecursiveASTVisitor<DiscardValues> {
  ASTContext &Ctx;
  explicit DiscardValues(ASTContext &Ctx) : Ctx(Ctx) {}
  bool VisitCompoundStmt(CompoundStmt *CS) {
    for (Stmt *&S : CS->body()) {
      auto *E = dyn_cast_or_null<Expr>(S);
      const Expr *Warn;
      SourceLocation L;
      SourceRange R1, R2;
      if (!E || E->getType()->isVoidType() ||
          !E->isUnusedResultAWarning(Warn, L, R1, R2, Ctx))
        continue;
      SourceLocation B = E->getBeginLoc();
      S = CXXStaticCastExpr::Create(
          Ctx, Ctx.VoidTy, VK_PRValue, CK_ToVoid, E, nullptr,
          Ctx.getTrivialTypeSourceInfo(Ctx.VoidTy, B), FPOptionsOverride(), B,
          E->getEndLoc(), SourceRange(B, B));
    }
    return true;
  }
};

/// How tightly an expression binds when printed (higher binds tighter);
/// only what the builders put under another operator.
static int precedence(const Expr *E) {
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    switch (B->getOpcode()) {
    case BO_PtrMemD: case BO_PtrMemI: return 14;
    case BO_Mul: case BO_Div: case BO_Rem: return 13;
    case BO_Add: case BO_Sub: return 12;
    case BO_Shl: case BO_Shr: return 11;
    case BO_Cmp: return 10;
    case BO_LT: case BO_GT: case BO_LE: case BO_GE: return 9;
    case BO_EQ: case BO_NE: return 8;
    case BO_And: return 7;
    case BO_Xor: return 6;
    case BO_Or: return 5;
    case BO_LAnd: return 4;
    case BO_LOr: return 3;
    case BO_Comma: return 0;
    default: return 2; // assignments
    }
  }
  if (isa<ConditionalOperator, BinaryConditionalOperator>(E))
    return 2;
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return U->isPostfix() ? 16 : 15;
  if (isa<CStyleCastExpr>(E))
    return 15;
  return 17; // names, literals, calls, members, subscripts, parentheses
}

/// Builders compose expressions as trees, and a tree prints as C++ only
/// with the parentheses its shape needs (`(*p)++`, not `*p++`): this adds
/// them where an operand binds less tightly than its place requires.
struct Parenthesize : RecursiveASTVisitor<Parenthesize> {
  ASTContext &Ctx;
  explicit Parenthesize(ASTContext &Ctx) : Ctx(Ctx) {}

  /// The operand in \p Slot, below implicit casts, in parentheses when it
  /// binds less tightly than \p Need.
  void wrap(Stmt *&Slot, int Need) {
    Stmt **At = &Slot;
    while (auto *ICE = dyn_cast_or_null<ImplicitCastExpr>(*At))
      At = &*ICE->child_begin();
    auto *E = dyn_cast_or_null<Expr>(*At);
    if (!E || precedence(E) >= Need)
      return;
    *At = new (Ctx) ParenExpr(E->getBeginLoc(), E->getEndLoc(), E);
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    wrap(*U->child_begin(), U->isPostfix() ? 16 : 15);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *M) {
    wrap(*M->child_begin(), 16);
    return true;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *A) {
    wrap(*A->child_begin(), 16);
    return true;
  }
  bool VisitCStyleCastExpr(CStyleCastExpr *C) {
    wrap(*C->child_begin(), 15);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    int P = precedence(B);
    auto It = B->child_begin();
    // Left-associative but assignments: a right operand of the same
    // precedence needs parentheses (`a - (b - c)`), a left one does not.
    bool Assign = B->isAssignmentOp();
    wrap(*It, Assign ? P + 1 : P);
    ++It;
    wrap(*It, Assign || B->getOpcode() == BO_Comma ? P : P + 1);
    return true;
  }
  bool VisitConditionalOperator(ConditionalOperator *C) {
    auto It = C->child_begin();
    wrap(*It, 3); // the condition
    return true;
  }
};

/// A braced list the builders made has only its semantic form, which
/// holds the members' default initializers too; printed, those are empty
/// (`{w, , }`). Gives such lists the form the user writes: without the
/// trailing defaults (`{w}`).
struct SpellInitLists : RecursiveASTVisitor<SpellInitLists> {
  ASTContext &Ctx;
  explicit SpellInitLists(ASTContext &Ctx) : Ctx(Ctx) {}
  static bool isDefault(const Expr *E) {
    return !E || isa<CXXDefaultInitExpr, ImplicitValueInitExpr>(
                     E->IgnoreImplicit());
  }
  bool VisitInitListExpr(InitListExpr *IL) {
    InitListExpr *Sem = IL->isSemanticForm() ? IL : IL->getSemanticForm();
    if (!Sem)
      return true;
    InitListExpr *Written = Sem->getSyntacticForm() ? Sem->getSyntacticForm()
                                                    : Sem;
    unsigned N = Written->getNumInits();
    while (N > 0 && isDefault(Written->getInit(N - 1)))
      --N;
    if (N == Written->getNumInits())
      return true;
    for (unsigned I = 0; I < N; ++I)
      if (isDefault(Written->getInit(I)))
        return true; // a default in the middle: no positional spelling
    llvm::SmallVector<Expr *, 4> Inits(Written->inits().begin(),
                                       Written->inits().begin() + N);
    auto *Syn = new (Ctx) InitListExpr(Ctx, Written->getLBraceLoc(), Inits,
                                       Written->getRBraceLoc());
    Syn->setType(Sem->getType());
    Sem->setSyntacticForm(Syn);
    return true;
  }
};

} // namespace

void tidy(FunctionDecl *FD, bool Sums) {
  Stmt *Body = FD->getBody();
  if (!Body)
    return;
  ASTContext &Ctx = FD->getASTContext();
  narrowSinCosPairs(Body, Ctx);
  // Each round may expose more: a temporary read only by a dead write.
  for (unsigned Round = 0; Round < 16; ++Round) {
    Uses U;
    U.TraverseStmt(Body);
    Remover R(Ctx, U.Reads);
    Stmt *New = R.stmt(Body);
    if (!R.Changed)
      break;
    Body = New;
    FD->setBody(Body);
  }
  SpellInitLists(Ctx).TraverseStmt(Body);
  Parenthesize(Ctx).TraverseStmt(Body);
  DiscardValues(Ctx).TraverseStmt(Body);
  if (Sums)
    hoistAccumulators(FD);
}

} // namespace grad
