#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "attn/kernels/gemm.hpp"
#include "attn/random.hpp"

using attn::Rng;
using attn::kernels::gemm;
using attn::kernels::gemm_reference;
using attn::kernels::GemmKernel;

namespace {

// One gemm problem with padded leading dimensions, stored as the row-major buffers gemm reads.
struct Problem {
  bool trans_a = false, trans_b = false;
  std::size_t m = 0, n = 0, k = 0, lda = 0, ldb = 0, ldc = 0;
  float alpha = 1.f, beta = 0.f;
  std::vector<float> a, b, c;
};

Problem make_problem(Rng& rng, bool trans_a, bool trans_b, std::size_t m, std::size_t n, std::size_t k, float alpha,
                     float beta, std::size_t pad) {
  Problem p;
  p.trans_a = trans_a;
  p.trans_b = trans_b;
  p.m = m;
  p.n = n;
  p.k = k;
  p.alpha = alpha;
  p.beta = beta;
  // Stored shapes: A [M, K] or [K, M]; B [K, N] or [N, K]; C [M, N]. Padding makes ld > width.
  const std::size_t a_rows = trans_a ? k : m, a_cols = trans_a ? m : k;
  const std::size_t b_rows = trans_b ? n : k, b_cols = trans_b ? k : n;
  p.lda = a_cols + pad;
  p.ldb = b_cols + 2 * pad;
  p.ldc = n + 3 * pad;
  p.a.resize(a_rows * p.lda);
  p.b.resize(b_rows * p.ldb);
  p.c.resize(m * p.ldc);
  for (float& x : p.a) x = rng.uniform(-1.f, 1.f);
  for (float& x : p.b) x = rng.uniform(-1.f, 1.f);
  for (float& x : p.c) x = rng.uniform(-1.f, 1.f);
  return p;
}

// Runs gemm and gemm_reference on copies of C and checks every entry against the float
// rounding bound of a length-k dot product, (k + 4)·eps·(|alpha|·Σ|a||b| + |beta|·|c|), which
// both sides meet; padding columns of C must be left untouched. Returns the worst error / bound.
double check_against_reference(const Problem& p) {
  std::vector<float> fast = p.c, ref = p.c;
  gemm(p.trans_a, p.trans_b, p.m, p.n, p.k, p.alpha, p.a.data(), p.lda, p.b.data(), p.ldb, p.beta, fast.data(), p.ldc);
  gemm_reference(p.trans_a, p.trans_b, p.m, p.n, p.k, p.alpha, p.a.data(), p.lda, p.b.data(), p.ldb, p.beta, ref.data(),
                 p.ldc);
  // The bound's magnitude term: the same product on absolute values.
  std::vector<float> abs_a(p.a), abs_b(p.b), magnitude(p.c);
  for (float& x : abs_a) x = std::fabs(x);
  for (float& x : abs_b) x = std::fabs(x);
  for (float& x : magnitude) x = std::fabs(x);
  gemm_reference(p.trans_a, p.trans_b, p.m, p.n, p.k, std::fabs(p.alpha), abs_a.data(), p.lda, abs_b.data(), p.ldb,
                 std::fabs(p.beta), magnitude.data(), p.ldc);
  const double eps = std::numeric_limits<float>::epsilon();
  double worst = 0.0;
  for (std::size_t i = 0; i < p.m; ++i) {
    for (std::size_t j = 0; j < p.ldc; ++j) {
      const std::size_t at = i * p.ldc + j;
      if (j >= p.n) {
        REQUIRE(fast[at] == p.c[at]);
        continue;
      }
      const double bound = (p.k + 4) * eps * magnitude[at] + 1e-30;
      const double ratio = std::fabs(static_cast<double>(fast[at]) - ref[at]) / bound;
      if (!(ratio <= 1.0)) {
        INFO("trans_a " << p.trans_a << " trans_b " << p.trans_b << " m " << p.m << " n " << p.n << " k " << p.k
                        << " alpha " << p.alpha << " beta " << p.beta << " at (" << i << ", " << j << ")");
        CHECK(fast[at] == doctest::Approx(ref[at]));
        REQUIRE(ratio <= 1.0);
      }
      worst = std::max(worst, ratio);
    }
  }
  return worst;
}

// Runs `body` once with each micro-kernel this build and CPU have (the 4×8 simd4 kernel always;
// the AVX2 + FMA and AVX-512 ones natively on CPUs that have them), then restores the default.
template <class Body>
void for_each_kernel(Body&& body) {
  const struct {
    GemmKernel kernel;
    const char* name;
  } kernels[] = {{GemmKernel::simd4, "simd4"}, {GemmKernel::avx2_fma, "avx2_fma"}, {GemmKernel::avx512, "avx512"}};
  for (const auto& k : kernels) {
    if (!attn::kernels::set_gemm_kernel(k.kernel)) {
      MESSAGE("kernel " << k.name << " not available here: skipped");
      continue;
    }
    INFO("kernel " << std::string(k.name) << " (" << std::string(attn::kernels::gemm_implementation()) << ")");
    body();
  }
  REQUIRE(attn::kernels::set_gemm_kernel(GemmKernel::best));
}

}  // namespace

