//! Rayon peer of the Boost.ForkJoin benchmark.
//!
//! Usage: `rayon-bench <workload> --threads N --reps R [--warmup W] [--param key=value]...`
//!
//! Every workload here is a line-for-line port of the C++ template in
//! `performance/workloads.hpp`: the same recursion, the same cut-offs, the same
//! sizes (passed in by the driver with `--param`) and the same pseudo-random
//! inputs (`SplitMix64`), so that the only thing that differs between a
//! Boost.ForkJoin row and a Rayon row of the table is the scheduler.
//!
//! Output protocol (read by the C++ driver, one line each):
//!   `warmup key=value ...`  a warm-up repetition, ignored by the driver
//!   `rep key=value ...`     one measured repetition
//!   `skip <reason>`         the workload has no Rayon equivalent
//! Times are integers in nanoseconds; `cpu_ns` is process CPU time
//! (`CLOCK_PROCESS_CPUTIME_ID`, all threads) spent during the measured section.

use rayon::prelude::*;
use std::collections::HashMap;
use std::process::exit;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------
// Measurement helpers
// ---------------------------------------------------------------------------

/// A CPU-time clock's reading in nanoseconds; `name` for the panic message.
fn cpu_clock_ns(clock: libc::clockid_t, name: &str) -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec.
    let rc = unsafe { libc::clock_gettime(clock, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime({name}) failed");
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// CPU time consumed so far by every thread of this process.
fn process_cpu_ns() -> u64 {
    cpu_clock_ns(libc::CLOCK_PROCESS_CPUTIME_ID, "CLOCK_PROCESS_CPUTIME_ID")
}

/// CPU time consumed so far by the calling thread (a system call).
fn thread_cpu_ns() -> u64 {
    cpu_clock_ns(libc::CLOCK_THREAD_CPUTIME_ID, "CLOCK_THREAD_CPUTIME_ID")
}

/// Wall-clock and CPU time of one measured section.
struct Stopwatch {
    wall: Instant,
    cpu: u64,
}

impl Stopwatch {
    fn start() -> Self {
        Stopwatch { wall: Instant::now(), cpu: process_cpu_ns() }
    }
    /// Returns (wall_ns, cpu_ns) since `start`.
    fn stop(&self) -> (u64, u64) {
        let cpu = process_cpu_ns() - self.cpu;
        (self.wall.elapsed().as_nanos() as u64, cpu)
    }
}

/// Nearest-rank percentile of an ascending sorted slice (same rule as the C++ side).
fn percentile(sorted: &[u64], q: f64) -> u64 {
    let n = sorted.len();
    let rank = ((q / 100.0) * n as f64).ceil() as usize;
    sorted[rank.clamp(1, n) - 1]
}

/// The deterministic generator shared with the C++ side (SplitMix64), so
/// both languages sort and simulate exactly the same data.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }
    /// Uniform in [0, 1) with 53 random bits.
    fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

// ---------------------------------------------------------------------------
// Command line
// ---------------------------------------------------------------------------

struct Args {
    workload: String,
    threads: usize,
    reps: usize,
    warmup: usize,
    params: HashMap<String, String>,
}

fn usage() -> ! {
    eprintln!(
        "usage: rayon-bench <workload> --threads N --reps R [--warmup W] [--param key=value]...\n\
         workloads: fib increment-all nbody quicksort noop-spawn idle wake-latency wakeups\n           install-roundtrip tree-sum frame-loop\n           sort stable-sort reduce transform scan find-first mandelbrot"
    );
    exit(2)
}

fn parse_args() -> Args {
    let mut it = std::env::args().skip(1);
    let workload = it.next().unwrap_or_else(|| usage());
    if workload == "--help" || workload == "-h" {
        usage();
    }
    let mut args = Args { workload, threads: 1, reps: 1, warmup: 1, params: HashMap::new() };
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| usage());
        match flag.as_str() {
            "--threads" => args.threads = value.parse().unwrap_or_else(|_| usage()),
            "--reps" => args.reps = value.parse().unwrap_or_else(|_| usage()),
            "--warmup" => args.warmup = value.parse().unwrap_or_else(|_| usage()),
            "--param" => {
                let (k, v) = value.split_once('=').unwrap_or_else(|| usage());
                args.params.insert(k.to_string(), v.to_string());
            }
            _ => usage(),
        }
    }
    args
}

impl Args {
    /// A numeric workload parameter. The driver always passes every parameter
    /// explicitly; the default only serves manual runs.
    fn param(&self, key: &str, default: u64) -> u64 {
        match self.params.get(key) {
            Some(v) => v.parse().unwrap_or_else(|_| {
                eprintln!("rayon-bench: bad value for --param {key}: {v}");
                exit(2)
            }),
            None => default,
        }
    }
}

