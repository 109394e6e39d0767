/*
 * dense.cl - the kernels of one dense layer y = ReLU(x*W + b), forward and
 * backward, in OpenCL C 1.2 (row-major, fp32).
 *
 * Every product here is one GEMM  C[PxQ] = sum_r A(p,r)*B(r,q)  read through a
 * different access pattern, so no transpose kernel is ever needed:
 *
 *   dense_fwd     P=M Q=N R=K  A = x[p,r]   B = W[r,q]   y  = ReLU(C + b)
 *   dense_bwd_dx  P=M Q=K R=N  A = dz[p,r]  B = W[q,r]   dx = C
 *   dense_bwd_dw  P=K Q=N R=M  A = x[r,p]   B = dz[r,q]  W -= lr*C
 *   dense_bwd_db  column sums of dz, b -= lr*db
 *
 * with M = batch, K = inputs, N = outputs, and dz = dy .* [y > 0] formed on
 * load from the gradient dy and the layer's output y (never stored).  The
 * host runs dx before dw for a layer, so dx reads W before its update.
 *
 * Two implementations of the GEMMs share these names, chosen by -D:
 *
 *   GEMM_LOCAL=0 (register blocked; CPUs such as PoCL).  A work item owns a
 *     TMxTN block of C and streams the whole reduction with uniform bounds,
 *     loading B with vloadVW along the contiguous q.  With KB > 0 a second
 *     forward kernel, dense_fwd_kb, stages W through local memory KB rows at
 *     a time (LXxLY groups, fixed at build time); see there.  dx, whose operands are
 *     both contiguous along r, is a block of DTMxDTN dot products over
 *     VW-wide lanes instead.  Edges: rows and column blocks are clamped into
 *     the matrix so every load is in bounds and the loop stays branch-free;
 *     stores are guarded so each element of C is written by one item only
 *     (the dw update is in place, so a double write would apply it twice).
 *
 *   GEMM_LOCAL=1 (local-memory tiles; GPUs).  A work group of
 *     (TSN/WPTN)x(TSM/WPTM) items stages TSK-deep slices of A and B in local
 *     memory (zero-filled past the edges), each item accumulating WPTMxWPTN
 *     outputs strided by the group's extent so that neighbouring items touch
 *     neighbouring addresses (coalesced global access, no bank conflicts).
 *     LVW=0 (the default) loads and stores scalars.  LVW=2 or 4 moves
 *     LVW-wide vectors instead: global loads along each operand's
 *     contiguous dimension where its row length is a multiple of LVW and the
 *     vector lies inside (scalars, zero-filled, at the edges), fragments read
 *     from local memory as whole vectors (an item's outputs are LVW-wide
 *     runs strided by the group's extent), vector stores of C.  DBUF=1 (with
 *     LVW) double-buffers the local tiles: the next slice is fetched into
 *     registers while the current one is multiplied, one barrier per slice.
 *
 * Every kernel takes `relu` last: 1 for y = ReLU(x*W + b) (and dz masked by
 * [y > 0]), 0 for y = x*W + b (dz = dy), a network's last layer.
 *
 * Every index fits an int: the host refuses matrices of 2^31 elements or more.
 */

#ifndef GEMM_LOCAL
#define GEMM_LOCAL 0
#endif

/* dz = dy where the layer's output was positive: the ReLU derivative
 * (dz = dy for a layer without ReLU). */
#define DRELU(relu, dy, y) (!(relu) || (y) > 0.0f ? (dy) : 0.0f)
/* The activation of a layer's output v (scalar or vector). */
#define ACT(relu, v) ((relu) ? fmax((v), 0.0f) : (v))

/* dense_bwd_db: one item per output column n; neighbouring items read
 * neighbouring addresses, which both coalesces on GPUs and vectorises across
 * work items on CPUs. */
kernel void dense_bwd_db(const int M, const int N,
                         global const float *restrict dy,
                         global const float *restrict y,
                         global float *restrict b, const float lr, const int relu)
{
    const int n = get_global_id(0);
    if (n >= N)
        return;
    float s = 0.0f;
    for (int m = 0; m < M; m++)
        s += DRELU(relu, dy[m * N + n], y[m * N + n]);
    b[n] -= lr * s;
}

#if !GEMM_LOCAL
/* ---------------------------------------------------------------------- */
/* Register-blocked variant                                                */
/* ---------------------------------------------------------------------- */