TEST_CASE("gemm.hand_computed_2x2") {
  // A = [[1, 2], [3, 4]], B = [[5, 6], [7, 8]]: AB = [[1·5 + 2·7, 1·6 + 2·8], [3·5 + 4·7, 3·6 + 4·8]]
  // = [[19, 22], [43, 50]]. alpha = 2, beta = 0.5, C = [[1, 2], [3, 4]]:
  // 2·AB + 0.5·C = [[38.5, 45], [87.5, 102]].
  const float a[] = {1, 2, 3, 4};
  const float b[] = {5, 6, 7, 8};
  float c[] = {1, 2, 3, 4};
  gemm(false, false, 2, 2, 2, 2.f, a, 2, b, 2, 0.5f, c, 2);
  CHECK(c[0] == 38.5f);
  CHECK(c[1] == 45.f);
  CHECK(c[2] == 87.5f);
  CHECK(c[3] == 102.f);
  // Aᵀ·Bᵀ = (BA)ᵀ; BA = [[5 + 18, 10 + 24], [7 + 24, 14 + 32]] = [[23, 34], [31, 46]], so
  // Aᵀ·Bᵀ = [[23, 31], [34, 46]].
  float d[] = {0, 0, 0, 0};
  gemm(true, true, 2, 2, 2, 1.f, a, 2, b, 2, 0.f, d, 2);
  CHECK(d[0] == 23.f);
  CHECK(d[1] == 31.f);
  CHECK(d[2] == 34.f);
  CHECK(d[3] == 46.f);
}

TEST_CASE("gemm.identity_times_b_is_b_exactly") {
  for_each_kernel([&] {
    // 9×9·9×10 = 810 multiply-adds, above the direct-loop cutoff, so this runs the packed kernel
    // with edge tiles (9 = 2·4 + 1 rows, 10 = 8 + 2 columns). I·B adds exact zeros: C == B bit for bit.
    const std::size_t m = 9, n = 10;
    std::vector<float> identity(m * m, 0.f), b(m * n), c(m * n, -1.f);
    for (std::size_t i = 0; i < m; ++i) identity[i * m + i] = 1.f;
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = 0.1f * static_cast<float>(i) - 3.f;
    gemm(false, false, m, n, m, 1.f, identity.data(), m, b.data(), n, 0.f, c.data(), n);
    for (std::size_t i = 0; i < b.size(); ++i) REQUIRE(c[i] == b[i]);
  });
}

TEST_CASE("gemm.matches_reference_at_edge_sizes_for_all_transposes") {
  for_each_kernel([&] {
    // Around the 4×8 tile and the blocking sizes: every remainder of M mod 4 and N mod 8, K = 1.
    const std::size_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 31, 33, 64, 67};
    Rng rng(11);
    double worst = 0.0;
    for (int combo = 0; combo < 4; ++combo) {
      const bool ta = combo & 1, tb = combo & 2;
      for (std::size_t m : sizes)
        for (std::size_t n : sizes) {
          const std::size_t k = sizes[rng.below(16)];
          worst = std::max(worst, check_against_reference(make_problem(rng, ta, tb, m, n, k, 1.f, 0.f, 3)));
        }
    }
    MESSAGE("worst error / rounding bound: " << worst);
  });
}

