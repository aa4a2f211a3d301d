/*
 * A pool's activity count (include/boost/forkjoin/detail/activity_count.hpp,
 * used by registry_base's acquire/release functions, the Asio executors in
 * asio.hpp, and shut_down_at_exit), statement by statement.
 *
 *   one word: work units, tracked units, the forgiven bit; every operation
 *   is one atomic RMW on it (a CAS loop is one RMW that happens, or does
 *   not, at its successful CAS):
 *     may_leave(w)     = work(w) == 0 && (tracked(w) == 0 || forgiven(w))
 *     try_take(kind)   CAS: refuse if may_leave; else count + 1
 *     give_back(kind)  fetch_sub; frees the workers if !may_leave(before)
 *                      && may_leave(after) (work: may_leave(after) alone,
 *                      since a work unit was held before)
 *     give_back_tracked_if_taken  CAS: nothing if may_leave or tracked
 *                      == 0; else - 1, frees as give_back
 *     forgive_tracked  fetch_or; frees as give_back
 *     park_work        work - 1 and tracked + 1 in one CAS; frees as
 *                      give_back (only with tracked work forgiven)
 *     try_unpark_work  CAS: refuse if may_leave; else work + 1, tracked - 1
 *   whoever "frees" lets the workers leave (sets the terminate latches).
 *
 *   handle:  [EXIT: forgive_tracked]; give_back(work)     (stop(); with
 *            EXIT, the global pool's exit handler)
 *   a job:   try_take(work) -> give_back(work)              (spawn, install)
 *   tracked: try_take(tracked) -> [give_back(tracked)]      (a tracked
 *            executor; with KEPT it may never give back, as one on the
 *            stack of a thread that calls std::exit)
 *   guard:   try_take(tracked), whatever it returns ->
 *            give_back_tracked_if_taken                      (on_work_started,
 *            on_work_finished: the finish does not know if the start took)
 *   a future task parked on another future, with the fiber's state word
 *   (fiber_task.hpp: fiber_task_base::run and resume_at_home; the global
 *   pool's tasks only, the one pool whose exit handler forgives); it holds
 *   a work unit from its spawn:
 *     task:   park_work; CAS EXECUTING -> PARKED. If that fails
 *             (EXECUTING_UNPARKED, a wake came first): try_unpark_work,
 *             without which it runs on holding nothing (at exit), and
 *             completes: give_back(work) if held.
 *     waker:  a pool job, holding a work unit while it wakes, or a thread
 *             outside the pool, holding none, or nobody ever (a promise on
 *             the stack of the thread calling exit). PARKED -> UNPARKED,
 *             then try_unpark_work: the home runs the task again (it
 *             completes: give_back(work)) only if that took; EXECUTING ->
 *             EXECUTING_UNPARKED and nothing else.
 *
 * Properties (assertions and end-state checks):
 *   - the workers are let go at most once;
 *   - nothing is taken once they are let go (a unit taken then would keep
 *     work for workers that are leaving);
 *   - no count goes below zero (a finish of a failed start must not give
 *     back another holder's unit);
 *   - at the end: the workers were let go if and only if every work unit
 *     was given back and every tracked unit was given back or forgiven
 *     (without EXIT, a kept tracked unit keeps the workers, as it keeps a
 *     user pool's destructor waiting; a task parked for ever is such a
 *     unit);
 *   - a task woken by a job of the pool is always run again: the job's
 *     unit keeps the workers while it converts the task's unit back.
 *
 * Mutants (each must be caught):
 *   TRACKED_FREES_ON_AFTER  give_back(tracked) frees on may_leave(after)
 *                           alone: after the exit handler forgave, the
 *                           workers are let go twice.
 *   TAKE_IGNORES_FORGIVEN   a take refuses only an all-zero word: it takes a
 *                           unit after a forgiving exit let the workers go.
 *   IF_TAKEN_UNCHECKED      on_work_finished gives back without looking at
 *                           the count: a failed start's finish goes below
 *                           zero.
 *   IF_TAKEN_AFTER_LEAVE    on_work_finished gives back whenever the count
 *                           is not zero, also once the workers may leave:
 *                           after a forgiving exit, a failed start's finish
 *                           takes a kept executor's unit, whose own
 *                           give-back then goes below zero (into the
 *                           forgiven bit, in the real word).
 *   PARK_AFTER_STATE        the task converts its unit after its state says
 *                           PARKED: the waker converts it back first, and
 *                           the tracked count goes below zero.
 *   UNPARK_IGNORES_LEAVE    the waker converts the unit back without looking
 *                           at the count: after a forgiving exit let the
 *                           workers go, it takes a work unit for a task
 *                           nobody will run.
 *   PARKED_KEEPS_WORK       the code before this protocol: a parked task
 *                           keeps its work unit (park_work and
 *                           try_unpark_work change nothing): at exit, a task
 *                           nobody wakes keeps the workers, and the exit
 *                           handler waits for ever.
 *   PARK_NEVER_FREES        park_work never lets the workers go: at exit, a
 *                           task parked on the exiting thread's promise was
 *                           the last thing held, and the exit handler waits
 *                           for ever.
 */