#ifndef VW
#define VW 8
#endif
#ifndef TM
#define TM 8
#endif
#ifndef TN
#define TN 8
#endif
#ifndef KB
#define KB 0
#endif
#ifndef LX
#define LX 1
#endif
#ifndef LY
#define LY 16
#endif
#ifndef DTM
#define DTM 4
#endif
#ifndef DTN
#define DTN 4
#endif

#if TN % VW != 0
#error "TN must be a multiple of VW"
#endif
#define NV (TN / VW) /* vectors per block row */

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#if VW == 1
typedef float floatv;
#define VLOAD(p) (*(p))
#define VSTORE(v, p) (*(p) = (v))
#define HSUM(v) (v)
#else
typedef CAT(float, VW) floatv;
#define VLOAD(p) CAT(vload, VW)(0, (p))
#define VSTORE(v, p) CAT(vstore, VW)((v), 0, (p))
#endif

#if VW == 2
#define HSUM(v) ((v).s0 + (v).s1)
#elif VW == 4
#define HSUM(v) (((v).s0 + (v).s1) + ((v).s2 + (v).s3))
#elif VW == 8
#define HSUM(v) hsum4((v).lo + (v).hi)
#elif VW == 16
#define HSUM(v) hsum4(((v).lo.lo + (v).lo.hi) + ((v).hi.lo + (v).hi.hi))
#endif
#if VW >= 8
inline float hsum4(float4 v) { return (v.s0 + v.s1) + (v.s2 + v.s3); }
#endif

/* The first column of the TN-wide block an item computes: its own block,
 * moved left so it ends inside the matrix when it would cross the edge.  Only
 * when Q < TN must the loads themselves be guarded (see bload). */
inline int block_q(int q0, int Q) { return (q0 + TN <= Q || Q < TN) ? q0 : Q - TN; }

/* VW floats of row `row` from column q, zero past column Q when guarded. */
inline floatv bload(global const float *row, int q, int Q, int guarded)
{
    if (!guarded)
        return VLOAD(row + q);
    float t[VW];
    for (int j = 0; j < VW; j++)
        t[j] = q + j < Q ? row[q + j] : 0.0f;
#if VW == 1
    return t[0];
#else
    return CAT(vload, VW)(0, t);
#endif
}

/* dz version of bload: the ReLU derivative applied on load (with relu). */
inline floatv bload_dz(global const float *dyrow, global const float *yrow, int q, int Q,
                       int guarded, int relu)
{
    floatv d = bload(dyrow, q, Q, guarded);
    if (!relu)
        return d;
    floatv v = bload(yrow, q, Q, guarded);
    return v > (floatv)0.0f ? d : (floatv)0.0f;
}

/* Stores one block row: the whole vector when it lies wholly inside this
 * item's own columns [qown, Q), element by element otherwise. */
inline void store_row(floatv v, global float *row, int q, int qown, int Q)
{
    if (q >= qown && q + VW <= Q) {
        VSTORE(v, row + q);
        return;
    }
    float t[VW];
    VSTORE(v, t);
    for (int j = 0; j < VW; j++)
        if (q + j >= qown && q + j < Q)
            row[q + j] = t[j];
}

#if KB > 0
/* dense_fwd_kb: the forward pass K-blocked (KB > 0).  The group's LXxTN
 * columns of W are copied KB rows at a time into a local tile laid out so
 * that each item streams its own KBxTN slice contiguously, and the group's
 * LY items down the rows reuse it from L1/L2.  dense_fwd (below) streams W
 * straight from global memory, rows N floats apart: at N = 2048 that 8 KiB
 * stride maps every row of the strip into the same few cache sets, so the
 * strip cannot stay in L2 between items and each item refetches it from L3
 * (1.3-1.5x slower at K = N = 2048 on PoCL, equal at 512).  The host
 * launches this kernel only when K > KB, so that several blocks amortise the
 * barriers (at K = 128 they cost more than the whole product).  Padding
 * items (past M or N) still copy and meet the barriers but skip the
 * arithmetic. */
