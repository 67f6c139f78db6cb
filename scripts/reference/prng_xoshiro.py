"""Independent Python implementation of gatelab's generator: xoshiro128**
(Blackman and Vigna) seeded by four splitmix32 outputs, written from the
published algorithm with plain integers masked to 32 bits.

Seeding (as documented in lib/core/prng.ts): the 32-bit state starts at the
low 32 bits of the seed XOR (high 32 bits * 0x27d4eb2f mod 2^32); each
splitmix32 step adds 0x9e3779b9 and mixes. nextInt(n) rejects draws at or
above 2^32 - (2^32 mod n) and returns x mod n; nextFloat takes 27 + 26 bits.

Run: python3 scripts/reference/prng_xoshiro.py
prints the reference numbers pasted into tests/core_prng_test.ts.
"""
import json

M32 = 0xFFFFFFFF


def imul(a, b):
    return (a * b) & M32


def splitmix32(state):
    state = (state + 0x9E3779B9) & M32
    z = state
    z = imul(z ^ (z >> 16), 0x85EBCA6B)
    z = imul(z ^ (z >> 13), 0xC2B2AE35)
    return state, (z ^ (z >> 16)) & M32


def rotl(x, k):
    return ((x << k) | (x >> (32 - k))) & M32


class Xoshiro128ss:
    def __init__(self, seed):
        low = seed % (1 << 32)
        high = (seed // (1 << 32)) & M32
        st = (low ^ imul(high, 0x27D4EB2F)) & M32
        self.s = []
        for _ in range(4):
            st, out = splitmix32(st)
            self.s.append(out)
        if not any(self.s):
            self.s[0] = 1

    def next_uint32(self):
        s = self.s
        result = imul(rotl(imul(s[1], 5), 7), 9)
        t = (s[1] << 9) & M32
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 11)
        return result

    def next_float(self):
        hi = self.next_uint32() >> 5
        lo = self.next_uint32() >> 6
        return (hi * 67108864 + lo) / 9007199254740992

    def next_int(self, n):
        limit = (1 << 32) - ((1 << 32) % n)
        x = self.next_uint32()
        while x >= limit:
            x = self.next_uint32()
        return x % n


if __name__ == "__main__":
    out = {}
    for seed in (0, 1, 20260927, 4294967296 + 7):
        g = Xoshiro128ss(seed)
        out[str(seed)] = {"uint32": [g.next_uint32() for _ in range(6)]}
    g = Xoshiro128ss(20260927)
    out["ints_20260927_n400"] = [g.next_int(400) for _ in range(8)]
    out["floats_after"] = [g.next_float() for _ in range(3)]
    g = Xoshiro128ss(42)
    out["ints_42_n3000000000"] = [g.next_int(3000000000) for _ in range(6)]
    print(json.dumps(out, indent=1))