byte work = 1;        /* the handle's unit */
byte tracked = 0;
bit  forgiven = 0;
byte freed = 0;       /* how many times the workers were let go */

#define may_leave(w, t, f)  ((w) == 0 && ((t) == 0 || (f)))

#ifdef MUTANT_TAKE_IGNORES_FORGIVEN
#define refuses(w, t, f)    ((w) == 0 && (t) == 0)
#else
#define refuses(w, t, f)    may_leave(w, t, f)
#endif

inline let_go() {
    freed++;
    assert(freed == 1)
}

/* try_take: ok := whether a unit was taken */
inline take_work(ok) {
    d_step {
        if
        :: refuses(work, tracked, forgiven) -> ok = 0
        :: else -> work++; ok = 1; assert(freed == 0)
        fi
    }
}

inline take_tracked(ok) {
    d_step {
        if
        :: refuses(work, tracked, forgiven) -> ok = 0
        :: else -> tracked++; ok = 1; assert(freed == 0)
        fi
    }
}

inline give_back_work(frees) {
    d_step {
        assert(work > 0);
        work--;
        frees = may_leave(work, tracked, forgiven)
    }
    if :: frees -> let_go() :: else fi
}

inline give_back_tracked(frees) {
    d_step {
        assert(tracked > 0);
#ifdef MUTANT_TRACKED_FREES_ON_AFTER
        tracked--;
        frees = may_leave(work, tracked, forgiven)
#else
        frees = !may_leave(work, tracked, forgiven);
        tracked--;
        frees = frees && may_leave(work, tracked, forgiven)
#endif
    }
    if :: frees -> let_go() :: else fi
}

inline give_back_tracked_if_taken(frees) {
    d_step {
#ifdef MUTANT_IF_TAKEN_UNCHECKED
        assert(tracked > 0);
        frees = !may_leave(work, tracked, forgiven);
        tracked--;
        frees = frees && may_leave(work, tracked, forgiven)
#else
        if
#ifdef MUTANT_IF_TAKEN_AFTER_LEAVE
        :: tracked == 0 -> frees = 0
#else
        :: may_leave(work, tracked, forgiven) || tracked == 0 -> frees = 0
#endif
        :: else ->
            frees = !may_leave(work, tracked, forgiven);
            tracked--;
            frees = frees && may_leave(work, tracked, forgiven)
        fi
#endif
    }
    if :: frees -> let_go() :: else fi
}

inline park_work(frees) {
#ifdef MUTANT_PARKED_KEEPS_WORK
    frees = 0
#else
    d_step {
        assert(work > 0);
        frees = !may_leave(work, tracked, forgiven);
        work--;
        tracked++;
#ifdef MUTANT_PARK_NEVER_FREES
        frees = 0
#else
        frees = frees && may_leave(work, tracked, forgiven)
#endif
    }
#endif
    if :: frees -> let_go() :: else fi
}

inline try_unpark_work(ok) {
#ifdef MUTANT_PARKED_KEEPS_WORK
    ok = 1
#else
    d_step {
        if
#ifdef MUTANT_UNPARK_IGNORES_LEAVE
        :: false -> ok = 0
#else
        :: may_leave(work, tracked, forgiven) -> ok = 0
#endif
        :: else -> assert(tracked > 0); tracked--; work++; ok = 1; assert(freed == 0)
        fi
    }
#endif
}

