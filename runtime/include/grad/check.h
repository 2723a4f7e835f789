//===- check.h - Derivatives against finite differences ---------*- C++ -*-===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// grad::check compares a derivative of a scalar function (a generated
/// pullback or pushforward, or one written by hand) with central finite
/// differences at given inputs, prints a table with one row per input
/// component and returns whether they agree. Not included by grad.h (it
/// pulls in <iostream>): `#include <grad/check.h>`.
///
///   [[grad]] double f(double x, const std::vector<double> &v, int n);
///   grad::check(f, f_pullback, 0.5, std::vector<double>{1, 2}, 3);
///   grad::check(f, f_pushforward, 0.5, std::vector<double>{1, 2}, 3);
///   if (!grad::check({.rtol = 1e-8, .names = {"x", "v", "n"}}, f,
///                    f_pullback, 0.5, std::vector<double>{1, 2}, 3))
///     return 1;
///
/// One input per parameter of f, in order:
///   floating scalar (T, const T&, T&)   a number
///   pointer to floating (const T *, T *) the values, as a std::vector,
///                                        std::array or array (their number
///                                        is the extent)
///   container of floating values          the container (std::vector,
///     (data() and size(): std::vector,     std::array, grad::tensor)
///     std::array, grad::tensor)
///   anything else (int, bool, enums, ...) passed as given, no derivative
/// `grad::nodiff(v)` passes v to a parameter the derivative has no adjoint
/// or tangent for (left out of a wrt list, or `[[grad::nodiff]]`).
///
/// A pullback is called once with zeroed adjoints and seed 1, and once more
/// to check that its adjoints accumulate (+=). A pushforward is called once
/// per component with that component's tangent 1 (the others 0), and its
/// `.val` is compared with f's value. Each component's finite difference
/// is Richardson-extrapolated from central differences with steps h, h/2
/// (and h/4 for an error estimate), h = step * max(|x|, 1). A component is
/// ok when |analytic - numeric| <= rtol * max(|analytic|, |numeric|) + atol,
/// where differences within the finite differences' own uncertainty (the
/// spread of the two extrapolations plus rounding) count as agreement.
///
/// The derivative is passed as a function (its type picks the overload of
/// an overloaded name: the ABI types of docs/abi.md for these inputs) or as
/// a lambda taking the same arguments.
///
//===----------------------------------------------------------------------===//

#ifndef GRAD_CHECK_H
#define GRAD_CHECK_H

#include <grad/core.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <limits>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace grad {

/// How grad::check compares and what it prints.
struct check_options {
  double rtol = 1e-6; ///< relative tolerance
  double atol = 0;    ///< absolute tolerance, accepted as well
  /// Relative step of the finite differences; 0: epsilon^(1/5) of the
  /// inputs' and result's floating type (7.4e-4 for double).
  double step = 0;
  /// Parameter names for the report; unnamed parameters print as #0, #1...
  std::vector<std::string> names = {};
  std::ostream *out = &std::cout; ///< where the report goes; null: nowhere
  bool failures_only = false;     ///< print only the rows that fail
};

/// One input component.
struct check_row {
  std::string param;         ///< the parameter's name or #I
  std::size_t arg = 0;       ///< the parameter's position
  std::ptrdiff_t index = -1; ///< element of a pointer or container; -1: scalar
  double analytic = 0;       ///< what the derivative gave
  double numeric = 0;        ///< the finite-difference estimate
  double error = 0;          ///< |analytic - numeric| relative to their size
  bool ok = true;
};

/// The outcome: true when every component agrees (and the adjoints
/// accumulate, or the pushforward's value is f's).
struct check_result {
  bool ok = true;
  double max_error = 0;      ///< the largest row error
  bool accumulates = true;   ///< pullbacks: a second call doubled them
  bool value_matches = true; ///< pushforwards: .val is f's value
  std::vector<check_row> rows;
  explicit operator bool() const { return ok; }
};

