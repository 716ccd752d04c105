//! Compiling a C program with the runtime stub `tests/support/nondet_feed.c` (clang-22,
//! `-fno-finite-loops`) and running it on a [`Feed`] under a wall-clock bound and, for
//! step-counted builds, a bound on executed control-flow edges.

use super::feed::Feed;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The ways a program is built; all with `-fno-finite-loops` (C11 lets a compiler assume that
/// some loops terminate; that assumption must not decide a test about termination).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Build {
    /// `-O0`, every control-flow edge counted by the stub (`-fsanitize-coverage=trace-pc-guard`).
    StepCounted,
    /// As `StepCounted`, with UBSan aborting on the first report.
    StepCountedUbsan,
    /// `-O0` with UBSan aborting on the first report.
    Ubsan,
    /// `-O2` with UBSan: about 10-50x faster than `-O0` on tight loops, same defined behaviour.
    UbsanOptimised,
    /// `-O2`, no instrumentation: loops that end after up to ~2^33 iterations end within
    /// seconds (or are folded by clang), so a run still going after seconds is long.
    Optimised,
    /// `-O0` with ASan and UBSan (memory-safety violations).
    AsanUbsan,
    /// `-O2` with UBSan and `-DTC_LOOP_STEPS`: loop iterations of a generated program
    /// (`generated_c`, `TC_STEP()`) counted by the stub.
    LoopCountedUbsanOptimised,
    /// `-O0` with ASan, UBSan and `-DTC_LOOP_STEPS` (loop iterations counted as above).
    LoopCountedAsanUbsan,
}

impl Build {
    fn flags(self) -> &'static [&'static str] {
        const UBSAN: &str = "-fsanitize=undefined";
        const NO_RECOVER: &str = "-fno-sanitize-recover=all";
        const STEPS: &str = "-fsanitize-coverage=trace-pc-guard";
        const LOOPS: &str = "-DTC_LOOP_STEPS";
        match self {
            Build::StepCounted => &["-O0", STEPS],
            Build::StepCountedUbsan => &["-O0", UBSAN, NO_RECOVER, STEPS],
            Build::Ubsan => &["-O0", UBSAN, NO_RECOVER],
            Build::UbsanOptimised => &["-O2", UBSAN, NO_RECOVER],
            Build::Optimised => &["-O2"],
            Build::AsanUbsan => &["-O0", "-fsanitize=address,undefined", NO_RECOVER],
            Build::LoopCountedUbsanOptimised => &["-O2", UBSAN, NO_RECOVER, LOOPS],
            Build::LoopCountedAsanUbsan => &["-O0", "-fsanitize=address,undefined", NO_RECOVER, LOOPS],
        }
    }

    /// Flags for the stub object (no coverage: the stub's own edges are not program steps).
    fn stub_flags(self) -> &'static [&'static str] {
        match self {
            Build::StepCounted | Build::Optimised => &[],
            Build::StepCountedUbsan | Build::Ubsan | Build::UbsanOptimised | Build::LoopCountedUbsanOptimised => {
                &["-fsanitize=undefined"]
            }
            Build::AsanUbsan | Build::LoopCountedAsanUbsan => &["-fsanitize=address,undefined"],
        }
    }

    /// Whether the build links a sanitizer runtime (linked as a shared library when
    /// [`Native`] found clang's runtime folder, see [`Native::compile`]).
    fn sanitized(self) -> bool {
        !matches!(self, Build::StepCounted | Build::Optimised)
    }

    fn name(self) -> &'static str {
        match self {
            Build::StepCounted => "steps",
            Build::StepCountedUbsan => "steps_ubsan",
            Build::Ubsan => "ubsan",
            Build::UbsanOptimised => "ubsan_o2",
            Build::Optimised => "o2",
            Build::AsanUbsan => "asan_ubsan",
            Build::LoopCountedUbsanOptimised => "loops_ubsan_o2",
            Build::LoopCountedAsanUbsan => "loops_asan_ubsan",
        }
    }
}

/// How a native run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The process was still running at the wall-clock bound (then killed).
    StillRunning,
    /// The stub stopped the run after the step bound (`TC_STEP_BOUND` edges).
    StepBoundReached,
    /// The run used up its CPU-time bound (`RLIMIT_CPU`, ended by SIGXCPU): still running
    /// after that much computation, whatever the machine's load.
    CpuBoundReached,
    /// A sanitizer reported an error (first report line).
    SanitizerReport(String),
    /// The stub ended the run: inputs exhausted, type mismatch or bad feed (its message).
    FeedStop(String),
    /// The program ended by itself (exit code, or `None` for a signal).
    Terminated(Option<i32>),
}

/// One native run.
#[derive(Clone, Debug)]
pub struct NativeRun {
    pub ending: Ending,
    pub elapsed: Duration,
    pub stderr: String,
}