#define GN (LX * TN)
kernel __attribute__((reqd_work_group_size(LX, LY, 1)))
void dense_fwd_kb(const int M, const int N, const int K,
                  global const float *restrict x,
                  global const float *restrict w,
                  global const float *restrict b,
                  global float *restrict y, const int relu)
{
    local float Bs[KB * GN];
    const int tx = get_local_id(0), ty = get_local_id(1), tid = ty * LX + tx;
    const int qt = get_group_id(0) * GN;
    const int p0 = get_global_id(1) * TM, q0 = qt + tx * TN;
    const int live = p0 < M && q0 < N; /* padding items only help copy */
    global const float *xr[TM];
    floatv acc[TM][NV];
    for (int i = 0; i < TM; i++) {
        xr[i] = x + min(p0 + i, M - 1) * K;
        for (int v = 0; v < NV; v++)
            acc[i][v] = 0.0f;
    }
    for (int kb = 0; kb < K; kb += KB) {
        const int kn = min(KB, K - kb);
        for (int l = tid; l < kn * (GN / VW); l += LX * LY) {
            const int k = l / (GN / VW), q = (l % (GN / VW)) * VW;
            const floatv v = bload(w + (kb + k) * N, qt + q, N, qt + q + VW > N);
            VSTORE(v, Bs + ((q / TN) * KB + k) * TN + q % TN);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        local const float *bs = Bs + tx * KB * TN;
        for (int k = 0; k < (live ? kn : 0); k++) {
            floatv bv[NV];
            for (int v = 0; v < NV; v++)
                bv[v] = VLOAD(bs + k * TN + v * VW);
            for (int i = 0; i < TM; i++) {
                const floatv a = xr[i][kb + k];
                for (int v = 0; v < NV; v++)
                    acc[i][v] = fma(a, bv[v], acc[i][v]);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (!live)
        return;
    for (int i = 0; i < TM; i++) {
        if (p0 + i >= M)
            break;
        for (int v = 0; v < NV; v++) {
            const int q = q0 + v * VW;
            const floatv bias = bload(b, q, N, q + VW > N);
            store_row(ACT(relu, acc[i][v] + bias), y + (p0 + i) * N, q, q, N);
        }
    }
}
#endif

kernel void dense_fwd(const int M, const int N, const int K,
                      global const float *restrict x,
                      global const float *restrict w,
                      global const float *restrict b,
                      global float *restrict y, const int relu)
{
    const int q0 = get_global_id(0) * TN, p0 = get_global_id(1) * TM;
    if (p0 >= M || q0 >= N)
        return; /* padding of the launch grid */
    const int qb = block_q(q0, N), guarded = N < TN;
    global const float *xr[TM];
    floatv acc[TM][NV];
    for (int i = 0; i < TM; i++) {
        xr[i] = x + min(p0 + i, M - 1) * K; /* clamped: in bounds, not stored */
        for (int v = 0; v < NV; v++)
            acc[i][v] = 0.0f;
    }
    for (int r = 0; r < K; r++) {
        global const float *wr = w + r * N;
        floatv bv[NV];
        for (int v = 0; v < NV; v++)
            bv[v] = bload(wr, qb + v * VW, N, guarded);
        for (int i = 0; i < TM; i++) {
            const floatv a = xr[i][r];
            for (int v = 0; v < NV; v++)
                acc[i][v] = fma(a, bv[v], acc[i][v]);
        }
    }
    floatv bias[NV];
    for (int v = 0; v < NV; v++)
        bias[v] = bload(b, qb + v * VW, N, guarded);
    for (int i = 0; i < TM; i++) {
        if (p0 + i >= M)
            break;
        for (int v = 0; v < NV; v++)
            store_row(ACT(relu, acc[i][v] + bias[v]), y + (p0 + i) * N, qb + v * VW, q0, N);
    }
}

kernel void dense_bwd_dw(const int M, const int N, const int K,
                         global const float *restrict x,
                         global const float *restrict dy,
                         global const float *restrict y,
                         global float *restrict w, const float lr, const int relu)
{
    const int q0 = get_global_id(0) * TN, p0 = get_global_id(1) * TM;
    if (p0 >= K || q0 >= N)
        return;
    const int qb = block_q(q0, N), guarded = N < TN;
    int pc[TM];
    floatv acc[TM][NV];
    for (int i = 0; i < TM; i++) {
        pc[i] = min(p0 + i, K - 1);
        for (int v = 0; v < NV; v++)
            acc[i][v] = 0.0f;
    }
    for (int r = 0; r < M; r++) {
        floatv bv[NV];
        for (int v = 0; v < NV; v++)
            bv[v] = bload_dz(dy + r * N, y + r * N, qb + v * VW, N, guarded, relu);
        global const float *xr = x + r * K;
        for (int i = 0; i < TM; i++) {
            const floatv a = xr[pc[i]];
            for (int v = 0; v < NV; v++)
                acc[i][v] = fma(a, bv[v], acc[i][v]);
        }
    }
    for (int i = 0; i < TM; i++) {
        if (p0 + i >= K)
            break;
        global float *wr = w + (p0 + i) * N;
        for (int v = 0; v < NV; v++) {
            const int q = qb + v * VW;
            store_row(bload(wr, q, N, guarded) - lr * acc[i][v], wr, q, q0, N);
        }
    }
}

/* dx[p,q] = sum_r dz[p,r]*W[q,r]: DTM rows of dz against DTN rows of W, each
 * pair a dot product accumulated VW lanes at a time and summed at the end. */
kernel void dense_bwd_dx(const int M, const int N, const int K,
                         global const float *restrict dy,
                         global const float *restrict y,
                         global const float *restrict w,
                         global float *restrict dx, const int relu)
{
    const int q0 = get_global_id(0) * DTN, p0 = get_global_id(1) * DTM;
    if (p0 >= M || q0 >= K)
        return;
    global const float *ar[DTM], *yr[DTM], *br[DTN];
    floatv acc[DTM][DTN];
    for (int i = 0; i < DTM; i++) {
        ar[i] = dy + min(p0 + i, M - 1) * N;
        yr[i] = y + min(p0 + i, M - 1) * N;
        for (int j = 0; j < DTN; j++)
            acc[i][j] = 0.0f;
    }
    for (int j = 0; j < DTN; j++)
        br[j] = w + min(q0 + j, K - 1) * N;
    const int rv = N - N % VW; /* the vectorised part of the reduction */
    for (int r = 0; r < rv; r += VW) {
        floatv a[DTM], bv[DTN];
        for (int i = 0; i < DTM; i++) {
            const floatv d = VLOAD(ar[i] + r), v = VLOAD(yr[i] + r);
            a[i] = relu ? (v > (floatv)0.0f ? d : (floatv)0.0f) : d;
        }
        for (int j = 0; j < DTN; j++)
            bv[j] = VLOAD(br[j] + r);
        for (int i = 0; i < DTM; i++)
            for (int j = 0; j < DTN; j++)
                acc[i][j] = fma(a[i], bv[j], acc[i][j]);
    }
    for (int i = 0; i < DTM; i++) {
        if (p0 + i >= M)
            break;
        for (int j = 0; j < DTN; j++) {
            if (q0 + j >= K)
                break;
            float s = HSUM(acc[i][j]);
            for (int r = rv; r < N; r++)
                s += DRELU(relu, ar[i][r], yr[i][r]) * br[j][r];
            dx[(p0 + i) * K + q0 + j] = s;
        }
    }
}

#else
/* ---------------------------------------------------------------------- */
/* Local-memory tiled variant                                              */
/* ---------------------------------------------------------------------- */

#ifndef TSM
#define TSM 64
#endif
#ifndef TSN
#define TSN 64
#endif
#ifndef TSK
#define TSK 16
#endif
#ifndef WPTM
#define WPTM 4
#endif
#ifndef WPTN
#define WPTN 4
#endif

#define RTSM (TSM / WPTM) /* work-group extent along p */
#define RTSN (TSN / WPTN) /* work-group extent along q */
#define NTHREADS (RTSM * RTSN)
#if TSM % WPTM != 0 || TSN % WPTN != 0
#error "TSM/TSN must be multiples of WPTM/WPTN"
#endif

/* Which GEMM a tile loop computes; a compile-time constant at every call, so
 * the branches below fold away once inlined. */
#define MODE_FWD 0
#define MODE_DX 1
#define MODE_DW 2

#ifndef LVW
#define LVW 0
#endif
#ifndef DBUF
#define DBUF 0
#endif

#if !LVW
/* Scalar loads (LVW=0) ------------------------------------------------- */

/* Local tiles are padded by one column so that column-wise stores (the
 * transposed operands) fall in different banks. */
#define ALD (TSM + 1)
#define BLD (TSN + 1)

/* Accumulates C's tile at (pt, qt) over the whole reduction R into acc.
 * a/ay and b/by: the operands (ay, by: the layer output masking dz, or 0).
 * lda/ldb: their row lengths.  Loads walk the operand's contiguous dimension
 * with consecutive items (coalesced) and zero-fill past P, Q and R. */
inline void tile_gemm(const int mode, const int relu, const int P, const int Q, const int R,
                      global const float *a, global const float *ay, const int lda,
                      global const float *b, global const float *by, const int ldb,
                      local float *As, local float *Bs, float acc[WPTM][WPTN])
{
    const int tq = get_local_id(0), tp = get_local_id(1);
    const int tid = tp * RTSN + tq;
    const int pt = get_group_id(1) * TSM, qt = get_group_id(0) * TSN;
    for (int i = 0; i < WPTM; i++)
        for (int j = 0; j < WPTN; j++)
            acc[i][j] = 0.0f;
    for (int rt = 0; rt < R; rt += TSK) {
        for (int l = tid; l < TSM * TSK; l += NTHREADS) {
            int p, r; /* A(p, r) */
            if (mode == MODE_DW) { /* x[r, p]: contiguous along p */
                r = l / TSM;
                p = l % TSM;
            } else { /* x[p, r] or dz[p, r]: contiguous along r */
                p = l / TSK;
                r = l % TSK;
            }
            const int gp = pt + p, gr = rt + r;
            float v = 0.0f;
            if (gp < P && gr < R) {
                if (mode == MODE_DW)
                    v = a[gr * lda + gp];
                else if (mode == MODE_DX)
                    v = DRELU(relu, a[gp * lda + gr], ay[gp * lda + gr]);
                else
                    v = a[gp * lda + gr];
            }
            As[r * ALD + p] = v;
        }
        for (int l = tid; l < TSN * TSK; l += NTHREADS) {
            int q, r; /* B(r, q) */
            if (mode == MODE_DX) { /* W[q, r]: contiguous along r */
                q = l / TSK;
                r = l % TSK;
            } else { /* W[r, q] or dz[r, q]: contiguous along q */
                r = l / TSN;
                q = l % TSN;
            }
            const int gq = qt + q, gr = rt + r;
            float v = 0.0f;
            if (gq < Q && gr < R) {
                if (mode == MODE_DX)
                    v = b[gq * ldb + gr];
                else if (mode == MODE_DW)
                    v = DRELU(relu, b[gr * ldb + gq], by[gr * ldb + gq]);
                else
                    v = b[gr * ldb + gq];
            }
            Bs[r * BLD + q] = v;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TSK; k++) {
            float bv[WPTN];
            for (int j = 0; j < WPTN; j++)
                bv[j] = Bs[k * BLD + tq + j * RTSN];
            for (int i = 0; i < WPTM; i++) {
                const float av = As[k * ALD + tp + i * RTSM];
                for (int j = 0; j < WPTN; j++)
                    acc[i][j] = fma(av, bv[j], acc[i][j]);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1)))
void dense_fwd(const int M, const int N, const int K,
               global const float *restrict x,
               global const float *restrict w,
               global const float *restrict b,
               global float *restrict y, const int relu)
{
    local float As[TSK * ALD], Bs[TSK * BLD];
    float acc[WPTM][WPTN];
    tile_gemm(MODE_FWD, relu, M, N, K, x, 0, K, w, 0, N, As, Bs, acc);
    for (int i = 0; i < WPTM; i++) {
        const int p = get_group_id(1) * TSM + get_local_id(1) + i * RTSM;
        for (int j = 0; j < WPTN; j++) {
            const int q = get_group_id(0) * TSN + get_local_id(0) + j * RTSN;
            if (p < M && q < N)
                y[p * N + q] = ACT(relu, acc[i][j] + b[q]);
        }
    }
}

kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1)))
void dense_bwd_dx(const int M, const int N, const int K,
                  global const float *restrict dy,
                  global const float *restrict y,
                  global const float *restrict w,
                  global float *restrict dx, const int relu)
{
    local float As[TSK * ALD], Bs[TSK * BLD];
    float acc[WPTM][WPTN];
    tile_gemm(MODE_DX, relu, M, K, N, dy, y, N, w, 0, N, As, Bs, acc);
    for (int i = 0; i < WPTM; i++) {
        const int p = get_group_id(1) * TSM + get_local_id(1) + i * RTSM;
        for (int j = 0; j < WPTN; j++) {
            const int q = get_group_id(0) * TSN + get_local_id(0) + j * RTSN;
            if (p < M && q < K)
                dx[p * K + q] = acc[i][j];
        }
    }
}

kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1)))
void dense_bwd_dw(const int M, const int N, const int K,
                  global const float *restrict x,
                  global const float *restrict dy,
                  global const float *restrict y,
                  global float *restrict w, const float lr, const int relu)
{
    local float As[TSK * ALD], Bs[TSK * BLD];
    float acc[WPTM][WPTN];
    tile_gemm(MODE_DW, relu, K, N, M, x, 0, K, dy, y, N, As, Bs, acc);
    for (int i = 0; i < WPTM; i++) {
        const int p = get_group_id(1) * TSM + get_local_id(1) + i * RTSM;
        for (int j = 0; j < WPTN; j++) {
            const int q = get_group_id(0) * TSN + get_local_id(0) + j * RTSN;
            if (p < K && q < N)
                w[p * N + q] -= lr * acc[i][j];
        }
    }
}

