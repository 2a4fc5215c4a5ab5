#!/usr/bin/env bash
# Prints the name of this machine's folder under results/: the CPU model
# (lower case, runs of other characters turned into '-'), the core count and
# the best SBBF kernel the CPU can run, so two runs on the same kind of
# machine share a folder whatever its host name, and two CPUs that report the
# same model but run different kernels (a VM that hides AVX-512, one that
# exposes it) do not. Used by bench.sh and redis-bench.sh.
set -euo pipefail

best_kernel() {
  # The library's dispatch rule (lib/common/cpu.c) read from the flags the kernel
  # reports; Linux drops the AVX/AVX-512 flags when the OS does not save
  # that register state, as XGETBV would tell the library.
  local flags
  flags=" $(sed -n 's/^\(flags\|Features\)[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n1) "
  has() { for f in "$@"; do case "$flags" in *" $f "*) ;; *) return 1 ;; esac; done; }
  case "$(uname -m)" in
    x86_64|i?86)
      if has popcnt avx avx2 bmi2 avx512f avx512bw avx512vl; then echo avx512
      elif has popcnt avx avx2 bmi2; then echo avx2
      else echo scalar; fi ;;
    aarch64) [ "$(printf '\001\000' | od -An -tu2 | tr -d ' ')" = 1 ] && echo neon || echo scalar ;;
    *) echo scalar ;;
  esac
}

model=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -n1)
[ -n "$model" ] || model=$(LC_ALL=C lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -n1)
[ -n "$model" ] || model=$(uname -m)
name=$(printf '%s' "$model" | tr 'A-Z' 'a-z' | sed -e 's/([rR]\{1\})//g; s/(tm)//g; s/ cpu / /g; s/[^a-z0-9]\{1,\}/-/g; s/^-//; s/-$//')
echo "$name-$(nproc)c-$(best_kernel)"