/// An input for a parameter that gets no adjoint or tangent.
template <class T> struct nodiff_arg { T value; };
template <class T> nodiff_arg<std::decay_t<T>> nodiff(T &&Value) {
  return {std::forward<T>(Value)};
}

namespace detail {
namespace checking {

template <class... T> struct List {};
template <class T> using Bare = std::remove_cvref_t<T>;

template <class T> struct IsSpan : std::false_type {};
template <class T, std::size_t N>
struct IsSpan<std::span<T, N>> : std::true_type {};

template <class T> struct IsNodiff : std::false_type {};
template <class T> struct IsNodiff<nodiff_arg<T>> : std::true_type {};

template <class C>
concept Sized = requires(C &V) {
  std::data(V);
  std::size(V);
};
template <class C>
concept FloatingRange = Sized<C> &&
    std::is_floating_point_v<Bare<decltype(*std::data(std::declval<C &>()))>>;

enum class Kind { Passive, Scalar, Pointer, Range };
struct None {};

template <class T> constexpr double epsOf() {
  if constexpr (std::is_void_v<T>)
    return 0;
  else
    return double(std::numeric_limits<T>::epsilon());
}

template <auto Idx, std::size_t... J>
std::index_sequence<Idx[J]...> pick(std::index_sequence<J...>);

template <class P, class In> constexpr Kind kindOf() {
  using B = Bare<P>;
  if constexpr (IsNodiff<Bare<In>>::value)
    return Kind::Passive;
  else if constexpr (std::is_floating_point_v<B>)
    return Kind::Scalar;
  else if constexpr (std::is_pointer_v<B> &&
                     std::is_floating_point_v<
                         std::remove_cv_t<std::remove_pointer_t<B>>>)
    return Kind::Pointer;
  else if constexpr (FloatingRange<B>)
    return Kind::Range;
  else
    return Kind::Passive;
}

/// The floating element type of a differentiated parameter.
template <class P, Kind K> struct ElemOf { using type = void; };
template <class P> struct ElemOf<P, Kind::Scalar> { using type = Bare<P>; };
template <class P> struct ElemOf<P, Kind::Pointer> {
  using type = std::remove_cv_t<std::remove_pointer_t<Bare<P>>>;
};
template <class P> struct ElemOf<P, Kind::Range> {
  using type = Bare<decltype(*std::data(std::declval<Bare<P> &>()))>;
};

/// Parameter \p P of f with its input \p In: how it is stored, passed to f
/// and to the derivative, and how its components are reached.
template <class P, class In> struct Arg {
  static constexpr Kind K = kindOf<P, In>();
  static_assert(IsNodiff<Bare<In>>::value || !std::is_class_v<Bare<P>> ||
                    Sized<Bare<P>>,
                "grad::check: a parameter of class type without data() and "
                "size() (a struct): if the derivative has no adjoint for it, "
                "pass the input as grad::nodiff(value); structs with "
                "floating members are not supported");
  static_assert(!IsSpan<Bare<P>>::value || IsNodiff<Bare<In>>::value,
                "grad::check: std::span parameters are not supported (the "
                "checker copies inputs, a span would not own its copy): "
                "check a function taking a pointer or a container");
  static_assert(K != Kind::Pointer || Sized<std::remove_reference_t<In>>,
                "grad::check: a pointer parameter takes its values as a "
                "std::vector, std::array or array: the checker needs their "
                "number");
  using Elem = typename ElemOf<P, K>::type;
  using Store =
      std::conditional_t<K == Kind::Pointer, std::vector<Elem>, Bare<P>>;
  /// Adjoints and tangents: a number, an array, or a same-shaped object
  /// (nothing for a parameter without derivatives).
  using Shadow = std::conditional_t<
      K == Kind::Passive, None,
      std::conditional_t<
          K == Kind::Scalar, Elem,
          std::conditional_t<K == Kind::Pointer, std::vector<Elem>, Bare<P>>>>;
  static constexpr bool InOut = std::is_lvalue_reference_v<P> &&
                                !std::is_const_v<std::remove_reference_t<P>>;
  /// The adjoint parameter (docs/abi.md): T* for numbers and pointers, C*.
  using Adjoint = std::conditional_t<K == Kind::Range, Bare<P> *, Elem *>;
  /// The tangent parameter: T or T* (in/out), const T * or T *, const C&
  /// or C* (in/out).
  using Tangent = std::conditional_t<
      K == Kind::Scalar, std::conditional_t<InOut, Elem *, Elem>,
      std::conditional_t<
          K == Kind::Pointer, P,
          std::conditional_t<InOut, Bare<P> *, const Bare<P> &>>>;

  template <class V> static Store make(V &&Input) {
    if constexpr (IsNodiff<Bare<V>>::value)
      return Store(std::forward<V>(Input).value);
    else if constexpr (K == Kind::Pointer)
      return Store(std::begin(Input), std::end(Input));
    else
      return Store(std::forward<V>(Input));
  }
  static decltype(auto) pass(Store &S) {
    if constexpr (K == Kind::Pointer)
      return S.data();
    else
      return (S);
  }
  static std::size_t count(const Store &S) {
    if constexpr (K == Kind::Scalar)
      return 1;
    else
      return std::size(S);
  }
  template <class T> static auto &at(T &S, std::size_t J) {
    if constexpr (K == Kind::Scalar)
      return S;
    else
      return std::data(S)[J];
  }
  /// A zero shadow shaped like \p S.
  static Shadow zero(const Store &S) {
    if constexpr (K == Kind::Passive) {
      return {};
    } else if constexpr (K == Kind::Scalar) {
      return Elem(0);
    } else {
      Shadow Z = S;
      for (std::size_t J = 0; J < std::size(Z); ++J)
        std::data(Z)[J] = Elem(0);
      return Z;
    }
  }
  static Adjoint adjoint(Shadow &D) {
    if constexpr (K == Kind::Pointer)
      return D.data();
    else
      return &D;
  }
  static Tangent tangent(Shadow &T) {
    if constexpr (K == Kind::Pointer)
      return T.data();
    else if constexpr (InOut)
      return &T;
    else
      return T;
  }
};

template <class R, class L> struct FnPtr;
template <class R, class... T> struct FnPtr<R, List<T...>> {
  using type = R (*)(T...);
};
template <class A, class B> struct Concat;
template <class... A, class... B> struct Concat<List<A...>, List<B...>> {
  using type = List<A..., B...>;
};
template <class... L> struct Join { using type = List<>; };
template <class L, class... Rest> struct Join<L, Rest...> {
  using type = typename Concat<L, typename Join<Rest...>::type>::type;
};
template <bool Keep, class T>
using Maybe = std::conditional_t<Keep, List<T>, List<>>;

/// A difference quotient estimate and its uncertainty.
struct Estimate {
  double Value = 0;
  double Uncertainty = 0;
};

/// The derivative of \p Eval (a function of one number) at \p X0:
/// Richardson extrapolation of central differences.
template <class E, class F>
Estimate central(F &&Eval, E X0, double Step, double Eps) {
  const double H = Step * std::max(1.0, double(std::fabs(X0)));
  double FMax = 0;
  auto Diff = [&](double Hk) {
    // The step actually taken, so that X0 + h is exact in E.
    volatile E Xp = E(X0 + E(Hk)), Xm = E(X0 - E(Hk));
    double Fp = Eval(E(Xp)), Fm = Eval(E(Xm));
    FMax = std::max({FMax, std::fabs(Fp), std::fabs(Fm)});
    return (Fp - Fm) / (double(E(Xp)) - double(E(Xm)));
  };
  const double D1 = Diff(H), D2 = Diff(H / 2), D3 = Diff(H / 4);
  const double R1 = (4 * D2 - D1) / 3, R2 = (4 * D3 - D2) / 3;
  // Rounding in D3 is about 2 eps |f| / (h / 4), times 4/3 from the
  // extrapolation: 32 leaves a margin for f's own rounding.
  return {R2, std::fabs(R2 - R1) + 32 * Eps * FMax / H};
}

/// Fills in \p Row's error and verdict.
inline void judge(check_row &Row, double Uncertainty, const check_options &O) {
  const double A = Row.analytic, N = Row.numeric, Diff = std::fabs(A - N);
  double Scale = std::max(std::fabs(A), std::fabs(N));
  if (O.rtol > 0)
    Scale = std::max(Scale, Uncertainty / O.rtol);
  Row.error = Scale > 0 ? Diff / Scale : 0;
  Row.ok = Diff <=
           O.rtol * std::max(std::fabs(A), std::fabs(N)) + Uncertainty + O.atol;
  if (std::isnan(A) || std::isnan(N))
    Row.ok = false, Row.error = std::numeric_limits<double>::quiet_NaN();
}

inline std::string paramName(const check_options &O, std::size_t I) {
  if (I < O.names.size() && !O.names[I].empty())
    return O.names[I];
  return "#" + std::to_string(I);
}

inline void printRow(std::ostream &OS, const check_row &Row) {
  char Index[24] = "-";
  if (Row.index >= 0)
    std::snprintf(Index, sizeof Index, "%td", Row.index);
  char Line[160];
  std::snprintf(Line, sizeof Line, "  %-10s %6s %17.9e %17.9e %10.2e  %s\n",
                Row.param.c_str(), Index, Row.analytic, Row.numeric, Row.error,
                Row.ok ? "ok" : "FAIL");
  OS << Line;
}

/// Prints the table and the verdict; sets \p Res.ok and max_error.
inline void finish(check_result &Res, const check_options &O, const char *What,
                   const std::string &Extra) {
  std::size_t Failed = 0;
  for (const check_row &Row : Res.rows) {
    Failed += !Row.ok;
    if (!(Res.max_error >= Row.error)) // NaN sticks
      Res.max_error = Row.error;
  }
  Res.ok = Failed == 0 && Res.accumulates && Res.value_matches;
  if (!O.out)
    return;
  std::ostream &OS = *O.out;
  char Head[160];
  std::snprintf(Head, sizeof Head,
                "grad::check %s: %zu component%s, rtol %.1e\n", What,
                Res.rows.size(), Res.rows.size() == 1 ? "" : "s", O.rtol);
  OS << Head;
  if (!O.failures_only || Failed)
    OS << "  parameter   index          analytic           numeric  "
          " rel error\n";
  for (const check_row &Row : Res.rows)
    if (!O.failures_only || !Row.ok)
      printRow(OS, Row);
  if (!Extra.empty())
    OS << "  FAIL " << Extra << "\n";
  char Tail[160];
  if (Res.ok)
    std::snprintf(Tail, sizeof Tail, "grad::check: ok (max rel error %.1e)\n",
                  Res.max_error);
  else
    std::snprintf(Tail, sizeof Tail,
                  "grad::check: FAIL: %zu of %zu components differ%s (max "
                  "rel error %.1e)\n",
                  Failed, Res.rows.size(), Extra.empty() ? "" : ", see above",
                  Res.max_error);
  OS << Tail;
}

inline std::string describe(const check_row &Row) {
  return Row.param +
         (Row.index >= 0 ? "[" + std::to_string(Row.index) + "]" : "");
}

/// Everything about checking f : P... -> R with inputs In...
template <class R, class Ps, class Ins> struct Checker;
template <class R, class... P, class... In>
struct Checker<R, List<P...>, List<In...>> {
  static_assert(std::is_floating_point_v<R>,
                "grad::check: the function must return a floating scalar");
  static_assert(sizeof...(P) == sizeof...(In),
                "grad::check: pass one input per parameter of the function");

