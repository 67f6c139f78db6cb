/*
 * A hand-written C task-bootstrap kernel, the reference of `deno task bench --kernel-c`
 * (bench/kernel_c.ts). Same work per draw as lib/infer/bootstrap/bootstrap_kernel.ts, and the
 * same stream: one xoshiro128** stream seeded as lib/math/prng.ts seeds it, draw d = G calls of
 * nextInt(G) (rejection below the largest multiple of G, then modulo), draws consecutive.
 *
 * Sixteen draws at a time in SIMD lanes (gcc vector extensions and AVX-512 intrinsics, so it
 * needs an AVX-512 machine; one thread):
 * - counts: the 16 draws of a block side by side, lane l starting at J^l of the block's start,
 *   J the G-step jump of the generator (linear over GF(2), applied by nibble tables); a lane that
 *   met a rejection, and those after it, are redrawn one by one from its start, so the counts and
 *   the stream state are those of the one-by-one draws. x mod G by a double reciprocal with an
 *   exact integer correction; the 16 lanes' tally addresses of 64 steps stored, then counted
 *   (uint16 per task and lane, the 16 lanes of a task side by side).
 * - X'WX: 16 uint16 lanes per packed entry (exact integers; needs G < 65536 and one row per
 *   task, as the bench's inputs are), gathered over the tasks that touch the entry, or, from
 *   2,000 tasks on at 9 to 16 columns, from histograms of column-mask bytes.
 * - X'Wy: per column, over the tasks where it is 1, count x y for all metrics, 16 double lanes
 *   in registers (two f64x8 per metric).
 * - Cholesky of the packed X'WX and the solves, 16 lanes side by side (two f64x8); a lane with an
 *   absent column or a failed pivot is redone alone with the steps of lib/math/packed.ts.
 * Summation orders differ from gatelab's (and gcc may fuse multiply-adds), so coefficients agree
 * to rounding, not bit for bit.
 *
 * Usage: kernel_c <input.bin> <output.bin or -> ; prints {"ms": ..., "redrawn": ...}.
 * input: int32 n, k, m, draws, seed; uint8 design[n*k]; double y[n*m] (row-major, y[i*m+mm]).
 * output: double coefficients[draws*m*k] ((d*m+mm)*k+j), uint8 status[draws].
 */
#if !defined(__AVX512F__) || !defined(__AVX512BW__) || !defined(__AVX512DQ__)
#error "kernel_c.c needs AVX-512 (F, BW, DQ)"
#endif
#include <immintrin.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define L 16
#define MMAX 8
#ifndef HIST_MIN_TASKS
#define HIST_MIN_TASKS 2000
#endif
#define PIVOT_TOLERANCE (1e-5 * 1e-5) /* lib/math/rank.ts: RANK_TOLERANCE squared */

typedef uint32_t u32x16 __attribute__((vector_size(64)));
typedef int32_t i32x16 __attribute__((vector_size(64)));
typedef uint16_t u16x16 __attribute__((vector_size(32)));
typedef double f64x16 __attribute__((vector_size(128)));
typedef double f64x8 __attribute__((vector_size(64)));

static int n, k, m, draws, seed, g, p;

/* ---- the stream ---- */

