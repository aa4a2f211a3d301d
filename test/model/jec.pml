/*
 * jec.pml -- Promela model of the `jec` sleep policy of Boost.ForkJoin
 * (rayon-core 1.10 sleep/mod.rs: packed counters word with sleeping /
 * inactive threads and the jobs event counter (JEC), per-worker mutex +
 * condvar + is_blocked, and the 4-state CoreLatch UNSET/SLEEPY/SLEEPING/SET).
 *
 * Run through test/model/check.sh, or by hand:
 *   spin -a [-DMUTANT_xxx] jec.pml && gcc -O2 -DSAFETY -o pan pan.c && ./pan -m200000
 *
 * ---------------------------------------------------------------------------
 * Memory model.  Every statement is one indivisible, sequentially consistent
 * access; `atomic{}` groups one read-modify-write (CAS / swap / fetch_add on
 * the counters word or on a latch).  Consequences:
 *   - the two seq-cst fences of the protocol (after pushing into the injector,
 *     before reading the counters; after the sleeping++ CAS, before reading
 *     the injected-jobs counter) are no-ops here: under SC the store-buffering
 *     outcome they forbid ("both read the old value") cannot happen anyway.
 *     The model thus proves the protocol *assuming* the fences restore SC for
 *     that pair; test/litmus/fence_litmus.cpp checks that on hardware;
 *   - the load + CAS loop that adds a sleeper (retry if the counters changed,
 *     give up if the JEC moved) is modelled as one atomic "if JEC unchanged
 *     then sleeping++ else wake partly" -- equivalent under SC modulo
 *     stuttering.  The final has_injected_jobs() check is NOT merged into
 *     that step: it is a separate, later load, so an injection can still
 *     interleave between the sleeping++ and the check;
 *   - deque / injector operations are single atomic steps (the Chase-Lev
 *     deque and the injector are assumed linearizable).
 *
 * ---------------------------------------------------------------------------
 * Workload (2 workers, NINJ=2 injected jobs, one of which forks):
 *   - an external thread injects job 0 (JOINER) and job 1 (LEAF):
 *       queue_was_empty = (pending count was 0), in the same fetch_add that
 *       increments it; push; [seq-cst fence]; new_jobs(1, queue_was_empty)
 *   - the JOINER, run by worker w, does join(a, b): pushes the CHILD b on w's
 *     deque and calls new_internal_jobs(1, queue_was_empty) (no fence), runs
 *     a (nothing), then pops b back or, if b was stolen, runs
 *     wait_until(b.latch): a nested search loop that sleeps on b's CoreLatch;
 *   - the CHILD, run by the thief, sets the latch: old = swap(SET);
 *     if old == SLEEPING, wake_specific_thread(owner);
 *   - with -DSTRONG the joiner does NOT pop b back: it stays busy until b was
 *     run elsewhere.  A lost wake-up for an *internal* push is then a
 *     deadlock: this checks the stronger guarantee that the JEC gives
 *     (rayon only promises it "modulo rollover"; under SC it holds even with
 *     the mod-2 rollover ablation, see README.md).
 *   - -DLOSSY_PUSH lets the push's new_jobs be skipped: the push is a
 *     release store and new_jobs's first load is not ordered after it, so
 *     it can read the counters from before a worker announced while that
 *     worker's search misses b (a store-buffering outcome this SC model
 *     cannot produce otherwise; skipping new_jobs allows that and more).
 *     With -DSTRONG a lost push then deadlocks, as it would for a worker
 *     blocked in user code.
 *   - -DBLOCKED: the joiner marks itself blocked before it waits (with
 *     -DSTRONG), and mark_blocked hands its deque over: if b is still there,
 *     new_jobs with queue_was_empty false, unfiltered
 *     (registry::hand_over_local_jobs; its fence and the one after
 *     announce_sleepy make it seq-cst, test/litmus pair e).
 *
 *   - -DLAZY: the JOINER's join is lazy (detail/lazy_frames.hpp): b goes on
 *     the worker's private list, invisible to thieves; a runs BEATS of its
 *     own joins, and at each the heartbeat publishes b (push, then the
 *     push's new_internal_jobs, as an eager join's) if more workers are
 *     idle than the joiner's deque holds jobs (`inactive` here: the
 *     registry's idle count rises and falls where the policy's inactive
 *     count does; publish_for_idle_workers). After a: b still unpublished runs
 *     inline; published, the join ends as an eager one.
 *   - -DLAZY_A_WAITS (with -DLAZY): a waits inside the pool for b (a future
 *     that b completes): wait_until(b.latch), which first publishes every
 *     unpublished second half (registry_base::wait_for_latch). The mutant
 *     -DMUTANT_LAZY_WAIT_WITHOUT_PUBLISHING skips that: b stays on the
 *     private list, every worker goes to sleep, and the monitor fires.
 *
 * Property: `monitor` fires on `timeout` (no process can move: every worker
 * is parked on its condvar) and asserts that all jobs ran; so an injected job
 * or a set latch left while every worker sleeps is an assertion violation;
 * blocking anywhere but on the condvar is an invalid end state.  Invariant
 * assertions: sleeping <= inactive <= NW at every new_jobs snapshot.
 *
 * Abstractions: the implementation searches for a time (the worker's spin
 * budget) before it announces; here S failed searches (default 1; check.sh
 * also runs 0, the zero budget) and the sleep after S+1, so the sequence is "fail, announce sleepy,
 * fail once more, sleep()"; yield_now() is a no-op; the JEC is kept modulo
 * JEC_MOD (default 64, no rollover is reachable: it toggles at most twice per
 * post); the condvar has no spurious wake-ups (the wait is looped on
 * is_blocked, so they are invisible).
 *
 * Switches (see README.md for which seed warning each reproduces):
 *   ablations expected to PASS the default workload:
 *   -DNO_INJECTOR_CHECK           drop only the final has_injected_jobs check
 *                                 (the JEC alone suffices under SC, no rollover)
 *   -DMUTANT_JEC_ROLLOVER         JEC kept modulo 2: rollover on every cycle.
 *                                 Holds even together with NO_INJECTOR_CHECK:
 *                                 under SC the announce that brings the JEC
 *                                 back to the remembered value is followed by
 *                                 a search of its own that finds the job (see
 *                                 README.md); the final check matters only
 *                                 for weak memory.
 *   mutants expected to be CAUGHT:
 *   -DMUTANT_NO_FINAL_CHECKS      no JEC comparison and no injector check
 *   -DMUTANT_WRONG_WAKE_COUNT     idle computed as `inactive` instead of
 *                                 `inactive - sleeping`
 *   -DMUTANT_LATCH_NO_WAKE        latch set does not wake a SLEEPING owner
 *   -DMUTANT_FALL_ASLEEP_STORE    fall_asleep() stores SLEEPING instead of
 *                                 CAS(SLEEPY -> SLEEPING): a SET is overwritten
 *   -DMUTANT_UNLOCK_BEFORE_BLOCK  the worker mutex is released after
 *                                 sleeping++ and re-taken to set is_blocked
 *   -DMUTANT_JEC_BEFORE_TOGGLE    remember the JEC from before the toggle:
 *                                 no job is lost (the counter never returns
 *                                 to an odd pre-toggle value), but the worker
 *                                 wakes "partly" with no new work -- caught by
 *                                 the futile-partial-wake assertion below
 *   -DMUTANT_NO_SEARCH_AFTER_SLEEPY  sleep() right after announcing sleepy:
 *                                 masked by the final injector check for
 *                                 injected jobs, caught with -DSTRONG (lost
 *                                 internal wake-up) or -DNO_INJECTOR_CHECK
 *   -DMUTANT_BLOCKED_NO_HAND_OVER with -DSTRONG -DLOSSY_PUSH -DBLOCKED:
 *                                 mark_blocked does not hand the deque over,
 *                                 so a lost push leaves b to a worker that
 *                                 waits for it
 *
 *   -DMUTANT_SHARED_MAIN_LATCH    all workers' main loops sleep on ONE core
 *                                 latch (e.g. a pool-wide terminate latch):
 *                                 the second worker's get_sleepy() always
 *                                 fails and it spins forever.  Invisible to
 *                                 the safety check (timeout never fires); caught
 *                                 by the non-progress check (pan -l -f).
 *
 * Liveness (check.sh, compiled with -DNP): with weak fairness there is no
 * cycle without progress, i.e. every fair run ends with all workers parked.
 *
 * Second property (efficiency, from the Blitz "partial wake storm" warning):
 * a worker only wakes "partly" (JEC moved) if some post toggled the JEC since
 * its announce.  Checked with a ghost counter g_posts.
 */

