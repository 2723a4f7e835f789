//===- Diagnostics.cpp - clang-grad diagnostics -----------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "ast/Diagnostics.h"
#include "ast/NodePolicy.h"
#include "ast/Abi.h"
#include "llvm/ADT/DenseMap.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace grad {

namespace {
llvm::DenseMap<const NamedDecl *, const NamedDecl *> &standIns() {
  static llvm::DenseMap<const NamedDecl *, const NamedDecl *> Map;
  return Map;
}
} // namespace


namespace {
struct DiagRow {
  DiagnosticsEngine::Level Level;
  const char *Text;
};

const DiagRow Rows[] = {
#define GRAD_DIAG(ID, Level, Text) {DiagnosticsEngine::Level, Text},
#include "ast/Diagnostics.def"
};
} // namespace

DiagnosticBuilder report(DiagnosticsEngine &DE, Diag D, SourceLocation Loc) {
  const DiagRow &Row = Rows[static_cast<unsigned>(D)];
  DiagnosticsEngine::Level Level = Row.Level;
  if (Level == DiagnosticsEngine::Warning) {
    if (DE.getIgnoreAllWarnings())
      Level = DiagnosticsEngine::Ignored;
    else if (DE.getWarningsAsErrors())
      Level = DiagnosticsEngine::Error;
  }
  // DiagnosticIDs caches custom IDs by (level, text): lookups are cheap.
  unsigned ID = DE.getDiagnosticIDs()->getCustomDiagID(
      static_cast<DiagnosticIDs::Level>(Level), Row.Text);
  return DE.Report(Loc, ID);
}

std::string spelledExpr(const ASTContext &Ctx, const Expr *E) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceRange R = E->getSourceRange();
  if (R.isValid() && !R.getBegin().isMacroID() && !R.getEnd().isMacroID()) {
    StringRef Text = Lexer::getSourceText(CharSourceRange::getTokenRange(R),
                                          SM, Ctx.getLangOpts());
    if (!Text.empty() && Text.size() < 80)
      return Text.str();
  }
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  E->printPretty(OS, nullptr, PrintingPolicy(Ctx.getLangOpts()));
  return Out;
}

