#!/usr/bin/env bash
# Installs the Debian packages blockfilter needs. Idempotent: packages that
# are present are skipped, and apt is not touched at all when nothing is
# missing. Runs apt-get as root, through sudo otherwise; never prompts.
#
#   scripts/setup.sh            everything (build, tests, cross, fuzz, bench)
#   scripts/setup.sh --bench    only what ./scripts/bench.sh needs
#   scripts/setup.sh --paper    only what ./scripts/paper.sh needs (LaTeX, matplotlib)
#   scripts/setup.sh --python   only what the Python package needs (docs/python.md)
set -euo pipefail

base=(meson ninja-build pkg-config gcc g++)
tests=(libcriterion-dev libxxhash-dev cmake valgrind gcc-aarch64-linux-gnu libc6-dev-arm64-cross
       gcc-s390x-linux-gnu libc6-dev-s390x-cross qemu-user
       clang libclang-rt-14-dev libsimde-dev
       redis-server redis-tools python3-redis)
bench=(libbenchmark-dev libhwloc-dev python3-matplotlib git hyperfine)
# The Python package (python/) and its tests: meson-python builds it, pip in
# a virtual environment installs it (python3-venv brings pip), the notebooks
# run in an ipykernel through nbclient and draw with matplotlib.
python=(python3-dev python3-numpy python3-pytest python3-mesonpy python3-venv
        python3-nbclient python3-nbformat python3-ipykernel python3-matplotlib)
# The paper (scripts/paper.sh): LaTeX, and the library and tool it quotes.
paper=(texlive-latex-base texlive-latex-recommended texlive-latex-extra texlive-fonts-recommended
       lmodern latexmk python3-matplotlib)

case "${1:-all}" in
  --bench) want=("${base[@]}" "${bench[@]}") ;;
  --paper) want=("${base[@]}" "${paper[@]}") ;;
  --python) want=("${base[@]}" "${python[@]}") ;;
  all|--all) want=("${base[@]}" "${tests[@]}" "${bench[@]}" "${python[@]}") ;;
  *) echo "usage: $0 [--bench|--paper|--python]" >&2; exit 2 ;;
esac

missing=()
for p in "${want[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#want[@]} packages present"
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1; then
  SUDO=(sudo -n)
else
  echo "setup: missing ${missing[*]}; run as root or install sudo" >&2
  exit 1
fi

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "${missing[@]}" </dev/null
echo "setup: done"
