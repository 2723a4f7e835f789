//===- Rules.cpp - Derivative rules for <cmath> functions -------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "ast/Rules.h"
#include "ast/SemaBuilder.h"

#include "clang/AST/Decl.h"
#include "llvm/ADT/StringMap.h"
#include <functional>

using namespace clang;

// The rule DSL defines the full operator set; each table uses a subset.
#pragma GCC diagnostic ignored "-Wunused-function"

namespace grad {
namespace {

/// The builder the rule expressions run against, and the constant type.
/// Null while probing which inputs a partial reads.
thread_local SemaBuilder *CurB = nullptr;
thread_local QualType CurT;

/// A value in a rule expression: the AST built so far plus which inputs it
/// read.
struct E {
  Expr *X = nullptr;
  unsigned Uses = 0;
};

E lit(long V) {
  if (!CurB)
    return {};
  return {CurB->floatLit(static_cast<double>(V), CurT), 0};
}
E toE(E V) { return V; }
E toE(int V) { return lit(V); }

E K(const char *Text) {
  if (!CurB)
    return {};
  return {CurB->floatLit(Text, CurT), 0};
}

E bin(BinaryOperatorKind Op, E L, E R) {
  E Out{nullptr, L.Uses | R.Uses};
  if (CurB)
    Out.X = CurB->binop(Op, L.X, R.X);
  return Out;
}

#define GRAD_DSL_BINOP(Tok, Op)                                                \
  E operator Tok(E L, E R) { return bin(Op, L, R); }                           \
  E operator Tok(E L, int R) { return bin(Op, L, lit(R)); }                    \
  E operator Tok(int L, E R) { return bin(Op, lit(L), R); }
GRAD_DSL_BINOP(+, BO_Add)
GRAD_DSL_BINOP(-, BO_Sub)
GRAD_DSL_BINOP(*, BO_Mul)
GRAD_DSL_BINOP(/, BO_Div)
GRAD_DSL_BINOP(<, BO_LT)
GRAD_DSL_BINOP(>, BO_GT)
GRAD_DSL_BINOP(<=, BO_LE)
GRAD_DSL_BINOP(>=, BO_GE)
GRAD_DSL_BINOP(==, BO_EQ)
GRAD_DSL_BINOP(!=, BO_NE)
#undef GRAD_DSL_BINOP

E operator-(E V) {
  E Out{nullptr, V.Uses};
  if (CurB)
    Out.X = CurB->unop(UO_Minus, V.X);
  return Out;
}

E select(E C, E T, E F) {
  E Out{nullptr, C.Uses | T.Uses | F.Uses};
  if (CurB)
    Out.X = CurB->cond(C.X, T.X, F.X);
  return Out;
}
E select(E C, int T, int F) { return select(C, lit(T), lit(F)); }
E select(E C, E T, int F) { return select(C, T, lit(F)); }
E select(E C, int T, E F) { return select(C, lit(T), F); }

E callStd(const char *Name, std::initializer_list<E> Args) {
  E Out;
  SmallVector<Expr *, 2> Xs;
  for (const E &A : Args) {
    Out.Uses |= A.Uses;
    Xs.push_back(A.X);
  }
  if (CurB)
    Out.X = CurB->callStd(Name, Xs);
  return Out;
}

E sin(E V) { return callStd("sin", {V}); }
E cos(E V) { return callStd("cos", {V}); }
E sinh(E V) { return callStd("sinh", {V}); }
E cosh(E V) { return callStd("cosh", {V}); }
E exp(E V) { return callStd("exp", {V}); }
E log(E V) { return callStd("log", {V}); }
E sqrt(E V) { return callStd("sqrt", {V}); }
E trunc(E V) { return callStd("trunc", {V}); }
E pow(E A, E B) { return callStd("pow", {A, B}); }
E pow(E A, int B) { return callStd("pow", {A, lit(B)}); }

using PartialFn = E (*)(const E *Args, E Y);

struct RuleImpl {
  Rule R;
  PartialFn Partials[3];
};

#define K(V) K(#V)
// HasX: the row has a partial over x alone (GRAD_RULE1X), which serves the
// runtime's dual numbers; the plugin only needs to know that there is one.
#define GRAD_ROW1(Name, DX, HasX)                                              \
  {{#Name, 1, {0, 0, 0}, HasX},                                                \
   {[](const E *A, E y) -> E {                                                 \
      E x = A[0];                                                              \
      (void)x;                                                                 \
      (void)y;                                                                 \
      return toE(DX);                                                          \
    },                                                                         \
    nullptr, nullptr}},
#define GRAD_RULE_PARTIAL(D)                                                   \
  [](const E *A, E y) -> E {                                                   \
    E a = A[0], b = A[1], c = A[2];                                            \
    (void)a;                                                                   \
    (void)b;                                                                   \
    (void)c;                                                                   \
    (void)y;                                                                   \
    return toE(D);                                                             \
  }
#define GRAD_ROW2(Name, DA, DB)                                                \
  {{#Name, 2, {0, 0, 0}},                                                      \
   {GRAD_RULE_PARTIAL(DA), GRAD_RULE_PARTIAL(DB), nullptr}},
#define GRAD_RULE1(Name, DX) GRAD_ROW1(Name, DX, false)
#define GRAD_RULE1X(Name, DX, DXX) GRAD_ROW1(Name, DX, true)
#define GRAD_RULE2(Name, DA, DB) GRAD_ROW2(Name, DA, DB)
#define GRAD_RULE3(Name, DA, DB, DC)                                           \
  {{#Name, 3, {0, 0, 0}},                                                      \
   {GRAD_RULE_PARTIAL(DA), GRAD_RULE_PARTIAL(DB), GRAD_RULE_PARTIAL(DC)}},

RuleImpl Table[] = {
#include "grad/rules.def"
};

// The std::complex rows: the same expansion, in a table of their own.
#define GRAD_RULE1(Name, DX)
#define GRAD_RULE2(Name, DA, DB)
#define GRAD_RULE3(Name, DA, DB, DC)
#define GRAD_COMPLEX1(Name, DX) GRAD_ROW1(Name, DX, false)
#define GRAD_COMPLEX2(Name, DA, DB) GRAD_ROW2(Name, DA, DB)
RuleImpl ComplexTable[] = {
#include "grad/rules.def"
};
#undef K
#undef GRAD_RULE_PARTIAL
#undef GRAD_ROW1
#undef GRAD_ROW2

/// Fills in Rule::Uses by running every partial against probe values.
struct Probe {
  llvm::StringMap<const RuleImpl *> ByName, ComplexByName;
  static void uses(RuleImpl &RI) {
    E Args[3] = {{nullptr, 1u}, {nullptr, 2u}, {nullptr, 4u}};
    E Y{nullptr, UsesResult};
    for (unsigned I = 0; I < RI.R.Arity; ++I)
      RI.R.Uses[I] = RI.Partials[I](Args, Y).Uses;
  }
  Probe() {
    for (RuleImpl &RI : Table) {
      uses(RI);
      ByName[RI.R.Name] = &RI;
    }
    for (RuleImpl &RI : ComplexTable) {
      uses(RI);
      ComplexByName[RI.R.Name] = &RI;
    }
  }
};

const Probe &probe() {
  static Probe P;
  return P;
}

const RuleImpl *lookup(StringRef Name, unsigned Arity) {
  const Probe &P = probe();
  auto It = P.ByName.find(Name);
  if (It != P.ByName.end() && It->second->R.Arity == Arity)
    return It->second;
  return nullptr;
}

} // namespace

const Rule *findComplexRule(StringRef Name, unsigned Arity) {
  const Probe &P = probe();
  auto It = P.ComplexByName.find(Name);
  if (It != P.ComplexByName.end() && It->second->R.Arity == Arity)
    return &It->second->R;
  return nullptr;
}

const Rule *findRule(const FunctionDecl *Callee) {
  if (!Callee || !Callee->getIdentifier())
    return nullptr;
  // Rows are for numbers: never std::abs(const std::complex<double> &).
  for (const ParmVarDecl *P : Callee->parameters())
    if (!P->getType().getNonReferenceType()->isArithmeticType())
      return nullptr;
  const DeclContext *DC = Callee->getDeclContext()->getRedeclContext();
  if (!Callee->isInStdNamespace() && !DC->isTranslationUnit() &&
      !Callee->getBuiltinID())
    return nullptr;
  StringRef Name = Callee->getName();
  Name.consume_front("__builtin_");
  unsigned Arity = Callee->getNumParams();
  if (const RuleImpl *RI = lookup(Name, Arity))
    return &RI->R;
  // C spellings: sinf, sinl.
  if (Name.size() > 1 && (Name.back() == 'f' || Name.back() == 'l'))
    if (const RuleImpl *RI = lookup(Name.drop_back(), Arity))
      return &RI->R;
  return nullptr;
}

bool isSinCosCall(const CallExpr *CE, const Rule &R) {
  StringRef Name = R.Name;
  if ((Name != "sin" && Name != "cos") || CE->getNumArgs() != 1)
    return false;
  const auto *BT = CE->getType()->getAs<BuiltinType>();
  return BT && (BT->getKind() == BuiltinType::Float ||
                BT->getKind() == BuiltinType::Double ||
                BT->getKind() == BuiltinType::LongDouble);
}

Expr *buildPartial(SemaBuilder &B, const Rule &R, unsigned Arg,
                   ArrayRef<Expr *> Args, Expr *Result, QualType T) {
  const RuleImpl *RI = reinterpret_cast<const RuleImpl *>(&R);
  SemaBuilder *SavedB = CurB;
  QualType SavedT = CurT;
  CurB = &B;
  CurT = T;
  E In[3];
  for (unsigned I = 0; I < Args.size() && I < 3; ++I)
    In[I] = {Args[I], 0};
  E Out = RI->Partials[Arg](In, {Result, 0});
  CurB = SavedB;
  CurT = SavedT;
  return Out.X;
}

ArrayRef<Rule> allRules() {
  static std::vector<Rule> Rules = [] {
    std::vector<Rule> V;
    probe();
    for (const RuleImpl &RI : Table)
      V.push_back(RI.R);
    return V;
  }();
  return Rules;
}

} // namespace grad
