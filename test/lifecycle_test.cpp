// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

// A pool's life cycle under faults and misuse: handlers that throw, bad
// thread counts, thread creation that fails, the global pool at exit,
// fork(), and pools destroyed where they must not be. Checks whose outcome
// ends a process, or that change process-wide state, run in a child process
// under a watchdog (child_process.hpp). This program never builds the global
// pool itself, so that its children start without one.

#define BOOST_TEST_MODULE lifecycle
#include <boost/test/unit_test.hpp>

#include "child_process.hpp"
#include "policies.hpp"
#include "wait_until.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace fj = boost::forkjoin;
using namespace std::chrono_literals;

namespace {

// Waits until `done()` holds; a watchdog, not a timing check.
template <class Done>
bool eventually(Done done)
{
    return test::wait_until(std::move(done), 30s, 1ms);
}

// Counts this thread in and waits, spinning, until `n` threads are: they
// then go on at nearly the same instant. The limit is a watchdog.
void arrive_and_wait(std::atomic<int>& arrived, int n)
{
    ++arrived;
    auto const deadline = std::chrono::steady_clock::now() + 30s;
    while (arrived.load() < n && std::chrono::steady_clock::now() < deadline)
        std::this_thread::yield();
}

// A child that must die by std::terminate saying `message`, where threads
// race to fail: the race goes wrong in only some runs, so `body` runs in up
// to `runs` children. Returns the first result that is not such an abort,
// or the last one.
template <class Body>
test::child_result abort_saying_in_every_run(Body const& body, char const* message, int runs = 25)
{
    test::child_result r;
    for (int i = 0; i < runs; ++i) {
        r = test::run_in_child(body);
        if (!r.aborted() || !r.says(message))
            break;
    }
    return r;
}

std::string message_of(std::exception_ptr const& error)
{
    try {
        std::rethrow_exception(error);
    } catch (std::exception const& e) {
        return e.what();
    } catch (...) {
        return "?";
    }
}

// Sets an environment variable for one scope.
class scoped_env {
public:
    scoped_env(char const* name, char const* value) : name_(name)
    {
        if (char const* old = std::getenv(name))
            old_ = old;
        ::setenv(name, value, 1);
    }
    ~scoped_env()
    {
        if (old_)
            ::setenv(name_, old_->c_str(), 1);
        else
            ::unsetenv(name_);
    }

private:
    char const* name_;
    std::optional<std::string> old_;
};

} // namespace

// --- Handlers that throw ----------------------------------------------------

// rayon-core's thread_pool::test::panic_thread_name: names are made on the
// constructing thread, so a thread_name that throws is the constructor's
// exception, and the workers already started are stopped first.
BOOST_AUTO_TEST_CASE_TEMPLATE(thread_name_that_throws_is_the_constructors_exception, Policy, test::api_policies)
{
    std::atomic<int> started{0}, exited{0};
    fj::pool_options options = test::threads(10);
    options.start_handler = [&](std::size_t) { ++started; };
    options.exit_handler = [&](std::size_t) { ++exited; };
    options.thread_name = [](std::size_t i) -> std::string {
        if (i >= 5)
            throw std::runtime_error("no name for worker " + std::to_string(i));
        return "named-" + std::to_string(i);
    };
    try {
        test::pool<Policy> pool(options);
        BOOST_FAIL("the pool was built");
    } catch (std::runtime_error const& e) {
        BOOST_TEST(std::string(e.what()) == "no name for worker 5");
    }
    // The constructor has stopped and joined workers 0 to 4 before throwing.
    BOOST_TEST(started.load() == 5);
    BOOST_TEST(exited.load() == 5);
}

// rayon-core's test::handler_panics_handled_correctly: an exception from
// start_handler or exit_handler goes to the panic handler.
BOOST_AUTO_TEST_CASE_TEMPLATE(handler_exceptions_go_to_the_panic_handler, Policy, test::api_policies)
{
    constexpr int n = 8;
    std::mutex m;
    std::vector<std::string> panics;
    fj::pool_options options = test::threads(n);
    options.start_handler = [](std::size_t) { throw std::runtime_error("start"); };
    options.exit_handler = [](std::size_t) { throw std::runtime_error("exit"); };
    options.panic_handler = [&](std::exception_ptr e) {
        std::lock_guard lock(m);
        panics.push_back(message_of(e));
    };
    {
        test::pool<Policy> pool(options);
        BOOST_TEST(eventually([&] {
            std::lock_guard lock(m);
            return panics.size() == n;
        }));
        // The workers went on to work after their start handler threw.
        BOOST_TEST(pool.install([] { return fj::join([] { return 1; }, [] { return 2; }).second; }) == 2);
    }
    BOOST_REQUIRE(panics.size() == 2 * n);
    BOOST_TEST(std::count(panics.begin(), panics.end(), "start") == n);
    BOOST_TEST(std::count(panics.begin(), panics.end(), "exit") == n);
}

// Every worker's start handler throws, and all at nearly the same moment
// (each waits until all have started): the first to fail terminates with
// its exception's message, which a second std::terminate at the same time
// would cut short (libstdc++ prints "terminate called recursively" and
// aborts halfway through the first one's report). Before the library let
// one failing thread at a time terminate, this lost the message in about
// one run in eight, and in one in 25 with two workers and no waiting.
BOOST_AUTO_TEST_CASE(handler_exception_without_panic_handler_terminates)
{
    char const* const message = "start handler failed";
    test::child_result const r = abort_saying_in_every_run([] {
        constexpr int n = 8;
        static std::atomic<int> in_handler{0};
        fj::pool_options options = test::threads(n);
        options.start_handler = [](std::size_t) {
            arrive_and_wait(in_handler, n);
            throw std::runtime_error("start handler failed");
        };
        fj::thread_pool pool(options);
        std::this_thread::sleep_for(30s);
    }, message);
    BOOST_TEST(r.aborted(), r);
    BOOST_TEST(r.says(message), r);
}

// The same for jobs spawned without a panic handler that fail together.
BOOST_AUTO_TEST_CASE(spawned_jobs_failing_together_without_panic_handler_terminate_with_a_message)
{
    char const* const message = "spawned job failed";
    test::child_result const r = abort_saying_in_every_run([] {
        constexpr int n = 8;
        static std::atomic<int> running{0};
        fj::thread_pool pool(test::threads(n));
        for (int i = 0; i < n; ++i)
            pool.spawn([] {
                arrive_and_wait(running, n);
                throw std::runtime_error("spawned job failed");
            });
        std::this_thread::sleep_for(30s);
    }, message);
    BOOST_TEST(r.aborted(), r);
    BOOST_TEST(r.says(message), r);
}