  static constexpr std::size_t N = sizeof...(P);
  template <std::size_t I>
  using A = Arg<std::tuple_element_t<I, std::tuple<P...>>,
                std::tuple_element_t<I, std::tuple<In...>>>;
  using Store = std::tuple<typename Arg<P, In>::Store...>;
  using Fn = R (*)(P...);

  static constexpr std::array<bool, N> Diff = {
      (Arg<P, In>::K != Kind::Passive)...};
  static constexpr std::size_t NumDiff =
      (0 + ... + std::size_t(Arg<P, In>::K != Kind::Passive));
  static constexpr std::array<std::size_t, NumDiff> DiffIdx = [] {
    std::array<std::size_t, NumDiff> Out{};
    std::size_t J = 0;
    for (std::size_t I = 0; I < N; ++I)
      if (Diff[I])
        Out[J++] = I;
    return Out;
  }();
  using DiffSeq = decltype(pick<DiffIdx>(std::make_index_sequence<NumDiff>{}));
  using AllSeq = std::make_index_sequence<N>;

  using Pullback = typename FnPtr<
      void, typename Join<List<P...>, List<R>,
                          Maybe<Arg<P, In>::K != Kind::Passive,
                                typename Arg<P, In>::Adjoint>...>::type>::type;
  using Pushforward = typename FnPtr<
      dual<R>,
      typename Join<List<P...>,
                    Maybe<Arg<P, In>::K != Kind::Passive,
                          typename Arg<P, In>::Tangent>...>::type>::type;
  /// Adjoints or tangents of the differentiated parameters, by position.
  using Shadows = std::tuple<typename Arg<P, In>::Shadow...>;

