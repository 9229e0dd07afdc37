// Internal: ONYX_WIDER_VECTORS, for a function whose loops are worth compiling for wider
// vectors than the baseline. On x86-64 Linux, g++ then compiles it twice, for AVX2 and for
// the baseline (SSE2), and the loader picks one for the CPU (an ifunc); elsewhere it is
// compiled once. Not FMA: both versions round every operation alike, so they give the same
// bits and a result never depends on the machine's vector width. Hidden by name: g++ exports
// the ifunc of a target_clones function whatever -fvisibility says.
#pragma once

#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && !defined(__clang__)
#define ONYX_WIDER_VECTORS __attribute__((target_clones("avx2", "default"), visibility("hidden")))
#else
#define ONYX_WIDER_VECTORS
#endif