// A deadlock handler that throws must not unwind the scheduler: its
// exception goes to the panic handler. One worker blocks in user code; the
// other falls asleep, which makes the pool report the deadlock from the
// sleep path.
BOOST_AUTO_TEST_CASE_TEMPLATE(deadlock_handler_exception_goes_to_the_panic_handler, Policy,
                              test::blocking_policies)
{
    std::mutex m;
    std::condition_variable cv;
    bool released = false;
    std::atomic<int> panics{0};
    std::string panic_message;
    fj::pool_options options = test::threads(2);
    options.deadlock_handler = [&] {
        {
            std::lock_guard lock(m);
            released = true;
            cv.notify_all();
        }
        throw std::runtime_error("deadlock reported");
    };
    options.panic_handler = [&](std::exception_ptr e) {
        panic_message = message_of(e);
        ++panics;
    };
    test::pool<Policy> pool(options);
    bool const released_by_handler = pool.install([&] {
        fj::mark_blocked();
        std::unique_lock lock(m);
        bool const ok = cv.wait_for(lock, 30s, [&] { return released; });
        lock.unlock();
        fj::mark_unblocked();
        return ok;
    });
    BOOST_TEST(released_by_handler);
    BOOST_TEST(eventually([&] { return panics.load() >= 1; }));
    BOOST_TEST(panic_message == "deadlock reported");
    // The pool is intact.
    BOOST_TEST(pool.install([] { return fj::join([] { return 1; }, [] { return 2; }).first; }) == 1);
}

BOOST_AUTO_TEST_CASE(deadlock_handler_exception_without_panic_handler_terminates)
{
    test::child_result const r = test::run_in_child([] {
        fj::pool_options options = test::threads(2);
        options.deadlock_handler = [] { throw std::runtime_error("deadlock handler failed"); };
        fj::thread_pool pool(options);
        pool.install([] {
            fj::mark_blocked();
            std::this_thread::sleep_for(30s);
        });
    });
    BOOST_TEST(r.aborted(), r);
    BOOST_TEST(r.says("deadlock handler failed"), r);
}

// The deadlock handler runs inside the policy's sleep path, holding its
// locks (doc/sleep_policy.adoc): a handler that hands its news to the pool
// instead of to a thread outside it would wait for those locks for ever.
// It gets a clear error instead. Both ways in: a worker falling asleep and
// mark_blocked.
BOOST_AUTO_TEST_CASE_TEMPLATE(a_deadlock_handler_that_calls_back_into_the_pool_is_a_clear_error, Policy,
                              test::blocking_policies)
{
    for (bool const from_mark_blocked : {false, true}) {
        test::child_result const r = test::run_in_child(
            [from_mark_blocked] {
                test::pool<Policy>* pool = nullptr;
                fj::pool_options options = test::threads(2);
                options.deadlock_handler = [&pool] { pool->spawn([] {}); };
                // Falling asleep: the other worker still spins when the
                // first blocks. mark_blocked: it is asleep by then.
                if (!from_mark_blocked)
                    options.spin_limit = 100ms;
                test::pool<Policy> p(options);
                pool = &p;
                if (from_mark_blocked)
                    std::this_thread::sleep_for(100ms);
                p.install([] {
                    fj::mark_blocked();
                    std::this_thread::sleep_for(30s);
                });
            },
            10s);
        BOOST_TEST(r.aborted(), r);
        BOOST_TEST(r.says("deadlock_handler called back into the pool"), r);
    }
}

// --- Misuse of the deadlock accounting ---------------------------------------

BOOST_AUTO_TEST_CASE_TEMPLATE(unpaired_mark_unblocked_is_an_error, Policy, test::blocking_policies)
{
    std::atomic<int> reports{0};
    std::mutex m;
    std::condition_variable cv;
    bool released = false;
    fj::pool_options options = test::threads(1);
    options.deadlock_handler = [&] {
        ++reports;
        std::lock_guard lock(m);
        released = true;
        cv.notify_all();
    };
    test::pool<Policy> pool(options);
    BOOST_CHECK_THROW(pool.mark_unblocked(), std::logic_error);
    BOOST_CHECK_THROW(pool.install([] { fj::mark_unblocked(); }), std::logic_error);
    // The count did not underflow: a real deadlock is still reported.
    pool.install([&] {
        fj::mark_blocked();
        std::unique_lock lock(m);
        cv.wait_for(lock, 30s, [&] { return released; });
        lock.unlock();
        fj::mark_unblocked();
    });
    BOOST_TEST(reports.load() == 1);
}

// --- The thread count ---------------------------------------------------------

BOOST_AUTO_TEST_CASE(num_threads_from_the_environment_is_a_plain_positive_decimal)
{
    {
        scoped_env env("FORKJOIN_NUM_THREADS", "3");
        fj::thread_pool pool;
        BOOST_TEST(pool.num_threads() == 3u);
    }
    {
        scoped_env env("FORKJOIN_NUM_THREADS", "");
        fj::thread_pool pool;
        BOOST_TEST(pool.num_threads() == std::max(1u, std::thread::hardware_concurrency()));
    }
    for (char const* bad : {"-1", " 3", "3 ", "+3", "0", "03x", "3.0", "1e3", "not a number", "65536",
                            "18446744073709551616", "99999999999999999999999999"}) {
        scoped_env env("FORKJOIN_NUM_THREADS", bad);
        try {
            fj::thread_pool pool;
            BOOST_ERROR("FORKJOIN_NUM_THREADS=\"" << bad << "\" built a pool of " << pool.num_threads());
        } catch (std::invalid_argument const& e) {
            std::string const what = e.what();
            BOOST_TEST(what.find("FORKJOIN_NUM_THREADS") != std::string::npos, what);
            BOOST_TEST(what.find(std::string("\"") + bad + "\"") != std::string::npos, what);
        }
    }
    // An explicit count does not read the variable.
    scoped_env env("FORKJOIN_NUM_THREADS", "-1");
    fj::thread_pool pool(test::threads(2));
    BOOST_TEST(pool.num_threads() == 2u);
}

// 65,535 workers under a limit of 1,000 threads for the user (200 under
// the sanitizers, which make each thread's start and stop slow): the
// constructor stops at the first thread the OS refuses and throws, after
// stopping the ones it started. Run in a child under RLIMIT_NPROC, as a
// user the limit applies to (root is exempt).
BOOST_AUTO_TEST_CASE(thread_creation_failure_under_a_process_limit_is_reported)
{
    constexpr int thread_limit = BOOST_FORKJOIN_TEST_SANITIZED ? 200 : 1000;
    test::child_result const r = test::run_in_child([] {
        if (geteuid() == 0) {
            test::child_require(setgid(65534) == 0 && setuid(65534) == 0, "drop root for RLIMIT_NPROC");
        }
        rlimit const limit{thread_limit, thread_limit};
        test::child_require(setrlimit(RLIMIT_NPROC, &limit) == 0, "setrlimit(RLIMIT_NPROC)");
        std::atomic<int> started{0}, exited{0};
        fj::pool_options options = test::threads(65535);
        options.start_handler = [&](std::size_t) { ++started; };
        options.exit_handler = [&](std::size_t) { ++exited; };
        auto const t0 = std::chrono::steady_clock::now();
        try {
            fj::thread_pool pool(options);
            test::child_require(false, "a pool of 65535 threads was built under the thread limit");
        } catch (std::system_error const& e) {
            auto const ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                std::chrono::steady_clock::now() - t0);
            std::printf("failed as expected after %d workers, in %lld ms: %s\n", started.load(),
                        static_cast<long long>(ms.count()), e.what());
        }
        // (Fewer if the user runs other processes.)
        test::child_require(started.load() < thread_limit, "started count");
        test::child_require(started.load() == exited.load(), "every started worker was stopped");
    });
    BOOST_TEST(r.succeeded(), r);
    BOOST_TEST_MESSAGE(r.output);
}

// --- Pools destroyed where they must not be -------------------------------------

