#!/usr/bin/env bash
# Model-check the legacy and jec sleep protocols, the outside waiter's latch and
# the adaptive fence handshake, a fiber's parked wait for a latch, a pool's
# activity count, worker 0's place in a pool with a caller slot, the hand-over
# of a scan's block, and their mutants, with SPIN.
#
#   test/model/check.sh            # all checks (~25 s on 2 idle cores, two at a time)
#   EXTENDED=1 test/model/check.sh # + liveness proofs and 3-worker runs
#                                  #   (~7 minutes in all, up to ~4 GB of RAM)
#
# Every real protocol (and every ablation that must still hold) must finish an
# exhaustive search with "errors: 0"; every mutant must make pan report
# "errors: N" with N > 0 (pan itself exits 0 in both cases).  Prints one line
# per check and "N passed, N failed"; exits non-zero on any failure.
# Needs spin (Debian package `spin`) and a C compiler.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
SPIN="${SPIN:-spin}"
CC="${CC:-gcc}"
command -v "$SPIN" >/dev/null 2>&1 || { echo "FAIL spin not found (apt-get install spin)"; echo "0 passed, 1 failed"; exit 1; }
command -v "$CC" >/dev/null 2>&1 || { echo "FAIL $CC not found"; echo "0 passed, 1 failed"; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/fj-model.XXXXXX")"
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
t_all=$SECONDS

# The checks are independent: run MODEL_JOBS of them at a time (default 2,
# CI's cores), each printing its one line into a file of its own, printed
# in order at the end. `check` takes check_one's arguments.
max_jobs=${MODEL_JOBS:-2}
scheduled=0
check() {
    scheduled=$((scheduled + 1))
    while [ "$(jobs -rp | wc -l)" -ge "$max_jobs" ]; do wait -n; done
    check_one "$@" >"$work/result.$(printf '%03d' "$scheduled")" 2>&1 &
}

# check_one KIND LABEL MODEL "SPIN -D FLAGS" [extra cc options] [extra pan options]
#   KIND = model | ablation   safety (assertions, invalid end states): must hold
#        | mutant             safety: must be caught (errors: >0)
#        | live               non-progress cycles under weak fairness: must hold
#        | live-mutant        non-progress cycles: must be caught
check_one() {
    local kind=$1 label=$2 model=$3 flags=$4 ccextra=${5:-} panextra=${6:-}
    local dir="$work/$(echo "$label" | tr '/+ ' '___')"
    local t0=$SECONDS out errs detail
    mkdir -p "$dir"
    cp "$here/$model.pml" "$dir/"
    if ! (cd "$dir" && $SPIN $flags -a "$model.pml" >spin.log 2>&1); then
        echo "FAIL $kind $label: spin -a failed: $(tail -n 3 "$dir/spin.log" | tr '\n' ' ')"
        failed=$((failed + 1)); return
    fi
    # -DSAFETY: safety properties only (assertions + invalid end states);
    # -DCOLLAPSE: exhaustive, compressed state storage (keeps RAM < ~0.5 GB).
    # Mutants are found in well under a second: -O0 saves the compile time.
    # Liveness: -DNP (non-progress cycles; there are no progress labels, so
    # every cycle is one -- a fair run must end with all workers parked),
    # run with -l -f (weak fairness).
    local opt=-O1 mode="-DSAFETY -DNOCLAIM" runmode=""
    case $kind in mutant|live-mutant) opt=-O0 ;; esac
    case $kind in live|live-mutant) mode="-DNP -DNFAIR=3 -DNOREDUCE"; runmode="-l -f" ;; esac
    local store=-DCOLLAPSE
    case " $ccextra " in *" -DBITSTATE "*) store="" ;; esac
    if ! (cd "$dir" && $CC -w $opt $mode $store -DVECTORSZ=512 $ccextra -o pan pan.c >cc.log 2>&1); then
        echo "FAIL $kind $label: compiling pan failed: $(tail -n 3 "$dir/cc.log" | tr '\n' ' ')"
        failed=$((failed + 1)); return
    fi
    out="$(cd "$dir" && ./pan -n -m300000 -w24 $runmode $panextra 2>&1)"
    errs="$(printf '%s\n' "$out" | sed -n 's/.*errors: \([0-9][0-9]*\).*/\1/p' | head -n 1)"
    local states="$(printf '%s\n' "$out" | awk '/states, stored/ {print $1; exit}')"
    local secs=$((SECONDS - t0))
    if [ -z "$errs" ]; then
        echo "FAIL $kind $label: no 'errors:' line in pan output (${secs}s)"
        printf '%s\n' "$out" | tail -n 5 | sed 's/^/    /'
        failed=$((failed + 1)); return
    fi
    case $kind in
    model|ablation|live)
        if [ "$errs" -ne 0 ]; then
            detail="$(printf '%s\n' "$out" | grep -m1 -E 'violated|invalid end state|acceptance' || true)"
            echo "FAIL $kind $label: errors: $errs ($detail) (${secs}s)"
            failed=$((failed + 1))
        elif printf '%s\n' "$out" | grep -q -E 'max search depth too small|search not completed'; then
            echo "FAIL $kind $label: search incomplete (depth bound hit) (${secs}s)"
            failed=$((failed + 1))
        else
            echo "PASS $kind $label holds ($states states, ${secs}s)"
            passed=$((passed + 1))
        fi ;;
    mutant|live-mutant)
        if [ "$errs" -gt 0 ]; then
            detail="$(printf '%s\n' "$out" | grep -m1 -E 'violated|invalid end state|non-progress cycle \(' | sed 's/^pan:1: //')"
            echo "PASS $kind $label caught ($detail, ${secs}s)"
            passed=$((passed + 1))
        else
            echo "FAIL $kind $label NOT caught (errors: 0, $states states, ${secs}s)"
            failed=$((failed + 1))
        fi ;;
    esac
}

