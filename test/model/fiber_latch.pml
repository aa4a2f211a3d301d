/*
 * A fiber that waits for a latch parked (worker_thread::park_fiber_until and
 * unpark_fiber_waiting_for in include/boost/forkjoin/detail/worker_thread.hpp,
 * the task's states in detail/fiber_task.hpp), statement by statement.
 *
 *   fiber (on its home worker), for each of two latches at ONE address:
 *       loop: lock(m); if (!linked) { link the node; count++ } unlock(m);
 *             latch set? -> leave the loop;
 *             park: switch to the worker, which CASes EXECUTING -> PARKED,
 *                   or, finding EXECUTING_UNPARKED, moves back to EXECUTING and
 *                   resumes the fiber at once;
 *       lock(m); if (linked) { unlink; count-- } unlock(m);
 *       the latch is gone (its frame returns); the second latch reuses the
 *       address, as a later join of the fiber at the same depth does.
 *   setter of latch k:  set latch k;  count == 0 -> done;
 *       else lock(m); a node with the address -> unlink it, count--, hold
 *       the task; unlock(m); unpark; release.
 *   unpark: PARKED -> UNPARKED and queue the task at its home, which runs
 *       it (UNPARKED -> EXECUTING by an exchange, the fiber resumes);
 *       EXECUTING -> EXECUTING_UNPARKED; UNPARKED and EXECUTING_UNPARKED
 *       written back unchanged (an RMW); COMPLETE: nothing.
 *   a canceller: unparks the task once, at any time (a cancel, or a stale
 *       notify of an earlier await: both are unparks the wait must survive).
 *
 * The setter of latch 1 may come late, after the fiber has left that wait
 * and registered for latch 2 at the same address: it then takes the second
 * wait's node and unparks the fiber for nothing, and the fiber must put its
 * node back, or latch 2's own setter finds no node and the fiber stays
 * parked for good.
 *
 * Properties: the fiber finishes both waits (a lost wake-up leaves it
 * parked: an invalid end state), and never leaves a wait before its latch
 * is set (assertion); a setter holds the task only while the fiber is still
 * in a wait (assertion: the task is alive then; the hold keeps it alive
 * across the unpark).
 *
 * Abstractions: memory is sequentially consistent (the implementation's
 * latch set, count increment and count load are seq-cst; the mutex orders
 * the rest). The task's state word is not seq-cst: every write of it is an
 * RMW, so that it has one modification order, and an unpark that finds the
 * task UNPARKED writes the word back unchanged instead of only reading it.
 * Under SC that write changes nothing, and the model has it; what it buys
 * (the run that follows sees what the unparker wrote before) is
 * store-buffering pair f of test/litmus, which fails without it. The home
 * worker's queue is a flag: one task, one home.
 *
 * Mutants (each must be caught):
 *   NO_RELINK          the node goes in once per wait, not again after a
 *                      setter took it: a late setter of the earlier latch
 *                      steals the later wait's node.
 *   CHECK_BEFORE_LINK  the fiber looks at the latch, then registers: a set
 *                      in between sees no node and unparks nobody.
 *   COUNT_BEFORE_SET   the setter reads the count before setting the latch.
 *   PARK_NO_RERUN      the worker parks the fiber even when an unpark came
 *                      while it was still running (EXECUTING_UNPARKED lost).
 */

#define PARKED             0
#define UNPARKED           1
#define EXECUTING          2
#define EXECUTING_UNPARKED 3
#define COMPLETE           4

byte task = EXECUTING;
bit  queued = 0;       /* the task is in its home's resume queue */
bit  m = 0;            /* latch_waits_mutex_ */
bit  linked = 0;       /* the fiber's node is in the list: guarded by m */
byte count = 0;        /* latch_wait_count_ */
bit  latch[3];         /* latch[1], latch[2]: set? */
byte waiting_for = 0;  /* the wait the fiber is in: 0 none, 1, 2 */
bit  done = 0;         /* the fiber finished both waits */

inline lock()   { atomic { m == 0 -> m = 1 } }
inline unlock() { m = 0 }

inline unpark() {
    atomic {
        if
        :: task == PARKED -> task = UNPARKED; queued = 1
        :: task == EXECUTING -> task = EXECUTING_UNPARKED
        :: task == UNPARKED || task == EXECUTING_UNPARKED -> task = task   /* written back */
        :: else -> skip                                                    /* COMPLETE */
        fi
    }
}

/* On the fiber: switch to the worker, which parks the task or, if an
 * unpark came while the fiber still ran, runs it again at once; returns
 * once the fiber runs again. `rerun` is the fiber's local. */
inline park() {
    atomic {
#ifdef MUTANT_PARK_NO_RERUN
        task = PARKED; rerun = 0
#else
        if
        :: task == EXECUTING -> task = PARKED; rerun = 0
        :: task == EXECUTING_UNPARKED -> task = EXECUTING; rerun = 1
        fi
#endif
    }
    if
    :: !rerun -> atomic { queued -> queued = 0; task = EXECUTING }   /* the home runs it */
    :: else -> skip
    fi
}

inline register(k) {
    lock();
    if
    :: !linked -> linked = 1; count++
    :: else -> skip
    fi;
    unlock()
}

inline wait_for(k) {
    waiting_for = k;
#ifdef MUTANT_NO_RELINK
    register(k);
#endif
    do
    ::
#ifdef MUTANT_CHECK_BEFORE_LINK
        if
        :: latch[k] -> break
        :: else -> skip
        fi;
        register(k);
        park()
#else
#ifndef MUTANT_NO_RELINK
        register(k);
#endif
        if
        :: latch[k] -> break
        :: else -> park()
        fi
#endif
    od;
    assert(latch[k]);
    lock();
    if
    :: linked -> linked = 0; count--
    :: else -> skip
    fi;
    unlock();
    waiting_for = 0   /* the latch's frame is gone */
}

active proctype fiber()
{
    bit rerun;
    wait_for(1);
    wait_for(2);
    atomic { done = 1; task = COMPLETE }
}

proctype setter(byte k)
{
    bit found = 0;
#ifdef MUTANT_COUNT_BEFORE_SET
    byte seen = count;
    latch[k] = 1;
#else
    byte seen;
    latch[k] = 1;
    seen = count;
#endif
    if
    :: seen != 0 ->
        lock();
        if
        :: linked ->   /* a node with our address: both latches share it */
            linked = 0; count--; found = 1;
            assert(!done)                            /* hold: the task is alive */
        :: else -> skip
        fi;
        unlock();
        if
        :: found -> unpark()
        :: else -> skip
        fi
    :: else -> skip
    fi
}

proctype canceller()
{
    unpark()
}

init {
    atomic {
        run setter(1);
        /* latch 2 exists only once the fiber is in its second wait */
        run canceller()
    }
    (waiting_for == 2) || done;
    run setter(2)
}