/// Runs `warmup` unreported and `reps` reported repetitions of `rep`, which
/// returns the `key=value` fields of one line.
fn repeat(args: &Args, mut rep: impl FnMut() -> String) {
    for _ in 0..args.warmup {
        println!("warmup {}", rep());
    }
    for _ in 0..args.reps {
        println!("rep {}", rep());
    }
}

// ---------------------------------------------------------------------------
// fib: a join at every level, no cut-off
// ---------------------------------------------------------------------------

fn fib(n: u32) -> u64 {
    if n < 2 {
        return n as u64;
    }
    let (a, b) = rayon::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

/// Number of `join` calls made by `fib(n)`: one per inner node, fib(n+1) - 1.
fn fib_joins(n: u32) -> u64 {
    let (mut a, mut b) = (0u64, 1u64); // fib(0), fib(1)
    for _ in 0..=n {
        let c = a + b;
        a = b;
        b = c;
    }
    a - 1
}

fn run_fib(args: &Args, pool: &rayon::ThreadPool) {
    let n = args.param("n", 32) as u32;
    repeat(args, || {
        let sw = Stopwatch::start();
        let result = pool.install(|| fib(n));
        let (wall, cpu) = sw.stop();
        format!("wall_ns={wall} cpu_ns={cpu} joins={} check={result}", fib_joins(n))
    });
}

// ---------------------------------------------------------------------------
// increment-all: rayon-demo's join micro-benchmark with a fixed leaf size
// ---------------------------------------------------------------------------

fn increment_all(v: &mut [u64], grain: usize) {
    if v.len() <= grain {
        for x in v {
            *x = x.wrapping_add(1);
        }
    } else {
        let (lo, hi) = v.split_at_mut(v.len() / 2);
        rayon::join(|| increment_all(lo, grain), || increment_all(hi, grain));
    }
}

fn increment_joins(len: usize, grain: usize) -> u64 {
    if len <= grain {
        0
    } else {
        1 + increment_joins(len / 2, grain) + increment_joins(len - len / 2, grain)
    }
}

fn run_increment_all(args: &Args, pool: &rayon::ThreadPool) {
    let len = args.param("len", 100 * 1024) as usize;
    let grain = args.param("grain", 1024) as usize;
    let passes = args.param("passes", 1000);
    let inside = args.param("inside", 0) != 0;
    let mut v = vec![0u64; len];
    let mut expected = 0u64;
    repeat(args, || {
        let sw = Stopwatch::start();
        if !inside {
            // One `install` per pass: like rayon-demo's `b.iter`, every pass
            // is a fresh injection from a thread outside the pool.
            for _ in 0..passes {
                pool.install(|| increment_all(&mut v, grain));
            }
        } else {
            // All passes inside one `install`: the pool alone, with no round
            // trip from the main thread.
            pool.install(|| {
                for _ in 0..passes {
                    increment_all(&mut v, grain);
                }
            });
        }
        let (wall, cpu) = sw.stop();
        expected += passes;
        assert!(v.iter().all(|&x| x == expected), "increment-all: wrong result");
        format!(
            "wall_ns={wall} cpu_ns={cpu} passes={passes} joins_per_pass={}",
            increment_joins(len, grain)
        )
    });
}

// ---------------------------------------------------------------------------
// nbody: rayon-demo's `tick_par_reduce`, parallel loop + parallel reduction
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq)]
struct V3 {
    x: f64,
    y: f64,
    z: f64,
}

const ZERO: V3 = V3 { x: 0.0, y: 0.0, z: 0.0 };

impl V3 {
    fn add(self, o: V3) -> V3 {
        V3 { x: self.x + o.x, y: self.y + o.y, z: self.z + o.z }
    }
    fn sub(self, o: V3) -> V3 {
        V3 { x: self.x - o.x, y: self.y - o.y, z: self.z - o.z }
    }
    fn mul(self, s: f64) -> V3 {
        V3 { x: self.x * s, y: self.y * s, z: self.z * s }
    }
    fn div(self, s: f64) -> V3 {
        V3 { x: self.x / s, y: self.y / s, z: self.z / s }
    }
    fn magnitude2(self) -> f64 {
        self.x * self.x + self.y * self.y + self.z * self.z
    }
    fn magnitude(self) -> f64 {
        self.magnitude2().sqrt()
    }
}

#[derive(Clone, Copy)]
struct Body {
    position: V3,
    velocity: V3,
    velocity2: V3,
}

const INITIAL_VELOCITY: f64 = 8.0;