BOOST_AUTO_TEST_CASE(pool_destroyed_on_its_own_worker_says_so)
{
    test::child_result const r = test::run_in_child([] {
        auto* pool = new fj::thread_pool(test::threads(2));
        pool->spawn([pool] { delete pool; });
        std::this_thread::sleep_for(30s);
    });
    BOOST_TEST(r.aborted(), r);
    BOOST_TEST(r.says("destroyed on one of its own workers"), r);
}

// --- Pools destroyed on another pool's worker ------------------------------------
//
// A pool's destructor on a worker of another pool waits as any cross-pool
// wait does (install, in_place_scope, broadcast): the waiting worker keeps
// running its own pool's jobs, or, on a fiber, parks. A job still left in
// the pool being destroyed may need one of them. (Found by review: the
// destructor blocked the worker on a condition variable, and these hung.)

// The review's case: `a` has one thread, which destroys `b` while b's job
// waits for an install into `a` that only that thread can run.
BOOST_AUTO_TEST_CASE_TEMPLATE(pool_destroyed_on_another_pools_worker_runs_that_pools_jobs, Policy,
                              test::api_policies)
{
    test::runs_without_hanging([] {
        test::pool<Policy> a(test::threads(1));
        std::atomic<int> ran{0};
        a.install([&] {
            test::pool<Policy> b(test::threads(1));
            b.spawn([&] { a.install([&] { ++ran; }); });
        }); // ~b on a's only worker
        test::child_require(ran.load() == 1, "the install into a ran");
    });
}

// With two threads, each destroys a pool whose job needs `a`: neither can
// count on the other to run it.
BOOST_AUTO_TEST_CASE_TEMPLATE(pools_destroyed_on_each_of_another_pools_workers_run_its_jobs, Policy,
                              test::api_policies)
{
    test::runs_without_hanging([] {
        test::pool<Policy> a(test::threads(2));
        std::atomic<int> ran{0};
        a.broadcast([&](fj::broadcast_context) {
            test::pool<Policy> b(test::threads(1));
            b.spawn([&] { a.install([&] { ++ran; }); });
        }); // a ~b on each of a's workers
        test::child_require(ran.load() == 2, "both installs into a ran");
    });
}

// On a fiber (a spawn_future task) the destructor parks the fiber, and the
// pool's last worker to leave unparks it.
BOOST_AUTO_TEST_CASE_TEMPLATE(pool_destroyed_on_another_pools_fiber_parks_it, Policy, test::api_policies)
{
    test::runs_without_hanging([] {
        test::pool<Policy> a(test::threads(1));
        std::atomic<int> ran{0};
        fj::future<int> f = a.spawn_future([&] {
            test::pool<Policy> b(test::threads(1));
            b.spawn([&] { a.install([&] { ++ran; }); });
            return 7;
        }); // ~b on the fiber, on a's only worker
        test::child_require(f.get() == 7, "the task's result");
        test::child_require(ran.load() == 1, "the install into a ran");
    });
}

// Idle pools, in a loop: their workers may all have left before the
// destructor looks (nothing to wait for) or not, on a worker and on a fiber.
BOOST_AUTO_TEST_CASE_TEMPLATE(idle_pools_destroyed_on_another_pools_worker, Policy, test::api_policies)
{
    test::runs_without_hanging([] {
        test::pool<Policy> a(test::threads(2));
        auto drop_pools = [] {
            for (int i = 0; i < 50; ++i) {
                test::pool<Policy> b(test::threads(1 + i % 2));
                if (i % 3 == 0)
                    b.spawn([] {});
            }
            return 1;
        };
        a.install(drop_pools);
        test::child_require(a.spawn_future(drop_pools).get() == 1, "on a fiber");
    });
}

// --- fork() ----------------------------------------------------------------------

// In a child forked while pools run, those pools have no threads: using
// them is a clear error, destroying them does not join, and the child exits
// normally through the global pool's exit handler.
BOOST_AUTO_TEST_CASE_TEMPLATE(a_forked_child_cannot_use_the_parents_pools, Policy, test::api_policies)
{
    test::child_result const r = test::run_in_child([] {
        auto pool = std::make_unique<test::pool<Policy>>(test::threads(2));
        pool->install([] { fj::join([] {}, [] {}); });
        fj::join([] {}, [] {}); // builds the global pool
        std::this_thread::sleep_for(50ms); // the workers fall asleep
        test::child_result const child = test::run_in_child([&] {
            test::child_require(test::refused_after_fork([&] { pool->install([] {}); }), "install in the child");
            test::child_require(test::refused_after_fork([&] { pool->spawn([] {}); }), "spawn in the child");
            test::child_require(test::refused_after_fork([&] { pool->broadcast([](fj::broadcast_context) {}); }),
                                "broadcast in the child");
            test::child_require(test::refused_after_fork([] { fj::join([] {}, [] {}); }), "join in the child");
            test::child_require(test::refused_after_fork([] { fj::spawn([] {}); }), "free spawn in the child");
            test::child_require(test::refused_after_fork([] { fj::in_place_scope([](fj::lifo_scope& s) { s.spawn([] {}); }); }),
                                "in_place_scope in the child");
            pool.reset(); // must not join threads that do not exist here
            std::exit(0); // nor may the global pool's exit handler
        });
        test::child_require(!child.timed_out, "the forked child hung");
        if (!child.succeeded())
            std::fprintf(stderr, "%s\n", child.output.c_str());
        test::child_require(child.succeeded(), "the forked child failed");
        pool->install([] { fj::join([] {}, [] {}); }); // the parent's pool is fine
    });
    BOOST_TEST(r.succeeded(), r);
}

BOOST_AUTO_TEST_CASE(a_forked_child_that_ignores_the_pool_exits_cleanly)
{
    test::child_result const r = test::run_in_child([] {
        fj::join([] {}, [] {}); // builds the global pool
        std::this_thread::sleep_for(50ms);
        test::child_result const child = test::run_in_child([] { std::exit(0); });
        if (!child.succeeded())
            std::fprintf(stderr, "%s\n", child.output.c_str());
        test::child_require(child.succeeded(), "the forked child did not exit cleanly");
        std::exit(0);
    });
    BOOST_TEST(r.succeeded(), r);
}

#if !BOOST_FORKJOIN_TEST_SANITIZED
// A job that calls fork(): the child has the job's thread only, and none
// of the pool's others. A child that returns from the job into the pool,
// or waits for the pool, must end at once with the documented message
// (reference.adoc, "Pools and fork()"), and run none of the parent's jobs
// nor touch the parent's locks. Each case runs in a child of the test (the
// parent), whose job forks the grandchild; the grandchild's stderr goes to
// a file, and the parent waits for it under a watchdog.
namespace {
struct forked_in_a_job {
    pid_t const parent = getpid();
    std::string const log = "/tmp/forkjoin-forked-in-a-job-" + std::to_string(getpid()) + ".log";
    std::atomic<pid_t> grandchild{0};

    // In the job: forks; the grandchild, its stderr sent to the log,
    // returns (from this function, and so from the job); the parent too.
    void fork_and_return()
    {
        std::fflush(nullptr);
        pid_t const pid = fork();
        if (pid == 0) {
            int const fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
            dup2(fd, STDERR_FILENO);
            close(fd);
            return;
        }
        grandchild = pid;
    }

