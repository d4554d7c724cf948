;; The GEMM micro-kernel of core/src/kernels/gemm.cpp with fused multiply-adds
;; (f32x4.relaxed_madd, WebAssembly relaxed SIMD), for wasm engines that have them.
;;
;; clang 14 (Debian's Emscripten) only knows the prototype encoding of relaxed SIMD, which no
;; shipping engine accepts, so this kernel is written by hand, assembled by wabt's wat2wasm at
;; configure time and embedded in the SIMD wasm build. At the first GEMM, gemm.cpp instantiates
;; it on the engine's own memory and puts its two functions in the engine's function table;
;; where the engine refuses the module (no relaxed SIMD, e.g. node 20 without a flag) the
;; C++ kernel runs instead.
;;
;; Both compute 4 x 8 tiles of op(A) . op(B) over kc steps. Row p of the B sliver is 8 floats at
;; bp + p * b_step. Pointers and steps are in bytes.
;;   packed: one tile, A a packed [kc][4] sliver (the tile's 4 rows adjacent, a_step = 16),
;;     stored row-major to `tile` (32 floats) for gemm.cpp to apply alpha and beta. Signature:
;;       void (*)(size_t kc, const float* ap, size_t a_row, size_t a_step, const float* bp,
;;                size_t b_step, float* tile)
;;   strided_panel: A read in place (a(r, p) at ap + r * a_row + p * a_step: a_row = lda * 4 and
;;     a_step = 4 for an untransposed A, a_row = 4 and a_step = lda * 4 for a transposed one), for
;;     `tiles` tiles stacked down the rows of op(A) and C (tile t's A starts 4 * t * a_row further,
;;     its C 4 * t rows further down) under the same B sliver. Each tile's sums times alpha are
;;     stored to C (row r at c + r * ldc) or, when `accumulate` is nonzero, added to it: beta = 0
;;     or 1, the models' products, one call per sliver (alpha = 1 skips the multiply, so such
;;     sums are the bare FMA chains). gemm.cpp also runs it as a one-tile kernel, with C the
;;     32-float `tile` (ldc = 32 bytes, not accumulated, alpha = 1), when beta is anything else.
;;     Signature:
;;       void (*)(size_t kc, const float* ap, size_t a_row, size_t a_step, const float* bp,
;;                size_t b_step, float* c, size_t ldc, size_t tiles, int accumulate, float alpha)
;; (strided_panel with a_row = 4 would also do for packed slivers, but the packed loop's
;; immediate offsets keep three adds and three live pointers out of it, which measured faster.)
;; These signatures are what clang gives the function pointer types in gemm.cpp, which calls
;; them through the function table (call_indirect).
(module
  (import "env" "memory" (memory 1))

  (func (export "packed")
    (param $kc i32) (param $ap i32) (param $a_row i32) (param $a_step i32)
    (param $bp i32) (param $b_step i32) (param $tile i32)
    (local $b0 v128) (local $b1 v128) (local $a v128)
    (local $c00 v128) (local $c01 v128) (local $c10 v128) (local $c11 v128)
    (local $c20 v128) (local $c21 v128) (local $c30 v128) (local $c31 v128)
    (block $done
      (loop $step
        (br_if $done (i32.eqz (local.get $kc)))
        (local.set $b0 (v128.load (local.get $bp)))
        (local.set $b1 (v128.load offset=16 (local.get $bp)))
        (local.set $a (v128.load32_splat (local.get $ap)))
        (local.set $c00 (f32x4.relaxed_madd (local.get $a) (local.get $b0) (local.get $c00)))
        (local.set $c01 (f32x4.relaxed_madd (local.get $a) (local.get $b1) (local.get $c01)))
        (local.set $a (v128.load32_splat offset=4 (local.get $ap)))
        (local.set $c10 (f32x4.relaxed_madd (local.get $a) (local.get $b0) (local.get $c10)))
        (local.set $c11 (f32x4.relaxed_madd (local.get $a) (local.get $b1) (local.get $c11)))
        (local.set $a (v128.load32_splat offset=8 (local.get $ap)))
        (local.set $c20 (f32x4.relaxed_madd (local.get $a) (local.get $b0) (local.get $c20)))
        (local.set $c21 (f32x4.relaxed_madd (local.get $a) (local.get $b1) (local.get $c21)))
        (local.set $a (v128.load32_splat offset=12 (local.get $ap)))
        (local.set $c30 (f32x4.relaxed_madd (local.get $a) (local.get $b0) (local.get $c30)))
        (local.set $c31 (f32x4.relaxed_madd (local.get $a) (local.get $b1) (local.get $c31)))
        (local.set $ap (i32.add (local.get $ap) (local.get $a_step)))
        (local.set $bp (i32.add (local.get $bp) (local.get $b_step)))
        (local.set $kc (i32.sub (local.get $kc) (i32.const 1)))
        (br $step)))
    (v128.store offset=0 (local.get $tile) (local.get $c00))
    (v128.store offset=16 (local.get $tile) (local.get $c01))
    (v128.store offset=32 (local.get $tile) (local.get $c10))
    (v128.store offset=48 (local.get $tile) (local.get $c11))
    (v128.store offset=64 (local.get $tile) (local.get $c20))
    (v128.store offset=80 (local.get $tile) (local.get $c21))
    (v128.store offset=96 (local.get $tile) (local.get $c30))
    (v128.store offset=112 (local.get $tile) (local.get $c31)))

  (func (export "strided_panel")
    (param $kc i32) (param $ap i32) (param $a_row i32) (param $a_step i32)
    (param $bp i32) (param $b_step i32) (param $c i32) (param $ldc i32)
    (param $tiles i32) (param $accumulate i32) (param $alpha f32)
    (local $b0 v128) (local $b1 v128) (local $a v128)
    (local $c00 v128) (local $c01 v128) (local $c10 v128) (local $c11 v128)
    (local $c20 v128) (local $c21 v128) (local $c30 v128) (local $c31 v128)
    (local $p0 i32) (local $p1 i32) (local $p2 i32) (local $p3 i32) (local $pb i32) (local $k i32)
    (local $r i32)
    (block $tiles_done
      (loop $tile
        (br_if $tiles_done (i32.eqz (local.get $tiles)))
        (local.set $p0 (local.get $ap))
        (local.set $p1 (i32.add (local.get $p0) (local.get $a_row)))
        (local.set $p2 (i32.add (local.get $p1) (local.get $a_row)))
        (local.set $p3 (i32.add (local.get $p2) (local.get $a_row)))
        (local.set $pb (local.get $bp))
        (local.set $k (local.get $kc))
        (local.set $c00 (v128.const i32x4 0 0 0 0))
        (local.set $c01 (v128.const i32x4 0 0 0 0))
        (local.set $c10 (v128.const i32x4 0 0 0 0))
        (local.set $c11 (v128.const i32x4 0 0 0 0))
        (local.set $c20 (v128.const i32x4 0 0 0 0))
        (local.set $c21 (v128.const i32x4 0 0 0 0))
        (local.set $c30 (v128.const i32x4 0 0 0 0))
        (local.set $c31 (v128.const i32x4 0 0 0 0))
        (block $done
          (loop $step
            (br_if $done (i32.eqz (local.get $k)))
            (local.set $b0 (v128.load (local.get $pb)))
            (local.set $b1 (v128.load offset=16 (local.get $pb)))
            (local.set $a (v128.load32_splat (local.get $p0)))
            (local.set $c00 (f32x4.relaxed_madd (local.get $a) (local.get $b0) (local.get $c00)))
            (local.set $c01 (f32x4.relaxed_madd (local.get $a) (local.get $b1) (local.get $c01)))
            (local.set $a (v128.load32_splat (local.get $p1)))
            (local.set $c10 (f32x4.relaxed_madd (local.get $a) (local.get $b0) (local.get $c10)))
            (local.set $c11 (f32x4.relaxed_madd (local.get $a) (local.get $b1) (local.get $c11)))
            (local.set $a (v128.load32_splat (local.get $p2)))
            (local.set $c20 (f32x4.relaxed_madd (local.get $a) (local.get $b0) (local.get $c20)))
            (local.set $c21 (f32x4.relaxed_madd (local.get $a) (local.get $b1) (local.get $c21)))
            (local.set $a (v128.load32_splat (local.get $p3)))
            (local.set $c30 (f32x4.relaxed_madd (local.get $a) (local.get $b0) (local.get $c30)))
            (local.set $c31 (f32x4.relaxed_madd (local.get $a) (local.get $b1) (local.get $c31)))
            (local.set $p0 (i32.add (local.get $p0) (local.get $a_step)))
            (local.set $p1 (i32.add (local.get $p1) (local.get $a_step)))
            (local.set $p2 (i32.add (local.get $p2) (local.get $a_step)))
            (local.set $p3 (i32.add (local.get $p3) (local.get $a_step)))
            (local.set $pb (i32.add (local.get $pb) (local.get $b_step)))
            (local.set $k (i32.sub (local.get $k) (i32.const 1)))
            (br $step)))
        (if (f32.ne (local.get $alpha) (f32.const 1))
          (then
            (local.set $a (f32x4.splat (local.get $alpha)))
            (local.set $c00 (f32x4.mul (local.get $c00) (local.get $a)))
            (local.set $c01 (f32x4.mul (local.get $c01) (local.get $a)))
            (local.set $c10 (f32x4.mul (local.get $c10) (local.get $a)))
            (local.set $c11 (f32x4.mul (local.get $c11) (local.get $a)))
            (local.set $c20 (f32x4.mul (local.get $c20) (local.get $a)))
            (local.set $c21 (f32x4.mul (local.get $c21) (local.get $a)))
            (local.set $c30 (f32x4.mul (local.get $c30) (local.get $a)))
            (local.set $c31 (f32x4.mul (local.get $c31) (local.get $a)))))
        (if (local.get $accumulate)
          (then
            (local.set $r (local.get $c))
            (v128.store offset=0 (local.get $r) (f32x4.add (v128.load offset=0 (local.get $r)) (local.get $c00)))
            (v128.store offset=16 (local.get $r) (f32x4.add (v128.load offset=16 (local.get $r)) (local.get $c01)))
            (local.set $r (i32.add (local.get $r) (local.get $ldc)))
            (v128.store offset=0 (local.get $r) (f32x4.add (v128.load offset=0 (local.get $r)) (local.get $c10)))
            (v128.store offset=16 (local.get $r) (f32x4.add (v128.load offset=16 (local.get $r)) (local.get $c11)))
            (local.set $r (i32.add (local.get $r) (local.get $ldc)))
            (v128.store offset=0 (local.get $r) (f32x4.add (v128.load offset=0 (local.get $r)) (local.get $c20)))
            (v128.store offset=16 (local.get $r) (f32x4.add (v128.load offset=16 (local.get $r)) (local.get $c21)))
            (local.set $r (i32.add (local.get $r) (local.get $ldc)))
            (v128.store offset=0 (local.get $r) (f32x4.add (v128.load offset=0 (local.get $r)) (local.get $c30)))
            (v128.store offset=16 (local.get $r) (f32x4.add (v128.load offset=16 (local.get $r)) (local.get $c31))))
          (else
            (local.set $r (local.get $c))
            (v128.store offset=0 (local.get $r) (local.get $c00))
            (v128.store offset=16 (local.get $r) (local.get $c01))
            (local.set $r (i32.add (local.get $r) (local.get $ldc)))
            (v128.store offset=0 (local.get $r) (local.get $c10))
            (v128.store offset=16 (local.get $r) (local.get $c11))
            (local.set $r (i32.add (local.get $r) (local.get $ldc)))
            (v128.store offset=0 (local.get $r) (local.get $c20))
            (v128.store offset=16 (local.get $r) (local.get $c21))
            (local.set $r (i32.add (local.get $r) (local.get $ldc)))
            (v128.store offset=0 (local.get $r) (local.get $c30))
            (v128.store offset=16 (local.get $r) (local.get $c31))))
        (local.set $ap (i32.add (local.get $ap) (i32.shl (local.get $a_row) (i32.const 2))))
        (local.set $c (i32.add (local.get $c) (i32.shl (local.get $ldc) (i32.const 2))))
        (local.set $tiles (i32.sub (local.get $tiles) (i32.const 1)))
        (br $tile))))
)