/// rayon-demo's initial state, including its `floor()`: every body starts at
/// the same point, so after the first tick they form one dense cluster and
/// every pair takes the expensive interaction path.
fn nbody_init(n: usize) -> Vec<Body> {
    let mut rng = SplitMix64(42);
    (0..n)
        .map(|_| {
            let px = rng.next_f64().floor() * 40_000.0;
            let py = rng.next_f64().floor() * 20_000.0;
            let pz = (rng.next_f64().floor() - 0.25) * 50_000.0;
            let vx = (rng.next_f64() - 0.5) * INITIAL_VELOCITY;
            let vy = (rng.next_f64() - 0.5) * INITIAL_VELOCITY;
            let vz = rng.next_f64() * INITIAL_VELOCITY + 10.0;
            let wx = (rng.next_f64() - 0.5) * INITIAL_VELOCITY;
            let wy = (rng.next_f64() - 0.5) * INITIAL_VELOCITY;
            let wz = rng.next_f64() * INITIAL_VELOCITY;
            Body {
                position: V3 { x: px, y: py, z: pz },
                velocity: V3 { x: vx, y: vy, z: vz },
                velocity2: V3 { x: wx, y: wy, z: wz },
            }
        })
        .collect()
}

/// Constants of one tick, computed once per body as in rayon-demo.
struct Zones {
    zone_sqrd: f64,
    repel: f64,
    align: f64,
    attract: f64,
    attract_power: f64,
}

/// The fold body of rayon-demo's `next_velocity_par`, over `bodies`.
fn interact_serial(prev: &Body, bodies: &[Body], z: &Zones) -> (V3, V3) {
    let pi = std::f64::consts::PI;
    let (mut diff, mut diff2) = (ZERO, ZERO);
    for body in bodies {
        let r = body.position.sub(prev.position);
        let are_same = r == ZERO;
        let dist_sqrd = r.magnitude2();
        if dist_sqrd < z.zone_sqrd && !are_same {
            let length = dist_sqrd.sqrt();
            let percent = dist_sqrd / z.zone_sqrd;
            if dist_sqrd < z.repel {
                let f = (z.repel / percent - 1.0) * 0.025;
                let normal = r.div(length).mul(f);
                diff = diff.add(normal);
                diff2 = diff2.add(normal);
            } else if dist_sqrd < z.align {
                let thresh_delta = z.align - z.repel;
                let adjusted_percent = (percent - z.repel) / thresh_delta;
                let q = (0.5 - (adjusted_percent * pi * 2.0).cos() * 0.5 + 0.5) * 100.9;
                let vel2 = body.velocity2.div(body.velocity2.magnitude()).mul(q);
                let vel = prev.velocity.div(prev.velocity.magnitude()).mul(q);
                diff = diff.add(vel2);
                diff2 = diff2.add(vel);
            }
            if dist_sqrd > z.attract {
                let thresh_delta2 = 1.0 - z.attract;
                let adjusted_percent2 = (percent - z.attract) / thresh_delta2;
                let c = (1.0 - ((adjusted_percent2 * pi * 2.0).cos() * 0.5 + 0.5)) * z.attract_power;
                let d = r.div(length).mul(c);
                diff = diff.add(d);
                diff2 = diff2.sub(d);
            }
        }
    }
    (diff, diff2)
}

/// The parallel reduction: recursive halving down to `grain` bodies.
fn interact(prev: &Body, bodies: &[Body], z: &Zones, grain: usize) -> (V3, V3) {
    if bodies.len() <= grain {
        return interact_serial(prev, bodies, z);
    }
    let (lo, hi) = bodies.split_at(bodies.len() / 2);
    let (a, b) = rayon::join(|| interact(prev, lo, z, grain), || interact(prev, hi, z, grain));
    (a.0.add(b.0), a.1.add(b.1))
}

/// rayon-demo's `next_velocity_par`.
fn next_velocity(time: usize, prev: &Body, bodies: &[Body], grain: usize) -> (V3, V3) {
    let time = time as f64;
    let center = V3 {
        x: (time / 22.0).cos() * -4200.0,
        y: (time / 14.0).sin() * 9200.0,
        z: (time / 27.0).sin() * 6000.0,
    };
    let max_distance = 3400.0;
    let pull_strength = 0.042;
    let zone = 400.0;
    let (speed_limit, attract_power) = if time < 500.0 { (2000.0, 100.9) } else { (0.2, 20.9) };
    let zones = Zones { zone_sqrd: 3.0 * (zone * zone), repel: 100.0, align: 300.0, attract: 100.0, attract_power };

    let mut acc = ZERO;
    let mut acc2 = ZERO;
    let dir_to_center = center.sub(prev.position);
    let dist_to_center = dir_to_center.magnitude();
    if dist_to_center > max_distance {
        let velc = if time < 200.0 { 0.2 } else { (dist_to_center - max_distance) * pull_strength };
        acc = acc.add(dir_to_center.div(dist_to_center).mul(velc));
    }

    let (diff, diff2) = interact(prev, bodies, &zones, grain);
    acc = acc.add(diff);
    acc2 = acc2.add(diff2);

    if time > 500.0 {
        if acc.magnitude2() > speed_limit {
            acc = acc.mul(0.015);
        }
        if acc2.magnitude2() > speed_limit {
            acc2 = acc2.mul(0.015);
        }
    }
    let mut new = prev.velocity.add(acc);
    let mut new2 = prev.velocity2.add(acc2);
    if time < 500.0 {
        if new2.magnitude2() > speed_limit {
            new2 = new2.mul(0.15);
        }
        if new.magnitude2() > speed_limit {
            new = new.mul(0.15);
        }
    }
    (new, new2)
}