    // Where only the grandchild must never get: says so in the log, exits.
    void never_in_the_grandchild(char const* what) const
    {
        if (getpid() != parent) {
            std::fprintf(stderr, "in the grandchild: %s\n", what);
            std::fflush(stderr);
            std::_Exit(3);
        }
    }

    // In the parent: waits for the grandchild (a watchdog, not a timing
    // check) and requires that it was aborted with `message`.
    void require_terminated_with(char const* message) const
    {
        while (grandchild.load() == 0)
            std::this_thread::sleep_for(1ms);
        int status = 0;
        bool reaped = false;
        for (auto const deadline = std::chrono::steady_clock::now() + 30s;
             !reaped && std::chrono::steady_clock::now() < deadline;)
            if (!(reaped = waitpid(grandchild, &status, WNOHANG) == grandchild))
                std::this_thread::sleep_for(5ms);
        if (!reaped) {
            kill(grandchild, SIGKILL);
            waitpid(grandchild, &status, 0);
        }
        std::string output;
        if (std::FILE* const f = std::fopen(log.c_str(), "r")) {
            for (int c; (c = std::fgetc(f)) != EOF;)
                output += static_cast<char>(c);
            std::fclose(f);
        }
        std::remove(log.c_str());
        std::fprintf(stderr, "grandchild's output:\n%s\n", output.c_str());
        test::child_require(reaped, "the grandchild hung");
        test::child_require(output.find("in the grandchild") == std::string::npos,
                            "the grandchild went on with the parent's work");
        test::child_require(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT, "the grandchild was not aborted");
        test::child_require(output.find(message) != std::string::npos, "the grandchild did not say why");
    }
};
} // namespace

// The job returns into a worker's loop (spawned) or sets the latch of an
// install from outside (injected), with another job of the parent's on
// the worker's deque. The loop used to look for fork() only on entering a
// wait: the child ran the parent's job, then slept in the policy for ever.
BOOST_AUTO_TEST_CASE_TEMPLATE(a_child_forked_in_a_job_that_returns_into_the_pool_terminates, Policy,
                              test::api_policies)
{
    for (bool const installed : {false, true}) {
        test::child_result const r = test::run_in_child([installed] {
            forked_in_a_job f;
            {
                test::pool<Policy> pool(test::threads(1));
                auto const job = [&f] {
                    fj::spawn([&f] { f.never_in_the_grandchild("ran a job of the parent's"); });
                    f.fork_and_return();
                };
                if (installed)
                    pool.install(job);
                else
                    pool.spawn(job);
                f.require_terminated_with("returned from it into the pool");
            }
            std::exit(0);
        });
        BOOST_TEST(r.succeeded(), (installed ? "install: " : "spawn: ") << r);
    }
}

// The same in the job of a caller slot's holder: the child returned from
// install as if nothing had happened, giving the place back through the
// sleep policy's locks, copied from the parent.
BOOST_AUTO_TEST_CASE_TEMPLATE(a_child_forked_by_a_caller_slot_holder_terminates_when_it_returns, Policy,
                              test::api_policies)
{
    test::child_result const r = test::run_in_child([] {
        forked_in_a_job f;
        {
            fj::pool_options options = test::threads(2);
            options.caller_slot = true;
            test::pool<Policy> pool(options);
            pool.install([&f] {
                test::child_require(fj::current_thread_index() == std::optional<std::size_t>(0), "not the holder");
                fj::spawn([] {}); // on worker 0's deque, handed over when the place is given back
                f.fork_and_return();
            });
            f.never_in_the_grandchild("install returned");
            f.require_terminated_with("returned from it into the pool");
        }
        std::exit(0);
    });
    BOOST_TEST(r.succeeded(), r);
}

// A child that waits for work of the pool: a scope's job that nobody can
// run there.
BOOST_AUTO_TEST_CASE(a_child_forked_in_a_job_that_waits_for_the_pool_terminates)
{
    test::child_result const r = test::run_in_child([] {
        forked_in_a_job f;
        {
            fj::thread_pool pool(test::threads(1));
            pool.install([&f] {
                fj::scope([&f](fj::lifo_scope& s) {
                    s.spawn([&f] { f.never_in_the_grandchild("ran a job of the parent's"); });
                    f.fork_and_return();
                });
            });
            f.never_in_the_grandchild("the scope returned");
            f.require_terminated_with("went on waiting for work of the pool");
        }
        std::exit(0);
    });
    BOOST_TEST(r.succeeded(), r);
}

// The C library's atexit, with a delay that a test arms: it makes a fork()
// land, deterministically, while the global pool registers its exit
// handler. Unarmed, it does what glibc's does (a handler of the main
// program, which is never unloaded, needs no DSO handle). Left out of the sanitized
// builds, whose runtimes intercept atexit themselves.
extern "C" int __cxa_atexit(void (*)(void*), void*, void*);
namespace {
std::atomic<bool> atexit_delay_armed{false};
std::atomic<bool> in_delayed_atexit{false};
} // namespace
extern "C" int atexit(void (*handler)()) noexcept
{
    if (atexit_delay_armed.exchange(false)) {
        in_delayed_atexit = true;
        std::this_thread::sleep_for(300ms);
    }
    return __cxa_atexit(reinterpret_cast<void (*)(void*)>(handler), nullptr, nullptr);
}

// A child forked while another thread registered the global pool's exit
// handler builds a global pool of its own: the registration is not a static
// local, whose guard would stay taken in the child for ever.
BOOST_AUTO_TEST_CASE(a_child_forked_while_the_global_pool_registers_its_exit_handler_builds_its_own)
{
    test::child_result const r = test::run_in_child([] {
        atexit_delay_armed = true;
        std::thread forker([] {
            while (!in_delayed_atexit.load())
                std::this_thread::yield();
            test::child_result const child = test::run_in_child(
                [] {
                    test::child_require(fj::global_pool().install([] { return 7; }) == 7, "install in the child");
                    std::exit(0); // through the child's own exit handler
                },
                20s);
            if (!child.succeeded())
                std::fprintf(stderr, "%s\n", child.output.c_str());
            test::child_require(!child.timed_out, "the child hung building its global pool");
            test::child_require(child.succeeded(), "the child failed");
        });
        fj::build_global(test::threads(2));
        forker.join();
        std::exit(0);
    });
    BOOST_TEST(r.succeeded(), r);
}
#endif

// The global pool's thread_name and spawn_handler run while the pool is
// built, under its lock: using the global pool there is a clear error, not
// a wait for ever, and the pool can still be built afterwards.
BOOST_AUTO_TEST_CASE(the_global_pool_used_while_it_is_built_is_a_clear_error)
{
    test::child_result const r = test::run_in_child(
        [] {
            fj::pool_options naming = test::threads(2);
            naming.thread_name = [](std::size_t) { return "w" + std::to_string(fj::global_pool().num_threads()); };
            bool refused = false;
            try {
                fj::build_global(naming);
            } catch (std::logic_error const& e) {
                refused = std::string(e.what()).find("while it was being built") != std::string::npos;
            }
            test::child_require(refused, "thread_name");
            fj::pool_options spawning = test::threads(2);
            spawning.spawn_handler = [](fj::thread_builder builder) {
                fj::join([] {}, [] {});
                std::thread([b = std::move(builder)]() mutable { b.run(); }).detach();
            };
            refused = false;
            try {
                fj::build_global(std::move(spawning));
            } catch (std::logic_error const&) {
                refused = true;
            }
            test::child_require(refused, "spawn_handler");
            test::child_require(fj::global_pool().install([] { return 7; }) == 7, "the global pool afterwards");
            std::exit(0);
        },
        20s);
    BOOST_TEST(r.succeeded(), r);
}

