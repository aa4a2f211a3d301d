/*
 * legacy.pml -- Promela model of the `legacy` sleep policy of Boost.ForkJoin
 * (rayon-core < 1.8 sleep/mod.rs: one atomic "sleepy word" plus one
 * registry-wide mutex/condvar, every tickle wakes everybody).
 *
 * Run through test/model/check.sh, or by hand:
 *   spin -a [-DMUTANT_xxx] legacy.pml && gcc -O2 -DSAFETY -o pan pan.c && ./pan -m200000
 *
 * ---------------------------------------------------------------------------
 * Memory model.  Every shared variable is accessed sequentially consistently:
 * each Promela statement is one indivisible seq-cst access (a load, a store,
 * or -- inside `atomic{}` -- one read-modify-write: swap / CAS).  This is
 * exactly what the legacy README asks of the implementation: the sleepy word
 * is only touched with seq-cst load/swap/CAS, the latch store and the probe
 * load are seq-cst, and the injector push is followed by the seq-cst load of
 * tickle().  What the model therefore does NOT show is what happens if one of
 * those accesses is weakened to acquire/release: the two store-buffering
 * shapes that then become possible ("Scenario 1: get-sleepy-then-get-tickled"
 * and "Scenario 2: tickle-then-get-sleepy") are exercised on real hardware by
 * test/litmus/fence_litmus.cpp instead.
 *
 * ---------------------------------------------------------------------------
 * Workload (2 workers, NINJ=2 injected jobs, one of which forks):
 *   - an external thread injects job 0 (JOINER) and job 1 (LEAF) one after
 *     the other: push to the injector, then tickle();
 *   - the JOINER, when run by worker w, does join(a, b): pushes the CHILD b on
 *     w's deque and tickles, runs a (nothing), then tries to pop b back.  If b
 *     was stolen, w waits for b's latch with wait_until(latch), i.e. a nested
 *     search loop that may itself fall asleep;
 *   - the CHILD, when run by the thief, sets the join latch (seq-cst store)
 *     and tickles (notify_latch_set, as in the Boost.ForkJoin registry).
 *     With -DTICKLE_AFTER_EXECUTE every executed job is also followed by a
 *     tickle, as in rayon-core 1.0's WorkerThread::execute.
 *   - with -DSTRONG the joiner does NOT pop b back: it stays busy (its `a`
 *     takes arbitrarily long) until somebody else has run b.  A lost wake-up
 *     for an *internal* push is then a deadlock too, i.e. the stronger
 *     "no internal job is left while everybody else sleeps" is checked.
 *   - -DLOSSY_PUSH lets the push's tickle be skipped.  A push is a release
 *     store and the push filter's load is not ordered after it, so the
 *     tickle can read the word from before a worker got sleepy while that
 *     worker's search misses b (a store-buffering outcome, which this SC
 *     model cannot produce otherwise); skipping the tickle outright allows
 *     that and more.  With -DSTRONG a lost push then deadlocks: the joiner
 *     runs `a` for ever, as a worker blocked in user code would.
 *   - -DBLOCKED: the joiner marks itself blocked before it waits (with
 *     -DSTRONG), and mark_blocked hands its deque over: if b is still there,
 *     a tickle that no filter skips (registry::hand_over_local_jobs; the
 *     fence before it and the one after get_sleepy make it seq-cst, which
 *     test/litmus checks as pair e).
 *
 * Property: the `monitor` process fires on `timeout` (no process can move any
 * more: every worker is parked on the condvar) and asserts that all jobs have
 * been run.  So an injected job left in the injector, or a set latch whose
 * waiter stays asleep, while every worker sleeps, is an assertion violation.
 * Blocking anywhere but on the condvar is an invalid end state.  Invariant
 * assertions check the sleepy word.
 *
 * Abstractions: the implementation searches for half its spin budget (a
 * time; half the whole spin limit while its relaxed idle-worker count says
 * another worker is busy, a hint no protocol step reads, so not modelled)
 * before it gets sleepy and sleeps at the budget's end; here the
 * counts S / A (default 1 / 3: one plain failed round, get sleepy, one round that
 * checks still_sleepy, then sleep) -- the protocol only depends on the order
 * "fail, get sleepy, search at least once more, sleep", not on the numbers.
 * yield_now() is a no-op; the deque/injector are counters (only the CHILD is
 * ever in a deque); the condvar has no spurious wake-ups (they only add
 * harmless extra searches in legacy, whose wait is not looped); re-acquiring
 * the mutex after the wait is omitted (nothing is done under it afterwards).
 *
 * Mutation switches (each must be caught, see README.md):
 *   -DMUTANT_TICKLE_NO_CLEAR_SLEEPY  tickle() only clears the "asleep" bit and
 *                                    notifies; the sleepy worker is left sleepy
 *                                    (README: "It will clear the global state
 *                                    to 0 ... it will notice that it is no
 *                                    longer sleepy").
 *   -DMUTANT_CAS_OUTSIDE_LOCK        sleep() does the CAS to SLEEPING before
 *                                    taking the mutex: a tickle between the CAS
 *                                    and wait() notifies nobody.
 *   -DMUTANT_NO_SEARCH_AFTER_SLEEPY  get_sleepy() is followed directly by
 *                                    sleep(): the README's "worker 1 would then
 *                                    do at least one additional scan".
 *   -DMUTANT_NO_TICKLE_ON_LATCH_SET  setting a latch is not followed by
 *                                    tickle(): the README's "thread A
 *                                    completes task T3 and makes a wakeup, but
 *                                    it gets lost" deadlock.
 *   -DMUTANT_WORK_FOUND_NO_TICKLE    work_found() does not give up the sleepy
 *                                    role: the worker's id stays in the word,
 *                                    nobody (itself included) can get sleepy
 *                                    again and the workers spin for ever once
 *                                    the work is done.  Not a deadlock (the
 *                                    safety check passes); the non-progress
 *                                    check (pan -l -f) catches it.  Masked by
 *                                    -DTICKLE_AFTER_EXECUTE.
 *
 *   -DMUTANT_TICKLE_STORE            tickle() clears a sleepy-only word with a
 *                                    plain store instead of a CAS: a worker
 *                                    that fell asleep since the tickle's load
 *                                    loses its bit0 and is never woken (seed:
 *                                    "If there are sleepy workers, a swap is
 *                                    needed").
 *   -DMUTANT_TICKLE_CAS_FAIL_NO_WAKE tickle()'s CAS fails because the sleepy
 *                                    worker fell asleep meanwhile, and the
 *                                    tickle gives up instead of waking it
 *                                    (seed: "If there workers *asleep*, we
 *                                    must naturally acquire the lock and
 *                                    signal the condition variable").
 *   -DMUTANT_TICKLE_NOTIFY_WITHOUT_LOCK  wake_sleepers() swaps and notifies
 *                                    without the mutex: the notify can fall
 *                                    between a sleeper's CAS and its wait.
 *   -DMUTANT_BLOCKED_NO_HAND_OVER    with -DSTRONG -DLOSSY_PUSH -DBLOCKED:
 *                                    mark_blocked does not hand the deque
 *                                    over, so a lost push leaves b to a
 *                                    worker that waits for it (the CI hang of
 *                                    deadlock_handler_silent_in_normal_blocking).
 *
 * Liveness (check.sh, compiled with -DNP): under weak fairness there is no
 * cycle at all (there are no progress labels), i.e. every fair run ends with
 * all workers parked.
 */