/// The parallel loop over the output bodies: recursive halving down to
/// `outer` bodies; `first` is the index of `out[0]` in `input`.
fn tick_range(out: &mut [Body], first: usize, input: &[Body], time: usize, outer: usize, inner: usize) {
    if out.len() <= outer {
        for (i, o) in out.iter_mut().enumerate() {
            let prev = &input[first + i];
            let (vel, vel2) = next_velocity(time, prev, input, inner);
            o.velocity = vel;
            o.velocity2 = vel2;
            o.position = prev.position.add(vel.sub(vel2));
        }
        return;
    }
    let mid = out.len() / 2;
    let (lo, hi) = out.split_at_mut(mid);
    rayon::join(
        || tick_range(lo, first, input, time, outer, inner),
        || tick_range(hi, first + mid, input, time, outer, inner),
    );
}

fn run_nbody(args: &Args, pool: &rayon::ThreadPool) {
    let n = args.param("bodies", 1000) as usize;
    let ticks = args.param("ticks", 10) as usize;
    let outer = args.param("outer_grain", 1) as usize;
    let inner = args.param("inner_grain", 100) as usize;
    repeat(args, || {
        let mut a = nbody_init(n);
        let mut b = a.clone();
        let sw = Stopwatch::start();
        for time in 0..ticks {
            let (input, out) = if time % 2 == 0 { (&a, &mut b) } else { (&b, &mut a) };
            // One injection per tick, as rayon-demo calls tick_par_reduce
            // from the main thread.
            pool.install(|| tick_range(out, 0, input, time, outer, inner));
        }
        let (wall, cpu) = sw.stop();
        let last = if ticks % 2 == 1 { &b } else { &a };
        let check: f64 = last.iter().map(|b| b.position.x + b.position.y + b.position.z).sum();
        format!("wall_ns={wall} cpu_ns={cpu} ticks={ticks} check={check:?}")
    });
}

// ---------------------------------------------------------------------------
// quicksort: rayon-demo's quick_sort (Lomuto partition, join on the halves)
// ---------------------------------------------------------------------------

fn partition(v: &mut [u32]) -> usize {
    let pivot = v.len() - 1;
    let mut i = 0;
    for j in 0..pivot {
        if v[j] <= v[pivot] {
            v.swap(i, j);
            i += 1;
        }
    }
    v.swap(i, pivot);
    i
}

fn quick_sort_serial(v: &mut [u32]) {
    if v.len() <= 1 {
        return;
    }
    let mid = partition(v);
    let (lo, hi) = v.split_at_mut(mid);
    quick_sort_serial(lo);
    quick_sort_serial(hi);
}

fn quick_sort(v: &mut [u32], cutoff: usize) {
    if v.len() <= cutoff {
        return quick_sort_serial(v);
    }
    let mid = partition(v);
    let (lo, hi) = v.split_at_mut(mid);
    rayon::join(|| quick_sort(lo, cutoff), || quick_sort(hi, cutoff));
}

fn run_quicksort(args: &Args, pool: &rayon::ThreadPool) {
    let len = args.param("len", 10_000_000) as usize;
    let cutoff = args.param("cutoff", 5 * 1024) as usize;
    let mut rng = SplitMix64(7);
    let input: Vec<u32> = (0..len).map(|_| rng.next_u32()).collect();
    let mut v = input.clone();
    repeat(args, || {
        v.copy_from_slice(&input);
        let sw = Stopwatch::start();
        pool.install(|| quick_sort(&mut v, cutoff));
        let (wall, cpu) = sw.stop();
        assert!(v.windows(2).all(|w| w[0] <= w[1]), "quicksort: not sorted");
        format!("wall_ns={wall} cpu_ns={cpu}")
    });
}

// ---------------------------------------------------------------------------
// noop-spawn, idle, wake-latency: behaviour of a mostly idle pool
// ---------------------------------------------------------------------------

/// One tiny job every `period_us` for `window_ms`, from the main thread
/// (rayon issue #642). Reports the process CPU use over the window.
fn run_noop_spawn(args: &Args, pool: &rayon::ThreadPool) {
    let period = Duration::from_micros(args.param("period_us", 1000));
    let window = Duration::from_millis(args.param("window_ms", 2000));
    pool.install(|| ()); // make sure every worker has started
    repeat(args, || {
        let done = Arc::new(AtomicU64::new(0));
        let sw = Stopwatch::start();
        let mut jobs = 0u64;
        loop {
            let next = sw.wall + period * jobs as u32;
            if next >= sw.wall + window {
                break;
            }
            if let Some(d) = next.checked_duration_since(Instant::now()) {
                std::thread::sleep(d);
            }
            let done = Arc::clone(&done);
            pool.spawn(move || {
                done.fetch_add(1, Ordering::Relaxed);
            });
            jobs += 1;
        }
        if let Some(d) = (sw.wall + window).checked_duration_since(Instant::now()) {
            std::thread::sleep(d);
        }
        let (wall, cpu) = sw.stop();
        while done.load(Ordering::Acquire) != jobs {
            std::thread::yield_now(); // a straggler; not part of the window
        }
        let pct = 100.0 * cpu as f64 / wall as f64;
        format!("wall_ns={wall} cpu_ns={cpu} cpu_pct={pct:.3} jobs={jobs}")
    });
}