static uint32_t rotl(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

static uint32_t next_u32(uint32_t s[4]) {
  uint32_t s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
  uint32_t result = rotl(s1 * 5, 7) * 9, t = s1 << 9;
  s2 ^= s0;
  s3 ^= s1;
  s1 ^= s2;
  s0 ^= s3;
  s2 ^= t;
  s3 = rotl(s3, 11);
  s[0] = s0, s[1] = s1, s[2] = s2, s[3] = s3;
  return result;
}

/* xoshiroState of lib/math/prng.ts for 0 <= seed < 2^31 (the high word is 0). */
static void seed_state(int sd, uint32_t s[4]) {
  uint32_t st = (uint32_t)sd;
  for (int i = 0; i < 4; i++) {
    st += 0x9e3779b9u;
    uint32_t z = st;
    z = (z ^ (z >> 16)) * 0x85ebca6bu;
    z = (z ^ (z >> 13)) * 0xc2b2ae35u;
    s[i] = z ^ (z >> 16);
  }
  if ((s[0] | s[1] | s[2] | s[3]) == 0) s[0] = 1;
}

/* The G-step jump as nibble tables: jump[i][v] is J applied to nibble i holding v. */
static uint32_t jump[32][16][4];

static void build_jump(void) {
  uint32_t col[128][4];
  for (int b = 0; b < 128; b++) {
    uint32_t s[4] = {0, 0, 0, 0};
    s[b / 32] = 1u << (b % 32);
    for (int t = 0; t < g; t++) next_u32(s);
    memcpy(col[b], s, sizeof s);
  }
  for (int i = 0; i < 32; i++) {
    for (int v = 0; v < 16; v++) {
      uint32_t acc[4] = {0, 0, 0, 0};
      for (int bit = 0; bit < 4; bit++) {
        if (v >> bit & 1) for (int w = 0; w < 4; w++) acc[w] ^= col[4 * i + bit][w];
      }
      memcpy(jump[i][v], acc, sizeof acc);
    }
  }
}

static void apply_jump(const uint32_t in[4], uint32_t out[4]) {
  uint32_t acc[4] = {0, 0, 0, 0};
  for (int i = 0; i < 32; i++) {
    uint32_t v = in[i / 8] >> (4 * (i % 8)) & 15;
    for (int w = 0; w < 4; w++) acc[w] ^= jump[i][v][w];
  }
  memcpy(out, acc, sizeof acc);
}

static uint32_t limit;
#ifdef PHASES
static double phase[4]; /* -DPHASES: milliseconds per phase on stderr */
#endif
static long redrawn = 0;

/* One draw into lane `lane` of the counts, one call at a time. */
static void draw_serial(uint32_t s[4], uint16_t *cnt, int lane) {
  for (int t = 0; t < g; t++) {
    uint32_t x;
    do x = next_u32(s);
    while (x >= limit);
    cnt[(x % (uint32_t)g) * L + lane]++;
  }
}

/* The lanes' tally addresses of a chunk of steps, then their increments. */
#define CHUNK 64

/* The counts of `lanes` draws from state s (advanced past them) into cnt[c * L + lane]. */
static void draw_block(uint32_t s[4], uint16_t *cnt, int lanes) {
  uint32_t start[L][4];
  memcpy(start[0], s, 16);
  for (int l = 1; l < L; l++) apply_jump(start[l - 1], start[l]);
  uint32_t init[4][L] __attribute__((aligned(64)));
  for (int l = 0; l < L; l++) for (int w = 0; w < 4; w++) init[w][l] = start[l][w];
  u32x16 a = *(u32x16 *)init[0], b = *(u32x16 *)init[1], c = *(u32x16 *)init[2],
         d = *(u32x16 *)init[3];
  memset(cnt, 0, sizeof(uint16_t) * g * L);
  const int G = g;
  const uint32_t lim = limit;
  const double inv = 1.0 / G;
  const u32x16 lane = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  __mmask16 rej = 0;
  uint32_t at[CHUNK][L] __attribute__((aligned(64)));
  for (int t0 = 0; t0 < G; t0 += CHUNK) {
    int steps = G - t0 < CHUNK ? G - t0 : CHUNK;
    for (int t = 0; t < steps; t++) {
      u32x16 mm = b * 5;
      u32x16 x = ((mm << 7) | (mm >> 25)) * 9;
      u32x16 tt = b << 9;
      c ^= a;
      d ^= b;
      b ^= c;
      a ^= d;
      c ^= tt;
      d = (d << 11) | (d >> 21);
      rej |= _mm512_cmpge_epu32_mask((__m512i)x, _mm512_set1_epi32((int)lim));
      /* x mod G: the quotient from a double reciprocal (off by at most one), then corrected. */
      __m512d lo = _mm512_mul_pd(_mm512_cvtepu32_pd(_mm512_castsi512_si256((__m512i)x)),
                                 _mm512_set1_pd(inv));
      __m512d hi = _mm512_mul_pd(_mm512_cvtepu32_pd(_mm512_extracti64x4_epi64((__m512i)x, 1)),
                                 _mm512_set1_pd(inv));
      __m512i q = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvttpd_epu32(lo)),
                                     _mm512_cvttpd_epu32(hi), 1);
      i32x16 r = (i32x16)(x - (u32x16)q * (uint32_t)G);
      r += (r < 0) & G;
      r -= (r >= G) & G;
      *(u32x16 *)at[t] = (u32x16)r * L + lane;
    }
    for (int t = 0; t < steps; t++) for (int l = 0; l < L; l++) cnt[at[t][l]]++;
  }
  int first = -1;
  for (int l = 0; l < lanes; l++) {
    if (rej >> l & 1) {
      first = l;
      break;
    }
  }
  if (first < 0) {
    uint32_t fin[4][L] __attribute__((aligned(64)));
    *(u32x16 *)fin[0] = a, *(u32x16 *)fin[1] = b, *(u32x16 *)fin[2] = c, *(u32x16 *)fin[3] = d;
    for (int w = 0; w < 4; w++) s[w] = fin[w][lanes - 1];
    return;
  }
  redrawn++;
  for (int cc = 0; cc < g; cc++) for (int l = first; l < L; l++) cnt[cc * L + l] = 0;
  memcpy(s, start[first], 16);
  for (int l = first; l < lanes; l++) draw_serial(s, cnt, l);
}