  /// The coarsest epsilon of the result and the differentiated inputs.
  static double eps() {
    return std::max({epsOf<R>(), epsOf<typename Arg<P, In>::Elem>()...});
  }

  template <class... V> static Store store(V &&...Inputs) {
    return Store(Arg<P, In>::make(std::forward<V>(Inputs))...);
  }

  template <std::size_t... I>
  static R call(Fn F, Store &S, std::index_sequence<I...>) {
    return F(A<I>::pass(std::get<I>(S))...);
  }
  /// f on a copy of \p S (f may write through its parameters).
  static double value(Fn F, const Store &S) {
    Store C = S;
    return double(call(F, C, AllSeq{}));
  }

  template <std::size_t... I>
  static Shadows zeros(const Store &S, std::index_sequence<I...>) {
    return Shadows(A<I>::zero(std::get<I>(S))...);
  }

  template <class D, std::size_t... I, std::size_t... J>
  static void pull(D &&Df, Store &S, Shadows &Adj, std::index_sequence<I...>,
                   std::index_sequence<J...>) {
    Df(A<I>::pass(std::get<I>(S))..., R(1), A<J>::adjoint(std::get<J>(Adj))...);
  }
  template <class D, std::size_t... I, std::size_t... J>
  static dual<R> push(D &&Df, Store &S, Shadows &Tan, std::index_sequence<I...>,
                      std::index_sequence<J...>) {
    return Df(A<I>::pass(std::get<I>(S))...,
              A<J>::tangent(std::get<J>(Tan))...);
  }