/// Process CPU use during `window_ms` of idleness right after a burst of work.
fn run_idle(args: &Args, pool: &rayon::ThreadPool) {
    let window = Duration::from_millis(args.param("window_ms", 2000));
    let burst_n = args.param("burst_n", 25) as u32;
    repeat(args, || {
        let r = pool.install(|| fib(burst_n));
        assert!(r > 0 || burst_n == 0); // use the result: the burst must run
        let sw = Stopwatch::start();
        std::thread::sleep(window);
        let (wall, cpu) = sw.stop();
        let pct = 100.0 * cpu as f64 / wall as f64;
        format!("wall_ns={wall} cpu_ns={cpu} cpu_pct={pct:.3}")
    });
}

/// Time from `spawn` on an outside thread to the start of the job, with
/// every worker asleep (`sleep_ms` of idleness before each try).
fn run_wake_latency(args: &Args, pool: &rayon::ThreadPool) {
    let tries = args.param("tries", 300) as usize;
    let pause = Duration::from_millis(args.param("sleep_ms", 20));
    repeat(args, || {
        let (tx, rx) = mpsc::channel::<Instant>();
        let mut lat = Vec::with_capacity(tries);
        let sw = Stopwatch::start();
        for _ in 0..tries {
            std::thread::sleep(pause);
            let tx = tx.clone();
            let t0 = Instant::now();
            pool.spawn(move || {
                tx.send(Instant::now()).unwrap();
            });
            let t1 = rx.recv().unwrap();
            lat.push(t1.duration_since(t0).as_nanos() as u64);
        }
        let (wall, cpu) = sw.stop();
        lat.sort_unstable();
        format!(
            "wall_ns={wall} cpu_ns={cpu} p50_ns={} p99_ns={} max_ns={} tries={tries}",
            percentile(&lat, 50.0),
            percentile(&lat, 99.0),
            lat[lat.len() - 1]
        )
    });
}

// ---------------------------------------------------------------------------
// install-roundtrip, tree-sum, frame-loop: bursty work from the main thread
// ---------------------------------------------------------------------------

/// An empty `install` from the main thread, timed one by one.
fn run_install_roundtrip(args: &Args, pool: &rayon::ThreadPool) {
    let rounds = args.param("rounds", 20_000) as usize;
    pool.install(|| ()); // every worker has started
    repeat(args, || {
        let mut lat = Vec::with_capacity(rounds);
        let sw = Stopwatch::start();
        for _ in 0..rounds {
            let t0 = Instant::now();
            pool.install(|| ());
            lat.push(t0.elapsed().as_nanos() as u64);
        }
        let (wall, cpu) = sw.stop();
        lat.sort_unstable();
        format!(
            "wall_ns={wall} cpu_ns={cpu} rounds={rounds} p50_ns={} p99_ns={}",
            percentile(&lat, 50.0),
            percentile(&lat, 99.0)
        )
    });
}

/// A node of the tree-sum tree; the nodes sit in one vector in depth-first
/// order, linked by indices as the C++ side links them by pointers.
struct TreeNode {
    value: u64,
    children: Option<(usize, usize)>,
}

fn tree_make(count: usize) -> Vec<TreeNode> {
    assert!(count & (count + 1) == 0, "tree-sum: nodes must be 2^k - 1");
    let mut nodes: Vec<TreeNode> = Vec::with_capacity(count);
    fn build(nodes: &mut Vec<TreeNode>, size: usize) -> usize {
        let me = nodes.len();
        nodes.push(TreeNode { value: me as u64 + 1, children: None });
        if size > 1 {
            let l = build(nodes, size / 2);
            let r = build(nodes, size / 2);
            nodes[me].children = Some((l, r));
        }
        me
    }
    if count > 0 {
        build(&mut nodes, count);
    }
    nodes
}

fn tree_sum(nodes: &[TreeNode], i: usize) -> u64 {
    let n = &nodes[i];
    match n.children {
        None => n.value,
        Some((l, r)) => {
            let (a, b) = rayon::join(|| tree_sum(nodes, l), || tree_sum(nodes, r));
            n.value + a + b
        }
    }
}