#else
/* Vector loads (LVW = 2 or 4) ------------------------------------------ */
#if LVW != 2 && LVW != 4
#error "LVW must be 0, 2 or 4"
#endif
#if WPTM % LVW != 0 || WPTN % LVW != 0 || TSK % LVW != 0
#error "WPTM, WPTN and TSK must be multiples of LVW"
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
typedef CAT(float, LVW) floatl;
#define LVLOAD(p) CAT(vload, LVW)(0, (p))
#define LVSTORE(v, p) CAT(vstore, LVW)((v), 0, (p))

#define VM (WPTM / LVW)  /* an item's vectors down p (each LVW rows)     */
#define VN (WPTN / LVW)  /* an item's vectors along q                    */
#define TSKV (TSK / LVW) /* vectors along a slice's reduction depth      */
/* An item's share of one slice of A (TSMxTSK) and of B (TSKxTSN), in
 * vectors, rounded up: the last share may be partial. */
#define NVA ((TSM * TSK / LVW + NTHREADS - 1) / NTHREADS)
#define NVB ((TSN * TSK / LVW + NTHREADS - 1) / NTHREADS)

/* LVW consecutive elements of row `row` of a row-major operand of row
 * length ld, from column col (always a multiple of LVW): one vector load
 * when `vec` and all of them lie inside rows x cols, else element by element
 * with zeros past the edges.  vec says ld is a multiple of LVW: the operands
 * are whole buffers, whose base the driver aligns far beyond a vector, so
 * every such vector is aligned.  dz: the ReLU derivative masked by ay. */
