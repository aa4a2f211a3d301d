/*
 * caller_slot.pml -- Promela model of worker 0's place in a pool with a
 * caller slot (pool_options::caller_slot; registry_base::try_take_caller_slot,
 * give_back_caller_slot, free_caller_slot, vacant_slot_has_work and
 * run_vacant_slot_broadcasts in include/boost/forkjoin/detail/caller_slot.hpp,
 * the place's word in detail/caller_slot_state.hpp, inject_broadcast in
 * detail/registry_base.hpp).
 *
 * Run through test/model/check.sh, or by hand:
 *   spin -a [-DNESTED] [-DMUTANT_xxx] caller_slot.pml && gcc -O2 -DSAFETY -o pan pan.c && ./pan
 *
 * Worker 0 has no thread of its own. The place is one word: FREE, HELD by an
 * outside caller of install (taken with a compare-exchange), or BORROWED by
 * a thread of the pool for one pop of worker 0's broadcast queue, which has
 * one consumer at a time. A broadcast's share may reach that queue while the
 * place is held or free:
 *
 *   broadcaster: push share into worker 0's queue (seq-cst RMW), and (NESTED)
 *                share 1 into worker 1's; load the place (seq-cst): HELD ->
 *                notify_worker(0), the holder looks at its queue in its next
 *                wait or sees it at give-back; else -> notify the pool as of
 *                an injected job; (NESTED) notify_worker(1)
 *   holder:      an outside caller of install: CAS the place FREE -> HELD;
 *                BORROWED -> wait the pop out; HELD -> inject the job and
 *                wait for it (another outside caller holds it; not reached
 *                with one holder). As worker 0 its job may look at worker 0's
 *                queue (in a wait) and run what it finds, never look, or
 *                (NESTED) wait outside the pool until a share 1 has run (the
 *                job of broadcast_test's a_share_left_in_a_held_place...).
 *                Give back: store FREE (seq-cst); load the queue (seq-cst):
 *                not empty -> notify the pool as of an injected job
 *   pool thread: worker 1, always itself. Search: its own queue (NESTED),
 *                the injected job, then "place free and worker 0's queue not
 *                empty" (vacant_slot_has_work) -> borrow the place (CAS FREE
 *                -> BORROWED), pop one share, free it as the holder does, run
 *                the share as worker 1. No work: announce sleepy, check again
 *                (has_injected_jobs, which includes vacant_slot_has_work),
 *                sleep until woken.
 *
 * NESTED adds what a share or a holder does when it waits inside the pool
 * for nested work: the first broadcast's share 0 broadcasts again (a share
 * for worker 0, one for worker 1) and waits in the pool for both, running
 * meanwhile what its thread may run as the worker it is: worker 0's queue
 * for the holder, its own queue and borrowed shares for worker 1. Such a
 * wait is modelled as a blocking choice among those (no sleep protocol
 * inside it: a guard that never becomes true is a deadlock either way).
 *
 * The sleep protocol is the sleep_policy concept's contract, not one policy:
 * a publisher writes with a seq-cst access and then notifies; a worker
 * announces that it is sleepy and then checks the queues that are not its
 * own before it sleeps; a notification wakes a worker that announced.
 * jec.pml and legacy.pml prove that contract for each policy. Here the
 * announcement is one SC flag and the wake-up a bit that the sleeper waits
 * for: the model checks the slot's half of the protocol, the two
 * store-buffering pairs (broadcaster vs whoever frees the place; publisher
 * vs sleeper), mutual exclusion of the place, and (NESTED) that no wait in
 * the pool waits for a queue that only its own thread could serve.
 *
 * Memory model: every statement is one sequentially consistent access. The
 * store-buffering pair "push; load place | store place; load queue" is
 * forbidden its both-old outcome by the seq-cst accesses;
 * test/litmus/fence_litmus.cpp, pair (g), checks that on hardware.
 *
 * Jobs left on worker 0's deque when the holder leaves are handed over as by
 * a worker that blocks (registry::hand_over_local_jobs), the BLOCKED
 * configurations of jec.pml and legacy.pml.
 *
 * Workload: one pool thread, one holder that calls install HOLDS times, one
 * broadcaster that broadcasts BCASTS times and waits for each broadcast's
 * shares to run. Properties: every share runs and every wait ends (an
 * invalid end state otherwise); never two threads in the place
 * (assertion).
 *
 * Mutants (each must be caught; the first five without NESTED, the rest
 * with it):
 *   NO_RECHECK              freeing the place does not look at the queue: a
 *                           share pushed while the place was held, that the
 *                           holder never looked for, stays there.
 *   CHECK_BEFORE_RELEASE    freeing looks at the queue before it frees the
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
 *   RUN_AS_WORKER_0         (the code before issue 33) the pool thread keeps
 *                           the place for the length of the share and runs
 *                           it as worker 0: the share's nested wait serves
 *                           worker 0's queue only, and the nested share 1,
 *                           which only worker 1 pops, waits for it.
 *   BORROW_FOR_THE_SHARE    the pool thread runs the share as itself but
 *                           frees the place only after it: the nested share
 *                           0 waits for a free place that its own waiter
 *                           keeps.
 *   INJECT_WHEN_BORROWED    install treats a borrowed place as held and
 *                           injects: the holder's job, which waits outside
 *                           the pool for share 1, runs on worker 1, ahead of
 *                           share 1 (broadcast_test's hang, 20 of 20 runs).
 */