/* ---- the sums ---- */

static int *pair_start, *pair_task, *col_start, *col_task;
static int *offs; /* entry (i, j), i <= j, at offs[i] + j */

static void build_lists(const uint8_t *design) {
  pair_start = calloc(p + 1, sizeof(int));
  col_start = calloc(k + 1, sizeof(int));
  for (int c = 0; c < g; c++) {
    for (int i = 0; i < k; i++) {
      if (!design[c * k + i]) continue;
      col_start[i + 1]++;
      for (int j = i; j < k; j++) if (design[c * k + j]) pair_start[offs[i] + j + 1]++;
    }
  }
  for (int q = 0; q < p; q++) pair_start[q + 1] += pair_start[q];
  for (int j = 0; j < k; j++) col_start[j + 1] += col_start[j];
  pair_task = malloc(sizeof(int) * (pair_start[p] + 1));
  col_task = malloc(sizeof(int) * (col_start[k] + 1));
  int *pf = calloc(p, sizeof(int)), *cf = calloc(k, sizeof(int));
  for (int c = 0; c < g; c++) {
    for (int i = 0; i < k; i++) {
      if (!design[c * k + i]) continue;
      col_task[col_start[i] + cf[i]++] = c;
      for (int j = i; j < k; j++) {
        int q = offs[i] + j;
        if (design[c * k + j]) pair_task[pair_start[q] + pf[q]++] = c;
      }
    }
  }
  free(pf);
  free(cf);
}

/* X'WX of the 16 lanes in uint16 (entries are at most G < 65536), exact integer sums, four
 * running sums per entry. */
static void xtx_block(const u16x16 *w, f64x16 *xtx) {
  for (int q = 0; q < p; q++) {
    u16x16 s0 = {0}, s1 = {0}, s2 = {0}, s3 = {0};
    int e = pair_start[q], end = pair_start[q + 1];
    for (; e + 4 <= end; e += 4) {
      s0 += w[pair_task[e]];
      s1 += w[pair_task[e + 1]];
      s2 += w[pair_task[e + 2]];
      s3 += w[pair_task[e + 3]];
    }
    for (; e < end; e++) s0 += w[pair_task[e]];
    u16x16 t = (s0 + s1) + (s2 + s3);
    for (int l = 0; l < L; l++) xtx[q][l] = t[l];
  }
}

/* The 16 counts of a task as two f64x8 (small integers: the signed conversion is exact). */
#define WIDEN(v, lo, hi)                                                            \
  __m512i wide_ = _mm512_cvtepu16_epi32((__m256i)(v));                              \
  f64x8 lo = (f64x8)_mm512_cvtepi32_pd(_mm512_castsi512_si256(wide_));              \
  f64x8 hi = (f64x8)_mm512_cvtepi32_pd(_mm512_extracti64x4_epi64(wide_, 1))