inline floatl gload(const int dz, global const float *a, global const float *ay, const int ld,
                    const int row, const int col, const int rows, const int cols, const int vec)
{
    float t[LVW];
    if (vec && row < rows && col + LVW <= cols) {
        const int o = row * ld + col;
        const floatl v = *(global const floatl *)(a + o);
        if (!dz)
            return v;
        return *(global const floatl *)(ay + o) > (floatl)0.0f ? v : (floatl)0.0f;
    }
#pragma unroll
    for (int u = 0; u < LVW; u++) {
        t[u] = 0.0f;
        if (row < rows && col + u < cols) {
            const int o = row * ld + col + u;
            t[u] = dz ? DRELU(1, a[o], ay[o]) : a[o];
        }
    }
    return LVLOAD(t);
}

/* Stores v at (row, col) of a row-major C of row length ld (= cols): one
 * aligned vector store when `vec` and it lies wholly inside, else only the
 * elements inside. */
inline void gstore(global float *c, const int row, const int col, const int rows,
                   const int cols, const int vec, const floatl v)
{
    float t[LVW];
    if (row >= rows)
        return;
    if (vec && col + LVW <= cols) {
        *(global floatl *)(c + row * cols + col) = v;
        return;
    }
    LVSTORE(v, t);
#pragma unroll
    for (int u = 0; u < LVW; u++)
        if (col + u < cols)
            c[row * cols + col + u] = t[u];
}