# ---- legacy: one sleepy word, tickle wakes everybody -----------------------
check model    legacy                           legacy ""
check model    legacy/STRONG                    legacy "-DSTRONG"
check model    legacy/S=0                       legacy "-DS=0 -DA=1"
check model    legacy/TICKLE_AFTER_EXECUTE      legacy "-DTICKLE_AFTER_EXECUTE"
check model    legacy/3-workers-1-job/STRONG    legacy "-DNW=3 -DNINJ=1 -DSTRONG"
# the tickle as rayon wrote it (swap, then lock only for sleepers) and as this
# library had it before (lock whenever the word is non-zero) must hold too
check ablation legacy/SEED_TICKLE               legacy "-DSEED_TICKLE"
check ablation legacy/TICKLE_LOCK_WHEN_SLEEPY   legacy "-DTICKLE_LOCK_WHEN_SLEEPY"
check mutant   legacy/TICKLE_NO_CLEAR_SLEEPY    legacy "-DMUTANT_TICKLE_NO_CLEAR_SLEEPY"
check mutant   legacy/TICKLE_STORE              legacy "-DMUTANT_TICKLE_STORE"
check mutant   legacy/TICKLE_CAS_FAIL_NO_WAKE   legacy "-DMUTANT_TICKLE_CAS_FAIL_NO_WAKE"
check mutant   legacy/TICKLE_NOTIFY_WITHOUT_LOCK legacy "-DMUTANT_TICKLE_NOTIFY_WITHOUT_LOCK"
check mutant   legacy/CAS_OUTSIDE_LOCK          legacy "-DMUTANT_CAS_OUTSIDE_LOCK"
check mutant   legacy/NO_SEARCH_AFTER_SLEEPY    legacy "-DMUTANT_NO_SEARCH_AFTER_SLEEPY"
check mutant   legacy/NO_TICKLE_ON_LATCH_SET    legacy "-DMUTANT_NO_TICKLE_ON_LATCH_SET"
# A worker that pushes and then blocks in user code (mark_blocked), with
# pushes whose notification may be lost (LOSSY_PUSH: the store-buffering
# outcome of the unfenced push). Without the hand-over (the mutant) b is
# left to a worker that waits for it.
check model    legacy/STRONG+LOSSY_PUSH+BLOCKED legacy "-DSTRONG -DLOSSY_PUSH -DBLOCKED"
check mutant   legacy/BLOCKED_NO_HAND_OVER      legacy "-DSTRONG -DLOSSY_PUSH -DBLOCKED -DMUTANT_BLOCKED_NO_HAND_OVER"