/// Compiler and stub objects in a private temporary folder; shared by all checks of a test.
pub struct Native {
    dir: tempfile::TempDir,
    clang: PathBuf,
    /// clang's sanitizer runtime folder (`-print-runtime-dir`) when it holds the shared
    /// runtimes: sanitized builds then link them with `-shared-libsan` and find them at run
    /// time through an rpath to this folder.
    shared_runtime: Option<PathBuf>,
    stubs: std::sync::Mutex<std::collections::HashMap<&'static str, PathBuf>>,
    /// Executables already built, by source text and build: the checks of one answer that
    /// need the same build (a NO witness's `-O0` look and a violation's run) share it.
    built: std::sync::Mutex<std::collections::HashMap<(PathBuf, String, Build), PathBuf>>,
    counter: std::sync::atomic::AtomicUsize,
}

/// `tests/support/nondet_feed.c`.
pub fn stub_source() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("support/nondet_feed.c")
}

fn find_clang() -> Result<PathBuf, String> {
    for candidate in ["clang-22", "/usr/bin/clang-22", "/usr/lib/llvm-22/bin/clang"] {
        if Command::new(candidate).arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success()) {
            return Ok(PathBuf::from(candidate));
        }
    }
    Err("clang-22 not found (run scripts/setup.sh)".to_string())
}

/// clang's runtime folder if it holds the shared ASan and UBSan runtimes.
fn shared_runtime_dir(clang: &Path) -> Option<PathBuf> {
    let out = Command::new(clang).arg("-print-runtime-dir").output().ok().filter(|o| o.status.success())?;
    let dir = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    let has = |name: &str| std::fs::read_dir(&dir).ok().is_some_and(|mut entries| entries.any(|e| e.is_ok_and(|e| e.file_name().to_str().is_some_and(|f| f.starts_with(name) && f.ends_with(".so")))));
    (has("libclang_rt.asan") && has("libclang_rt.ubsan_standalone")).then_some(dir)
}

impl Native {
    pub fn new() -> Result<Self, String> {
        let clang = find_clang()?;
        Ok(Native {
            dir: tempfile::tempdir().map_err(|e| format!("temporary folder: {e}"))?,
            shared_runtime: shared_runtime_dir(&clang),
            clang,
            stubs: Default::default(),
            built: Default::default(),
            counter: Default::default(),
        })
    }

    /// As [`Native::new`], linking the sanitizer runtimes statically (clang's default): the
    /// reference the shared runtimes are measured and tested against.
    pub fn with_static_runtimes() -> Result<Self, String> {
        Ok(Native { shared_runtime: None, ..Native::new()? })
    }