fn run_tree_sum(args: &Args, pool: &rayon::ThreadPool) {
    let count = args.param("nodes", 1023) as usize;
    let sums = args.param("sums", 20_000) as usize;
    let nodes = tree_make(count);
    let expected = (count as u64) * (count as u64 + 1) / 2;
    pool.install(|| ());
    repeat(args, || {
        let mut lat = Vec::with_capacity(sums);
        let sw = Stopwatch::start();
        for _ in 0..sums {
            let t0 = Instant::now();
            let total = pool.install(|| tree_sum(&nodes, 0));
            lat.push(t0.elapsed().as_nanos() as u64);
            assert_eq!(total, expected, "tree-sum: wrong sum");
        }
        let (wall, cpu) = sw.stop();
        lat.sort_unstable();
        format!(
            "wall_ns={wall} cpu_ns={cpu} sums={sums} joins={} p50_ns={} p99_ns={}",
            count / 2,
            percentile(&lat, 50.0),
            percentile(&lat, 99.0)
        )
    });
}

/// A few rounds of a 64-bit mixer per element (the C++ `frame::work`).
fn frame_work(v: &mut [u64], rounds: u64) {
    for x in v {
        let mut z = *x;
        for _ in 0..rounds {
            z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
        }
        *x = z;
    }
}

/// The split with `rayon::join`, or, for the paired row's serial frames,
/// with one half after the other on the calling thread. With `leaf_ns`,
/// each leaf adds its thread's CPU time to it (the C++ `frame::split` says why).
fn frame_split(v: &mut [u64], grain: usize, rounds: u64, parallel: bool, leaf_ns: Option<&AtomicU64>) {
    if v.len() <= grain {
        match leaf_ns {
            None => frame_work(v, rounds),
            Some(sum) => {
                let start = thread_cpu_ns();
                frame_work(v, rounds);
                // Relaxed: read by the main thread after the frame's join.
                sum.fetch_add(thread_cpu_ns() - start, Ordering::Relaxed);
            }
        }
        return;
    }
    let (lo, hi) = v.split_at_mut(v.len() / 2);
    if parallel {
        rayon::join(
            || frame_split(lo, grain, rounds, true, leaf_ns),
            || frame_split(hi, grain, rounds, true, leaf_ns),
        );
    } else {
        frame_split(lo, grain, rounds, false, leaf_ns);
        frame_split(hi, grain, rounds, false, leaf_ns);
    }
}

/// Every `period_us` one parallel job of about 2 ms from the main thread,
/// for `window_ms`: process CPU % and frame times. With `paired`, every
/// other frame runs serially on the main thread, and the CPU of a pooled
/// frame's period (its start to the next frame's) is compared with a serial
/// one's (the C++ `frame_loop_kernel` says why).
fn run_frame_loop(args: &Args, pool: &rayon::ThreadPool) {
    let period = Duration::from_micros(args.param("period_us", 16_667));
    let window = Duration::from_millis(args.param("window_ms", 2000));
    let len = args.param("len", 65_536) as usize;
    let grain = args.param("grain", 1024) as usize;
    let rounds = args.param("rounds", 8);
    let paired = args.param("paired", 0) != 0;
    let mut v = vec![0u64; len];
    pool.install(|| ());
    repeat(args, || {
        for (i, x) in v.iter_mut().enumerate() {
            *x = i as u64;
        }
        let mut frames = Vec::new();
        let (mut pooled_cpu, mut pooled_periods, mut serial_cpu, mut serial_periods) = (0u64, 0u64, 0u64, 0u64);
        // The same without the leaves' time; signed, as in C++.
        let (mut pooled_outside, mut serial_outside) = (0i64, 0i64);
        let (mut period_start_cpu, mut period_start_leaves) = (0u64, 0u64);
        let leaf_ns = AtomicU64::new(0);
        let leaves = if paired { Some(&leaf_ns) } else { None };
        let sw = Stopwatch::start();
        let mut next = sw.wall;
        let mut frame_index = 0u64;
        while next < sw.wall + window {
            if let Some(d) = next.checked_duration_since(Instant::now()) {
                std::thread::sleep(d);
            }
            let pooled = !paired || frame_index % 2 == 1;
            if paired {
                let cpu = process_cpu_ns();
                // Relaxed: the last frame's join ordered its leaves' adds
                // before this load.
                let in_leaves = leaf_ns.load(Ordering::Relaxed);
                // The period that ends here is the previous frame's: pooled
                // when this one is not.
                if frame_index > 0 {
                    let period_cpu = cpu - period_start_cpu;
                    let outside = period_cpu as i64 - (in_leaves - period_start_leaves) as i64;
                    if pooled {
                        serial_cpu += period_cpu;
                        serial_outside += outside;
                        serial_periods += 1;
                    } else {
                        pooled_cpu += period_cpu;
                        pooled_outside += outside;
                        pooled_periods += 1;
                    }
                }
                period_start_cpu = cpu;
                period_start_leaves = in_leaves;
            }
            let start = Instant::now();
            if pooled {
                pool.install(|| frame_split(&mut v, grain, rounds, true, leaves));
                frames.push(start.elapsed().as_nanos() as u64);
            } else {
                frame_split(&mut v, grain, rounds, false, leaves);
            }
            next += period;
            frame_index += 1;
        }
        if let Some(d) = (sw.wall + window).checked_duration_since(Instant::now()) {
            std::thread::sleep(d);
        }
        let (wall, cpu) = sw.stop();
        let check = v.iter().fold(0u64, |a, &x| a ^ x);
        frames.sort_unstable();
        let pct = 100.0 * cpu as f64 / wall as f64;
        let mut out = format!(
            "wall_ns={wall} cpu_ns={cpu} cpu_pct={pct:.3} frames={} p50_ns={} p99_ns={} check={check}",
            frames.len(),
            percentile(&frames, 50.0),
            percentile(&frames, 99.0)
        );
        if paired {
            let per_period = |sum: f64, periods: u64| sum / periods.max(1) as f64;
            let pooled_mean = per_period(pooled_cpu as f64, pooled_periods);
            let serial_mean = per_period(serial_cpu as f64, serial_periods);
            let outside_above =
                per_period(pooled_outside as f64, pooled_periods) - per_period(serial_outside as f64, serial_periods);
            out += &format!(
                " pooled_frame_cpu_ns={pooled_mean:.0} serial_frame_cpu_ns={serial_mean:.0} above_serial_ns={:.0} \
                 outside_leaves_above_serial_ns={outside_above:.0}",
                pooled_mean - serial_mean
            );
        }
        out
    });
}

