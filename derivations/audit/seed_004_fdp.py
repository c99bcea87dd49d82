"""Seed 004, sections 三, 四 (its heading), 4.1 and 4.4: f-DP, the symmetrization f^S, the
trade-off function f_{eps, delta} and post-processing.  Checks in
:mod:`derivations.audit.seed_004_fdp_checks`."""

from __future__ import annotations

from derivations.audit import seed_004_fdp_checks as c
from derivations.audit.seed_004_tools import SEED
from symbolic.audit import AuditVerdict, Entry, Method

S3 = "三、f-DP 的定义"
S4 = "四、fdpf-dp(ϵ,δ)dp(\\epsilon, \\delta)-dp 的对应关系,高斯机制"
S41 = "4.1 fdpf-dp(ε,δ)dp(ε, δ)-dp 的对应关系rt"
S44 = "4.4 后处理性质"

V = AuditVerdict
_SEED = SEED.split("_")[0]

ENTRIES: tuple[Entry, ...] = (
    Entry(
        id="seed-004-order-notation",
        seed=_SEED,
        section=S3,
        quote="在 [0,1] 上,如果均有 g(x) ≥ f(x),那么我们将其记作 g ≥ f",
        claim="Notation: g >= f means g(x) >= f(x) for every x in [0, 1].",
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail="A notation; nothing is asserted.",
    ),
    Entry(
        id="seed-004-fdp-definition",
        seed=_SEED,
        section=S3,
        quote="M is said to be f-dp if: T(M(S),M(S')) ≥ f, for all neighboring datasets S and S'",
        claim=(
            "Definition of f-DP; in words, telling neighbours apart is at least as hard as "
            "telling P from Q (f = T(P, Q)) from a single draw."
        ),
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail=(
            "A definition and its paraphrase.  '基于单个平局' (from a single tie) is a garbled "
            "'from a single draw' (单次抽样); the paraphrase matches the definition."
        ),
    ),
    Entry(
        id="seed-004-fdp-symmetric",
        seed=_SEED,
        section=S3,
        quote="显然,f-dp 具有对称性。",
        claim="f-DP is symmetric.",
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail=(
            "Reading (a), checked exactly on 60 random mechanisms on a pair of neighbours with "
            "a trade-off function f they satisfy in both orders (f the convex minorant of "
            "min(T(P,Q), T(Q,P), h), h random, so f is usually asymmetric): the inverse "
            "preserves order (g >= f implies g^-1 >= f^-1) and the mechanism is also "
            "f^-1-DP.  Comparisons at the union of breakpoints, in rational arithmetic."
        ),
        check=c.fdp_symmetric,
        readings=(
            "(a) Since the neighbour relation is symmetric, an f-DP mechanism is also "
            "f^-1-DP (true; checked).  (b) 'every trade-off function is symmetric' is false "
            "(T((1,0),(1/2,1/2)) has T(0) = 1/2 while its inverse has value 1 at 0) but is "
            "not what the sentence says in context."
        ),
    ),
    Entry(
        id="seed-004-fdp-figure",
        seed=_SEED,
        section=S3,
        quote="只有全部在 f 上面的虚线才是符合 f-dp 的 … II 类错误的概率高于 f",
        claim="Curves entirely above f are f-DP; at fixed type I error their type II is higher.",
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail=(
            "Describes a figure that is not in the text; it restates the definition ('高于' "
            "should read 'not lower than': a curve touching f is f-DP)."
        ),
    ),
    Entry(
        id="seed-004-inverse-is-swap",
        seed=_SEED,
        section=S3,
        quote="这里注意到 f^{-1} = T(Q,P)",
        claim="For f = T(P, Q), f^-1(alpha) = inf{t : f(t) <= alpha} equals T(Q, P).",
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail=(
            "60 random rational pairs (2-5 outcomes, zeros allowed): the inverse of the "
            "Neyman-Pearson curve equals the curve of the swapped pair at every breakpoint, "
            "exactly."
        ),
        check=c.inverse_is_swap,
    ),
    Entry(
        id="seed-004-fs-above-f",
        seed=_SEED,
        section=S3,
        quote="f^S = max{f, f^{-1}} ≥ f",
        claim="The symmetrization f^S = max{f, f^-1} is at least f.",
        method=Method.DERIVATION,
        verdict=V.PROVED,
        detail="The claim Max(f, finv) >= f, parsed by parse_claim: the engine proves it.",
        check=c.fs_above_f,
    ),
    Entry(
        id="seed-004-fs-self-inverse",
        seed=_SEED,
        section=S3,
        quote="f^S = (f^S)^{-1}",
        claim="f^S is symmetric: it equals its own inverse (and is a trade-off function).",
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail=(
            "For f = T(P, Q) of 60 random rational pairs, f^S = max{f, f^-1} (crossings "
            "included) is convex, non-increasing, below 1 - alpha, and (f^S)^-1 = f^S at every "
            "breakpoint, exactly."
        ),
        check=c.fs_self_inverse,
    ),
    Entry(
        id="seed-004-fdp-implies-fs",
        seed=_SEED,
        section=S3,
        quote="f^{-1}(α):=inf{t∈[0,1]:f(t)≤α}, f^S=max{f,f^{-1}} … 则 M 符合 f^S-DP",
        claim="An f-DP mechanism is f^S-DP (the seed adds that this is not obvious).",
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail=(
            "60 random mechanisms on a pair of neighbours, f-DP in both orders with f usually "
            "asymmetric: T(P, Q) and T(Q, P) dominate f^S, exactly at all breakpoints.  The "
            "proof is short once the neighbour relation is symmetric: T(P, Q) = T(Q, P)^-1 >= "
            "f^-1 (seed-004-inverse-is-swap, and the inverse preserves order)."
        ),
        check=c.fdp_implies_fs,
    ),
    Entry(
        id="seed-004-fs-proof-omitted",
        seed=_SEED,
        section=S3,
        quote="证明过程暂时省略,此处仅作占位",
        claim="(Placeholder: the proof that f-DP implies f^S-DP is omitted.)",
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail="No proof is given, so there is no step to check; the statement itself is "
        "checked in seed-004-fdp-implies-fs.",
    ),
    Entry(
        id="seed-004-section-4-heading",
        seed=_SEED,
        section=S4,
        quote="f-dp 与 (ε, δ)-dp 的对应关系,高斯机制",
        claim="Heading: the correspondence of f-DP and (eps, delta)-DP; the Gaussian mechanism.",
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail=(
            "A heading with no text of its own; its statements are in 4.1-4.6.  (The "
            "rendered heading lost '与' and repeats each formula as text and as LaTeX.)"
        ),
    ),
    Entry(
        id="seed-004-f-eps-delta-is-tradeoff",
        seed=_SEED,
        section=S41,
        quote="f_{ε,δ}(α)=max{0,1−δ−e^ε α,e^{−ε}(1−δ−α)} … 因此 f_{ε,δ} 也是一个 trade-off 函数",
        claim=(
            "f_{eps,delta} is convex, continuous, non-increasing and below 1 - x, hence a "
            "trade-off function."
        ),
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail=(
            "For 60 rational e^eps >= 1 and delta in [0, 0.9], the seed's formula (the maximum "
            "of its three lines, crossings included) has the four properties exactly and "
            "equals T(P, Q) of the 4-point pair of Dong, Roth & Su, so it is a trade-off "
            "function; for real eps in {0, 0.5, 2, 8} the properties are also sampled."
        ),
        check=c.f_eps_delta_is_tradeoff,
        readings="'下凸函数' is 'convex' (bowl-shaped), as intended.",
    ),
    Entry(
        id="seed-004-eps-delta-tradeoff-equivalence",
        seed=_SEED,
        section=S41,
        quote="证明一个机制符合 (ε, δ)-dp 的问题,就转变成了…均有 T(M(S), M(S’)) ≥ f_{ε, δ} 的问题",
        claim="M is (eps, delta)-DP iff T(M(S), M(S')) >= f_{eps,delta} for all neighbours.",
        method=Method.FINITE_SEARCH,
        verdict=V.CHECKED,
        detail=(
            "finite_search on pairs and eps in [0, 3], delta in [0, 1]: 'sup_S P(S) - e^eps "
            "Q(S) <= delta in both orders' is equivalent to 'T(P, Q) >= f_{eps,delta} at every "
            "vertex of T' (enough: T is piecewise linear and f the maximum of three lines); no "
            "counterexample in the edge cases and 300 draws."
        ),
        check=c.eps_delta_tradeoff_equivalence,
    ),
    Entry(
        id="seed-004-post-processing",
        seed=_SEED,
        section=S44,
        quote="如果机制 M 符合 f-DP,那么它的后处理过程也符合 f-dp",
        claim="Post-processing preserves f-DP: T(Proc(P), Proc(Q)) >= T(P, Q).",
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail=(
            "60 random rational pairs through random channels (to 1-5 outputs): the output "
            "curve dominates the input curve at every breakpoint, exactly; and finite_search "
            "over circulant channels (300 draws) finds no counterexample."
        ),
        check=c.post_processing,
    ),
)