#ifndef NW
#define NW 2             /* workers; check.sh uses 2 (exhaustive) and 3 (bitstate) */
#endif
#ifndef NINJ
#define NINJ 2
#endif
#ifndef S
#define S 1            /* failed searches before getting sleepy (a time in the implementation) */
#endif
#ifndef A
#define A 3            /* ... and before sleeping (the spin budget's end in the implementation) */
#endif
#define TOTAL (NINJ + 1)   /* injected jobs + the forked child */

#define JOINER 0
#define LEAF   1
#define CHILD  2
#define NONE   3

#define AWAKE    0
#define SLEEPING 1

byte state = AWAKE;  /* the sleepy word: bit0 = someone asleep, (i+1)<<1 = sleepy worker i */
bit  data_mtx;       /* Sleep::data mutex */
bit  waiting[NW];    /* parked in tickle.wait(data) */
byte dq[NW];         /* per-worker deque: number of CHILD jobs in it */
byte ih, it;         /* injector head / tail: the job at index 0 is the JOINER */
bit  jl;             /* join latch (SpinLatch: seq-cst store, seq-cst probe) */
bit  child_done;     /* -DSTRONG only */
byte done;           /* jobs run to completion */

/* find_work(): take_local_job(), then steal() from the other workers in the
 * order me+1, me+2, ..., then pop_injected_job(); one source per step, so work
 * published during the scan may be overlooked.  Sets job (NONE if nothing). */
inline find_work(i)
{
    if
    :: atomic { dq[me] > 0 -> dq[me]--; job = CHILD }
    :: atomic { dq[me] == 0 -> i = (me + 1) % NW }
        do
        :: atomic { i < NW && dq[i] > 0 -> dq[i]--; job = CHILD; i = 0 }; break
        :: atomic { i < NW && dq[i] == 0 -> i = (i + 1) % NW; if :: i == me -> i = NW :: else fi }
        :: atomic { i == NW && ih < it -> job = (ih == 0 -> JOINER : LEAF); ih++; i = 0 }; break
        :: atomic { i == NW && ih == it -> i = 0 }; break
        od
    fi
}