TEST_CASE("gemm.matches_reference_at_random_sizes_alpha_beta") {
  for_each_kernel([&] {
    Rng rng(12);
    const float alphas[] = {1.f, -0.5f, 2.f};
    const float betas[] = {0.f, 1.f, 0.75f, -2.f};
    double worst = 0.0;
    for (int trial = 0; trial < 200; ++trial) {
      const bool ta = rng.below(2), tb = rng.below(2);
      const std::size_t m = 1 + rng.below(67), n = 1 + rng.below(67), k = 1 + rng.below(67);
      const Problem p = make_problem(rng, ta, tb, m, n, k, alphas[rng.below(3)], betas[rng.below(4)], rng.below(5));
      worst = std::max(worst, check_against_reference(p));
    }
    MESSAGE("worst error / rounding bound: " << worst);
  });
}

TEST_CASE("gemm.matches_reference_across_cache_blocks") {
  for_each_kernel([&] {
    // K > 256 (several K blocks: beta applies once), M > 128 (several A blocks), N > 2048 (several
    // B blocks), and the model shapes: 32×128·128×512, tall-skinny 6400×32·32×128, tiny 1×3·3×4,
    // and one row (the row path: greedy decoding's output layer, 1×512·512×6000).
    struct Size {
      std::size_t m, n, k;
    };
    const Size shapes[] = {{5, 9, 600},   {130, 17, 40}, {3, 2100, 5},  {32, 512, 128}, {6400, 128, 32},
                           {32, 128, 32}, {1, 4, 3},     {67, 67, 513}, {1, 6000, 512}, {1, 37, 300}};
    Rng rng(13);
    for (const Size& s : shapes)
      for (int combo = 0; combo < 4; ++combo)
        check_against_reference(make_problem(rng, combo & 1, combo & 2, s.m, s.n, s.k, 0.5f, 0.25f, 1));
  });
}

TEST_CASE("gemm.transformer_step_products_match_the_reference") {
  // The products of one Transformer training step as the layers call them (dense.cpp,
  // multi_head_attention.cpp), with a smaller batch: leading dimensions wider than the operands
  // (one head's columns of [T, d_model] Q, K, V), alpha = 1/√d_head on the scores, transposed A
  // read in place for the weight gradients and dVᵀ, dKᵀ.
  struct Call {
    bool ta, tb;
    std::size_t m, n, k, lda, ldb, ldc;
    float alpha;
  };
  constexpr std::size_t kRows = 2 * 40, kT = 40, kD = 32, kHd = 16, kFf = 64;
  const Call calls[] = {
      {false, false, kRows, kFf, kD, kD, kFf, kFf, 1.f},  // dense forward
      {true, false, kD, kFf, kRows, kD, kFf, kFf, 1.f},   // dense dW
      {false, true, kRows, kD, kFf, kFf, kFf, kD, 1.f},   // dense dx
      {false, true, kT, kT, kHd, kD, kD, kT, 0.25f},      // S = QKᵀ / √d_head
      {false, false, kT, kHd, kT, kT, kD, kD, 1.f},       // O = PV, dQ = dS K
      {true, false, kHd, kT, kT, kD, kT, kT, 1.f},        // dVᵀ = dOᵀ P, dKᵀ = Qᵀ dS
  };
  Rng rng(17);
  for_each_kernel([&] {
    for (const Call& call : calls) {
      for (const float beta : {0.f, 1.f}) {
        const std::size_t a_rows = call.ta ? call.k : call.m, b_rows = call.tb ? call.n : call.k;
        std::vector<float> a(a_rows * call.lda), b(b_rows * call.ldb), c(call.m * call.ldc), expected;
        for (float& x : a) x = rng.uniform(-1.f, 1.f);
        for (float& x : b) x = rng.uniform(-1.f, 1.f);
        for (float& x : c) x = rng.uniform(-1.f, 1.f);
        expected = c;
        gemm_reference(call.ta, call.tb, call.m, call.n, call.k, call.alpha, a.data(), call.lda, b.data(), call.ldb,
                       beta, expected.data(), call.ldc);
        gemm(call.ta, call.tb, call.m, call.n, call.k, call.alpha, a.data(), call.lda, b.data(), call.ldb, beta,
             c.data(), call.ldc);
        const double bound = 4.0 * static_cast<double>(call.k) * 0x1p-24 + 1e-6;
        for (std::size_t i = 0; i < c.size(); ++i) {
          INFO("m " << call.m << " n " << call.n << " k " << call.k << " trans " << call.ta << call.tb << " beta "
                    << beta << " at " << i);
          REQUIRE(std::abs(c[i] - expected[i]) <= bound * (1.0 + std::abs(expected[i])));
        }
      }
    }
  });
}