/* This item's share of the TSK-deep slice at rt of one operand, whose tile
 * spans T (TSM or TSN) along its non-reduction dimension from pc (of ext),
 * into NV vectors v.  Consecutive items take consecutive vectors along the
 * operand's contiguous dimension (coalesced): along the tile (trans = 0:
 * dw's x[r, p], fwd's W[r, q], dw's dz[r, q]) or along the reduction
 * (trans = 1: x[p, r], dz[p, r], dx's W[q, r]). */
inline void fetch(const int trans, const int dz, const int T, const int NV, const int pc,
                  const int ext, const int R, const int rt, global const float *a,
                  global const float *ay, const int ld, const int vec, floatl *v)
{
    const int tid = (int)get_local_id(1) * RTSN + (int)get_local_id(0);
#pragma unroll
    for (int n = 0; n < NV; n++) {
        const int l = tid + n * NTHREADS;
        if (T * TSKV % NTHREADS != 0 && l >= T * TSKV)
            break;
        if (trans)
            v[n] = gload(dz, a, ay, ld, pc + l / TSKV, rt + l % TSKV * LVW, ext, R, vec);
        else
            v[n] = gload(dz, a, ay, ld, rt + l / (T / LVW), pc + l % (T / LVW) * LVW, R, ext,
                         vec);
    }
}