/* X'WX from histograms of column-mask bytes, for 9 to 16 columns and many tasks: per task its
 * counts added to the bin of its low byte (columns 0-7), of its high byte (8-15), and, for each
 * high column present, to that column's histogram of low bytes; then superset sums over each
 * histogram's 8 bits give every entry (exact integers, G < 65536). */
static uint8_t *mask_lo, *mask_hi;
static u16x16 hist[10][256];

static void xtx_hist(const u16x16 *w, f64x16 *xtx) {
  memset(hist, 0, sizeof hist);
  for (int c = 0; c < g; c++) {
    u16x16 v = w[c];
    unsigned lo = mask_lo[c], hi = mask_hi[c];
    hist[0][lo] += v;
    hist[1][hi] += v;
    for (unsigned bits = hi; bits; bits &= bits - 1) hist[2 + __builtin_ctz(bits)][lo] += v;
  }
  for (int h = 0; h < 10; h++) {
    for (int bit = 0; bit < 8; bit++) {
      for (int u = 0; u < 256; u++) if (!(u >> bit & 1)) hist[h][u] += hist[h][u | 1 << bit];
    }
  }
  for (int i = 0; i < k; i++) {
    for (int j = i; j < k; j++) {
      u16x16 t = i >= 8 ? hist[1][1 << (i - 8) | 1 << (j - 8)]
               : j >= 8 ? hist[2 + j - 8][1 << i]
                        : hist[0][1 << i | 1 << j];
      for (int l = 0; l < L; l++) xtx[offs[i] + j][l] = t[l];
    }
  }
}

static void build_masks(const uint8_t *design) {
  mask_lo = calloc(g, 1), mask_hi = calloc(g, 1);
  for (int c = 0; c < g; c++) {
    for (int j = 0; j < k; j++) {
      if (!design[c * k + j]) continue;
      if (j < 8) mask_lo[c] |= 1 << j;
      else mask_hi[c] |= 1 << (j - 8);
    }
  }
}

/* X'Wy of the 16 lanes for M metrics: out[mm * k + j]; the counts converted as read. Below four
 * metrics two tasks at a time into two sets of sums (the add chains are the bound). Native
 * 512-bit types, so gcc keeps the sums in registers. */
#define XTY(M)                                                                   \
  static void xty_##M(const u16x16 *cnt, const double *y, f64x16 *out) {         \
    enum { S = M < 4 ? 2 : 1 };                                                  \
    for (int j = 0; j < k; j++) {                                                \
      f64x8 lo[S][M], hi[S][M];                                                  \
      for (int h = 0; h < S; h++)                                                \
        for (int mm = 0; mm < M; mm++) lo[h][mm] = hi[h][mm] = (f64x8){0};       \
      int e = col_start[j], end = col_start[j + 1];                              \
      for (; e + S <= end; e += S) {                                             \
        for (int h = 0; h < S; h++) {                                            \
          int c = col_task[e + h];                                               \
          WIDEN(cnt[c], wl, wh);                                                 \
          for (int mm = 0; mm < M; mm++) {                                       \
            double v = y[c * M + mm];                                            \
            lo[h][mm] += wl * v;                                                 \
            hi[h][mm] += wh * v;                                                 \
          }                                                                      \
        }                                                                        \
      }                                                                          \
      for (; e < end; e++) {                                                     \
        int c = col_task[e];                                                     \
        WIDEN(cnt[c], wl, wh);                                                   \
        for (int mm = 0; mm < M; mm++) {                                         \
          double v = y[c * M + mm];                                              \
          lo[0][mm] += wl * v;                                                   \
          hi[0][mm] += wh * v;                                                   \
        }                                                                        \
      }                                                                          \
      for (int mm = 0; mm < M; mm++) {                                           \
        f64x8 a = lo[0][mm], b = hi[0][mm];                                      \
        for (int h = 1; h < S; h++) a += lo[h][mm], b += hi[h][mm];              \
        for (int l = 0; l < 8; l++) out[mm * k + j][l] = a[l], out[mm * k + j][8 + l] = b[l]; \
      }                                                                          \
    }                                                                            \
  }
XTY(1)
XTY(2)
XTY(3)
XTY(4)
XTY(5)
XTY(6)
XTY(7)
XTY(8)

