/*
 * xoshiro128** 1.1 (David Blackman and Sebastiano Vigna, 2018), written from
 * the public-domain reference algorithm at https://prng.di.unimi.it/
 * (xoshiro128starstar.c): the state update and the ** scrambler below are
 * that algorithm. It is an implementation independent of lib/math/prng.ts,
 * in C with native uint32_t wrap-around.
 *
 * Before anything else it checks itself against published test vectors of
 * the reference implementation (edorfaus/xoshiro-6502, test-rom/testdata.asm:
 * state 0x964D4A0C 0xD40AB895 0xAD7FDECB 0x3006F0F0 gives the outputs and
 * states listed there) and exits 1 on a mismatch.
 *
 * Then it prints, as JSON, the streams of gatelab's seeding (documented in
 * lib/math/prng.ts): the 32-bit state starts at the seed's low 32 bits XOR
 * (high 32 bits * 0x27d4eb2f mod 2^32); four splitmix32 outputs (add
 * 0x9e3779b9, then mix) are the xoshiro state; nextInt(n) rejects draws at
 * or above 2^32 - (2^32 mod n) and returns x mod n; nextFloat takes 27 + 26
 * bits. Build and run: scripts/reference/prng_xoshiro.py does both.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdint.h>

static inline uint32_t rotl(const uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }

static uint32_t s[4];

static uint32_t next(void) {
  const uint32_t result = rotl(s[1] * 5, 7) * 9;
  const uint32_t t = s[1] << 9;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 11);
  return result;
}

static uint32_t splitmix32(uint32_t *state) {
  uint32_t z = (*state += 0x9e3779b9u);
  z = (z ^ (z >> 16)) * 0x85ebca6bu;
  z = (z ^ (z >> 13)) * 0xc2b2ae35u;
  return z ^ (z >> 16);
}

static void seed(uint64_t value) {
  uint32_t st = (uint32_t)value ^ ((uint32_t)(value >> 32) * 0x27d4eb2fu);
  for (int i = 0; i < 4; i++) s[i] = splitmix32(&st);
  if ((s[0] | s[1] | s[2] | s[3]) == 0) s[0] = 1;
}

static uint32_t next_int(uint64_t n) {
  const uint64_t limit = 4294967296ull - (4294967296ull % n);
  uint32_t x = next();
  while (x >= limit) x = next();
  return (uint32_t)(x % n);
}

static double next_float(void) {
  const uint32_t hi = next() >> 5, lo = next() >> 6;
  return (hi * 67108864.0 + lo) / 9007199254740992.0;
}

static int published_vectors_hold(void) {
  static const uint32_t outputs[4] = {0xF1391922, 0x6FE53806, 0xA5BE2840, 0xF510EE70};
  static const uint32_t states[4][4] = {
      {0x72410269, 0xEF382C52, 0x2E43BEC7, 0x62432F20},
      {0xFF3A011B, 0xB33A90FC, 0x2C5A18AE, 0xD81B946B},
      {0x941B058C, 0x605A8949, 0xA641E1B5, 0x0824BB59},
      {0xFC65379C, 0x52006D70, 0x87487639, 0xF1908343},
  };
  s[0] = 0x964D4A0C, s[1] = 0xD40AB895, s[2] = 0xAD7FDECB, s[3] = 0x3006F0F0;
  for (int i = 0; i < 4; i++) {
    if (next() != outputs[i]) return 0;
    for (int j = 0; j < 4; j++) if (s[j] != states[i][j]) return 0;
  }
  return 1;
}

static void print_uint32s(const char *name, uint64_t seed_value, int count, const char *end) {
  seed(seed_value);
  printf("  \"%s\": [", name);
  for (int i = 0; i < count; i++) printf("%s%" PRIu32, i ? ", " : "", next());
  printf("]%s\n", end);
}

int main(void) {
  if (!published_vectors_hold()) {
    fprintf(stderr, "xoshiro128ss.c: the published test vectors do not hold\n");
    return 1;
  }
  printf("{\n  \"published_vectors\": \"hold\",\n");
  printf("  \"published_state\": [2521647628, 3557472405, 2910838475, 805761264],\n");
  s[0] = 0x964D4A0C, s[1] = 0xD40AB895, s[2] = 0xAD7FDECB, s[3] = 0x3006F0F0;
  printf("  \"published_outputs\": [");
  for (int i = 0; i < 8; i++) printf("%s%" PRIu32, i ? ", " : "", next());
  printf("],\n");
  print_uint32s("seed_0", 0, 6, ",");
  print_uint32s("seed_1", 1, 6, ",");
  print_uint32s("seed_20260927", 20260927, 6, ",");
  print_uint32s("seed_4294967303", 4294967303ull, 6, ",");
  seed(20260927);
  printf("  \"ints_20260927_n400\": [");
  for (int i = 0; i < 8; i++) printf("%s%" PRIu32, i ? ", " : "", next_int(400));
  printf("],\n  \"floats_after\": [");
  for (int i = 0; i < 3; i++) printf("%s%.17g", i ? ", " : "", next_float());
  printf("],\n");
  seed(42);
  printf("  \"ints_42_n3000000000\": [");
  for (int i = 0; i < 6; i++) printf("%s%" PRIu32, i ? ", " : "", next_int(3000000000ull));
  printf("],\n");
  seed(7);
  printf("  \"stream_7_first_1000\": [");
  for (int i = 0; i < 1000; i++) printf("%s%" PRIu32, i ? ", " : "", next());
  printf("]\n}\n");
  return 0;
}