  /// Calls \p Visit.template operator()<I>() for each differentiated I.
  template <class V> static void eachDiff(V &&Visit) {
    [&]<std::size_t... J>(std::index_sequence<J...>) {
      (Visit.template operator()<J>(), ...);
    }
    (DiffSeq{});
  }

  /// The rows of parameter I: analytic from \p Analytic(J), numeric from
  /// finite differences of f.
  template <std::size_t I, class G>
  static void rowsOf(Fn F, const Store &Base, const check_options &O,
                     check_result &Res, G &&Analytic) {
    using E = typename A<I>::Elem;
    const double Step = O.step > 0 ? O.step : std::pow(eps(), 0.2);
    const std::size_t Count = A<I>::count(std::get<I>(Base));
    for (std::size_t J = 0; J < Count; ++J) {
      Store S = Base;
      E &X = A<I>::at(std::get<I>(S), J);
      const E X0 = X;
      Estimate Fd = central(
          [&](E V) {
            X = V;
            return value(F, S);
          },
          X0, Step, eps());
      check_row Row;
      Row.param = paramName(O, I);
      Row.arg = I;
      Row.index = A<I>::K == Kind::Scalar ? -1 : std::ptrdiff_t(J);
      Row.analytic = double(Analytic(J));
      Row.numeric = Fd.Value;
      judge(Row, Fd.Uncertainty, O);
      Res.rows.push_back(Row);
    }
  }