// The global pool's start_handler and exit_handler run on its workers, and
// may use the global pool: a start_handler waits until the build publishes
// it. A build that fails stops the workers while the builder still holds
// the global pool's lock, so there the handler's global_pool() throws
// pool_terminated (to the panic handler, here) instead of waiting for the
// lock for ever (the build hung before), and build_global throws the
// build's own error.
BOOST_AUTO_TEST_CASE(the_global_pool_used_by_its_handlers_while_its_build_fails_is_a_clear_error)
{
    test::child_result const r = test::run_in_child(
        [] {
            static std::atomic<int> refused{0}, used{0};
            fj::pool_options failing = test::threads(2);
            static std::atomic<int> second_builds{0};
            auto const use_global_pool = [](std::size_t) {
                try {
                    fj::build_global(test::threads(1)); // a second global pool: refused, even now
                } catch (fj::global_pool_already_initialized const&) {
                    ++second_builds;
                }
                (void)fj::global_pool().num_threads();
                ++used;
            };
            failing.start_handler = use_global_pool;
            failing.exit_handler = use_global_pool;
            failing.panic_handler = [](std::exception_ptr e) {
                try {
                    std::rethrow_exception(e);
                } catch (fj::pool_terminated const&) {
                    ++refused;
                } catch (...) {
                }
            };
            failing.thread_name = [](std::size_t i) -> std::string {
                if (i == 1)
                    throw std::runtime_error("no name for worker 1");
                return "w0";
            };
            bool build_error = false;
            try {
                fj::build_global(failing);
            } catch (std::runtime_error const& e) {
                build_error = std::string(e.what()) == "no name for worker 1";
            }
            test::child_require(build_error, "build_global threw the build's error");
            test::child_require(refused.load() == 2 && used.load() == 0, "both handlers were refused");
            test::child_require(second_builds.load() == 2, "build_global in the handlers");
            // A build that succeeds: the start handlers see the pool.
            fj::pool_options working = test::threads(2);
            working.start_handler = use_global_pool;
            fj::build_global(working);
            test::child_require(fj::global_pool().install([] { return 7; }) == 7, "the global pool afterwards");
            test::child_require(eventually([] { return used.load() == 2 && second_builds.load() == 4; }),
                                "both start handlers used it");
            std::exit(0);
        },
        20s);
    BOOST_TEST(r.succeeded(), r);
}

// --- The global pool at exit ----------------------------------------------------

// Work submitted to the global pool after its exit handler ran is a clear
// error, not silently dropped, and no second global pool is built. The
// checking handler is registered before the pool exists, so it runs after
// the pool's handler.
BOOST_AUTO_TEST_CASE(global_pool_after_its_exit_handler_is_a_clear_error)
{
    test::child_result const r = test::run_in_child([] {
        static fj::thread_pool* pool_at_exit = nullptr;
        std::atexit([] {
            try {
                fj::spawn([] {});
                std::printf("a job was accepted after the global pool shut down\n");
                std::fflush(stdout);
                std::_Exit(1);
            } catch (fj::pool_terminated const& e) {
                std::printf("%s\n", e.what());
            }
            try {
                fj::join([] {}, [] {});
                std::_Exit(1);
            } catch (fj::pool_terminated const&) {
            }
            std::fflush(stdout);
            std::_Exit(&fj::global_pool() == pool_at_exit ? 0 : 3);
        });
        pool_at_exit = &fj::global_pool();
        std::exit(0);
    });
    BOOST_TEST(r.succeeded(), r);
    BOOST_TEST(r.says("global pool"), r);
}

// A thread outside every pool that is still using the global pool when the
// process exits: the exit handler waits for the work it has in flight (a
// join, a scope), and its next use is a clear error.
BOOST_AUTO_TEST_CASE(global_pool_exit_waits_for_outside_threads_then_refuses_them)
{
    test::child_result const r = test::run_in_child([] {
        static std::atomic<int> scope_jobs_done{0};
        static std::atomic<bool> refused{false};
        static std::atomic<bool> in_scope{false};
        test::end_at_exit_by([] {
            int const done = scope_jobs_done.load();
            bool const saw_refusal = eventually([] { return refused.load(); });
            std::printf("scope jobs done at exit: %d, refused afterwards: %d\n", done, int(saw_refusal));
            return done == 8 && saw_refusal;
        });
        fj::global_pool();
        std::thread([] {
            fj::in_place_scope([](fj::lifo_scope& s) {
                in_scope = true;
                for (int i = 0; i < 8; ++i)
                    s.spawn([] {
                        std::this_thread::sleep_for(100ms);
                        ++scope_jobs_done;
                    });
            });
            try {
                for (;;)
                    fj::join([] { std::this_thread::sleep_for(1ms); }, [] {});
            } catch (fj::pool_terminated const&) {
                refused = true;
            }
        }).detach();
        test::child_require(eventually([] { return in_scope.load(); }), "the scope started");
        std::exit(0);
    });
    BOOST_TEST(r.succeeded(), r);
}

// std::exit called inside the body of an in_place_scope, on a thread outside
// the pool: the body never returns, so the scope's hold on the pool's
// workers is never given back by it. The global pool's exit handler, on
// this same thread, ends the scope instead: it waits for the jobs the body
// spawned (they are not lost), then lets the workers go. The check runs
// after that handler (registered before the pool exists).
BOOST_AUTO_TEST_CASE(exit_inside_an_in_place_scope_runs_its_jobs_and_exits)
{
    test::child_result const r = test::run_in_child(
        [] {
            static std::atomic<int> jobs_done{0};
            test::end_at_exit_by([] {
                std::printf("in-place scope jobs done at exit: %d of 8\n", jobs_done.load());
                return jobs_done.load() == 8;
            });
            fj::in_place_scope([](fj::lifo_scope& s) {
                for (int i = 0; i < 8; ++i)
                    s.spawn([] {
                        std::this_thread::sleep_for(20ms);
                        ++jobs_done;
                    });
                std::exit(0);
            });
        },
        20s);
    BOOST_TEST(r.succeeded(), r);
    BOOST_TEST(r.says("8 of 8"), r);
}

// The same for pools with static storage, whose destructors run at exit on
// the exiting thread, with in_place_scopes nested across two pools:
// each pool's destructor ends its own scope under the body, and
// the jobs of both run.
BOOST_AUTO_TEST_CASE_TEMPLATE(exit_inside_nested_in_place_scopes_of_static_pools, Policy, test::api_policies)
{
    test::child_result const r = test::run_in_child(
        [] {
            static std::atomic<int> jobs_done{0};
            test::end_at_exit_by([] {
                std::printf("jobs done at exit: %d of 6\n", jobs_done.load());
                return jobs_done.load() == 6;
            });
            static test::pool<Policy> outer(test::threads(2));
            static fj::thread_pool inner(test::threads(1));
            auto spawn_three = [](auto& s) {
                for (int i = 0; i < 3; ++i)
                    s.spawn([] {
                        std::this_thread::sleep_for(20ms);
                        ++jobs_done;
                    });
            };
            outer.in_place_scope([&](fj::lifo_scope& s) {
                spawn_three(s);
                inner.in_place_scope([&](fj::lifo_scope& t) {
                    spawn_three(t);
                    std::exit(0);
                });
            });
        },
        20s);
    BOOST_TEST(r.succeeded(), r);
    BOOST_TEST(r.says("6 of 6"), r);
}