// ---------------------------------------------------------------------------
// The parallel-algorithm workloads (algorithm_workloads.hpp): Rayon's own
// parallel iterators and sorts, the same inputs and checks as the C++ side.
// ---------------------------------------------------------------------------


/// The position-weighted sum of a sequence (algo::weighted_sum).
fn weighted_sum<T>(v: &[T], value: impl Fn(&T) -> u64) -> u64 {
    v.iter().enumerate().fold(0u64, |s, (i, x)| s.wrapping_add((i as u64 + 1).wrapping_mul(value(x))))
}

fn run_sort(args: &Args, pool: &rayon::ThreadPool) {
    let len = args.param("len", 10_000_000) as usize;
    let mut rng = SplitMix64(11);
    let input: Vec<u32> = (0..len).map(|_| rng.next_u32()).collect();
    let mut v = input.clone();
    repeat(args, || {
        v.copy_from_slice(&input);
        let sw = Stopwatch::start();
        pool.install(|| v.par_sort_unstable());
        let (wall, cpu) = sw.stop();
        assert!(v.windows(2).all(|w| w[0] <= w[1]), "sort: not sorted");
        format!("wall_ns={wall} cpu_ns={cpu} check={}", weighted_sum(&v, |&x| x as u64))
    });
}

/// (key, payload): sorted by key only; the payload is the input position.
#[derive(Clone, Copy)]
struct Keyed {
    key: u32,
    payload: u32,
}

fn run_stable_sort(args: &Args, pool: &rayon::ThreadPool) {
    let len = args.param("len", 10_000_000) as usize;
    let keys = args.param("keys", 1_000_000);
    let mut rng = SplitMix64(13);
    let input: Vec<Keyed> =
        (0..len).map(|i| Keyed { key: (rng.next_u64() % keys) as u32, payload: i as u32 }).collect();
    let mut v = input.clone();
    repeat(args, || {
        v.copy_from_slice(&input);
        let sw = Stopwatch::start();
        pool.install(|| v.par_sort_by_key(|k| k.key)); // stable
        let (wall, cpu) = sw.stop();
        assert!(v.windows(2).all(|w| w[0].key <= w[1].key), "stable-sort: not sorted");
        format!("wall_ns={wall} cpu_ns={cpu} check={}", weighted_sum(&v, |k| k.payload as u64))
    });
}

/// Integers below 2^24 stored as f64: every partial sum is exact, so the
/// order of Rayon's additions does not change the bits.
fn run_reduce(args: &Args, pool: &rayon::ThreadPool) {
    let len = args.param("len", 50_000_000) as usize;
    let mut rng = SplitMix64(17);
    let v: Vec<f64> = (0..len).map(|_| (rng.next_u64() >> 40) as f64).collect();
    repeat(args, || {
        let sw = Stopwatch::start();
        let sum: f64 = pool.install(|| v.par_iter().sum());
        let (wall, cpu) = sw.stop();
        format!("wall_ns={wall} cpu_ns={cpu} check={}", sum as u64)
    });
}

/// glibc's sinf and expf (what f32::sin and f32::exp call) and sqrtss: the
/// same bits as the C++ side.
fn transform_body(x: f32) -> f32 {
    x.sin() * (-x).exp() + x.sqrt()
}

