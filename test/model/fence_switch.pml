/*
 * The adaptive fence handshake of the work-stealing deque
 * (include/boost/forkjoin/detail/chase_lev_deque.hpp, fence_state,
 * pop(), order_with_owner(), owner_acknowledge(), stop_fencing(),
 * prepare_for_absent_owner()).
 *
 * The deque's pop and steal form a store-buffering pair: each side needs a
 * full fence, or else the thief's membarrier stands in for both. A *light*
 * thief orders its steal with a plain seq-cst fence, relying on the owner
 * to fence too; the one thing that must never happen is an owner pop with a
 * compiler barrier only (state `asymmetric` read) while a light thief is in
 * its steal. That is the assertion below; whether the fences themselves
 * restore sequential consistency for the pair is fence_litmus's question,
 * and this model assumes it (every statement is one SC access).
 *
 *   owner pop:   s = state; fence unless s == ASYM; [the racing window]
 *                SWITCHING -> store SYM                 (acknowledge)
 *                SYM       -> a steal seen: budget = B; else budget--,
 *                             at 0: store DRAINING      (stop_fencing)
 *                DRAINING  -> light == 0: CAS DRAINING -> ASYM
 *   owner away:  (prepare_for_absent_owner, before it blocks with jobs
 *                left) fence; unless s == SYM: store SYM, budget = B
 *   thief:       s = state;
 *                SYM -> light++; s = state; SYM -> light steal, light--;
 *                       else light--, and on as below
 *                else (ASYM, SWITCHING, DRAINING): membarrier (orders the
 *                       steal by itself), then CAS s -> SWITCHING unless
 *                       s == SWITCHING (ask the owner to fence)
 *
 * Mutants (each must be caught):
 *   NO_DRAINING       the owner goes from SYM straight to ASYM.
 *   NO_RECHECK        a thief relies on its first read of SYM.
 *   DRAIN_NO_COUNT    the owner leaves DRAINING without looking at light.
 */

#define ASYM      0
#define SWITCHING 1
#define SYM       2
#define DRAINING  3

#ifndef NPOPS
#define NPOPS 8
#endif
#ifndef NSTEALS
#define NSTEALS 3
#endif
#ifndef B
#define B 1           /* fenced pops without a steal before going back */
#endif

byte state = ASYM;
byte light = 0;       /* light_thieves_ */
byte in_light = 0;    /* ghost: light thieves inside their steal */

active proctype owner()
{
    byte s, budget = 0, pops = 0;
    do
    :: pops < NPOPS ->
        s = state;
        /* the racing window of a pop: store bottom, barrier, load top */
        if
        :: s == ASYM -> assert(in_light == 0)
        :: else -> skip                  /* a seq-cst fence: safe */
        fi;
        if
        :: s == SWITCHING -> state = SYM; budget = B
        :: s == SYM ->
            if
            :: budget = B                /* top_ moved: a steal was seen */
            :: budget--;
               if
               :: budget == 0 ->
#ifdef MUTANT_NO_DRAINING
                   state = ASYM
#else
                   state = DRAINING
#endif
               :: else -> skip
               fi
            fi
        :: s == DRAINING ->
#ifdef MUTANT_DRAIN_NO_COUNT
            atomic { if :: state == DRAINING -> state = ASYM :: else -> skip fi }
#else
            if
            :: light == 0 ->
                atomic { if :: state == DRAINING -> state = ASYM :: else -> skip fi }
            :: else -> skip
            fi
#endif
        :: else -> skip
        fi;
        pops++
    :: pops < NPOPS ->
        /* prepare_for_absent_owner (mark_blocked with jobs left): fence,
         * then SYM, whatever the state, with a fresh countdown; pops go on
         * afterwards as from an acknowledged switch. */
        s = state;
        if
        :: s != SYM -> state = SYM; budget = B
        :: else -> skip
        fi;
        pops++
    :: else -> break
    od
}

active [2] proctype thief()
{
    byte s, steals = 0;
    do
    :: steals < NSTEALS ->
        s = state;
        if
        :: s == SYM ->
            light++;
#ifndef MUTANT_NO_RECHECK
            s = state;
#endif
            if
            :: s == SYM ->
                in_light++;
                /* the steal: load bottom, CAS top */
                in_light--;
                light--;
                goto next
            :: else -> light--
            fi
        :: else -> skip
        fi;
        /* membarrier: orders this steal whatever the owner does */
        atomic {
            if
            :: s != SWITCHING && state == s -> state = SWITCHING
            :: else -> skip
            fi
        }
next:
        steals++
    :: else -> break
    od
}