// Only the scopes under the exiting body are ended early: another thread's
// in_place_scope, whose body is still running, is waited for as before.
BOOST_AUTO_TEST_CASE(exit_inside_an_in_place_scope_still_waits_for_other_threads_scopes)
{
    test::child_result const r = test::run_in_child(
        [] {
            static std::atomic<bool> other_body_returned{false};
            static std::atomic<bool> other_in_scope{false};
            test::end_at_exit_by([] {
                std::printf("the other thread's scope body returned before exit: %d\n",
                            int(other_body_returned.load()));
                return other_body_returned.load();
            });
            fj::global_pool();
            std::thread([] {
                fj::in_place_scope([](fj::lifo_scope&) {
                    other_in_scope = true;
                    std::this_thread::sleep_for(200ms);
                    other_body_returned = true;
                });
                for (;;)
                    std::this_thread::sleep_for(1s); // keeps the thread alive through the exit
            }).detach();
            test::child_require(eventually([] { return other_in_scope.load(); }), "the other scope started");
            fj::in_place_scope([](fj::lifo_scope& s) {
                s.spawn([] {});
                std::exit(0);
            });
        },
        20s);
    BOOST_TEST(r.succeeded(), r);
}

// std::exit while a task of the global pool is parked on a promise on
// main's stack, which exit never unwinds: nothing in the process can fulfil
// or destroy that promise any more, so the exit handler does not wait for
// the task, as it does not wait for Asio's work guards. What is queued
// still runs, and so does a parked task that a queued job wakes: its
// waker holds the pool until the task is queued again.
BOOST_AUTO_TEST_CASE(exit_with_a_task_parked_on_a_promise_on_mains_stack_exits)
{
    test::child_result const r = test::run_in_child(
        [] {
            static std::atomic<int> jobs_done{0};
            static std::atomic<bool> parked_for_ever{false};
            static std::atomic<bool> woken_task_done{false};
            test::end_at_exit_by([] {
                std::printf("jobs done at exit: %d of 4; the task a job woke finished: %d\n", jobs_done.load(),
                            int(woken_task_done.load()));
                return jobs_done.load() == 4 && woken_task_done.load();
            });
            fj::promise<int> never;
            fj::future<int> forgotten = fj::global_pool().spawn_future([f = never.get_future()]() mutable {
                parked_for_ever = true;
                return fj::await(f);
            });
            fj::promise<int> by_a_job;
            fj::future<int> woken = fj::global_pool().spawn_future([f = by_a_job.get_future()]() mutable {
                int const value = fj::await(f);
                woken_task_done = true;
                return value;
            });
            fj::spawn([p = std::move(by_a_job)]() mutable {
                std::this_thread::sleep_for(100ms);
                p.set_value(1);
            });
            for (int i = 0; i < 4; ++i)
                fj::spawn([] {
                    std::this_thread::sleep_for(20ms);
                    ++jobs_done;
                });
            test::child_require(eventually([] { return parked_for_ever.load(); }), "the task started");
            std::this_thread::sleep_for(10ms); // into its await
            std::exit(0);
        },
        20s);
    BOOST_TEST(r.succeeded(), r);
    BOOST_TEST(r.says("4 of 4; the task a job woke finished: 1"), r);
}

// --- spawn_handler: the user creates the worker threads --------------------------

namespace {
thread_local int thread_tag = 0;
} // namespace

// rayon-core's test::cleared_current_thread: each worker runs on a thread
// the handler made, and is no worker any more once run() has returned.
BOOST_AUTO_TEST_CASE_TEMPLATE(spawn_handler_creates_every_worker, Policy, test::api_policies)
{
    constexpr std::size_t n = 5;
    std::vector<std::thread> threads;
    std::vector<std::size_t> indexes;
    std::atomic<int> returned{0}, still_a_worker_after_run{0};
    fj::pool_options options = test::threads(n);
    options.stack_size = 1 << 20;
    options.thread_name = [](std::size_t i) { return "mine-" + std::to_string(i); };
    options.spawn_handler = [&](fj::thread_builder worker) {
        BOOST_TEST(worker.name() == "mine-" + std::to_string(worker.index()));
        BOOST_TEST(worker.stack_size() == std::size_t{1} << 20);
        indexes.push_back(worker.index());
        threads.emplace_back([&, w = std::move(worker)]() mutable {
            w.run();
            if (fj::current_thread_index())
                ++still_a_worker_after_run;
            ++returned;
        });
    };
    {
        test::pool<Policy> pool(options);
        BOOST_TEST(threads.size() == n);
        BOOST_TEST(indexes == (std::vector<std::size_t>{0, 1, 2, 3, 4}));
        BOOST_TEST(pool.install([] { return fj::current_thread_index().has_value(); }));
        auto const seen = pool.broadcast([](fj::broadcast_context c) { return c.index(); });
        BOOST_TEST(seen.size() == n);
    }
    for (auto& t : threads)
        t.join();
    BOOST_TEST(returned.load() == int(n));
    BOOST_TEST(still_a_worker_after_run.load() == 0);
}

// rayon-core's tests/scoped_threadpool.rs (spawn_scoped_tls_threadpool,
// build_scoped_tls_threadpool and missing_scoped_tls): the handler sets up per-thread state before run().
BOOST_AUTO_TEST_CASE_TEMPLATE(spawn_handler_sets_up_thread_local_state, Policy, test::api_policies)
{
    std::vector<std::thread> threads;
    fj::pool_options options = test::threads(3);
    options.spawn_handler = [&](fj::thread_builder worker) {
        threads.emplace_back([w = std::move(worker)]() mutable {
            thread_tag = 42;
            w.run();
        });
    };
    {
        test::pool<Policy> tagged(options);
        thread_tag = -1; // ours does not leak into the pool
        BOOST_TEST(tagged.install([] { return thread_tag; }) == 42);
        auto const tags = tagged.broadcast([](fj::broadcast_context) { return thread_tag; });
        BOOST_TEST(std::count(tags.begin(), tags.end(), 42) == 3);
        test::pool<Policy> plain(test::threads(2));
        BOOST_TEST(plain.install([] { return thread_tag; }) == 0);
        thread_tag = 0;
    }
    for (auto& t : threads)
        t.join();
}

// A handler that fails is the constructor's exception; it is not called
// again after the failure, and the workers it had started are stopped.
BOOST_AUTO_TEST_CASE_TEMPLATE(spawn_handler_failure_is_the_constructors_exception, Policy, test::api_policies)
{
    std::vector<std::thread> threads;
    int calls = 0;
    std::atomic<int> started{0}, exited{0};
    fj::pool_options options = test::threads(1000);
    options.start_handler = [&](std::size_t) { ++started; };
    options.exit_handler = [&](std::size_t) { ++exited; };
    options.spawn_handler = [&](fj::thread_builder worker) {
        if (++calls == 8)
            throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again), "no thread");
        threads.emplace_back([w = std::move(worker)]() mutable { w.run(); });
    };
    BOOST_CHECK_EXCEPTION(test::pool<Policy>{options}, std::system_error,
                          [](std::system_error const& e) { return e.code() == std::errc::resource_unavailable_try_again; });
    BOOST_TEST(calls == 8);
    // The constructor waited for the 7 workers to leave run().
    BOOST_TEST(started.load() == 7);
    BOOST_TEST(exited.load() == 7);
    for (auto& t : threads)
        t.join();
}

