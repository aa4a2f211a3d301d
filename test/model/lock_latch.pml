/*
 * The latch a thread outside every pool waits on
 * (include/boost/forkjoin/detail/lock_latch.hpp), statement by statement.
 *
 *   waiter (wait):  spin: look at state; SET -> return          (0 or more looks)
 *                   lock(m); CAS state UNSET -> BLOCKED;
 *                     success: cv wait until woken (spurious wake-ups allowed)
 *                   unlock(m); return: the latch is destroyed
 *   setter (set):   old = exchange(state, SET);
 *                   old != BLOCKED -> done, the latch is never touched again
 *                   else lock(m); woken = true; notify; unlock(m)
 *
 * The latch lives in the waiter's frame: once wait() returns it is gone, so
 * every access of the setter asserts that the waiter has not returned yet.
 * Properties: the waiter always returns (no invalid end state: a lost
 * wake-up leaves it blocked), and the setter never touches a destroyed latch
 * (assertions).
 *
 * Abstractions: memory is sequentially consistent (each statement one SC
 * access; the acquire/release orderings of the implementation are what make
 * its accesses behave so for the values read here: the waiter's acquire
 * load/CAS-failure pairs with the exchange, the mutex does the rest). The
 * condition variable: wait = atomically { unlock; become a waiter }, then
 * block until notified or woken spuriously (at most SPURIOUS times, so that a
 * lost wake-up ends in a blocked waiter, an invalid end state), then lock.
 * The spin budget is a nondeterministic number of looks; whether the
 * waiter offers its CPU between two looks (cpu_sharing) is below the model:
 * it changes when the looks happen, never which accesses they are.
 *
 * Mutants (each must be caught):
 *   LOAD_STORE_SET   set() reads the state, then stores SET (no exchange):
 *                    a waiter that announces BLOCKED in between is never woken.
 *   WOKEN_OUTSIDE    set() sets woken and notifies without the mutex: the
 *                    notify can land between the waiter's check and its wait.
 *   LEAVE_ON_SET     the blocked waiter leaves as soon as the state is SET,
 *                    not once woken under the mutex: the setter then locks a
 *                    destroyed mutex.
 */

#define UNSET   0
#define BLOCKED 1
#define SET     2

byte state = UNSET;
bit  m = 0;          /* the mutex */
bit  woken = 0;      /* guarded by m */
bit  cv_waiting = 0; /* the waiter is in cv.wait */
bit  notified = 0;   /* a notify reached the waiter */
bit  alive = 1;      /* the latch exists: the waiter has not returned */
byte spurious = 0;   /* spurious wake-ups so far (at most SPURIOUS) */

#ifndef SPURIOUS
#define SPURIOUS 2
#endif

inline lock()   { atomic { m == 0 -> m = 1 } }
inline unlock() { m = 0 }

active proctype waiter()
{
    byte expected;
    /* the spin phase: any number of looks */
    do
    :: state == SET -> goto leave
    :: state != SET -> skip
    :: break
    od;
    lock();
    atomic {
        expected = state;
        if
        :: state == UNSET -> state = BLOCKED
        :: else -> skip
        fi
    }
    if
    :: expected == UNSET ->
        /* cv.wait(lock, [] { return woken; }) */
        do
#ifdef MUTANT_LEAVE_ON_SET
        :: state == SET -> break
#else
        :: woken -> break
#endif
        :: else ->
            atomic { unlock(); cv_waiting = 1; notified = 0 }
            if
            :: notified -> skip
            :: spurious < SPURIOUS -> spurious++   /* a spurious wake-up */
            fi;
            cv_waiting = 0;
            lock()
        od
    :: else -> skip
    fi;
    unlock();
leave:
    alive = 0
}

active proctype setter()
{
    byte old;
#ifdef MUTANT_LOAD_STORE_SET
    old = state;
    state = SET;
#else
    atomic { old = state; state = SET }
#endif
    if
    :: old == BLOCKED ->
#ifdef MUTANT_WOKEN_OUTSIDE
        assert(alive);
        woken = 1;
        assert(alive);
        if
        :: cv_waiting -> notified = 1
        :: else -> skip
        fi
#else
        assert(alive);
        lock();
        assert(alive);
        woken = 1;
        if
        :: cv_waiting -> notified = 1
        :: else -> skip
        fi;
        assert(alive);
        unlock()
#endif
    :: else -> skip
    fi
}