/* tickle() and tickle_cold() of sleep/legacy.hpp, statement by statement:
 *   seq-cst load of the word; if AWAKE, done;
 *   while nobody is asleep (bit0 clear): CAS(seen -> AWAKE) without the
 *     mutex; success: done; failure: look at the new value (AWAKE: done);
 *   someone asleep: wake_sleepers(): lock; load bit0; swap(AWAKE); if bit0
 *     notify_all; unlock.
 * Variants (check.sh): -DTICKLE_LOCK_WHEN_SLEEPY (the earlier implementation:
 * lock whenever the word is non-zero, then load + swap) and -DSEED_TICKLE
 * (rayon's own: swap first, lock only if the old value had bit0) must hold;
 * the MUTANT_TICKLE_* switches must be caught. */
inline notify_all(t)
{
    atomic { t = 0; do :: t < NW -> waiting[t] = 0; t++ :: else -> break od }
}

inline tickle(t)
{
    t = state;                                     /* seq-cst load */
#if defined(TICKLE_LOCK_WHEN_SLEEPY)
    if
    :: t != AWAKE ->
        atomic { data_mtx == 0 -> data_mtx = 1 };
        t = state & 1;                             /* relaxed load under the lock */
        state = AWAKE;                             /* swap */
        if :: t -> notify_all(t) :: else fi;
        data_mtx = 0
    :: else
    fi;
#elif defined(SEED_TICKLE)
    if
    :: t != AWAKE ->
        atomic { t = state; state = AWAKE };       /* swap */
        if
        :: (t & 1) ->
            atomic { data_mtx == 0 -> data_mtx = 1 };
            notify_all(t);
            data_mtx = 0
        :: else
        fi
    :: else
    fi;
#else
    do
    :: t == AWAKE -> break
    :: t != AWAKE && (t & 1) == 0 ->              /* only a sleepy worker */
#if defined(MUTANT_TICKLE_NO_CLEAR_SLEEPY)
        t = AWAKE                                  /* leaves the sleepy worker sleepy */
#elif defined(MUTANT_TICKLE_STORE)
        state = AWAKE; t = AWAKE                   /* plain store: may erase a new bit0 */
#elif defined(MUTANT_TICKLE_CAS_FAIL_NO_WAKE)
        atomic { if :: state == t -> state = AWAKE :: else fi }; t = AWAKE   /* gives up on failure */
#else
        atomic { if :: state == t -> state = AWAKE; t = AWAKE :: else -> t = state fi }   /* CAS */
#endif
    :: (t & 1) ->                                  /* wake_sleepers() */
#if !defined(MUTANT_TICKLE_NOTIFY_WITHOUT_LOCK)
        atomic { data_mtx == 0 -> data_mtx = 1 };
#endif
#if defined(MUTANT_TICKLE_NO_CLEAR_SLEEPY)
        t = state & 1;
        atomic { state = state & 254 };            /* keeps the sleepy worker */
#else
        t = state & 1;                             /* relaxed load under the lock */
        state = AWAKE;                             /* swap */
#endif
        if :: t -> notify_all(t) :: else fi;
#if !defined(MUTANT_TICKLE_NOTIFY_WITHOUT_LOCK)
        data_mtx = 0;
#endif
        break
    od;
#endif
    t = 0
}