typedef void (*xty_fn)(const u16x16 *, const double *, f64x16 *);
static const xty_fn XTY_FNS[MMAX + 1] = {0, xty_1, xty_2, xty_3, xty_4, xty_5, xty_6, xty_7, xty_8};

/* ---- the solves ---- */

/* lib/math/packed.ts's choleskyPacked and choleskySolvePacked for one lane. 0 ok, 1, 2. */
static int solve_lane(double *a, double *b /* m*k */) {
  uint8_t absent[64];
  int any = 0;
  for (int j = 0; j < k; j++) {
    int jj = offs[j] + j;
    double d0 = a[jj];
    absent[j] = 0;
    if (d0 == 0) {
      for (int i = 0; i < j; i++) a[offs[i] + j] = 0;
      absent[j] = 1, any = 1;
      a[jj] = 1;
      continue;
    }
    double diag = d0;
    for (int i = 0; i < j; i++) {
      double s = a[offs[i] + j];
      for (int l = 0; l < i; l++) s -= a[offs[l] + i] * a[offs[l] + j];
      double u = s / a[offs[i] + i];
      a[offs[i] + j] = u;
      diag -= u * u;
    }
    if (!(diag > PIVOT_TOLERANCE * d0)) {
      for (int t = 0; t < m * k; t++) b[t] = NAN;
      return 2;
    }
    a[jj] = sqrt(diag);
  }
  for (int mm = 0; mm < m; mm++) {
    double *x = b + mm * k;
    for (int i = 0; i < k; i++) {
      double s = absent[i] ? 0 : x[i];
      for (int l = 0; l < i; l++) s -= a[offs[l] + i] * x[l];
      x[i] = s / a[offs[i] + i];
    }
    for (int i = k - 1; i >= 0; i--) {
      double s = x[i];
      for (int j = i + 1; j < k; j++) s -= a[offs[i] + j] * x[j];
      x[i] = s / a[offs[i] + i];
    }
    for (int i = 0; i < k; i++) if (absent[i]) x[i] = NAN;
  }
  return any;
}

/* Eight lanes side by side; returns the lanes that need the one-lane path (bit mask). */
static unsigned solve8(f64x8 *a, f64x8 *b) {
  unsigned bad = 0;
  for (int j = 0; j < k; j++) {
    int jj = offs[j] + j;
    f64x8 d0 = a[jj], diag = d0;
    for (int i = 0; i < j; i++) {
      f64x8 s = a[offs[i] + j];
      for (int l = 0; l < i; l++) s -= a[offs[l] + i] * a[offs[l] + j];
      f64x8 u = s / a[offs[i] + i];
      a[offs[i] + j] = u;
      diag -= u * u;
    }
    bad |= _mm512_cmp_pd_mask((__m512d)diag, (__m512d)(d0 * PIVOT_TOLERANCE), _CMP_NGT_UQ);
    bad |= _mm512_cmp_pd_mask((__m512d)d0, _mm512_setzero_pd(), _CMP_EQ_OQ);
    a[jj] = (f64x8)_mm512_sqrt_pd((__m512d)diag);
  }
  for (int mm = 0; mm < m; mm++) {
    f64x8 *x = b + mm * k;
    for (int i = 0; i < k; i++) {
      f64x8 s = x[i];
      for (int l = 0; l < i; l++) s -= a[offs[l] + i] * x[l];
      x[i] = s / a[offs[i] + i];
    }
    for (int i = k - 1; i >= 0; i--) {
      f64x8 s = x[i];
      for (int j = i + 1; j < k; j++) s -= a[offs[i] + j] * x[j];
      x[i] = s / a[offs[i] + i];
    }
  }
  return bad;
}