inline forgive_tracked(frees) {
    d_step {
        frees = !may_leave(work, tracked, forgiven);
        forgiven = 1;
        frees = frees && may_leave(work, tracked, forgiven)
    }
    if :: frees -> let_go() :: else fi
}

/* What each holder still owes at the end. */
byte work_owed = 0;     /* taken and not given back (besides the handle's) */
byte tracked_owed = 0;
bit  handle_done = 0;

proctype handle() {
    bit frees;
#ifdef EXIT
    forgive_tracked(frees);
#endif
    give_back_work(frees);
    handle_done = 1
}

proctype job() {
    bit ok, frees;
    take_work(ok);
    if
    :: ok -> give_back_work(frees)
    :: else
    fi
}

proctype tracked_executor() {
    bit ok, frees;
    take_tracked(ok);
    if
    :: ok ->
        if
        :: give_back_tracked(frees)
#ifdef KEPT
        :: tracked_owed++   /* kept: on the exiting stack, or just alive */
#endif
        fi
    :: else
    fi
}

proctype guard() {
    bit ok, frees;
    take_tracked(ok);
    give_back_tracked_if_taken(frees)
}

#define EXECUTING          0
#define PARKED             1
#define UNPARKED           2
#define EXECUTING_UNPARKED 3
#define COMPLETE           4
byte task_state = EXECUTING;
bit  unit_parked = 0;   /* fiber_task_base::parks_its_unit(), at the park */
bit  task_dropped = 0;  /* UNPARKED, and not queued: the workers had left */

/* The home runs the task again after a wake: it completes. */
proctype resumed_task() {
    bit frees;
    task_state = EXECUTING;
    give_back_work(frees);
    task_state = COMPLETE
}

proctype parked_task() {
    bit ok, frees;
    bit holds = 1;      /* fiber_task_base::holds_activity_ */
    unit_parked = holds;
#ifndef MUTANT_PARK_AFTER_STATE
    if :: unit_parked -> park_work(frees) :: else fi;
#endif
    if
    :: d_step { task_state == EXECUTING -> task_state = PARKED }
#ifdef MUTANT_PARK_AFTER_STATE
        ; if :: unit_parked -> park_work(frees) :: else fi
#endif
    :: d_step { task_state == EXECUTING_UNPARKED -> task_state = EXECUTING };
        if
        :: unit_parked -> try_unpark_work(ok); if :: !ok -> holds = 0 :: else fi
        :: else
        fi;
        if :: holds -> give_back_work(frees) :: else fi;
        task_state = COMPLETE
    fi
}

proctype waker() {
    bit ok, frees;
    bit holds_own = 0;
    if
    :: take_work(ok); holds_own = ok   /* a job of the pool */
    :: skip                            /* a thread outside it */
    fi;
    if
    :: d_step { task_state == PARKED -> task_state = UNPARKED };
        try_unpark_work(ok);
        if
        :: ok -> run resumed_task()
        :: else ->
            /* Only at exit, and never for a wake by the pool's own work. */
            assert(!holds_own);
            task_dropped = 1
        fi
    :: d_step { task_state == EXECUTING -> task_state = EXECUTING_UNPARKED }
    :: d_step { (task_state == UNPARKED || task_state == EXECUTING_UNPARKED || task_state == COMPLETE) -> skip }
    fi;
    if :: holds_own -> give_back_work(frees) :: else fi
}

init {
    atomic {
        work++;         /* the parked task's unit, taken at its spawn */
        run parked_task();
        if
        :: run waker()
        :: skip         /* nobody ever wakes it */
        fi;
        run handle();
        run job();
        run tracked_executor();
        run guard();
        run guard()
    }
    (_nr_pr == 1);
    /* Parked for ever: a unit kept, as a tracked executor's. */
    if :: task_state == PARKED -> tracked_owed++ :: else fi;
    assert(work == 0);
    /* More than owed only once the workers were let go: a guard's finish
       gives nothing back from then on. */
    assert(tracked == tracked_owed || (freed == 1 && tracked > tracked_owed));
    /* Let go iff nothing that is waited for is still held. */
    assert(freed == ((tracked_owed == 0 || forgiven) -> 1 : 0))
}