  template <class D>
  static check_result pullback(const check_options &O, Fn F, D &&Df,
                               const Store &Base) {
    check_result Res;
    Store S = Base;
    Shadows Adj = zeros(Base, AllSeq{});
    pull(Df, S, Adj, AllSeq{}, DiffSeq{});
    const Shadows Once = Adj;
    eachDiff([&]<std::size_t I>() {
      rowsOf<I>(F, Base, O, Res,
                [&](std::size_t J) { return A<I>::at(std::get<I>(Once), J); });
    });
    std::string Extra = accumulation(O, Df, Base, Once, Res);
    finish(Res, O, "pullback", Extra);
    return Res;
  }

  /// Calls the pullback a second time on the adjoints of the first call:
  /// each must double (adjoints accumulate, docs/abi.md).
  template <class D>
  static std::string accumulation(const check_options &O, D &&Df,
                                  const Store &Base, const Shadows &Once,
                                  check_result &Res) {
    Store S = Base;
    Shadows Twice = Once;
    pull(Df, S, Twice, AllSeq{}, DiffSeq{});
    std::string Why;
    std::size_t Row = 0;
    eachDiff([&]<std::size_t I>() {
      const std::size_t Count = A<I>::count(std::get<I>(Base));
      for (std::size_t J = 0; J < Count; ++J, ++Row) {
        double One = double(A<I>::at(std::get<I>(Once), J));
        double Two = double(A<I>::at(std::get<I>(Twice), J));
        if (!Why.empty() ||
            std::fabs(Two - 2 * One) <= O.rtol * std::fabs(2 * One) + O.atol)
          continue;
        char Buf[200];
        std::snprintf(Buf, sizeof Buf,
                      "adjoints do not accumulate: a second call left %s at "
                      "%.9e, want 2 * %.9e (a pullback adds to its "
                      "adjoints: +=)",
                      describe(Res.rows[Row]).c_str(), Two, One);
        Why = Buf;
      }
    });
    Res.accumulates = Why.empty();
    return Why;
  }

  template <class D>
  static check_result pushforward(const check_options &O, Fn F, D &&Df,
                                  const Store &Base) {
    check_result Res;
    const double Want = value(F, Base);
    double Got = Want;
    eachDiff([&]<std::size_t I>() {
      rowsOf<I>(F, Base, O, Res, [&](std::size_t J) {
        Store S = Base;
        Shadows Tan = zeros(Base, AllSeq{});
        A<I>::at(std::get<I>(Tan), J) = 1;
        dual<R> Y = push(Df, S, Tan, AllSeq{}, DiffSeq{});
        if (std::fabs(double(Y.val) - Want) >
            std::fabs(Got - Want)) // keep the worst
          Got = double(Y.val);
        return Y.der[0];
      });
    });
    std::string Extra;
    if (!(std::fabs(Got - Want) <= O.rtol * std::fabs(Want) + O.atol)) {
      char Buf[160];
      std::snprintf(Buf, sizeof Buf,
                    "the pushforward's value %.9e is not f's value %.9e", Got,
                    Want);
      Extra = Buf;
      Res.value_matches = false;
    }
    finish(Res, O, "pushforward", Extra);
    return Res;
  }