#ifndef NW
#define NW 2             /* workers; check.sh uses 2 (exhaustive) and 3 (bitstate) */
#endif
#ifndef NINJ
#define NINJ 2
#endif
#ifndef S
#define S 1              /* failed searches before announcing (a time in the implementation) */
#endif
#ifndef JEC_MOD
#ifdef MUTANT_JEC_ROLLOVER
#define JEC_MOD 2
#else
#define JEC_MOD 64
#endif
#endif
#define DUMMY 255        /* JobsEventCounter::DUMMY */
#define TOTAL (NINJ + 1)

#ifdef MUTANT_NO_FINAL_CHECKS
#define NO_INJECTOR_CHECK
#endif
#ifdef MUTANT_SHARED_MAIN_LATCH
#define MAIN_LATCH(w) 0  /* all main loops sleep on one shared latch */
#else
#define MAIN_LATCH(w) (w)
#endif
#ifdef NO_INJECTOR_CHECK
#define HAS_INJECTED_JOBS false
#else
#define HAS_INJECTED_JOBS (inj_cnt > 0)
#endif

/* CoreLatch states */
#define UNSET    0
#define SLEEPY   1
#define SLEEPING 2
#define SET      3
#define JL       NW      /* lat[0..NW-1]: each worker's main-loop latch; lat[NW]: the join latch */