namespace {
/// A construct whose name depends on its AST class alone.
struct FixedName {
  Stmt::StmtClass Class;
  const char *Name;
};

const FixedName FixedNames[] = {
    {Stmt::GotoStmtClass, "'goto'"},
    {Stmt::IndirectGotoStmtClass, "'goto'"},
    {Stmt::LabelStmtClass, "label"},
    {Stmt::GCCAsmStmtClass, "inline assembly"},
    {Stmt::MSAsmStmtClass, "inline assembly"},
    {Stmt::CXXTryStmtClass, "'try' block"},
    {Stmt::CXXThrowExprClass, "'throw' expression"},
    {Stmt::ForStmtClass, "'for' loop"},
    {Stmt::WhileStmtClass, "'while' loop"},
    {Stmt::DoStmtClass, "'do' loop"},
    {Stmt::CXXForRangeStmtClass, "range-based 'for' loop"},
    {Stmt::SwitchStmtClass, "'switch' statement"},
    {Stmt::BreakStmtClass, "'break'"},
    {Stmt::ContinueStmtClass, "'continue'"},
    {Stmt::LambdaExprClass, "lambda expression"},
    {Stmt::CXXNewExprClass, "'new' expression"},
    {Stmt::CXXDeleteExprClass, "'delete' expression"},
    {Stmt::ArraySubscriptExprClass, "array subscript"},
    {Stmt::CXXMemberCallExprClass, "member function call"},
    {Stmt::CoreturnStmtClass, "coroutine"},
    {Stmt::CoawaitExprClass, "coroutine"},
    {Stmt::CoyieldExprClass, "coroutine"},
    {Stmt::CoroutineBodyStmtClass, "coroutine"},
    {Stmt::VAArgExprClass, "'va_arg'"},
    {Stmt::StmtExprClass, "statement expression"},
    {Stmt::CXXThisExprClass, "'this'"},
};

/// The name of a construct fixed by its class, or null.
const char *fixedConstructName(Stmt::StmtClass Class) {
  for (const FixedName &Row : FixedNames)
    if (Row.Class == Class)
      return Row.Name;
  return nullptr;
}

/// A member access, or the use of the writable reference a call returns.
std::string memberAccessName(const MemberExpr *ME) {
  if (const auto *CE = dyn_cast<CallExpr>(ME->getBase()->IgnoreParenImpCasts()))
    if (const FunctionDecl *FD = CE->getDirectCallee();
        FD && returnsWritableReference(FD))
      return "use of the reference returned by '" + FD->getNameAsString() +
             "' (write the call as a statement of its own)";
  return "member access";
}

/// A call of an overloaded operator, by its spelling.
std::string operatorCallName(const CXXOperatorCallExpr *OC) {
  if (const char *Op = getOperatorSpelling(OC->getOperator()))
    return std::string("call of 'operator") + Op + "'";
  return "operator call";
}

/// A unary operator, with the dereference of a returned pointer explained.
std::string unaryOperatorName(const UnaryOperator *UO) {
  switch (UO->getOpcode()) {
  case UO_Deref:
    if (const auto *CE =
            dyn_cast<CallExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
      if (const FunctionDecl *FD = CE->getDirectCallee())
        return "dereference of the pointer '" + FD->getNameAsString() +
               "' returns, whose target the plugin cannot track (it must "
               "point into one pointer or container argument)";
    return "pointer dereference";
  case UO_AddrOf:
    return "address-of";
  default:
    return "'" + std::string(UnaryOperator::getOpcodeStr(UO->getOpcode())) +
           "' operator";
  }
}

/// An expression's type, quoted as the user would write it.
std::string quotedTypeName(const Expr *E) {
  LangOptions LO;
  LO.CPlusPlus = LO.Bool = true;
  PrintingPolicy Policy(LO);
  Policy.SuppressTagKeyword = true;
  return "'" + E->getType().getAsString(Policy) + "'";
}

/// A call, named by its callee or the function pointer it goes through.
std::string callName(const CallExpr *CE) {
  if (const auto *FD = dyn_cast_or_null<FunctionDecl>(CE->getCalleeDecl()))
    return "call to '" + FD->getNameAsString() + "'";
  // `f(a + i, p)` with `double (*f)(double, double)`: name the pointer.
  const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Callee);
      U && U->getOpcode() == UO_Deref)
    Callee = U->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Callee))
    return "call through the function pointer '" +
           DRE->getDecl()->getNameAsString() + "'";
  if (const auto *ME = dyn_cast<MemberExpr>(Callee))
    return "call through the function pointer '" +
           ME->getMemberDecl()->getNameAsString() + "'";
  return "call through a function pointer";
}

/// Initialisations, casts, operators and keywords named by their form, or
/// the empty string.
std::string expressionFormName(const Stmt *S) {
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S))
    return (CE->isListInitialization() ? "brace initialisation of "
                                       : "construction of ") +
           quotedTypeName(CE);
  if (const auto *IL = dyn_cast<InitListExpr>(S))
    return "brace initialisation of " + quotedTypeName(IL);
  if (isa<PredefinedExpr>(S))
    return "'__func__'";
  if (isa<StringLiteral>(S))
    return "string literal";
  if (const auto *NC = dyn_cast<CXXNamedCastExpr>(S))
    return "'" + std::string(NC->getCastName()) + "'";
  if (const auto *EC = dyn_cast<ExplicitCastExpr>(S))
    return "cast to " + quotedTypeName(EC);
  if (isa<AbstractConditionalOperator>(S))
    return "'?:' expression";
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    return "'" + BO->getOpcodeStr().str() + "' operator";
  if (isa<CXXDefaultArgExpr>(S))
    return "default argument";
  if (isa<CXXStdInitializerListExpr>(S))
    return "'std::initializer_list'";
  if (isa<UnaryExprOrTypeTraitExpr>(S))
    return "'sizeof'";
  if (isa<CXXTypeidExpr>(S))
    return "'typeid'";
  if (isa<CXXNoexceptExpr>(S))
    return "'noexcept' operator";
  if (isa<AtomicExpr>(S))
    return "atomic builtin";
  return "";
}
} // namespace