# ---- jec: packed counters + JEC, per-worker condvars, 4-state latch --------
check model    jec                              jec ""
check model    jec/S=0                          jec "-DS=0"
check model    jec/STRONG                       jec "-DSTRONG"
check ablation jec/NO_INJECTOR_CHECK            jec "-DNO_INJECTOR_CHECK"
check ablation jec/JEC_ROLLOVER+NO_INJECTOR_CHECK jec "-DMUTANT_JEC_ROLLOVER -DNO_INJECTOR_CHECK"
check ablation jec/JEC_ROLLOVER+NO_INJECTOR_CHECK+STRONG jec "-DMUTANT_JEC_ROLLOVER -DNO_INJECTOR_CHECK -DSTRONG"
check mutant   jec/NO_FINAL_CHECKS              jec "-DMUTANT_NO_FINAL_CHECKS"
check mutant   jec/WRONG_WAKE_COUNT             jec "-DMUTANT_WRONG_WAKE_COUNT"
check mutant   jec/LATCH_NO_WAKE                jec "-DMUTANT_LATCH_NO_WAKE"
check mutant   jec/FALL_ASLEEP_STORE            jec "-DMUTANT_FALL_ASLEEP_STORE"
check mutant   jec/UNLOCK_BEFORE_BLOCK          jec "-DMUTANT_UNLOCK_BEFORE_BLOCK"
check mutant   jec/JEC_BEFORE_TOGGLE            jec "-DMUTANT_JEC_BEFORE_TOGGLE"
check mutant   jec/NO_SEARCH_AFTER_SLEEPY+STRONG jec "-DMUTANT_NO_SEARCH_AFTER_SLEEPY -DSTRONG"
check mutant   jec/NO_SEARCH_AFTER_SLEEPY+NO_INJECTOR_CHECK jec "-DMUTANT_NO_SEARCH_AFTER_SLEEPY -DNO_INJECTOR_CHECK"
check model    jec/STRONG+LOSSY_PUSH+BLOCKED    jec "-DSTRONG -DLOSSY_PUSH -DBLOCKED"
# Lazy joins: publication at a heartbeat for an idle worker, and before a
# wait inside the pool (doc/lazy_joins.adoc).
check model    jec/LAZY                         jec "-DLAZY"
check model    jec/LAZY/BEATS=0                 jec "-DLAZY -DBEATS=0"
check model    jec/LAZY+A_WAITS/BEATS=1         jec "-DLAZY -DLAZY_A_WAITS -DBEATS=1"
check mutant   jec/LAZY+A_WAITS+WAIT_WITHOUT_PUBLISHING jec "-DLAZY -DLAZY_A_WAITS -DMUTANT_LAZY_WAIT_WITHOUT_PUBLISHING"
check mutant   jec/BLOCKED_NO_HAND_OVER         jec "-DSTRONG -DLOSSY_PUSH -DBLOCKED -DMUTANT_BLOCKED_NO_HAND_OVER"
# ---- the latch a thread outside the pool waits on: spin, then block --------
check model    lock_latch                       lock_latch ""
check mutant   lock_latch/LOAD_STORE_SET        lock_latch "-DMUTANT_LOAD_STORE_SET"
check mutant   lock_latch/WOKEN_OUTSIDE         lock_latch "-DMUTANT_WOKEN_OUTSIDE"
check mutant   lock_latch/LEAVE_ON_SET          lock_latch "-DMUTANT_LEAVE_ON_SET"

# ---- adaptive fences: the owner never pops unfenced beside a light thief ---
check model    fence_switch                     fence_switch ""
check model    fence_switch/B=2                 fence_switch "-DB=2"
check mutant   fence_switch/NO_DRAINING         fence_switch "-DMUTANT_NO_DRAINING"
check mutant   fence_switch/NO_RECHECK          fence_switch "-DMUTANT_NO_RECHECK"
check mutant   fence_switch/DRAIN_NO_COUNT      fence_switch "-DMUTANT_DRAIN_NO_COUNT"