/* Stores what fetch loaded into the local tile S, laid out [r][T] so that
 * an item's fragment along T is whole vectors: a vector store when the
 * operand ran along the tile, LVW scalar stores down r when it ran along
 * the reduction (the transpose).  The tile has no padding column (it would
 * misalign the vectors), so the TSK/LVW items sharing a row p store into
 * one bank: a few conflicting stores per slice, against TSK vector reads
 * and WPTMxWPTNxTSK multiply-adds per item. */
inline void stash(const int trans, const int T, const int NV, local floatl *S,
                  const floatl *v)
{
    const int tid = (int)get_local_id(1) * RTSN + (int)get_local_id(0);
    local float *s = (local float *)S;
#pragma unroll
    for (int n = 0; n < NV; n++) {
        const int l = tid + n * NTHREADS;
        float t[LVW];
        if (T * TSKV % NTHREADS != 0 && l >= T * TSKV)
            break;
        if (!trans) {
            S[l] = v[n];
            continue;
        }
        LVSTORE(v[n], t);
#pragma unroll
        for (int u = 0; u < LVW; u++)
            s[(l % TSKV * LVW + u) * T + l / TSKV] = t[u];
    }
}

/* acc += the TSK-deep product of the local slices As and Bs: item (tp, tq)
 * owns rows (i*RTSM + tp)*LVW + 0..LVW-1 and columns (j*RTSN + tq)*LVW +
 * 0..LVW-1 of the tile, so its fragments are whole vectors of local memory,
 * and consecutive items read consecutive vectors (no bank conflicts). */
inline void tile_step(local const floatl *As, local const floatl *Bs, floatl acc[WPTM][VN])
{
    const int tq = (int)get_local_id(0), tp = (int)get_local_id(1);
#pragma unroll
    for (int k = 0; k < TSK; k++) {
        float av[WPTM];
        floatl bv[VN];
#pragma unroll
        for (int i = 0; i < VM; i++)
            LVSTORE(As[k * (TSM / LVW) + i * RTSM + tp], av + i * LVW);
#pragma unroll
        for (int j = 0; j < VN; j++)
            bv[j] = Bs[k * (TSN / LVW) + j * RTSN + tq];
#pragma unroll
        for (int i = 0; i < WPTM; i++)
#pragma unroll
            for (int j = 0; j < VN; j++)
                acc[i][j] = fma((floatl)av[i], bv[j], acc[i][j]);
    }
}

/* Accumulates C's tile over the whole reduction R into acc, like the scalar
 * tile_gemm above, loading LVW-wide vectors.  With DBUF the next slice is
 * fetched into registers before the current one is multiplied and stored
 * into the other half of As/Bs after it, so its global latency overlaps the
 * arithmetic and one barrier per slice suffices; without, each slice is
 * fetched, stored and multiplied in turn between two barriers. */
