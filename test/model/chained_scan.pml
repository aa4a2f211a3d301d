/*
 * The hand-over of a block in fj::inclusive_scan / exclusive_scan
 * (include/boost/forkjoin/detail/algorithm/chained_scan.hpp), step by step.
 *
 *   claimant (one per thread): k = next++ ; k >= NB -> done; work_on(k); repeat
 *   work_on(k):
 *     state[k] == READY -> scan(k); pass_on(k + 1)                 (fast path)
 *     else: total[k] = fold; wait a bounded time for state[k] == READY;
 *           seen READY -> pass_on(k + 1) with prefix op total; scan(k)
 *           time out   -> old = exchange(state[k], LEFT);
 *                         old == READY -> as if seen; else leave the block
 *   pass_on(j): for j = j.. NB - 1: prefix[j] = ...; old = exchange(state[j], READY);
 *               old != LEFT -> stop; else (the owner left) combine total[j],
 *               go on with j + 1; then scan every block taken over.
 *
 * Block 0 starts READY (its prefix is the scan's init). Properties, checked
 * when every claimant has returned: every block is scanned exactly once,
 * each from a prefix that was set, and every combine finds the block's
 * total set (assertions); no claimant is stuck (no invalid end state).
 *
 * NESTED: a claimant on its fast path may, before it passes its prefix on,
 * run another claimant on top of itself, as a wait inside the pool does when
 * the element operation runs parallel work: that inner claimant's blocks
 * then wait for a prefix that only the thread below them can pass on.
 *
 * Abstractions: memory is sequentially consistent (the exchanges are
 * acq_rel, which orders the prefix and the total written before them for
 * the thread that reads the exchange's result; every other access of these
 * fields happens after such a read). The time bound of the wait is a
 * nondeterministic choice to stop waiting, so every interleaving of a slow
 * thread is covered; values are reduced to "set".
 *
 * Mutants (each must be caught):
 *   UNBOUNDED_WAIT   the owner waits until the prefix comes, however long:
 *                    with NESTED the inner claimant waits for the thread it
 *                    sits on (invalid end state).
 *   OWNER_STORE      the owner reads the state, then stores LEFT (no
 *                    exchange): a prefix passed in between is missed by both
 *                    sides and the block is never scanned.
 *   PASSER_STORE     pass_on reads the state, then stores READY: an owner
 *                    leaving in between is missed, same loss.
 */

#ifndef NB
#define NB 3
#endif
#ifndef NT
#define NT 2
#endif

#define UNKNOWN 0
#define READY   1
#define LEFT    2

byte next = 0;
byte state[NB];
bit  prefix_set[NB];
bit  total_set[NB];
byte scanned[NB];
byte finished = 0;

inline scan(k)
{
    assert(prefix_set[k]);
    scanned[k]++
}

inline exchange(var, value, old)
{
#if defined(MUTANT_OWNER_STORE) || defined(MUTANT_PASSER_STORE)
    /* set by the callers that the mutant makes non-atomic */
    if
    :: split_exchange -> old = var; var = value
    :: else -> atomic { old = var; var = value }
    fi
#else
    atomic { old = var; var = value }
#endif
}

/* Gives block j its prefix; takes over every block from j on whose owner left. */
inline pass_on(j, from, old)
{
    from = j;
    do
    :: j >= NB -> break
    :: else ->
        prefix_set[j] = 1;
#ifdef MUTANT_PASSER_STORE
        split_exchange = 1;
#endif
        exchange(state[j], READY, old);
        split_exchange = 0;
        if
        :: old != LEFT -> break
        :: else -> assert(total_set[j]); j++
        fi
    od;
    do
    :: from < j -> scan(from); from++
    :: else -> break
    od
}

/* The owner of k after its fold: wait, then finish or leave. */
inline wait_and_finish(k, j, from, old)
{
    total_set[k] = 1;
    do
    :: state[k] == READY -> old = READY; break
#ifndef MUTANT_UNBOUNDED_WAIT
    :: true -> /* waited long enough */
#ifdef MUTANT_OWNER_STORE
        split_exchange = 1;
#endif
        exchange(state[k], LEFT, old);
        split_exchange = 0;
        break
#endif
    od;
    if
    :: old == READY ->
        assert(prefix_set[k] && total_set[k]);
        j = k + 1;
        pass_on(j, from, old);
        scan(k)
    :: else -> skip /* left: whoever passes the prefix on scans it */
    fi
}

inline inner_claimant(k, j, from, old)
{
    do
    :: atomic { k = next; next++ };
       if
       :: k >= NB -> break
       :: else ->
           if
           :: state[k] == READY -> scan(k); j = k + 1; pass_on(j, from, old)
           :: else -> wait_and_finish(k, j, from, old)
           fi
       fi
    od
}

bit split_exchange = 0;

proctype thread()
{
    byte k, j, from, old;
    byte ik, ij, ifrom, iold;
    do
    :: atomic { k = next; next++ };
       if
       :: k >= NB -> break
       :: else ->
           if
           :: state[k] == READY ->
#ifdef NESTED
               if
               :: true -> inner_claimant(ik, ij, ifrom, iold)
               :: true -> skip
               fi;
#endif
               scan(k); j = k + 1; pass_on(j, from, old)
           :: else -> wait_and_finish(k, j, from, old)
           fi
       fi
    od;
    atomic { finished++ }
}

init
{
    byte i;
    state[0] = READY;
    prefix_set[0] = 1;
    atomic {
        i = 0;
        do
        :: i < NT -> run thread(); i++
        :: else -> break
        od
    };
    finished == NT;
    i = 0;
    do
    :: i < NB -> assert(scanned[i] == 1); i++
    :: else -> break
    od
}