fn run_transform(args: &Args, pool: &rayon::ThreadPool) {
    let len = args.param("len", 20_000_000) as usize;
    let mut rng = SplitMix64(19);
    let input: Vec<f32> = (0..len).map(|_| (rng.next_u32() >> 8) as f32 * (1.0f32 / 16_777_216.0) * 8.0).collect();
    let mut out: Vec<f32> = Vec::with_capacity(len);
    repeat(args, || {
        out.clear();
        let sw = Stopwatch::start();
        pool.install(|| input.par_iter().map(|&x| transform_body(x)).collect_into_vec(&mut out));
        let (wall, cpu) = sw.stop();
        let check = out.iter().fold(0u64, |s, y| s.wrapping_add(y.to_bits() as u64));
        format!("wall_ns={wall} cpu_ns={cpu} check={check}")
    });
}

const NEEDLE: u32 = 0xFFFF_FFFF;

fn run_find_first(args: &Args, pool: &rayon::ThreadPool) {
    let len = args.param("len", 50_000_000) as usize;
    let permille = args.param("match_permille", 250) as usize;
    let mut rng = SplitMix64(29);
    let mut v: Vec<u32> = (0..len).map(|_| rng.next_u32() >> 1).collect();
    if permille < 1000 {
        v[len * permille / 1000] = NEEDLE;
    }
    repeat(args, || {
        let sw = Stopwatch::start();
        let found = pool.install(|| v.par_iter().position_first(|&x| x == NEEDLE));
        let (wall, cpu) = sw.stop();
        format!("wall_ns={wall} cpu_ns={cpu} check={}", found.unwrap_or(len))
    });
}

struct ImageRow {
    y: u32,
    iterations: u64,
}

/// The escape iterations of row `y` (algo::mandelbrot_view::row).
fn mandelbrot_row(width: u32, height: u32, max_iter: u32, y: u32) -> u64 {
    let dx = 3.0 / width as f64;
    let dy = 2.5 / height as f64;
    let ci = -1.25 + y as f64 * dy;
    let mut total = 0u64;
    for x in 0..width {
        let cr = -2.0 + x as f64 * dx;
        let (mut zr, mut zi, mut zr2, mut zi2) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
        let mut i = 0u32;
        while i < max_iter && zr2 + zi2 <= 4.0 {
            zi = 2.0 * zr * zi + ci;
            zr = zr2 - zi2 + cr;
            zr2 = zr * zr;
            zi2 = zi * zi;
            i += 1;
        }
        total += i as u64;
    }
    total
}

fn run_mandelbrot(args: &Args, pool: &rayon::ThreadPool) {
    let width = args.param("width", 2048) as u32;
    let height = args.param("height", 1024) as u32;
    let max_iter = args.param("max_iter", 500) as u32;
    let mut rows: Vec<ImageRow> = (0..height).map(|y| ImageRow { y, iterations: 0 }).collect();
    repeat(args, || {
        for r in rows.iter_mut() {
            r.iterations = 0;
        }
        let sw = Stopwatch::start();
        pool.install(|| {
            rows.par_iter_mut().for_each(|r| r.iterations = mandelbrot_row(width, height, max_iter, r.y))
        });
        let (wall, cpu) = sw.stop();
        let check: u64 = rows.iter().map(|r| r.iterations).sum();
        format!("wall_ns={wall} cpu_ns={cpu} check={check}")
    });
}

fn main() {
    let args = parse_args();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .unwrap_or_else(|e| {
            eprintln!("rayon-bench: cannot build a pool of {} threads: {e}", args.threads);
            exit(1)
        });
    match args.workload.as_str() {
        "fib" => run_fib(&args, &pool),
        "increment-all" => run_increment_all(&args, &pool),
        "nbody" => run_nbody(&args, &pool),
        "quicksort" => run_quicksort(&args, &pool),
        "noop-spawn" => run_noop_spawn(&args, &pool),
        "idle" => run_idle(&args, &pool),
        "wake-latency" => run_wake_latency(&args, &pool),
        "install-roundtrip" => run_install_roundtrip(&args, &pool),
        "tree-sum" => run_tree_sum(&args, &pool),
        "frame-loop" => run_frame_loop(&args, &pool),
        "sort" => run_sort(&args, &pool),
        "stable-sort" => run_stable_sort(&args, &pool),
        "reduce" => run_reduce(&args, &pool),
        "transform" => run_transform(&args, &pool),
        "scan" => println!("skip Rayon has no parallel scan"),
        "find-first" => run_find_first(&args, &pool),
        "mandelbrot" => run_mandelbrot(&args, &pool),
        "wakeups" => println!("skip rayon exposes no sleep/wake-up counters"),
        // Boost.ForkJoin's fibers; the driver reports these as n/a without
        // asking, this is for a direct call.
        "park-unpark" | "spawn-future" => println!("skip Boost.ForkJoin only: rayon has no fibers"),
        "fence-modes" => println!("skip Boost.ForkJoin only: the fence mode is a pool option of the library"),
        other => {
            println!("skip unknown workload '{other}'");
        }
    }
}