#ifndef HOLDS
#define HOLDS 2
#endif
#ifndef BCASTS
#define BCASTS 2
#endif

#define FREE     0
#define HELD     1
#define BORROWED 2

/* What a share popped from worker 0's queue is. */
#define NONE   0
#define PLAIN0 1  /* a broadcast's share 0 that does not nest */
#define NEST0  2  /* NESTED: the first broadcast's share 0, which nests */
#define INNER  3  /* NESTED: a share of the nested broadcast */

/* The holder's job. */
#define LOOK        1  /* waits in the pool once: runs what worker 0's queue holds */
#define NOTHING     2  /* never looks */
#define WAIT_SHARE1 3  /* NESTED: waits outside the pool until a share 1 ran */

byte place = FREE;  /* caller_slot_state::state_ */
byte q0 = 0;        /* worker 0's queue: PLAIN0 shares */
bit  q0_nest = 0;   /* worker 0's queue: the NEST0 share */
byte q0_inner = 0;  /* worker 0's queue: nested shares */
byte q1 = 0;        /* worker 1's queue: broadcasts' shares 1 */
byte q1_inner = 0;  /* worker 1's queue: nested shares */
byte done0 = 0;     /* broadcasts' shares 0 run */
byte done1 = 0;     /* broadcasts' shares 1 run */
byte inner = 0;     /* nested shares run */
byte wearers = 0;   /* threads in the place (for the assertion) */
byte injected = 0;  /* the holder's job, injected (0: none) */
bit  injected_done = 0;
bit  sleepy = 0;    /* the pool thread announced it may sleep */
bit  woken = 0;     /* a notification reached it */

#define q0_has_work (q0 > 0 || q0_nest || q0_inner > 0)
#define vacant_slot_has_work (q0_has_work && place == FREE)

/* Notify the pool as of an injected job (or notify_worker(1): one thread):
 * wake the thread if it announced. */
inline notify_pool() {
    if
    :: sleepy -> woken = 1
    :: else -> skip
    fi
}

/* The exchange that takes the place for `to` (or, mutant, a load then a
 * store). `ok` says whether we got it. */
inline try_take(to, ok) {
#ifdef MUTANT_TAKE_WITHOUT_EXCHANGE
    if
    :: place == FREE -> place = to; ok = 1
    :: else -> ok = 0
    fi
#else
    atomic {
        if
        :: place == FREE -> place = to; ok = 1
        :: else -> ok = 0
        fi
    }
#endif
}

inline enter() {
    wearers++;
    assert(wearers == 1)
}

/* broadcast_queue::pop on worker 0's queue, in one step (it is under the
 * queue's lock); the order among kinds is left open. */
inline pop0(kind) {
    atomic {
        if
        :: q0 > 0 -> q0--; kind = PLAIN0
        :: q0_nest -> q0_nest = 0; kind = NEST0
        :: q0_inner > 0 -> q0_inner--; kind = INNER
        :: else -> kind = NONE
        fi
    }
}

/* free_caller_slot: store FREE, then look at the queue. */
inline free_place() {
#ifdef MUTANT_CHECK_BEFORE_RELEASE
    if
    :: q0_has_work -> place = FREE; notify_pool()
    :: else -> place = FREE
    fi
#else
    place = FREE;
#ifndef MUTANT_NO_RECHECK
    if
    :: q0_has_work -> notify_pool()
    :: else -> skip
    fi
#endif
#endif
}

/* The nested broadcast of the NEST0 share: a share for each worker, then
 * the notifications inject_broadcast makes. */
inline nested_broadcast() {
    q0_inner++;
    q1_inner++;
    if
    :: place == HELD -> skip
    :: else -> notify_pool()
    fi;
    notify_pool()
}

/* A wait in the pool for both nested shares, on a thread that is worker
 * `id`: it runs what that worker may run (its own queue; for worker 1 also
 * borrowed shares of worker 0), and blocks while there is none. Only
 * INNER shares are left for it: NEST0 is the one running. */