TEST_CASE("gemm.beta_zero_does_not_read_c") {
  for_each_kernel([&] {
    Rng rng(14);
    for (std::size_t k : {7, 300}) {
      Problem p = make_problem(rng, false, true, 13, 19, k, 1.f, 0.f, 0);
      // (The row path, m = 1 with B untransposed, has the same contract.)
      Problem row = make_problem(rng, k == 7, false, 1, 50, k, 1.f, 0.f, 0);
      std::fill(row.c.begin(), row.c.end(), std::numeric_limits<float>::quiet_NaN());
      gemm(row.trans_a, false, 1, row.n, row.k, 1.f, row.a.data(), row.lda, row.b.data(), row.ldb, 0.f, row.c.data(),
           row.ldc);
      for (float v : row.c) REQUIRE_FALSE(std::isnan(v));
      std::vector<float> ref(p.c.size());
      gemm_reference(false, true, p.m, p.n, p.k, 1.f, p.a.data(), p.lda, p.b.data(), p.ldb, 0.f, ref.data(), p.ldc);
      std::fill(p.c.begin(), p.c.end(), std::numeric_limits<float>::quiet_NaN());
      gemm(false, true, p.m, p.n, p.k, 1.f, p.a.data(), p.lda, p.b.data(), p.ldb, 0.f, p.c.data(), p.ldc);
      for (std::size_t i = 0; i < p.c.size(); ++i) {
        REQUIRE_FALSE(std::isnan(p.c[i]));
        CHECK(p.c[i] == doctest::Approx(ref[i]).epsilon(1e-5));
      }
    }
  });
}

TEST_CASE("gemm.k_zero_leaves_beta_c") {
  float c[] = {1, 2, 3, 4, 5, 6};
  gemm(false, false, 2, 3, 0, 1.f, nullptr, 1, nullptr, 3, 0.5f, c, 3);
  CHECK(c[0] == 0.5f);
  CHECK(c[5] == 3.f);
  gemm(false, false, 2, 3, 0, 1.f, nullptr, 1, nullptr, 3, 0.f, c, 3);
  CHECK(c[0] == 0.f);
  CHECK(c[5] == 0.f);
}

TEST_CASE("gemm.names_its_implementation") {
  const std::string name = attn::kernels::gemm_implementation();
  MESSAGE("gemm implementation: " << name);
  // The 4×8 kernel is named after its lanes (sse2 on x86-64, scalar elsewhere).
  const auto is_simd4 = [](const std::string& n) { return n.size() > 4 && n.compare(n.size() - 4, 4, " 4x8") == 0; };
  CHECK((is_simd4(name) || name == "avx2+fma 6x16" || name == "avx512 8x32"));
  // Choosing a kernel names it; the 4×8 one exists in every build.
  REQUIRE(attn::kernels::set_gemm_kernel(GemmKernel::simd4));
  CHECK(is_simd4(attn::kernels::gemm_implementation()));
  if (attn::kernels::set_gemm_kernel(GemmKernel::avx2_fma))
    CHECK(std::string(attn::kernels::gemm_implementation()) == "avx2+fma 6x16");
  if (attn::kernels::set_gemm_kernel(GemmKernel::avx512))
    CHECK(std::string(attn::kernels::gemm_implementation()) == "avx512 8x32");
  REQUIRE(attn::kernels::set_gemm_kernel(GemmKernel::best));
  CHECK(std::string(attn::kernels::gemm_implementation()) == name);
}