proctype worker(byte me)
{
    byte yields = 0;
    byte job = NONE;
    byte t = 0;
    bit  nested = 0;      /* inside join's wait_until(join latch) */
    bit  ok = 0;
    byte i = 0;

loop:
    /* while !latch.probe()  -- the main loop's latch (terminate) is never set */
    if
    :: nested && jl -> goto latch_done
    :: else
    fi;
    find_work(i);
    if
    :: job != NONE ->
        /* work_found(yields): if we were sleepy, tickle to release it */
#ifndef MUTANT_WORK_FOUND_NO_TICKLE
        if
        :: yields > S -> tickle(t)
        :: else
        fi;
#endif
        yields = 0;
        goto execute
    :: else
    fi;

    /* no_work_found(yields) */
    if
    :: yields < S -> yields++              /* yield_now() */
    :: yields == S ->
        /* get_sleepy(): CAS from a state without sleepy worker to with_sleepy(me) */
        do
        :: t = state;
           if
           :: (t >> 1) != 0 -> break       /* somebody else is sleepy: retry next round */
           :: else ->
               atomic {
                   if
                   :: state == t -> state = t | ((me + 1) << 1); ok = 1
                   :: else -> ok = 0
                   fi
               };
               if
               :: ok -> yields++; break
               :: else                     /* CAS failed: reload */
               fi
           fi
        od;
        t = 0;
#ifdef MUTANT_NO_SEARCH_AFTER_SLEEPY
        if
        :: ok -> ok = 0; goto do_sleep
        :: else
        fi;
#endif
        ok = 0
    :: yields > S && yields < A ->
        /* still_sleepy(): seq-cst load */
        if
        :: (state >> 1) == me + 1 -> yields++
        :: else -> yields = 0
        fi
    :: yields == A -> goto do_sleep
    fi;
    goto loop;

do_sleep:
    /* sleep(): loop { load; if not me-sleepy return; lock; CAS(->SLEEPING); wait } */
    t = state;
    if
    :: (t >> 1) != me + 1 -> goto sleep_ret
    :: else
    fi;
#ifdef MUTANT_CAS_OUTSIDE_LOCK
    atomic { if :: state == t -> state = SLEEPING; ok = 1 :: else -> ok = 0 fi };
    if
    :: !ok -> goto do_sleep
    :: else
    fi;
    atomic { data_mtx == 0 -> data_mtx = 1 };
#else
    atomic { data_mtx == 0 -> data_mtx = 1 };
    atomic { if :: state == t -> state = SLEEPING; ok = 1 :: else -> ok = 0 fi };
    if
    :: !ok -> data_mtx = 0; goto do_sleep
    :: else
    fi;
#endif
    /* tickle.wait(data): releases the mutex and parks, atomically */
    atomic { waiting[me] = 1; data_mtx = 0 };
end_wait:
    !waiting[me];
sleep_ret:
    t = 0; ok = 0; yields = 0;
    goto loop;

execute:
    if
    :: job == LEAF -> done++
    :: job == CHILD ->
        done++;
#ifdef STRONG
        child_done = 1
#else
        jl = 1;                                /* latch.set(): seq-cst store */
#ifndef MUTANT_NO_TICKLE_ON_LATCH_SET
        tickle(t)                              /* notify_latch_set -> tickle */
#else
        skip
#endif
#endif
    :: job == JOINER ->
        dq[me]++;                              /* push(b) ... */
#ifdef LOSSY_PUSH
        if
        :: tickle(t)                           /* ... then tickle, or */
        :: skip                                /* the tickle read a word from before a worker got sleepy */
        fi;
#else
        tickle(t);                             /* ... then tickle */
#endif
#ifdef STRONG
#if defined(BLOCKED) && !defined(MUTANT_BLOCKED_NO_HAND_OVER)
        if                                     /* mark_blocked: hand_over_local_jobs */
        :: dq[me] > 0 -> tickle(t)             /* fence, then a tickle no filter skips */
        :: else
        fi;
#endif
        child_done == 1;                       /* a runs (or we block) until b is done elsewhere */
        done++
#else
        if
        :: atomic { dq[me] > 0 -> dq[me]-- } -> done++; done++   /* b popped back, run inline */
        :: else -> nested = 1; job = NONE; goto loop              /* b stolen: wait_until(latch) */
        fi
#endif
    fi;
    job = NONE;
#ifdef TICKLE_AFTER_EXECUTE
    tickle(t);                                 /* rayon 1.0 WorkerThread::execute tickled after every job */
#endif
    goto loop;

latch_done:
    /* end of wait_until: work_found(yields) */
#ifndef MUTANT_WORK_FOUND_NO_TICKLE
    if
    :: yields > S -> tickle(t)
    :: else
    fi;
#endif
    yields = 0; nested = 0;
    done++;                                    /* the joiner returns from join() */
#ifdef TICKLE_AFTER_EXECUTE
    tickle(t);
#endif
    goto loop
}

active proctype injector()
{
    byte k = 0;
    byte t = 0;
    do
    :: k < NINJ ->
        it++;            /* push into the injector */
        tickle(t);       /* seq-cst load of the sleepy word */
        k++
    :: else -> break
    od
}

/* Fires only when nothing else can move: everybody sleeps (or is stuck). */
active proctype monitor()
{
    timeout -> assert(done == TOTAL)
}

/* invariant: the sleepy word only ever names a real worker */
active proctype invariants()
{
end_inv:
    do
    :: atomic { ((state >> 1) > NW || done > TOTAL) -> assert(false) }
    od
}

init
{
    byte w = 0;
    atomic {
        do
        :: w < NW -> run worker(w); w++
        :: else -> break
        od
    }
}
