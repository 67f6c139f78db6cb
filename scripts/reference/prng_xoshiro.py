"""Independent Python implementation of gatelab's generator: xoshiro128**
(Blackman and Vigna) seeded by four splitmix32 outputs, written from the
published algorithm with plain integers masked to 32 bits.

Seeding (as documented in lib/math/prng.ts): the 32-bit state starts at the
low 32 bits of the seed XOR (high 32 bits * 0x27d4eb2f mod 2^32); each
splitmix32 step adds 0x9e3779b9 and mixes. nextInt(n) rejects draws at or
above 2^32 - (2^32 mod n) and returns x mod n; nextFloat takes 27 + 26 bits.

Run: python3 scripts/reference/prng_xoshiro.py
It also compiles scripts/reference/xoshiro128ss.c (the reference algorithm
in C, checked against published test vectors of the reference
implementation) with cc, runs it, checks that this Python port gives the
same numbers, and writes the C program's output to
tests/data/reference/prng_xoshiro.json, which tests/math_prng_test.ts reads.
"""
import json
import os
import subprocess
import sys
import tempfile

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


def python_port():
    out = {}
    for seed in (0, 1, 20260927, 4294967296 + 7):
        g = Xoshiro128ss(seed)
        out["seed_%d" % seed] = [g.next_uint32() for _ in range(6)]
    g = Xoshiro128ss(20260927)
    out["ints_20260927_n400"] = [g.next_int(400) for _ in range(8)]
    out["floats_after"] = [g.next_float() for _ in range(3)]
    g = Xoshiro128ss(42)
    out["ints_42_n3000000000"] = [g.next_int(3000000000) for _ in range(6)]
    g = Xoshiro128ss(7)
    out["stream_7_first_1000"] = [g.next_uint32() for _ in range(1000)]
    return out


def c_reference():
    here = os.path.dirname(os.path.abspath(__file__))
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "xoshiro128ss")
        subprocess.run(["cc", "-O2", "-std=c99", "-o", exe, os.path.join(here, "xoshiro128ss.c")],
                       check=True)
        return json.loads(subprocess.run([exe], check=True, capture_output=True, text=True).stdout)


if __name__ == "__main__":
    c = c_reference()
    port = python_port()
    for key, value in port.items():
        if c[key] != value:
            sys.exit("prng_xoshiro.py: the Python port and the C reference differ in " + key)
    doc = {
        "generated_by": "python3 scripts/reference/prng_xoshiro.py (compiles and runs "
                        "scripts/reference/xoshiro128ss.c with cc; the Python port in this script "
                        "agrees on every number)",
        "reference": c,
    }
    path = os.path.join("tests", "data", "reference", "prng_xoshiro.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print("wrote " + path)