#ifndef BEATS
#define BEATS 2          /* -DLAZY: heartbeats while a runs */
#endif

#define JOINER 0
#define LEAF   1
#define CHILD  2
#define NONE   3

/* the packed AtomicCounters word, as three fields updated together */
byte sleeping, inactive, jec;

byte lat[NW + 1];        /* CoreLatch states */
bit  mtx[NW];            /* per-worker sleep mutex */
bit  blocked[NW];        /* per-worker is_blocked (protected by mtx) */
byte dq[NW];             /* per-worker deque: number of CHILD jobs */
byte ih, it;             /* injector head / tail, job 0 is the JOINER */
byte inj_cnt;            /* injected-but-not-taken counter: has_injected_jobs() */
byte jowner;             /* worker waiting on the join latch */
bit  child_done;         /* -DSTRONG only */
bit  unpublished;        /* -DLAZY: b is on the joiner's private list */
byte done;
byte g_posts;            /* ghost: number of JEC toggles made by posters */

/* wake_specific_thread(w): lock; if is_blocked { is_blocked = false; notify;
 * sleeping-- (the WAKER decrements) } */
inline wake_specific(w, r)
{
    atomic { mtx[w] == 0 -> mtx[w] = 1 };
    if
    :: blocked[w] ->
        blocked[w] = 0;              /* + condvar.notify_one() */
        sleeping--;                  /* counters.sub_sleeping_thread() */
        r = 1
    :: else -> r = 0
    fi;
    mtx[w] = 0
}

inline wake_any(n, i, r)
{
    i = 0;
    do
    :: n > 0 && i < NW ->
        wake_specific(i, r);
        if
        :: r -> n--
        :: else
        fi;
        i++
    :: else -> break
    od;
    i = 0; r = 0; n = 0
}

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
        :: atomic { i == NW && ih < it -> job = (ih == 0 -> JOINER : LEAF); ih++; i = 0 };
           inj_cnt--;                             /* after the successful pop */
           break
        :: atomic { i == NW && ih == it -> i = 0 }; break
        od
    fi
}

/* -DLAZY: push the unpublished b on the joiner's deque and tell the
 * policy, as worker_thread::push does for an eager join */
inline publish(t, cs, ci, n, i, r)
{
    t = (dq[me] == 0);
    dq[me]++;
    unpublished = 0;
    new_jobs(t, cs, ci, n, i, r);
    t = 0
}

/* new_jobs(num_jobs = 1, queue_was_empty) */
inline new_jobs(qwe, cs, ci, n, i, r)
{
    atomic {   /* increment_jobs_event_counter_if(is_sleepy), returns the new word */
        if
        :: (jec & 1) == 0 -> jec = (jec + 1) % JEC_MOD; g_posts++
        :: else
        fi;
        cs = sleeping; ci = inactive
    };
    assert(cs <= ci && ci <= NW);
    if
    :: cs == 0 -> skip
    :: else ->
#ifndef MUTANT_WRONG_WAKE_COUNT
        ci = ci - cs;                /* awake but idle */
#endif
        if
        :: !qwe -> n = 1             /* min(num_jobs, sleepers) */
        :: qwe && ci < 1 -> n = 1    /* min(num_jobs - idle, sleepers) */
        :: else -> n = 0
        fi;
        wake_any(n, i, r)
    fi;
    cs = 0; ci = 0
}