// rayon-core's thread_pool::test::failed_thread_stack: a stack the OS
// refuses is the constructor's std::system_error.
BOOST_AUTO_TEST_CASE(failed_thread_stack_is_reported)
{
    std::atomic<int> started{0}, exited{0};
    fj::pool_options options = test::threads(10);
    options.stack_size = static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max());
    options.start_handler = [&](std::size_t) { ++started; };
    options.exit_handler = [&](std::size_t) { ++exited; };
    BOOST_CHECK_THROW(fj::thread_pool pool(options), std::system_error);
    BOOST_TEST(started.load() <= 1);
    BOOST_TEST(started.load() == exited.load());
}

namespace {
// 32 frames of 1 MiB each. Every page of a frame is written from its top
// down, as a stack probe would, so that an overflow hits the guard page
// below the stack instead of jumping over it into other memory.
[[gnu::noinline]] int use_stack(int depth)
{
    constexpr std::size_t frame = std::size_t{1} << 20;
    volatile char buffer[frame];
    for (std::size_t i = frame; i >= 4096; i -= 4096)
        buffer[i - 1] = static_cast<char>(depth);
    buffer[0] = static_cast<char>(depth);
    int const below = depth > 0 ? use_stack(depth - 1) : 0;
    return below + buffer[0]; // used after the call: no tail call
}
} // namespace

// rayon-core's tests/stack_overflow_crash.rs: stack_size is the workers'
// stack. 32 MiB of frames overflow an 8 MiB stack (the process dies, it
// does not hang or go on with corrupted memory) and fit in 48 MiB.
BOOST_AUTO_TEST_CASE(stack_overflow_crash)
{
    auto run_with_stack = [](std::size_t mebibytes) {
        return test::run_in_child([mebibytes] {
            rlimit no_core{0, 0};
            setrlimit(RLIMIT_CORE, &no_core);
            fj::pool_options options = test::threads(2);
            options.stack_size = mebibytes << 20;
            fj::thread_pool pool(options);
            test::child_require(pool.install([] { return use_stack(31); }) >= 0, "the recursion ran");
        });
    };
    test::child_result const overflow = run_with_stack(8);
    BOOST_TEST(!overflow.timed_out, overflow);
    BOOST_TEST(!overflow.succeeded(), overflow);
    test::child_result const fits = run_with_stack(48);
    BOOST_TEST(fits.succeeded(), fits);
}

// The handler may keep the builders and run them later, on threads it makes
// once the pool exists (a thread pool of its own, say).
BOOST_AUTO_TEST_CASE_TEMPLATE(spawn_handler_may_run_workers_later, Policy, test::api_policies)
{
    std::vector<fj::thread_builder> parked;
    fj::pool_options options = test::threads(3);
    options.spawn_handler = [&](fj::thread_builder worker) { parked.push_back(std::move(worker)); };
    std::vector<std::thread> threads;
    {
        test::pool<Policy> pool(options);
        BOOST_TEST(parked.size() == 3u);
        std::atomic<int> ran{0};
        pool.spawn([&] { ++ran; }); // waits in the injector for a worker
        for (auto& b : parked)
            threads.emplace_back([&b] { b.run(); });
        auto const seen = pool.broadcast([](fj::broadcast_context c) { return c.index(); });
        BOOST_TEST(seen == (std::vector<std::size_t>{0, 1, 2}));
        BOOST_TEST(eventually([&] { return ran.load() == 1; }));
    }
    for (auto& t : threads)
        t.join();
    for (auto& b : parked)
        BOOST_TEST(!b.valid());
}

namespace {
// A policy that counts the idle periods its workers begin: a worker begins
// one when it first looks for work.
template <class Policy>
struct counting_idle_periods : Policy {
    using Policy::Policy;
    static inline std::atomic<int> begun{0};
    typename Policy::idle_state start_looking(std::size_t index)
    {
        ++begun;
        return Policy::start_looking(index);
    }
};
} // namespace

// No worker looks for work before every worker has been handed out
// (design.adoc, "the start gate"): here the first workers run at once and
// the last one is handed out slowly. The gate held only one worker when
// it was a latch for one waiter.
BOOST_AUTO_TEST_CASE_TEMPLATE(workers_wait_at_the_start_gate_until_every_worker_is_out, Policy,
                              test::blocking_policies)
{
    using counting = counting_idle_periods<Policy>;
    constexpr std::size_t n = 4;
    counting::begun = 0;
    std::vector<std::thread> threads;
    int begun_before_the_last_was_out = -1;
    fj::pool_options options = test::threads(n);
    options.spawn_handler = [&](fj::thread_builder worker) {
        std::size_t const index = worker.index();
        threads.emplace_back([w = std::move(worker)]() mutable { w.run(); });
        if (index == n - 1) {
            std::this_thread::sleep_for(50ms); // time enough for the others to start looking
            begun_before_the_last_was_out = counting::begun.load();
        }
    };
    {
        fj::basic_thread_pool<counting> pool(options);
        BOOST_TEST(begun_before_the_last_was_out == 0);
        BOOST_TEST(pool.install([] { return 1; }) == 1);
    }
    for (auto& t : threads)
        t.join();
}

BOOST_AUTO_TEST_CASE_TEMPLATE(spawn_handler_misuse_is_a_clear_error, Policy, test::api_policies)
{
    // Drops the builder: the pool would be a worker short.
    fj::pool_options dropping = test::threads(2);
    dropping.spawn_handler = [](fj::thread_builder) {};
    BOOST_CHECK_EXCEPTION(test::pool<Policy>{dropping}, std::logic_error, [](std::logic_error const& e) {
        return std::string(e.what()).find("without run()") != std::string::npos;
    });

    // Runs the worker on the constructing thread: it would never return.
    fj::pool_options running_here = test::threads(2);
    running_here.spawn_handler = [](fj::thread_builder worker) { worker.run(); };
    BOOST_CHECK_EXCEPTION(test::pool<Policy>{running_here}, std::logic_error, [](std::logic_error const& e) {
        return std::string(e.what()).find("building the pool") != std::string::npos;
    });

    // Runs the worker on a thread that is a worker already; the builder is
    // left as it was, and runs fine elsewhere.
    std::vector<fj::thread_builder> parked;
    fj::pool_options keeping = test::threads(1);
    keeping.spawn_handler = [&](fj::thread_builder worker) { parked.push_back(std::move(worker)); };
    std::thread runner;
    {
        test::pool<Policy> pool(keeping);
        test::pool<Policy> other(test::threads(1));
        BOOST_CHECK_THROW(other.install([&] { parked[0].run(); }), std::logic_error);
        BOOST_TEST(parked[0].valid());
        runner = std::thread([&] { parked[0].run(); });
        BOOST_TEST(pool.install([] { return 7; }) == 7);
    }
    runner.join();
    BOOST_CHECK_THROW(parked[0].run(), std::logic_error); // empty now
}