static void solve_block(const f64x16 *xtx, const f64x16 *xty, int lanes, int d0, double *coef,
                        uint8_t *status) {
  static f64x8 a[2][64 * 65 / 2], b[2][MMAX * 64];
  unsigned bad[2];
  for (int h = 0; h < 2; h++) {
    for (int q = 0; q < p; q++) for (int l = 0; l < 8; l++) a[h][q][l] = xtx[q][8 * h + l];
    for (int t = 0; t < m * k; t++) for (int l = 0; l < 8; l++) b[h][t][l] = xty[t][8 * h + l];
    bad[h] = solve8(a[h], b[h]);
  }
  for (int l = 0; l < lanes; l++) {
    int h = l / 8, u = l % 8;
    double *out = coef + (size_t)(d0 + l) * m * k;
    if (bad[h] >> u & 1) {
      double al[64 * 65 / 2];
      for (int q = 0; q < p; q++) al[q] = xtx[q][l];
      for (int t = 0; t < m * k; t++) out[t] = xty[t][l];
      status[d0 + l] = (uint8_t)solve_lane(al, out);
    } else {
      for (int t = 0; t < m * k; t++) out[t] = b[h][t][u];
      status[d0 + l] = 0;
    }
  }
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void die(const char *what) {
  fprintf(stderr, "kernel_c: %s\n", what);
  exit(2);
}

int main(int argc, char **argv) {
  if (argc != 3) die("usage: kernel_c <input.bin> <output.bin or ->");
  FILE *f = fopen(argv[1], "rb");
  if (!f) die("cannot open the input");
  int32_t head[5];
  if (fread(head, 4, 5, f) != 5) die("short input");
  n = head[0], k = head[1], m = head[2], draws = head[3], seed = head[4];
  g = n, p = k * (k + 1) / 2;
  if (k < 1 || k > 64 || m < 1 || m > MMAX || g < 1 || g >= 65536 || draws < 1 || seed < 0)
    die("input outside what this kernel handles (k <= 64, m <= 8, G < 65536)");
  uint8_t *design = malloc((size_t)n * k);
  double *y = malloc(sizeof(double) * n * m);
  if (fread(design, 1, (size_t)n * k, f) != (size_t)n * k) die("short input");
  if (fread(y, sizeof(double), (size_t)n * m, f) != (size_t)n * m) die("short input");
  fclose(f);
  double *coef = malloc(sizeof(double) * (size_t)draws * m * k);
  uint8_t *status = malloc(draws);
  u16x16 *w = aligned_alloc(64, sizeof(u16x16) * g);
  f64x16 *xtx = aligned_alloc(64, sizeof(f64x16) * p);
  f64x16 *xty = aligned_alloc(64, sizeof(f64x16) * m * k);

  double t0 = now_ms();
  offs = malloc(sizeof(int) * k);
  for (int i = 0; i < k; i++) offs[i] = i * (2 * k - i + 1) / 2 - i;
  build_lists(design);
  /* Histograms where tasks far outnumber their 2,560 bins (measured: faster at 4,000, not 400). */
  const int use_hist = k > 8 && k <= 16 && g >= HIST_MIN_TASKS;
  if (use_hist) build_masks(design);
  limit = (uint32_t)(4294967296ull - 4294967296ull % (uint64_t)g);
  build_jump();
  uint32_t s[4];
  seed_state(seed, s);
  for (int d0 = 0; d0 < draws; d0 += L) {
    int lanes = draws - d0 < L ? draws - d0 : L;
#ifdef PHASES
    double q0 = now_ms();
#define TICK(i) do { double q1 = now_ms(); phase[i] += q1 - q0; q0 = q1; } while (0)
#else
#define TICK(i)
#endif
    draw_block(s, (uint16_t *)w, lanes);
    TICK(0);
    if (use_hist) xtx_hist(w, xtx);
    else xtx_block(w, xtx);
    TICK(1);
    XTY_FNS[m](w, y, xty);
    TICK(2);
    solve_block(xtx, xty, lanes, d0, coef, status);
    TICK(3);
  }
  double ms = now_ms() - t0;
#ifdef PHASES
  fprintf(stderr, "counts %.1f X'WX %.1f X'Wy %.1f solves %.1f ms\n", phase[0], phase[1], phase[2], phase[3]);
#endif

  if (strcmp(argv[2], "-") != 0) {
    FILE *o = fopen(argv[2], "wb");
    if (!o) die("cannot write the output");
    fwrite(coef, sizeof(double), (size_t)draws * m * k, o);
    fwrite(status, 1, draws, o);
    if (fclose(o) != 0) die("cannot write the output");
  }
  printf("{\"ms\": %.3f, \"redrawn\": %ld}\n", ms, redrawn);
  return 0;
}
