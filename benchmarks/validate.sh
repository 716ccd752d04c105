#!/usr/bin/env bash
# Re-checks the expected answers of benchmarks/memsafety and benchmarks/bitvector by
# running the programs natively (this is testing, not proof; the argument for each
# verdict is in the comment at the top of each file).
#   - every file compiles with clang-22 -O0 -fno-finite-loops -g;
#   - YES: sanitized runs (nondet values from nondet_stub.c: fixed boundary
#     prefixes and RUNS random seeds) end within YES_TIMEOUT s with no sanitizer report;
#   - NO: run on the file's `witness-input:` line is still running after 2 s, with no
#     sanitizer report (so no undefined behaviour on the way);
#   - UNSAFE: run on the file's `witness-input:` line gives an ASan/UBSan memory error
#     report; its *_safe.c twin run on the same input gives none.
# bitvector programs are built with UBSan only (they use no memory worth checking, and
# ASan slows the 2^32-iteration loops down); memsafety programs with ASan + UBSan.
# Usage: benchmarks/validate.sh [folder...]   (default: memsafety bitvector)
# UB (benchmarks/counters): run on the file's `witness-input:` line gives a UBSan report.
# Env: RUNS (random runs per YES program, default 25), YES_TIMEOUT (default 120: some YES
#      programs run 2^32 iterations, several seconds at -O0, more on a loaded machine),
#      ONLY (a grep -E pattern: check only matching file names).
set -u
here="$(cd "$(dirname "$0")" && pwd)"
RUNS="${RUNS:-25}"
YES_TIMEOUT="${YES_TIMEOUT:-120}"
ONLY="${ONLY:-.}"
CC="${CC:-clang-22}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_stack_use_after_return=1:detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="print_stacktrace=0:halt_on_error=1"
failures=0
checked=0

fail() { echo "FAIL $1: $2"; failures=$((failures + 1)); }

# run BIN TIMEOUT NONDET SEED -> sets rc, report (sanitizer lines)
run() {
  local out="$work/stderr"
  NONDET="$3" NONDET_SEED="$4" timeout "$2" "$1" >/dev/null 2>"$out"
  rc=$?
  report="$(grep -E 'ERROR: (Address|Leak)Sanitizer|runtime error' "$out" | head -n 2)"
}

memory_report() { echo "$1" | grep -qE 'ERROR: AddressSanitizer|out of bounds|null pointer|misaligned'; }

folders=("$@")
[ ${#folders[@]} -eq 0 ] && folders=(memsafety bitvector)
"$CC" -O0 -g -fsanitize=address,undefined -c "$here/nondet_stub.c" -o "$work/stub_asan_ubsan.o" || exit 2
"$CC" -O0 -g -fsanitize=undefined -c "$here/nondet_stub.c" -o "$work/stub_ubsan.o" || exit 2

for folder in "${folders[@]}"; do
  dir="$here/$folder"
  tail -n +2 "$dir/expected.tsv" | while IFS=$'\t' read -r path expected; do
    echo "$path" | grep -qE "$ONLY" || continue
    src="$dir/$path"
    sanitizers=address,undefined; stub="$work/stub_asan_ubsan.o"
    if [ "$folder" = bitvector ] || [ "$folder" = counters ]; then sanitizers=undefined; stub="$work/stub_ubsan.o"; fi
    bin="$work/${folder}_${path%.c}"
    if ! "$CC" -O0 -fno-finite-loops -g -c "$src" -o "$work/plain.o" 2>"$work/cc"; then
      fail "$folder/$path" "does not compile: $(head -n 3 "$work/cc")"; continue
    fi
    if ! "$CC" -O0 -fno-finite-loops -g -fsanitize=$sanitizers -fno-sanitize-recover=undefined \
        "$src" "$stub" -o "$bin" 2>"$work/cc"; then
      fail "$folder/$path" "sanitized build failed"; continue
    fi
    witness="$(sed -n 's/.*witness-input:[[:space:]]*\([-0-9 ]*\).*/\1/p' "$src" | head -n 1)"
    case "$expected" in
    YES)
      ok=1
      for prefix in "" 0 1 -1 2 7 255 256 65535 65536 2147483647 -2147483648 4294967295 "1 0" "1 -1" "100 1"; do
        run "$bin" "$YES_TIMEOUT" "$prefix" 7
        if [ "$rc" -eq 124 ]; then fail "$folder/$path" "timeout on input [$prefix]"; ok=0; break; fi
        if [ -n "$report" ]; then fail "$folder/$path" "report on input [$prefix]: $report"; ok=0; break; fi
      done
      if [ $ok -eq 1 ]; then
        for seed in $(seq 1 "$RUNS"); do
          run "$bin" "$YES_TIMEOUT" "" "$seed"
          if [ "$rc" -eq 124 ]; then fail "$folder/$path" "timeout with seed $seed"; ok=0; break; fi
          if [ -n "$report" ]; then fail "$folder/$path" "report with seed $seed: $report"; ok=0; break; fi
        done
      fi
      [ $ok -eq 1 ] && echo "ok   $folder/$path YES"
      ;;
    NO)
      if [ -z "$witness" ]; then fail "$folder/$path" "no witness-input line"; continue; fi
      run "$bin" 2 "$witness" 1
      if [ "$rc" -ne 124 ]; then fail "$folder/$path" "witness [$witness] finished (rc $rc) $report"
      elif [ -n "$report" ]; then fail "$folder/$path" "witness [$witness] report: $report"
      else echo "ok   $folder/$path NO on [$witness]"; fi
      ;;
    UNSAFE)
      if [ -z "$witness" ]; then fail "$folder/$path" "no witness-input line"; continue; fi
      run "$bin" 10 "$witness" 1
      if ! memory_report "$report"; then fail "$folder/$path" "witness [$witness] gave no memory error report (rc $rc) $report"
      else
        echo "ok   $folder/$path UNSAFE on [$witness]: $(echo "$report" | head -n 1 | sed 's/.*ERROR: //; s/.*runtime error: //' | cut -c1-70)"
        twin="$dir/${path%_unsafe.c}_safe.c"
        if [ -f "$twin" ]; then
          "$CC" -O0 -fno-finite-loops -g -fsanitize=address,undefined -fno-sanitize-recover=undefined \
            "$twin" "$stub" -o "$work/twin"
          run "$work/twin" "$YES_TIMEOUT" "$witness" 1
          if [ "$rc" -eq 124 ] || [ -n "$report" ]; then fail "$folder/$path" "safe twin fails on [$witness]: rc $rc $report"; fi
        fi
      fi
      ;;
    UB)
      if [ -z "$witness" ]; then fail "$folder/$path" "no witness-input line"; continue; fi
      run "$bin" "$YES_TIMEOUT" "$witness" 1
      if ! echo "$report" | grep -q 'runtime error'; then fail "$folder/$path" "witness [$witness] gave no UBSan report (rc $rc)"
      else echo "ok   $folder/$path UB on [$witness]: $(echo "$report" | head -n 1 | sed 's/.*runtime error: //' | cut -c1-70)"; fi
      ;;
    *) fail "$folder/$path" "unknown expected value $expected" ;;
    esac
  done
done 2>&1 | tee "$work/log"
n_fail=$(grep -c '^FAIL' "$work/log")
n_ok=$(grep -c '^ok' "$work/log")
echo "validate.sh: $n_ok ok, $n_fail failed"
[ "$n_fail" -eq 0 ]
