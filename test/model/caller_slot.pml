/*
 * caller_slot.pml -- Promela model of worker 0's place in a pool with a
 * caller slot (pool_options::caller_slot; registry_base::try_take_caller_slot,
 * give_back_caller_slot, inject_broadcast, vacant_slot_has_work and
 * run_vacant_slot_broadcasts in include/boost/forkjoin/detail/registry_base.hpp).
 *
 * Run through test/model/check.sh, or by hand:
 *   spin -a [-DMUTANT_xxx] caller_slot.pml && gcc -O2 -DSAFETY -o pan pan.c && ./pan
 *
 * Worker 0 has no thread of its own. Its broadcast queue is popped only by
 * the thread that holds its place (one flag, taken with an exchange), and a
 * broadcast's job may reach it while the place is held or free:
 *
 *   broadcaster: push share into worker 0's queue (seq-cst RMW);
 *                load flag (seq-cst): held -> notify_worker(0), the holder
 *                looks at its queue in its next wait or sees it at give-back;
 *                free -> notify the pool as of an injected job
 *   holder:      exchange(flag, held) from free; as worker 0, may look at its
 *                queue (in a wait) and run what it finds; give back: store
 *                flag free (seq-cst); load the queue (seq-cst): not empty ->
 *                notify the pool as of an injected job
 *   pool thread: search: ... the injector; then "place free and worker 0's
 *                queue not empty" (vacant_slot_has_work: load queue, load
 *                flag) -> take the place, run the queue as worker 0, give
 *                back (as the holder does). No work: announce sleepy, check
 *                again (has_injected_jobs, which includes vacant_slot_has_work),
 *                sleep until woken.
 *
 * The sleep protocol is the sleep_policy concept's contract, not one policy:
 * a publisher writes with a seq-cst access and then notifies; a worker
 * announces that it is sleepy and then checks the queues that are not its
 * own before it sleeps; a notification wakes a worker that announced.
 * jec.pml and legacy.pml prove that contract for each policy. Here the
 * announcement is one SC flag and the wake-up a bit that the sleeper waits
 * for: the model checks the slot's half of the protocol, the two
 * store-buffering pairs (broadcaster vs holder giving back; publisher vs
 * sleeper) and mutual exclusion of the place.
 *
 * Memory model: every statement is one sequentially consistent access. The
 * store-buffering pair "push; load flag | store flag; load queue" is forbidden
 * its both-old outcome by the seq-cst accesses; test/litmus/fence_litmus.cpp,
 * pair (g), checks that on hardware.
 *
 * Jobs left on worker 0's deque when the holder leaves are handed over as by
 * a worker that blocks (registry::hand_over_local_jobs), the BLOCKED
 * configurations of jec.pml and legacy.pml.
 *
 * Workload: one pool thread, one holder that takes the place HOLDS times, one
 * broadcaster that broadcasts BCASTS times and waits for each share 0 to run.
 * Properties: every share runs (an invalid end state otherwise: the
 * broadcaster blocked while the pool thread sleeps); never two threads in
 * the place (assertion).
 *
 * Mutants (each must be caught):
 *   NO_RECHECK              give-back does not look at the queue: a share
 *                           pushed while the place was held, that the holder
 *                           never looked for, stays there.
 *   CHECK_BEFORE_RELEASE    give-back looks at the queue before it frees the
 *                           place: a share pushed in between sees the place
 *                           held, and the holder has looked already.
 *   ALWAYS_NOTIFY_WORKER_0  the broadcaster notifies worker 0 whether or not
 *                           the place is held (inject_broadcast without the
 *                           caller slot): with the place free nobody wakes.
 *   SLEEP_CHECK_IGNORES_SLOT the pool thread's check before it sleeps leaves
 *                           out worker 0's queue (has_injected_jobs without
 *                           vacant_slot_has_work).
 *   TAKE_WITHOUT_EXCHANGE   the place is taken with a load and a store: two
 *                           threads can hold it.
 */

#ifndef HOLDS
#define HOLDS 2
#endif
#ifndef BCASTS
#define BCASTS 2
#endif

bit  taken = 0;     /* caller_slot_taken_ */
byte queue0 = 0;    /* worker 0's broadcast queue: shares not yet run */
byte ran = 0;       /* shares run */
byte wearers = 0;   /* threads in the place (for the assertion) */
bit  sleepy = 0;    /* the pool thread announced it may sleep */
bit  woken = 0;     /* a notification reached it */

/* Notify the pool as of an injected job: wake the thread if it announced. */
inline notify_pool() {
    if
    :: sleepy -> woken = 1
    :: else -> skip
    fi
}

/* Take the place if it is free: the exchange (or, mutant, a load then a
 * store). `ok` says whether we hold it. */
inline try_take(ok) {
#ifdef MUTANT_TAKE_WITHOUT_EXCHANGE
    if
    :: taken == 0 -> taken = 1; ok = 1
    :: else -> ok = 0
    fi
#else
    atomic {
        if
        :: taken == 0 -> taken = 1; ok = 1
        :: else -> ok = 0
        fi
    }
#endif
}

/* As worker 0: run what its queue holds (broadcast_queue::pop, one share at
 * a time). */
inline run_queue() {
    wearers++;
    assert(wearers == 1);
    do
    :: atomic { queue0 > 0 -> queue0--; ran++ }
    :: else -> break
    od;
    wearers--
}

inline give_back() {
#ifdef MUTANT_CHECK_BEFORE_RELEASE
    if
    :: queue0 > 0 -> taken = 0; notify_pool()
    :: else -> taken = 0
    fi
#else
    taken = 0;
#ifndef MUTANT_NO_RECHECK
    if
    :: queue0 > 0 -> notify_pool()
    :: else -> skip
    fi
#endif
#endif
}

active proctype holder()
{
    byte round = 0;
    bit ok;
    do
    :: round < HOLDS ->
        try_take(ok);
        if
        :: ok ->
            /* Inside install: it may wait in the pool (and look at its
             * queue) or never look. */
            if
            :: run_queue()
            :: skip
            fi;
            give_back()
        :: else -> skip /* the place is held: install injects, as without it */
        fi;
        round++
    :: else -> break
    od
}

active proctype broadcaster()
{
    byte round = 0;
    do
    :: round < BCASTS ->
        queue0++;
#ifdef MUTANT_ALWAYS_NOTIFY_WORKER_0
        skip; /* notify_worker(0): nobody sleeps as worker 0 here */
#else
        if
        :: taken -> skip   /* notify_worker(0): the holder looks or gives back */
        :: else -> notify_pool()
        fi;
#endif
        round++;
        ran >= round /* the broadcast waits for its share 0 */
    :: else -> break
    od
}

active proctype pool_thread()
{
    bit ok;
    bit work;
search:
    /* vacant_slot_has_work: two loads */
    if
    :: queue0 > 0 && taken == 0 -> goto wear
    :: else -> skip
    fi;
    /* Nothing found: announce, check again, sleep. */
    sleepy = 1;
#ifdef MUTANT_SLEEP_CHECK_IGNORES_SLOT
    work = 0;
#else
    work = (queue0 > 0 && taken == 0);
#endif
    if
    :: work -> sleepy = 0; woken = 0; goto wear
    :: else -> skip
    fi;
end_sleep:
    woken == 1;
    atomic { sleepy = 0; woken = 0 };
    goto search;
wear:
    try_take(ok);
    if
    :: ok -> run_queue(); give_back()
    :: else -> skip /* someone else holds it: that one runs the queue */
    fi;
    goto search
}
