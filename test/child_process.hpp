// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_TEST_CHILD_PROCESS_HPP
#define BOOST_FORKJOIN_TEST_CHILD_PROCESS_HPP

// Runs a function in a forked child process under a time limit, for checks
// whose expected outcome ends a process (std::terminate, std::exit), that
// change process-wide state (resource limits, the global pool, atexit
// handlers), or that are about fork() itself. A child that outlives the
// limit is killed with its whole process group and reported as timed out:
// the limit is a watchdog against hangs, never a speed check.
//
// Inside the child Boost.Test is not usable (its results stay in the
// child); report with child_require, which prints and exits with status 1.

#include <boost/forkjoin/detail/config.hpp> // BOOST_FORKJOIN_TSAN
#include <boost/forkjoin/errors.hpp>

#include <boost/test/unit_test.hpp>

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <thread>

namespace test {

struct child_result {
    bool timed_out = false;
    bool exited = false; // normally; then exit_code is set
    int exit_code = -1;
    int signal = 0; // the signal that killed it, if any
    std::string output; // stdout and stderr together

    bool succeeded() const { return exited && exit_code == 0; }
    bool aborted() const { return signal == SIGABRT; }
    bool says(std::string const& text) const { return output.find(text) != std::string::npos; }
};

inline std::ostream& operator<<(std::ostream& os, child_result const& r)
{
    os << (r.timed_out ? "timed out" : r.exited ? "exited " + std::to_string(r.exit_code)
                                                : "killed by signal " + std::to_string(r.signal));
    return os << ", output:\n" << r.output;
}

// In the child: on failure, say why and end the child with status 1.
inline void child_require(bool condition, char const* what)
{
    if (!condition) {
        std::fprintf(stderr, "child check failed: %s\n", what);
        std::fflush(stderr);
        std::_Exit(1);
    }
}

namespace detail {
// Boost.Test turns fatal signals into test failures and carries on with
// the next test case; in a child that must die, it must not.
inline void restore_default_signal_handling()
{
    for (int s : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGALRM, SIGCHLD})
        std::signal(s, SIG_DFL);
    stack_t no_stack{};
    no_stack.ss_flags = SS_DISABLE;
    sigaltstack(&no_stack, nullptr);
}
} // namespace detail

// Runs `body` in a child. If it returns, the child exits with status 0
// without running exit handlers (the parent's atexit handlers are the
// child's too); an exception escaping it exits with status 2. A body that
// wants a normal exit calls std::exit itself.
inline child_result run_in_child(std::function<void()> const& body,
                                 std::chrono::seconds limit = std::chrono::seconds(60))
{
    int fds[2];
    if (pipe(fds) != 0)
        throw std::runtime_error("pipe failed");
    std::fflush(nullptr); // or the child would print the parent's buffered output again
    pid_t const pid = fork();
    if (pid < 0)
        throw std::runtime_error("fork failed");
    if (pid == 0) {
        setpgid(0, 0); // the watchdog kills the child's children too
        detail::restore_default_signal_handling();
        close(fds[0]);
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        close(fds[1]);
        try {
            body();
        } catch (std::exception const& e) {
            std::fprintf(stderr, "child: uncaught exception: %s\n", e.what());
            std::fflush(nullptr);
            std::_Exit(2);
        } catch (...) {
            std::fprintf(stderr, "child: uncaught exception\n");
            std::fflush(nullptr);
            std::_Exit(2);
        }
        std::fflush(nullptr);
        std::_Exit(0);
    }
    close(fds[1]);
    child_result result;
    auto const deadline = std::chrono::steady_clock::now() + limit;
    int status = 0;
    bool reaped = false;
    bool open = true;
    while (!reaped) {
        if (open) {
            pollfd p{fds[0], POLLIN, 0};
            if (poll(&p, 1, 20) > 0) {
                char buffer[4096];
                ssize_t const n = read(fds[0], buffer, sizeof buffer);
                if (n > 0)
                    result.output.append(buffer, static_cast<std::size_t>(n));
                else
                    open = false;
            }
        } else {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        reaped = waitpid(pid, &status, WNOHANG) == pid;
        if (!reaped && std::chrono::steady_clock::now() > deadline) {
            result.timed_out = true;
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            reaped = true;
        }
    }
    // What the child wrote last, unless a grandchild still holds the pipe.
    for (pollfd p{fds[0], POLLIN, 0}; open && poll(&p, 1, 0) > 0;) {
        char buffer[4096];
        ssize_t const n = read(fds[0], buffer, sizeof buffer);
        if (n <= 0)
            break;
        result.output.append(buffer, static_cast<std::size_t>(n));
    }
    close(fds[0]);
    kill(-pid, SIGKILL); // leftover grandchildren, if any
    if (!result.timed_out) {
        if (WIFEXITED(status)) {
            result.exited = true;
            result.exit_code = WEXITSTATUS(status);
        } else if (WIFSIGNALED(status)) {
            result.signal = WTERMSIG(status);
        }
    }
    return result;
}

// In a forked child: does `use()` throw pool_terminated, and does its
// message say the pool belongs to the parent (names fork())?
template <class Use>
bool refused_after_fork(Use&& use)
{
    try {
        use();
    } catch (boost::forkjoin::pool_terminated const& e) {
        return std::string(e.what()).find("fork") != std::string::npos;
    }
    return false;
}

namespace detail {
inline std::function<bool()> exit_check;
} // namespace detail

// In a child: registers an exit handler that ends the child, with status 0
// if `check` (which may print what it found) says true, else 1. Exit
// handlers run in reverse order of registration, so this one runs after
// every one registered later: the global pool's, built after this call,
// and the destructors of pools with static storage built after it.
inline void end_at_exit_by(std::function<bool()> check)
{
    detail::exit_check = std::move(check);
    std::atexit([] {
        bool const passed = detail::exit_check();
        std::fflush(stdout);
        std::_Exit(passed ? 0 : 1);
    });
}

// Runs `body`, which reports with child_require, where a hang fails the
// calling test instead of stopping the run: in a child under `limit` (a
// watchdog, not a timing check), or, under TSan, in this process (TSan ends
// the child of a threaded process that starts a thread).
inline void runs_without_hanging(std::function<void()> const& body,
                                 std::chrono::seconds limit = std::chrono::seconds(60))
{
#if defined(BOOST_FORKJOIN_TSAN)
    (void)limit;
    body();
#else
    child_result const r = run_in_child(body, limit);
    BOOST_TEST(r.succeeded(), r);
#endif
}

} // namespace test

#endif // BOOST_FORKJOIN_TEST_CHILD_PROCESS_HPP