# ---- a fiber waits for a latch parked, and the latch's set unparks it -------
check model    fiber_latch                      fiber_latch ""
check mutant   fiber_latch/NO_RELINK            fiber_latch "-DMUTANT_NO_RELINK"
check mutant   fiber_latch/CHECK_BEFORE_LINK    fiber_latch "-DMUTANT_CHECK_BEFORE_LINK"
check mutant   fiber_latch/COUNT_BEFORE_SET     fiber_latch "-DMUTANT_COUNT_BEFORE_SET"
check mutant   fiber_latch/PARK_NO_RERUN        fiber_latch "-DMUTANT_PARK_NO_RERUN"
check model    activity_count                   activity_count ""
check model    activity_count/KEPT              activity_count "-DKEPT"
check model    activity_count/EXIT              activity_count "-DEXIT"
check model    activity_count/EXIT_KEPT         activity_count "-DEXIT -DKEPT"
check mutant   activity_count/TRACKED_FREES_ON_AFTER activity_count "-DEXIT -DKEPT -DMUTANT_TRACKED_FREES_ON_AFTER"
check mutant   activity_count/TAKE_IGNORES_FORGIVEN  activity_count "-DEXIT -DKEPT -DMUTANT_TAKE_IGNORES_FORGIVEN"
check mutant   activity_count/IF_TAKEN_UNCHECKED     activity_count "-DEXIT -DKEPT -DMUTANT_IF_TAKEN_UNCHECKED"
check mutant   activity_count/IF_TAKEN_AFTER_LEAVE   activity_count "-DEXIT -DKEPT -DMUTANT_IF_TAKEN_AFTER_LEAVE"
check mutant   activity_count/PARKED_KEEPS_WORK      activity_count "-DEXIT -DMUTANT_PARKED_KEEPS_WORK"
check mutant   activity_count/PARK_AFTER_STATE       activity_count "-DMUTANT_PARK_AFTER_STATE"
check mutant   activity_count/UNPARK_IGNORES_LEAVE   activity_count "-DEXIT -DKEPT -DMUTANT_UNPARK_IGNORES_LEAVE"
check mutant   activity_count/PARK_NEVER_FREES       activity_count "-DEXIT -DKEPT -DMUTANT_PARK_NEVER_FREES"
check model    caller_slot                      caller_slot ""
check model    caller_slot/3-holds-3-broadcasts caller_slot "-DHOLDS=3 -DBCASTS=3"
check mutant   caller_slot/NO_RECHECK           caller_slot "-DMUTANT_NO_RECHECK"
check mutant   caller_slot/CHECK_BEFORE_RELEASE caller_slot "-DMUTANT_CHECK_BEFORE_RELEASE"
check mutant   caller_slot/ALWAYS_NOTIFY_WORKER_0 caller_slot "-DMUTANT_ALWAYS_NOTIFY_WORKER_0"
check mutant   caller_slot/SLEEP_CHECK_IGNORES_SLOT caller_slot "-DMUTANT_SLEEP_CHECK_IGNORES_SLOT"
check mutant   caller_slot/TAKE_WITHOUT_EXCHANGE caller_slot "-DMUTANT_TAKE_WITHOUT_EXCHANGE"
check model    caller_slot/nested               caller_slot "-DNESTED"
check model    caller_slot/nested/3-holds-3-broadcasts caller_slot "-DNESTED -DHOLDS=3 -DBCASTS=3"
check mutant   caller_slot/nested/RUN_AS_WORKER_0 caller_slot "-DNESTED -DMUTANT_RUN_AS_WORKER_0"
check mutant   caller_slot/nested/BORROW_FOR_THE_SHARE caller_slot "-DNESTED -DMUTANT_BORROW_FOR_THE_SHARE"
check mutant   caller_slot/nested/INJECT_WHEN_BORROWED caller_slot "-DNESTED -DMUTANT_INJECT_WHEN_BORROWED"

# ---- a scan's block: its owner leaves it, or whoever brings its prefix scans it
check model    chained_scan                     chained_scan ""
check model    chained_scan/nested              chained_scan "-DNESTED"
check model    chained_scan/nested/3-threads-4-blocks chained_scan "-DNESTED -DNT=3 -DNB=4"
check mutant   chained_scan/nested/UNBOUNDED_WAIT chained_scan "-DNESTED -DMUTANT_UNBOUNDED_WAIT"
check mutant   chained_scan/OWNER_STORE         chained_scan "-DMUTANT_OWNER_STORE"
check mutant   chained_scan/PASSER_STORE        chained_scan "-DMUTANT_PASSER_STORE"

# livelocks the safety check cannot see (it passes: timeout never fires)
check live-mutant legacy/WORK_FOUND_NO_TICKLE   legacy "-DMUTANT_WORK_FOUND_NO_TICKLE"
check live-mutant jec/SHARED_MAIN_LATCH         jec "-DMUTANT_SHARED_MAIN_LATCH"

if [ "${EXTENDED:-0}" = 1 ]; then
    # liveness proofs (no non-progress cycle under weak fairness)
    check live  legacy/liveness                 legacy ""
    check live  jec/liveness/1-job              jec "-DNINJ=1"
    # 3 workers: exhaustive for legacy (~2 min, ~3.9 GB), bitstate for jec
    # (supertrace: a partial search, errors found are real, "holds" is not a proof)
    check model legacy/3-workers                legacy "-DNW=3"
    check model jec/3-workers/STRONG/bitstate   jec "-DNW=3 -DSTRONG" "-DBITSTATE" "-w28"
    check ablation jec/3-workers/JEC_ROLLOVER+NO_INJECTOR_CHECK+STRONG/bitstate jec "-DNW=3 -DSTRONG -DMUTANT_JEC_ROLLOVER -DNO_INJECTOR_CHECK" "-DBITSTATE" "-w28"
fi

wait
cat "$work"/result.*
passed=$(cat "$work"/result.* | grep -c '^PASS')
failed=$(cat "$work"/result.* | grep -c '^FAIL')
echo "$passed passed, $failed failed ($((SECONDS - t_all))s)"
[ "$failed" -eq 0 ]