  /// A lambda or other callable: a pullback if it takes the pullback's
  /// arguments, else a pushforward.
  template <class D>
  static check_result any(const check_options &O, Fn F, D &&Df,
                          const Store &Base) {
    if constexpr (callsAs<D>(static_cast<Pullback>(nullptr)))
      return pullback(O, F, Df, Base);
    else if constexpr (callsAs<D>(static_cast<Pushforward>(nullptr)))
      return pushforward(O, F, Df, Base);
    else
      static_assert(callsAs<D>(static_cast<Pullback>(nullptr)),
                    "grad::check: the derivative takes neither the pullback's "
                    "arguments (f's, the seed, one adjoint pointer per "
                    "differentiated parameter) nor the pushforward's (f's and "
                    "one tangent each); mark inputs without one "
                    "grad::nodiff(...)");
  }
  template <class D, class Ret, class... T>
  static constexpr bool callsAs(Ret (*)(T...)) {
    if constexpr (std::is_void_v<Ret>)
      return std::is_invocable_v<D &, T...>;
    else
      return std::is_invocable_r_v<Ret, D &, T...>;
  }
};

} // namespace checking
} // namespace detail

/// Checks \p Df, \p F's pullback, at \p Inputs (one per parameter of F).
template <class R, class... P, class... In>
check_result check(
    const check_options &Options, R (*F)(P...),
    typename detail::checking::Checker<R, detail::checking::List<P...>,
                                       detail::checking::List<In...>>::Pullback
        Df,
    In &&...Inputs) {
  using C = detail::checking::Checker<R, detail::checking::List<P...>,
                                      detail::checking::List<In...>>;
  return C::pullback(Options, F, Df, C::store(std::forward<In>(Inputs)...));
}

/// Checks \p Df, \p F's pushforward, at \p Inputs.
template <class R, class... P, class... In>
check_result check(const check_options &Options, R (*F)(P...),
                   typename detail::checking::Checker<
                       R, detail::checking::List<P...>,
                       detail::checking::List<In...>>::Pushforward Df,
                   In &&...Inputs) {
  using C = detail::checking::Checker<R, detail::checking::List<P...>,
                                      detail::checking::List<In...>>;
  return C::pushforward(Options, F, Df, C::store(std::forward<In>(Inputs)...));
}

/// Checks \p Df, a lambda or function object calling a pullback or a
/// pushforward of \p F, at \p Inputs.
template <class R, class... P, class D, class... In>
requires std::is_class_v<std::remove_cvref_t<D>> check_result
check(const check_options &Options, R (*F)(P...), D &&Df, In &&...Inputs) {
  using C = detail::checking::Checker<R, detail::checking::List<P...>,
                                      detail::checking::List<In...>>;
  return C::any(Options, F, Df, C::store(std::forward<In>(Inputs)...));
}

/// The same with the default options.
template <class R, class... P, class... In>
check_result check(
    R (*F)(P...),
    typename detail::checking::Checker<R, detail::checking::List<P...>,
                                       detail::checking::List<In...>>::Pullback
        Df,
    In &&...Inputs) {
  return check(check_options{}, F, Df, std::forward<In>(Inputs)...);
}
template <class R, class... P, class... In>
check_result check(R (*F)(P...),
                   typename detail::checking::Checker<
                       R, detail::checking::List<P...>,
                       detail::checking::List<In...>>::Pushforward Df,
                   In &&...Inputs) {
  return check(check_options{}, F, Df, std::forward<In>(Inputs)...);
}
template <class R, class... P, class D, class... In>
requires std::is_class_v<std::remove_cvref_t<D>>
    check_result check(R (*F)(P...), D &&Df, In &&...Inputs) {
  return check(check_options{}, F, std::forward<D>(Df),
               std::forward<In>(Inputs)...);
}

} // namespace grad

#endif // GRAD_CHECK_H