inline void tile_gemm(const int mode, const int relu, const int P, const int Q, const int R,
                      global const float *a, global const float *ay, const int lda,
                      global const float *b, global const float *by, const int ldb,
                      local floatl *As, local floatl *Bs, floatl acc[WPTM][VN])
{
    const int pt = (int)get_group_id(1) * TSM, qt = (int)get_group_id(0) * TSN;
    const int ta = mode != MODE_DW, tb = mode == MODE_DX;
    const int da = mode == MODE_DX && relu, db = mode == MODE_DW && relu;
    const int va = lda % LVW == 0, vb = ldb % LVW == 0;
    floatl ra[NVA], rb[NVB];
#pragma unroll
    for (int i = 0; i < WPTM; i++)
#pragma unroll
        for (int j = 0; j < VN; j++)
            acc[i][j] = 0.0f;
#if DBUF
    int s = 0; /* the half of As/Bs holding the current slice */
    fetch(ta, da, TSM, NVA, pt, P, R, 0, a, ay, lda, va, ra);
    fetch(tb, db, TSN, NVB, qt, Q, R, 0, b, by, ldb, vb, rb);
    stash(ta, TSM, NVA, As, ra);
    stash(tb, TSN, NVB, Bs, rb);
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
    for (int rt = 0; rt < R; rt += TSK) {
#if DBUF
        const int next = rt + TSK < R;
        if (next) {
            fetch(ta, da, TSM, NVA, pt, P, R, rt + TSK, a, ay, lda, va, ra);
            fetch(tb, db, TSN, NVB, qt, Q, R, rt + TSK, b, by, ldb, vb, rb);
        }
        tile_step(As + s * TSK * (TSM / LVW), Bs + s * TSK * (TSN / LVW), acc);
        if (next) {
            stash(ta, TSM, NVA, As + (1 - s) * TSK * (TSM / LVW), ra);
            stash(tb, TSN, NVB, Bs + (1 - s) * TSK * (TSN / LVW), rb);
        }
        s = 1 - s;
#else
        fetch(ta, da, TSM, NVA, pt, P, R, rt, a, ay, lda, va, ra);
        fetch(tb, db, TSN, NVB, qt, Q, R, rt, b, by, ldb, vb, rb);
        stash(ta, TSM, NVA, As, ra);
        stash(tb, TSN, NVB, Bs, rb);
        barrier(CLK_LOCAL_MEM_FENCE);
        tile_step(As, Bs, acc);
#endif
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* Where an item's accumulator row i and vector column j lie in C. */
#define OUT_P(i) \
    ((int)get_group_id(1) * TSM + ((i) / LVW * RTSM + (int)get_local_id(1)) * LVW + (i) % LVW)
#define OUT_Q(j) ((int)get_group_id(0) * TSN + ((j) * RTSN + (int)get_local_id(0)) * LVW)

/* Local tiles: one slice of each operand, two with DBUF. */
#define LTILES (DBUF ? 2 : 1)

kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1)))
void dense_fwd(const int M, const int N, const int K,
               global const float *restrict x,
               global const float *restrict w,
               global const float *restrict b,
               global float *restrict y, const int relu)
{
    local floatl As[LTILES * TSK * (TSM / LVW)], Bs[LTILES * TSK * (TSN / LVW)];
    floatl acc[WPTM][VN], bias[VN];
    const int vec = N % LVW == 0;
    tile_gemm(MODE_FWD, relu, M, N, K, x, 0, K, w, 0, N, As, Bs, acc);
#pragma unroll
    for (int j = 0; j < VN; j++)
        bias[j] = gload(0, b, 0, 0, 0, OUT_Q(j), 1, N, 1);
#pragma unroll
    for (int i = 0; i < WPTM; i++)
#pragma unroll
        for (int j = 0; j < VN; j++)
            gstore(y, OUT_P(i), OUT_Q(j), M, N, vec, ACT(relu, acc[i][j] + bias[j]));
}

kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1)))
void dense_bwd_dx(const int M, const int N, const int K,
                  global const float *restrict dy,
                  global const float *restrict y,
                  global const float *restrict w,
                  global float *restrict dx, const int relu)
{
    local floatl As[LTILES * TSK * (TSM / LVW)], Bs[LTILES * TSK * (TSN / LVW)];
    floatl acc[WPTM][VN];
    const int vec = K % LVW == 0;
    tile_gemm(MODE_DX, relu, M, K, N, dy, y, N, w, 0, N, As, Bs, acc);
#pragma unroll
    for (int i = 0; i < WPTM; i++)
#pragma unroll
        for (int j = 0; j < VN; j++)
            gstore(dx, OUT_P(i), OUT_Q(j), M, K, vec, acc[i][j]);
}

kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1)))
void dense_bwd_dw(const int M, const int N, const int K,
                  global const float *restrict x,
                  global const float *restrict dy,
                  global const float *restrict y,
                  global float *restrict w, const float lr, const int relu)
{
    local floatl As[LTILES * TSK * (TSM / LVW)], Bs[LTILES * TSK * (TSN / LVW)];
    floatl acc[WPTM][VN];
    const int vec = N % LVW == 0;
    tile_gemm(MODE_DW, relu, K, N, M, x, 0, K, dy, y, N, As, Bs, acc);
#pragma unroll
    for (int i = 0; i < WPTM; i++)
#pragma unroll
        for (int j = 0; j < VN; j++) {
            const int p = OUT_P(i), q = OUT_Q(j);
            const floatl old = gload(0, w, 0, N, p, q, K, N, vec);
            gstore(w, p, q, K, N, vec, old - lr * acc[i][j]);
        }
}
#endif /* LVW */
#endif /* GEMM_LOCAL */