BOOST_AUTO_TEST_CASE(builder_dropped_after_the_pool_was_built_terminates)
{
    test::child_result const r = test::run_in_child([] {
        std::vector<fj::thread_builder> parked;
        fj::pool_options options = test::threads(2);
        options.spawn_handler = [&](fj::thread_builder worker) { parked.push_back(std::move(worker)); };
        fj::thread_pool pool(options);
        parked.clear();
    });
    BOOST_TEST(r.aborted(), r);
    BOOST_TEST(r.says("destroyed without run()"), r);
}

// --- use_current_thread: the constructing thread is worker 0 ----------------------

// rayon-core's tests/use_current_thread.rs.
BOOST_AUTO_TEST_CASE_TEMPLATE(use_current_thread_basic, Policy, test::api_policies)
{
    std::vector<std::thread> threads;
    fj::pool_options options = test::threads(2);
    options.use_current_thread = true;
    options.spawn_handler = [&](fj::thread_builder worker) {
        threads.emplace_back([w = std::move(worker)]() mutable { w.run(); });
    };
    {
        test::pool<Policy> pool(options);
        BOOST_TEST((fj::current_thread_index() == std::optional<std::size_t>(0)));
        BOOST_TEST((pool.current_thread_index() == std::optional<std::size_t>(0)));
        BOOST_TEST(threads.size() == 1u, "only one thread is spawned");

        fj::pool_options another = test::threads(2);
        another.use_current_thread = true;
        BOOST_CHECK_THROW(test::pool<Policy>{another}, std::logic_error);

        // Runs on worker 1 while this thread blocks outside the pool.
        std::mutex m;
        std::condition_variable cv;
        bool ran = false;
        std::optional<std::size_t> ran_on;
        pool.spawn([&] {
            std::lock_guard lock(m);
            ran_on = fj::current_thread_index();
            ran = true;
            cv.notify_one();
        });
        std::unique_lock lock(m);
        BOOST_TEST(cv.wait_for(lock, 30s, [&] { return ran; }));
        BOOST_TEST((ran_on == std::optional<std::size_t>(1)));
    }
    for (auto& t : threads)
        t.join();
    // The thread is no worker any more, and may be one again.
    BOOST_TEST(!fj::current_thread_index());
    options.spawn_handler = nullptr;
    test::pool<Policy> again(options);
    BOOST_TEST((fj::current_thread_index() == std::optional<std::size_t>(0)));
}

// What the pool's functions do from worker 0, and which handlers run.
BOOST_AUTO_TEST_CASE_TEMPLATE(use_current_thread_works_from_worker_0, Policy, test::api_policies)
{
    std::atomic<int> started{0}, exited{0}, started_0{0};
    fj::pool_options options = test::threads(3);
    options.use_current_thread = true;
    options.start_handler = [&](std::size_t i) {
        started_0 += i == 0;
        ++started;
    };
    options.exit_handler = [&](std::size_t) { ++exited; };
    {
        test::pool<Policy> pool(options);
        auto const me = std::this_thread::get_id();
        // install runs in place, on this thread.
        BOOST_TEST(pool.install([] { return std::this_thread::get_id(); }) == me);
        // The free functions use this pool: it is the current one.
        BOOST_TEST(fj::current_num_threads() == 3u);
        auto fib = [](auto& self, int n) -> long {
            if (n < 2)
                return n;
            auto [a, b] = fj::join([&] { return self(self, n - 1); }, [&] { return self(self, n - 2); });
            return a + b;
        };
        BOOST_TEST(fib(fib, 20) == 6765);
        std::atomic<int> scoped{0};
        fj::scope([&](fj::lifo_scope& s) {
            for (int i = 0; i < 100; ++i)
                s.spawn([&] { ++scoped; });
        });
        BOOST_TEST(scoped.load() == 100);
        // A broadcast from worker 0 runs its own share while it waits.
        auto const seen = pool.broadcast([](fj::broadcast_context c) { return c.index(); });
        BOOST_TEST(seen == (std::vector<std::size_t>{0, 1, 2}));
    }
    BOOST_TEST(started.load() == 2);
    BOOST_TEST(started_0.load() == 0);
    BOOST_TEST(exited.load() == 2);
}

// With one thread, the pool's only worker runs jobs only when it waits in
// the pool or yields; its destructor runs whatever is left.
BOOST_AUTO_TEST_CASE_TEMPLATE(use_current_thread_destructor_runs_what_is_left, Policy, test::api_policies)
{
    fj::pool_options options = test::threads(1);
    options.use_current_thread = true;
    std::vector<std::thread::id> ran_on;
    {
        test::pool<Policy> pool(options);
        for (int i = 0; i < 10; ++i)
            pool.spawn([&] { ran_on.push_back(std::this_thread::get_id()); });
        BOOST_TEST(ran_on.empty()); // nobody else can run them
        BOOST_TEST((fj::yield_now() == fj::yield_result::executed));
        BOOST_TEST(ran_on.size() == 1u);
    }
    BOOST_TEST(ran_on.size() == 10u);
    BOOST_TEST(std::count(ran_on.begin(), ran_on.end(), std::this_thread::get_id()) == 10);
}

// A broadcast from another thread needs worker 0's share: it completes once
// worker 0 yields to the pool.
BOOST_AUTO_TEST_CASE_TEMPLATE(use_current_thread_broadcast_waits_for_worker_0, Policy, test::api_policies)
{
    fj::pool_options options = test::threads(2);
    options.use_current_thread = true;
    test::pool<Policy> pool(options);
    std::atomic<bool> done{false};
    std::thread other([&] {
        pool.broadcast([](fj::broadcast_context) {});
        done = true;
    });
    BOOST_TEST(eventually([&] {
        fj::yield_now();
        return done.load();
    }));
    other.join();
}

BOOST_AUTO_TEST_CASE(use_current_thread_pool_destroyed_on_another_thread_terminates)
{
    test::child_result const r = test::run_in_child([] {
        fj::pool_options options = test::threads(2);
        options.use_current_thread = true;
        auto pool = std::make_unique<fj::thread_pool>(options);
        std::thread([&] { pool.reset(); }).join();
    });
    BOOST_TEST(r.aborted(), r);
    BOOST_TEST(r.says("destroy it on that thread"), r);
}

// Worker 0 of such a pool waits for the jobs of another pool's in_place_scope
// as that worker, and the scope reads the worker's registry when it ends:
// destroying the pool inside the scope's body would leave the scope with a
// freed worker (a use-after-free under ASan before), so it is refused.
BOOST_AUTO_TEST_CASE(use_current_thread_pool_destroyed_inside_another_pools_scope_terminates)
{
    test::child_result const r = test::run_in_child([] {
        fj::thread_pool other(test::threads(2));
        fj::pool_options options = test::threads(2);
        options.use_current_thread = true;
        auto pool = std::make_unique<fj::thread_pool>(options);
        std::atomic<int> ran{0};
        other.in_place_scope([&](fj::lifo_scope& s) {
            for (int i = 0; i < 8; ++i)
                s.spawn([&] { ++ran; });
            pool.reset();
        });
    });
    BOOST_TEST(r.aborted(), r);
    BOOST_TEST(r.says("Destroy the pool outside the scope"), r);
}

BOOST_AUTO_TEST_CASE(use_current_thread_is_refused_for_the_global_pool)
{
    fj::pool_options options = test::threads(2);
    options.use_current_thread = true;
    BOOST_CHECK_THROW(fj::build_global(options), std::invalid_argument);
    BOOST_TEST(!fj::current_thread_index());
}
