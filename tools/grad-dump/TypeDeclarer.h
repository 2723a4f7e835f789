//===- TypeDeclarer.h - Types named by declarations at the top --*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The header of `grad-dump --declarations` is included before the first
/// line of the file it is for (`-include`), so every type its declarations
/// name must be declared there too. TypeDeclarer decides how, for each
/// class or enum a type names:
///   - declared in a system header: `#include` that header as the file that
///     brought it in spelled it (`#include <vector>`);
///   - a class, class template or enum with a fixed underlying type at
///     namespace scope: a forward declaration in its namespaces;
///   - otherwise (a class nested in a class, a local class, an unscoped enum
///     without fixed type, an unnamed struct, a constrained template):
///     `#include` the guarded user header that declares it, or, for a type
///     of the main file, no way at all (the caller declares the function
///     generically).
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_TOOLS_TYPEDECLARER_H
#define CLANG_GRAD_TOOLS_TYPEDECLARER_H

#include "clang/AST/Type.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/raw_ostream.h"

#include <set>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CompilerInstance;
class Decl;
class TemplateArgument;
} // namespace clang

namespace grad {

/// How an #include directive spelled the file it included.
struct IncludeSpelling {
  std::string Name;
  bool Angled = false;
};

class TypeDeclarer {
public:
  /// \p Spellings: the include directives of the translation unit, by the
  /// included file's unique ID.
  TypeDeclarer(clang::CompilerInstance &CI,
               const llvm::DenseMap<unsigned, IncludeSpelling> &Spellings);

  /// Arranges for every class and enum that \p T names to be declared at
  /// the top of the file, except \p Visible and the types nested in it (a
  /// member's own class). False, with \p Why naming a type that cannot be,
  /// if one cannot (nothing is added then).
  bool require(clang::QualType T, std::string &Why,
               const clang::Decl *Visible = nullptr);

  /// The #include lines of system headers, the forward declarations, then
  /// the #include lines of user headers (which may use the macros and
  /// types declared before them).
  void print(llvm::raw_ostream &OS) const;

private:
  enum class Kind { Forward, SystemInclude, UserInclude };
  struct Need {
    std::string Line;
    Kind K = Kind::Forward;
  };
  struct Resolved {
    bool Ok = false;
    Need N; ///< empty Line: nothing needed
  };
  Resolved resolve(const clang::Decl *D) const;
  bool walk(clang::QualType T, std::vector<Need> &Out, std::string &Why);
  bool walkArg(const clang::TemplateArgument &A, std::vector<Need> &Out,
               std::string &Why);
  bool needDecl(const clang::Decl *D, std::vector<Need> &Out, std::string &Why);
  /// The #include line that declares \p D, or empty.
  std::string includeFor(const clang::Decl *D, bool System) const;

  clang::CompilerInstance &CI;
  const llvm::DenseMap<unsigned, IncludeSpelling> &Spellings;
  /// In order of first need.
  llvm::SetVector<std::string, std::vector<std::string>, std::set<std::string>>
      SystemIncludes, Forwards, UserIncludes;
  llvm::DenseMap<const clang::Decl *, Resolved> Seen;
  const clang::Decl *Visible = nullptr;
};

/// `namespace a { inline namespace b {` ... for \p D's enclosing
/// namespaces and linkage blocks; \p Close gets the matching `}`s.
std::string openScopes(const clang::Decl *D, std::string &Close);

} // namespace grad

#endif