    fn clang(&self, args: &[&str]) -> Result<(), String> {
        let out = Command::new(&self.clang).args(args).output().map_err(|e| format!("cannot run clang: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!("clang {} failed: {}", args.join(" "), String::from_utf8_lossy(&out.stderr)))
        }
    }

    fn stub(&self, build: Build) -> Result<PathBuf, String> {
        let mut stubs = self.stubs.lock().map_err(|_| "stub cache poisoned".to_string())?;
        if let Some(path) = stubs.get(build.name()) {
            return Ok(path.clone());
        }
        let object = self.dir.path().join(format!("nondet_feed_{}.o", build.name()));
        let source = stub_source();
        let mut args = vec!["-O0", "-w", "-c", source.to_str().ok_or("non-UTF-8 path")?, "-o"];
        args.push(object.to_str().ok_or("non-UTF-8 path")?);
        args.extend(build.stub_flags());
        self.clang(&args)?;
        stubs.insert(build.name(), object.clone());
        Ok(object)
    }

    /// Whether sanitized builds link the shared sanitizer runtimes.
    pub fn links_shared_runtimes(&self) -> bool {
        self.shared_runtime.is_some()
    }

    /// How many executables were built so far.
    pub fn builds(&self) -> usize {
        self.counter.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Compiles `source` with the stub; returns the executable. A source already built the
    /// same way (same path and text) is not built again.
    ///
    /// Sanitized builds link the shared sanitizer runtime when clang has it (`-shared-libsan`,
    /// with an rpath to clang's runtime folder): linking the static ASan runtime is most of a
    /// build's time, and the shared one behaves the same (the same checks and reports).
    pub fn compile(&self, source: &Path, build: Build) -> Result<PathBuf, String> {
        let text = std::fs::read_to_string(source).map_err(|e| format!("cannot read {}: {e}", source.display()))?;
        let key = (source.to_path_buf(), text, build);
        if let Some(exe) = self.built.lock().map_err(|_| "build cache poisoned".to_string())?.get(&key) {
            return Ok(exe.clone());
        }
        let stub = self.stub(build)?;
        let n = self.counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let stem = source.file_stem().and_then(|s| s.to_str()).unwrap_or("program");
        let exe = self.dir.path().join(format!("{stem}_{}_{n}", build.name()));
        let mut args = vec!["-fno-finite-loops", "-w", "-g"];
        args.extend(build.flags());
        args.extend([source.to_str().ok_or("non-UTF-8 path")?, stub.to_str().ok_or("non-UTF-8 path")?, "-o"]);
        args.push(exe.to_str().ok_or("non-UTF-8 path")?);
        let rpath;
        if let Some(dir) = self.shared_runtime.as_ref().filter(|_| build.sanitized()) {
            rpath = format!("-Wl,-rpath,{}", dir.to_str().ok_or("non-UTF-8 path")?);
            args.extend(["-shared-libsan", &rpath]);
        }
        self.clang(&args)?;
        self.built.lock().map_err(|_| "build cache poisoned".to_string())?.insert(key, exe.clone());
        Ok(exe)
    }
}

/// First line of a sanitizer report in `stderr`, if any.
pub fn sanitizer_report(stderr: &str) -> Option<String> {
    stderr
        .lines()
        .find(|l| l.contains("runtime error:") || l.contains("ERROR: AddressSanitizer") || l.contains("ERROR: LeakSanitizer") || l.contains("ERROR: UndefinedBehaviorSanitizer"))
        .map(|l| l.trim().to_string())
}

/// Runs `exe` on `feed` until it ends, `wall` passes, or `steps` steps ran (edges in
/// step-counted builds, loop iterations in loop-counted ones).
pub fn run(exe: &Path, feed: &Feed, wall: Duration, steps: Option<u64>) -> Result<NativeRun, String> {
    run_bounded(exe, feed, wall, steps, None)
}

/// [`run`] with a bound of `cpu_seconds` of CPU time (`RLIMIT_CPU`): a run that computes that
/// long ends as [`Ending::CpuBoundReached`], however loaded the machine is.
pub fn run_bounded(exe: &Path, feed: &Feed, wall: Duration, steps: Option<u64>, cpu_seconds: Option<u64>) -> Result<NativeRun, String> {
    let mut cmd = Command::new(exe);
    cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::piped()).process_group(0);
    if let Some(seconds) = cpu_seconds {
        // SAFETY: setrlimit is async-signal-safe and only touches the child's limits.
        unsafe {
            cmd.pre_exec(move || {
                let limit = libc::rlimit { rlim_cur: seconds, rlim_max: seconds + 5 };
                if libc::setrlimit(libc::RLIMIT_CPU, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    // Long input lists go through files: one environment variable may hold at most 128 KiB.
    let mut list_files = Vec::new();
    for (key, value) in feed.env() {
        if value.len() > 4096 {
            let mut file = tempfile::NamedTempFile::new().map_err(|e| format!("cannot create an input file: {e}"))?;
            std::io::Write::write_all(&mut file, value.as_bytes()).map_err(|e| format!("cannot write an input file: {e}"))?;
            cmd.env(format!("{key}_FILE"), file.path());
            list_files.push(file);
        } else {
            cmd.env(key, value);
        }
    }
    cmd.env("TC_STEP_BOUND", steps.unwrap_or(0).to_string())
        .env("UBSAN_OPTIONS", "print_stacktrace=0:halt_on_error=1")
        .env("ASAN_OPTIONS", "detect_leaks=0:abort_on_error=0:detect_stack_use_after_return=1");
    let start = Instant::now();
    let mut child = cmd.spawn().map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    let mut pipe = child.stderr.take().ok_or("no stderr pipe")?;
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    });
    let mut killed = false;
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if start.elapsed() >= wall {
            kill_group(&mut child);
            killed = true;
            break child.wait().map_err(|e| e.to_string())?;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let elapsed = start.elapsed();
    let stderr = reader.join().map_err(|_| "stderr reader panicked".to_string())?;
    let ending = if let Some(report) = sanitizer_report(&stderr) {
        Ending::SanitizerReport(report)
    } else if killed {
        Ending::StillRunning
    } else if cpu_seconds.is_some() && std::os::unix::process::ExitStatusExt::signal(&status) == Some(libc::SIGXCPU) {
        Ending::CpuBoundReached
    } else if stderr.contains("nondet_feed: step bound reached") && status.code() == Some(77) {
        Ending::StepBoundReached
    } else if stderr.lines().any(|l| l.starts_with("nondet_feed:") && !l.contains("assumption false")) {
        let lines: Vec<&str> = stderr.lines().filter(|l| l.starts_with("nondet_feed:")).collect();
        Ending::FeedStop(lines.join(" / "))
    } else {
        Ending::Terminated(status.code())
    };
    Ok(NativeRun { ending, elapsed, stderr })
}

/// Kills the child's process group (the child leads its own group).
fn kill_group(child: &mut Child) {
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: plain syscall on the process group created for this child.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
}