proctype worker(byte me)
{
    byte cur = MAIN_LATCH(me);  /* the latch this wait_until() waits on */
    byte rounds = 0;
    byte jc = DUMMY;      /* idle_state.jobs_counter */
    byte job = NONE;
    bit  nested = 0;
    bit  ok = 0;
    byte t = 0;
    byte q = 0;           /* -DLAZY: publish()'s queue_was_empty */
    byte cs, ci, n, i;
    bit  r;
    byte gsnap = 0;       /* ghost: g_posts when we announced */

outer:
    /* 'outer: while !latch.probe() */
    if
    :: lat[cur] == SET -> goto latch_done
    :: else
    fi;
    /* take_own_job() before marking ourselves idle: of the worker's own
     * queues (deque, broadcasts, fibers to resume) the model has the deque */
    if
    :: atomic { dq[me] > 0 -> dq[me]--; job = CHILD } -> goto execute
    :: else
    fi;
    inactive++;                                   /* start_looking() */
    rounds = 0; jc = DUMMY; gsnap = 0;
inner:
    if
    :: lat[cur] == SET -> inactive--; goto latch_done   /* work_found(); break */
    :: else
    fi;
    find_work(i);
    if
    :: job != NONE -> inactive--; goto execute   /* work_found() */
    :: else
    fi;

    /* no_work_found() */
    if
    :: rounds < S -> rounds++                     /* yield_now() */
    :: rounds == S ->
        /* announce_sleepy(): increment the JEC if odd, remember the value */
        atomic {
#ifdef MUTANT_JEC_BEFORE_TOGGLE
            jc = jec;
#endif
            if
            :: (jec & 1) == 1 -> jec = (jec + 1) % JEC_MOD
            :: else
            fi;
#ifndef MUTANT_JEC_BEFORE_TOGGLE
            jc = jec;
#endif
            gsnap = g_posts
        };
#ifdef MUTANT_NO_SEARCH_AFTER_SLEEPY
        rounds++; goto do_sleep
#else
        rounds++
#endif
    :: rounds == S + 1 -> goto do_sleep
    fi;
    goto inner;

do_sleep:
    /* sleep() */
    atomic { if :: lat[cur] == UNSET -> lat[cur] = SLEEPY; ok = 1 :: else -> ok = 0 fi };  /* get_sleepy */
    if
    :: !ok -> rounds = 0; jc = DUMMY; gsnap = 0; goto inner   /* latch set: wake_fully, the probe sees it */
    :: else
    fi;
    atomic { mtx[me] == 0 -> mtx[me] = 1 };
#ifdef MUTANT_FALL_ASLEEP_STORE
    lat[cur] = SLEEPING; ok = 1;                  /* plain store: may overwrite SET */
#else
    atomic { if :: lat[cur] == SLEEPY -> lat[cur] = SLEEPING; ok = 1 :: else -> ok = 0 fi };  /* fall_asleep */
#endif
    if
    :: !ok -> mtx[me] = 0; rounds = 0; jc = DUMMY; gsnap = 0; goto inner   /* wake_fully */
    :: else
    fi;
    atomic {
#ifndef MUTANT_NO_FINAL_CHECKS
        if
        :: jec != jc -> ok = 0                    /* JEC moved: wake partly */
        :: else -> sleeping++; ok = 1             /* CAS(c, c + ONE_SLEEPING) */
        fi
#else
        sleeping++; ok = 1
#endif
    };
    if
    :: !ok ->
        /* futile-wake check: the JEC can only have moved since our announce
         * if some job was posted since (otherwise: a partial wake storm) */
        assert(g_posts != gsnap);
        rounds = S; jc = DUMMY; gsnap = 0;        /* wake_partly: re-announce */
        atomic { if :: lat[cur] == SLEEPY || lat[cur] == SLEEPING -> lat[cur] = UNSET :: else fi };   /* latch.wake_up */
        mtx[me] = 0;
        goto inner
    :: else
    fi;
#ifdef MUTANT_UNLOCK_BEFORE_BLOCK
    mtx[me] = 0;
#endif
    /* seq-cst fence: a no-op under SC */
    if
    :: HAS_INJECTED_JOBS -> sleeping--            /* has_injected_jobs(): wake ourselves */
    :: else ->
#ifdef MUTANT_UNLOCK_BEFORE_BLOCK
        atomic { mtx[me] == 0 -> mtx[me] = 1 };
#endif
        atomic { blocked[me] = 1; mtx[me] = 0 };  /* is_blocked = true; condvar.wait releases the mutex */
end_wait:
        atomic { !blocked[me] && mtx[me] == 0 -> mtx[me] = 1 }   /* woken, mutex re-acquired */
    fi;
    rounds = 0; jc = DUMMY; gsnap = 0;            /* wake_fully */
    atomic { if :: lat[cur] == SLEEPY || lat[cur] == SLEEPING -> lat[cur] = UNSET :: else fi };   /* latch.wake_up */
    mtx[me] = 0;
    goto inner;

execute:
    rounds = 0; jc = DUMMY; gsnap = 0;
    if
    :: job == LEAF -> done++
    :: job == CHILD ->
        done++;
#ifdef STRONG
        child_done = 1
#else
        atomic { t = lat[JL]; lat[JL] = SET };    /* CoreLatch::set: old = swap(SET) */
#ifndef MUTANT_LATCH_NO_WAKE
        if
        :: t == SLEEPING -> wake_specific(jowner, r)
        :: else
        fi;
#endif
        t = 0; r = 0
#endif
#ifdef LAZY
    :: job == JOINER ->
        jowner = me;
        unpublished = 1;                          /* b on the private list */
        t = 0;
        do                                        /* a's joins, a heartbeat each */
        :: t < BEATS ->
            if
            :: unpublished && inactive > dq[me] -> publish(q, cs, ci, n, i, r)
            :: else
            fi;
            t++
        :: else -> break
        od;
        t = 0;
#ifdef LAZY_A_WAITS
#ifndef MUTANT_LAZY_WAIT_WITHOUT_PUBLISHING
        if                                        /* wait_for_latch publishes first */
        :: unpublished -> publish(q, cs, ci, n, i, r)
        :: else
        fi;
#endif
        nested = 1; cur = JL; job = NONE; goto outer   /* a waits until b's latch is set */
#else
        if
        :: unpublished -> unpublished = 0; done++; done++   /* b runs inline */
        :: else ->
            if
            :: atomic { dq[me] > 0 -> dq[me]-- } -> done++; done++   /* b popped back */
            :: else -> nested = 1; cur = JL; job = NONE; goto outer
            fi
        fi
#endif
#else
    :: job == JOINER ->
        t = (dq[me] == 0);                        /* queue_was_empty */
        dq[me]++;                                 /* push(b) */
        jowner = me;
#ifdef LOSSY_PUSH
        if
        :: new_jobs(t, cs, ci, n, i, r)           /* new_internal_jobs: no fence, so it */
        :: skip                                   /* may read the counters from before an announcement */
        fi;
#else
        new_jobs(t, cs, ci, n, i, r);             /* new_internal_jobs: no fence */
#endif
        t = 0;
#ifdef STRONG
#if defined(BLOCKED) && !defined(MUTANT_BLOCKED_NO_HAND_OVER)
        if                                        /* mark_blocked: hand_over_local_jobs */
        :: dq[me] > 0 -> new_jobs(0, cs, ci, n, i, r)   /* fence, new_internal_jobs(n, false) */
        :: else
        fi;
#endif
        child_done == 1;                          /* a runs (or we block) until b is done elsewhere */
        done++
#else
        if
        :: atomic { dq[me] > 0 -> dq[me]-- } -> done++; done++   /* b popped back, run inline */
        :: else -> nested = 1; cur = JL; job = NONE; goto outer  /* stolen: wait_until(b.latch) */
        fi
#endif
#endif
    fi;
    job = NONE;
    goto outer;

latch_done:
    assert(nested);                               /* only the join latch is ever set */
    nested = 0; cur = MAIN_LATCH(me);
    done++;                                       /* join() returns, the joiner completes */
    goto outer
}

active proctype injector()
{
    byte k = 0;
    bit  qwe;
    byte cs, ci, n, i;
    bit  r;
    do
    :: k < NINJ ->
        atomic { qwe = (inj_cnt == 0); inj_cnt++ };   /* pending_.fetch_add(1) == 0: queue_was_empty */
        it++;                        /* push */
        /* seq-cst fence: a no-op under SC */
        new_jobs(qwe, cs, ci, n, i, r);
        qwe = 0;
        k++
    :: else -> break
    od
}

active proctype monitor()
{
    timeout -> assert(done == TOTAL)
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