/// A construct named as the user wrote it, never by its AST class.
std::string constructName(const Stmt *S) {
  if (const char *Name = fixedConstructName(S->getStmtClass()))
    return Name;
  switch (S->getStmtClass()) {
  case Stmt::MemberExprClass:
    return memberAccessName(cast<MemberExpr>(S));
  case Stmt::CXXOperatorCallExprClass:
    return operatorCallName(cast<CXXOperatorCallExpr>(S));
  case Stmt::UnaryOperatorClass:
    return unaryOperatorName(cast<UnaryOperator>(S));
  default:
    break;
  }
  // Named by what the user wrote, never by the AST class.
  if (const auto *CE = dyn_cast<CallExpr>(S))
    return callName(CE);
  if (std::string Name = expressionFormName(S); !Name.empty())
    return Name;
  if (isa<ConstantExpr>(S) || isa<MaterializeTemporaryExpr>(S) ||
      isa<CXXBindTemporaryExpr>(S) || isa<ExprWithCleanups>(S) ||
      isa<ImplicitCastExpr>(S))
    return constructName(*S->child_begin());
  if (const char *Name = nodeName(S->getStmtClass()); Name && *Name)
    return Name;
  if (const auto *E = dyn_cast<Expr>(S))
    return "expression of type " + quotedTypeName(E);
  if (isa<DeclStmt>(S))
    return "declaration";
  if (isa<CXXCatchStmt>(S))
    return "'catch' handler";
  if (isa<SEHTryStmt>(S))
    return "'__try' block";
  return "statement";
}

/// For a write through what a member function of an object returns
/// (`M(0, 0) = x` with `double &operator()(int, int)`): when the object's
/// class keeps its numbers behind a pointer member (`double *d`), a hint
/// that a std::vector member is supported.
std::string pointerMemberHint(const Expr *LHS) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(LHS);
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(LHS);
  const CXXRecordDecl *RD = nullptr;
  if (MC)
    RD = MC->getRecordDecl();
  else if (OC && OC->getNumArgs() > 0)
    RD = OC->getArg(0)->getType().getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return "";
  for (const FieldDecl *F : RD->fields()) {
    QualType T = F->getType();
    if (T->isPointerType() && isFloating(T->getPointeeType()))
      return " (its class '" + RD->getNameAsString() +
             "' keeps its numbers behind the pointer member '" +
             F->getNameAsString() +
             "': a std::vector member is supported)";
  }
  return "";
}

std::string runtimeCheckSite(const ASTContext &Ctx, SourceLocation Loc,
                             const FunctionDecl *Fn, StringRef What) {
  std::string Out;
  const SourceManager &SM = Ctx.getSourceManager();
  PresumedLoc PL = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  if (PL.isValid())
    Out = (Twine(PL.getFilename()) + ":" + Twine(PL.getLine()) + ":" +
           Twine(PL.getColumn()) + ": ")
              .str();
  const NamedDecl *Shown = standIns().lookup(Fn);
  Out += "in '" + (Shown ? Shown : Fn)->getQualifiedNameAsString() +
         "': " + What.str();
  return Out;
}

std::string nameOf(const NamedDecl *D) {
  if (const NamedDecl *As = standIns().lookup(D))
    return As->getNameAsString();
  return D->getNameAsString();
}

void nameAs(const NamedDecl *D, const NamedDecl *As) { standIns()[D] = As; }

} // namespace grad