inline nested_wait(id) {
    do
    :: inner == 2 -> break
    :: id == 0 && q0 > 0 -> atomic { q0 > 0 -> q0-- }; done0++
    :: id == 0 && q0_inner > 0 -> atomic { q0_inner > 0 -> q0_inner-- }; inner++
    :: id == 1 && q1 > 0 -> atomic { q1 > 0 -> q1-- }; done1++
    :: id == 1 && q1_inner > 0 -> atomic { q1_inner > 0 -> q1_inner-- }; inner++
    :: id == 1 && vacant_slot_has_work ->
        try_take(BORROWED, ok2);
        if
        :: ok2 ->
            enter();
            pop0(kind2);
            wearers--;
            free_place();
            if
            :: kind2 == PLAIN0 -> done0++
            :: kind2 == INNER -> inner++
            :: else -> skip
            fi
        :: else -> skip
        fi
    od
}

/* Runs a share taken from worker 0's queue on a thread that is worker `id`. */
inline run_share0(kind, id) {
    if
    :: kind == PLAIN0 -> done0++
    :: kind == INNER -> inner++
    :: kind == NEST0 -> nested_broadcast(); nested_wait(id); done0++
    :: else -> skip
    fi
}

active proctype holder()
{
    byte round = 0;
    byte job;
    byte kind;
    byte kind2;
    bit ok;
    bit ok2;
    do
    :: round < HOLDS ->
        if
        :: job = LOOK
        :: job = NOTHING
#ifdef NESTED
        :: job = WAIT_SHARE1
#endif
        fi;
        /* try_take_caller_slot */
        do
        :: atomic { place == HELD -> ok = 0 }; break
        :: place == BORROWED ->
#ifdef MUTANT_INJECT_WHEN_BORROWED
            ok = 0; break
#else
            place != BORROWED /* a pop: wait it out */
#endif
        :: place == FREE ->
            try_take(HELD, ok);
            if
            :: ok -> break
            :: else -> skip
            fi
        od;
        if
        :: ok ->
            enter();
            if
            :: job == LOOK ->
                do
                :: pop0(kind);
                   if
                   :: kind == NONE -> break
                   :: else -> run_share0(kind, 0)
                   fi
                :: break
                od
            :: job == NOTHING -> skip
            :: job == WAIT_SHARE1 -> done1 > 0
            fi;
            wearers--;
            free_place() /* give_back_caller_slot */
        :: else ->
            /* Injected: runs on the pool thread; install waits. */
            injected = job;
            notify_pool();
            injected_done == 1;
            injected_done = 0
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
#ifdef NESTED
        if
        :: round == 0 -> q0_nest = 1
        :: else -> q0++
        fi;
        q1++;
#else
        q0++;
#endif
#ifdef MUTANT_ALWAYS_NOTIFY_WORKER_0
        skip; /* notify_worker(0): nobody sleeps as worker 0 here */
#else
        if
        :: place == HELD -> skip   /* notify_worker(0): the holder looks or gives back */
        :: else -> notify_pool()
        fi;
#endif
#ifdef NESTED
        notify_pool(); /* notify_worker(1) */
#endif
        round++;
        /* the broadcast waits for its shares */
#ifdef NESTED
        done0 >= round && done1 >= round
#else
        done0 >= round
#endif
    :: else -> break
    od
}

active proctype pool_thread()
{
    bit ok;
    bit ok2;
    bit work;
    byte kind;
    byte kind2;
    byte job;
search:
    if
    :: atomic { q1 > 0 -> q1-- }; done1++; goto search
    :: atomic { q1_inner > 0 -> q1_inner-- }; inner++; goto search
    :: atomic { injected != 0 -> job = injected; injected = 0 };
        /* The holder's job, as worker 1. */
        if
        :: job == LOOK ->
            do
            :: atomic { q1 > 0 -> q1-- }; done1++
            :: break
            od
        :: job == NOTHING -> skip
        :: job == WAIT_SHARE1 -> done1 > 0
        fi;
        injected_done = 1;
        goto search
    :: vacant_slot_has_work -> goto borrow
    :: else -> skip
    fi;
    /* Nothing found: announce, check again, sleep. */
    sleepy = 1;
#ifdef MUTANT_SLEEP_CHECK_IGNORES_SLOT
    work = (q1 > 0 || q1_inner > 0 || injected != 0);
#else
    work = (q1 > 0 || q1_inner > 0 || injected != 0 || vacant_slot_has_work);
#endif
    if
    :: work -> sleepy = 0; woken = 0; goto search
    :: else -> skip
    fi;
end_sleep:
    woken == 1;
    atomic { sleepy = 0; woken = 0 };
    goto search;
borrow:
    /* run_vacant_slot_broadcasts */
    try_take(BORROWED, ok);
    if
    :: ok ->
        enter();
        pop0(kind);
#if defined(MUTANT_RUN_AS_WORKER_0)
        run_share0(kind, 0);
        wearers--;
        free_place()
#elif defined(MUTANT_BORROW_FOR_THE_SHARE)
        run_share0(kind, 1);
        wearers--;
        free_place()
#else
        wearers--;
        free_place();
        run_share0(kind, 1)
#endif
    :: else -> skip /* someone else has the place: that one takes the share */
    fi;
    goto search
}