TEST_CASE("gemm.in_place_and_packed_operands_agree_bit_for_bit") {
  for_each_kernel([&] {
    // A is read in place along its rows (untransposed) or down its columns (transposed), its
    // ragged last sliver packed; B is read in place untransposed, packed transposed. Within one
    // K block every way feeds the same values in the same k order to the same micro-kernel, so
    // C must match exactly. (A transposed A may have shorter K blocks, kKcTransposedA, which
    // rounds the partial sums at other places: K stays within 128 here; longer K is checked
    // against the reference above.) Sizes give ragged last slivers (M mod 4 = 1..3, N mod 8 !=
    // 0), padded leading dimensions, alpha/beta on a non-zero C, and a B wide enough (ldb ≥ 256)
    // that its in-place slivers are copied first.
    struct Size {
      std::size_t m, n, k;
    };
    const Size sizes[] = {{13, 21, 128}, {6, 9, 40}, {33, 70, 17}, {4, 8, 127}, {9, 300, 40}};
    Rng rng(15);
    for (const Size& s : sizes) {
      const std::size_t pad = 3, lda = s.k + pad, ldb = s.n + pad, ldat = s.m + pad, ldbt = s.k + pad;
      std::vector<float> a(s.m * lda), b(s.k * ldb), at(s.k * ldat), bt(s.n * ldbt), c0(s.m * s.n);
      for (float& x : a) x = rng.uniform(-1.f, 1.f);
      for (float& x : b) x = rng.uniform(-1.f, 1.f);
      for (float& x : c0) x = rng.uniform(-1.f, 1.f);
      for (std::size_t i = 0; i < s.m; ++i)
        for (std::size_t p = 0; p < s.k; ++p) at[p * ldat + i] = a[i * lda + p];
      for (std::size_t p = 0; p < s.k; ++p)
        for (std::size_t j = 0; j < s.n; ++j) bt[j * ldbt + p] = b[p * ldb + j];
      std::vector<float> in_place = c0, packed = c0;
      gemm(false, false, s.m, s.n, s.k, 0.75f, a.data(), lda, b.data(), ldb, -0.5f, in_place.data(), s.n);
      gemm(true, true, s.m, s.n, s.k, 0.75f, at.data(), ldat, bt.data(), ldbt, -0.5f, packed.data(), s.n);
      for (std::size_t i = 0; i < in_place.size(); ++i) {
        INFO("m " << s.m << " n " << s.n << " k " << s.k << " at " << i);
        REQUIRE(in_place[i] == packed[i]);
      }
    }
  });
}

TEST_CASE("gemm.every_path_of_the_plan_matches_the_reference") {
  // One product per row of the table in core/src/kernels/gemm.cpp, on every kernel, with alpha
  // and beta applied to a non-zero C and padded leading dimensions.
  struct Case {
    const char* path;
    bool trans_a, trans_b;
    std::size_t m, n, k;
  };
  const Case cases[] = {
      {"direct (m·n·k <= 512)", false, true, 5, 7, 9},
      {"blocked, A and B in place", false, false, 37, 45, 33},
      {"blocked, A in place, B packed (transposed)", false, true, 37, 45, 33},
      {"blocked, transposed A in place (a_row 1, a_step lda; ragged sliver packed), B in place", true, false, 37, 45,
       33},
      {"blocked, transposed A in place, B packed (transposed)", true, true, 37, 45, 33},
      {"blocked, transposed A in place over several K blocks (weight gradients)", true, false, 33, 40, 600},
      {"blocked, B slivers copied (ldb >= 256)", false, false, 19, 300, 21},
      {"blocked, B packed (m >= 256)", false, false, 261, 35, 19},
      {"blocked, several K, M and N blocks", false, false, 133, 2085, 301},
  };
  Rng rng(16);
  for_each_kernel([&] {
    for (const Case& c : cases) {
      INFO("path: " << std::string(c.path));
      check_against_reference(make_problem(rng, c.trans_a, c.trans_b, c.m, c.n, c.k, -1.5f, 0.5f, 2));
    }
  });
  // empty: m == 0 or n == 0 touches nothing.
  float untouched[] = {7.f, 8.f};
  gemm(false, false, 0, 2, 3, 1.f, nullptr, 3, nullptr, 2, 0.f, untouched, 2);
  gemm(false, false, 1, 0, 3, 1.f, nullptr, 3, nullptr, 2, 0.f, untouched, 2);
  CHECK(untouched[0] == 7.f);
  CHECK(untouched[1] == 8.f);
}
