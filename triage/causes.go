package triage

import (
	"regexp"
	"slices"
	"strings"
)

// Known causes. Tools print one cause in many sentences: a browser tab that
// ran out of memory is "Page crashed!" to Puppeteer, "Target crashed" to
// Playwright and "Aw, Snap" to a screenshot; a full disk is ENOSPC, "[Errno
// 28]" or "No space left on device". Template mining groups sentences that
// share their words, not sentences that share their meaning, so a cause the
// tools word differently would split into a mode per tool wording. A known
// cause names such a cause once, with the phrasings of the tools that print
// it, and every failure of its primitive whose signature says one of them
// joins one mode, whatever else the line holds.
//
// A known cause is as narrow as what a team would fix in one go. A heap
// exhausted in Node and one in a JVM are two causes (two runtimes, two
// limits to raise); a name that curl and npm cannot resolve is one, the
// sandbox's resolver. Joining the runtimes' memory causes lowered the
// grouping's agreement with blind labels on 16 real sets; joining the DNS
// causes raised it on 15 and lowered it on 2.

// KnownCause is a cause that tools word in many ways.
type KnownCause struct {
	// Name is the cause's stable key; mode ids are made of it.
	Name string
	// Primitive is the only primitive whose failures it groups.
	Primitive string
	// Title names the mode for people. It keeps the words severity reads
	// ("heap out of memory", "traversal"), so that a cause rates as its
	// sentences would.
	Title string
	re    *regexp.Regexp
	// unless, when set, is words that say another cause on the line the
	// cause was said on: a TLS library's error that timed out is a
	// stalled connection, not a certificate refused.
	unless *regexp.Regexp
	// exitCodes are exit codes that say the cause when the message does
	// not: a shell's 137 is the OOM killer's SIGKILL.
	exitCodes []int64
}

func known(name, primitive, title, re string, exitCodes ...int64) KnownCause {
	return KnownCause{Name: name, Primitive: primitive, Title: title, re: regexp.MustCompile(re), exitCodes: exitCodes}
}

// unlessSaid returns a copy of c that a line matching re does not say;
// it takes a value, as known does, to build the table.
func (c KnownCause) unlessSaid(re string) KnownCause {
	c.unless = regexp.MustCompile(re)
	return c
}

// says reports whether text says c. The words that say another cause
// are looked for on the line c was said on, not on every suspect line of
// a traceback (a source line's `timeout=30` says nothing).
func (c *KnownCause) says(text string) bool {
	if c.unless == nil {
		return c.re.MatchString(text)
	}
	loc := c.re.FindStringIndex(text)
	return loc != nil && !c.unless.MatchString(lineAt(text, loc))
}

// knownCausePrefix starts the signature of a failure of a known cause.
const knownCausePrefix = "[known:"

// Signature is the failure-mode signature of every failure of c: its name,
// which the miner takes as a single token, and its title.
func (c *KnownCause) Signature() string { return knownCausePrefix + c.Name + "] " + c.Title }

// KnownCauseOf returns the name and title of the known cause of a
// signature, and false for a signature of no known cause.
func KnownCauseOf(signature string) (name, title string, ok bool) {
	rest, found := strings.CutPrefix(signature, knownCausePrefix)
	if !found {
		return "", "", false
	}
	name, title, found = strings.Cut(rest, "] ")
	if !found || name == "" || strings.ContainsAny(name, " ]") {
		return "", "", false
	}
	return name, title, true
}

// knownCauses are tried in order within a primitive; a narrower cause comes
// before a wider one that would also match its sentences (pip's retries
// before Python's resolver errors, CUDA before other allocations).
var knownCauses = []KnownCause{
	// sandbox/memory
	known("browser-renderer-crashed", "memory", "Browser renderer crashed: Page crashed / Target crashed",
		`(?i)Abnormal renderer termination|\b(page|target|tab|renderer)( process)? (has )?crashed|page crash\b|/dev/shm|dev-shm-usage|Aw, Snap|RESULT_CODE_KILLED|SBOX_FATAL_MEMORY|renderer (process )?(is )?(gone|was killed)|_onTargetCrashed|ERR_RENDERER_CRASHED|FATAL:memory\.cc`),
	known("shared-memory-exhausted", "memory", "Shared memory (/dev/shm) too small: insufficient shared memory",
		`(?i)use '--shm-size' flag|shared memory pool size|insufficient shared memory|out of shared memory|shared memory \(shm\)|\bBus error\b|unable to write to file </torch_|SemLock`),
	// XLA's allocator (JAX's, TensorFlow's) out of memory is the
	// accelerator's, as the accelerator-oom rule reads it, not the host's
	// ENOMEM.
	known("gpu-out-of-memory", "memory", "GPU out of memory: CUDA out of memory",
		`(?i)CUDA out of memory|CUDA error: out of memory|cudaErrorMemoryAllocation|CUBLAS_STATUS_ALLOC_FAILED|CUDNN_STATUS_ALLOC_FAILED|OutOfMemoryError: CUDA|HIP out of memory|MPS backend out of memory|RESOURCE_EXHAUSTED: OOM when allocating|(?:RESOURCE_EXHAUSTED|Resource exhausted): Out of memory (?:while trying to )?allocat`),
	known("node-heap-exhausted", "memory", "Node.js: JavaScript heap out of memory",
		`(?i)JavaScript heap out of memory|Reached heap limit|Last few GCs|Ineffective mark-compacts|OOMErrorHandler|FatalProcessOutOfMemory|CALL_AND_RETRY_LAST Allocation failed|Allocation failed - process out of memory`),
	known("jvm-heap-exhausted", "memory", "JVM: java.lang.OutOfMemoryError: Java heap space",
		`(?i)java\.lang\.OutOfMemoryError|Java heap space|GC overhead limit exceeded|OutOfMemoryError: Metaspace|unable to create native thread: possibly out of memory|heap space is exhausted`),
	known("go-runtime-out-of-memory", "memory", "Go runtime: out of memory",
		`(?i)fatal error: runtime: out of memory|runtime: cannot allocate memory`),
	known("cpp-bad-alloc", "memory", "C++: std::bad_alloc",
		`(?i)std::bad_alloc|bad_alloc`),
	known("duckdb-out-of-memory", "memory", "DuckDB out of memory: could not allocate block",
		`(?i)Out of Memory Error|duckdb[^\n]*OutOfMemory`),
	known("python-memoryerror", "memory", "Python: MemoryError: unable to allocate",
		`(?i)Unable to allocate [^\n]*(for an )?array|ArrayMemoryError|_ArrayMemoryError|\bMemoryError\b`),
	// A fork refused reads before any other allocation refused: it names
	// the call.
	known("fork-enomem", "memory", "fork refused: Cannot allocate memory",
		`(?i)`+forkENOMEM),
	known("allocation-refused", "memory", "Allocation refused: Cannot allocate memory (ENOMEM)",
		`(?i)Cannot allocate memory|\bENOMEM\b|\[Errno 12\]|mmap failed|failed to map segment|out of memory allocating`),
	known("build-daemon-killed", "memory", "Build daemon killed: Gradle build daemon disappeared unexpectedly",
		`(?i)DaemonDisappearedException|daemon (has )?disappeared|Gradle build daemon disappeared`),
	known("oom-killed", "memory", "Process killed for memory: SIGKILL (exit 137)",
		`(?i)\bOOMKilled\b|oom[-_ ]?kill|Out of memory: Kill(ed)? process|memory cgroup out of memory|\bexit(ed)? (with )?(code|status):? ?137\b|\bcode 137\b|\bstatus 137\b|\b137\b|\bSIGKILL\b|\bsignal:? 9\b|(?-i:\bKilled\b)|signal terminated program`,
		137, -9),

	// sandbox/session-lifecycle
	known("container-not-found", "session-lifecycle", "Container not found: No such container",
		`(?i)No such container|could not get container|container [^\n]{0,80}(not found|does not exist)`),
	known("container-not-running", "session-lifecycle", "Container is not running: exec refused",
		`(?i)container [^\n]{0,80}is not running|is not running[^\n]{0,40}container|`+runcExecStopped+`|container [^\n]{0,40}is (restarting|paused)`),
	known("sandbox-gone", "session-lifecycle", "Sandbox expired or not found",
		`(?i)`+sandboxWord+`[^\n]{0,60}\b(not found|expired|does not exist|no longer exists|was terminated|has been (killed|terminated|deleted)|timed out)|SandboxNotFound|SandboxExpired|SessionExpired|session[^\n]{0,60}\b(expired|not found|no longer exists|does not exist)|due to sandbox timeout`),
	known("cdp-session-closed", "session-lifecycle", "Browser DevTools session closed: Protocol error: Session closed",
		`(?i)Protocol error[^\n]*(Session|Target|Connection) closed|(Session|Connection) closed\. Most likely|Session with given id not found|No target with given id|Cannot find context with specified id`),
	known("notebook-kernel-gone", "session-lifecycle", "Notebook kernel gone: Kernel does not exist",
		`(?i)Kernel does not exist|Exception restarting kernel`),
	known("remote-browser-timed-out", "session-lifecycle", "Remote browser session timed out: WebSocket closed",
		`(?i)Job has timed-?out|WebSocket is not open|session timed out`),
	known("browser-closed", "session-lifecycle", "Browser closed under automation: Target page, context or browser has been closed",
		`(?i)Target page, context or browser has been closed|browser has (been closed|disconnected)|Browser closed|Target closed|page has been closed|context has been closed|no such window`),
	known("notebook-kernel-died", "session-lifecycle", "Notebook kernel died: Kernel died before replying",
		`(?i)Kernel died|Kernel crashed|Kernel has died|DeadKernelError|Kernel didn't respond|kernel (is dead|died|restarting)|kernel_info`),

	// sandbox/network-egress
	known("browser-navigation-timeout", "cpu-time", "Browser navigation timeout: page.goto timed out",
		`(?i)navigation timeout|\.goto: Timeout|goto: navigation timeout|Timeout [^\n]*exceeded[^\n]*navigat|waiting for navigation`),
	known("proxy-tunnel-refused", "network-egress", "Browser or client proxy tunnel refused: Tunnel connection failed",
		`(?i)ERR_TUNNEL_CONNECTION_FAILED|ERR_PROXY_CONNECTION_FAILED|ERR_PROXY_AUTH|Tunnel connection failed|Cannot connect to proxy|ProxyError|Proxy Authentication Required|CONNECT tunnel failed|Proxy CONNECT aborted|Unable to connect to proxy|\b407\b|tunneling socket could not be established`),
	known("tls-verification-failed", "network-egress", "TLS handshake or certificate check failed",
		`(?i)CERTIFICATE_VERIFY_FAILED|certificate verify failed|SSLError|SSL: |x509: |ERR_CERT_|SSL_ERROR_|unable to get local issuer certificate|self[- ]signed certificate|UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|PKIX path building failed|SunCertPathBuilderException|tls: failed to verify|certificate has expired|invalid peer certificate|UnknownIssuer`).
		unlessSaid(`(?i)timed out|\btimeout\b(?:[^=]|$)|\bE(?:SOCKET)?TIMEDOUT\b`),
	known("egress-ip-rate-limited", "network-egress", "Rate limited by the API for the shared egress IP: API rate limit exceeded",
		`(?i)toomanyrequests|pull rate limit|API rate limit exceeded|secondary rate limit|Too Many Requests|\b429\b|rate limit exceeded for \d`),
	known("huggingface-hub-unreachable", "network-egress", "Hugging Face Hub unreachable: cannot download the model",
		`(?i)huggingface\.co|huggingface_hub|HF_HUB_OFFLINE|run the library in offline mode`),
	known("pip-index-unreachable", "network-egress", "pip cannot reach the package index",
		`(?i)Retrying \(Retry\(|retrying after connection broken|Could not find a version that satisfies the requirement|No matching distribution found|pip[^\n]*(NewConnectionError|Failed to establish|name resolution|ProxyError)|/simple/[^\n]*(Errno|Error)|pythonhosted|pypi\.org`),
	known("npm-registry-unreachable", "network-egress", "npm cannot reach the registry: connect ETIMEDOUT / fetch failed",
		`(?i)npm (ERR!|error)[^\n]*(ETIMEDOUT|ESOCKETTIMEDOUT|ECONNRESET|fetch failed|network|request to [^\n]* failed)|registry\.(npmjs|yarnpkg)[^\n]*(ETIMEDOUT|ECONNRESET|timed out)|\bconnect ETIMEDOUT\b|ESOCKETTIMEDOUT|ERR_SOCKET_TIMEOUT`),
	// A name the sandbox cannot resolve is one fault of its resolver, whichever
	// tool asked: Chromium, Node.js, curl, Go, Python, Java, apt.
	known("dns-lookup-failed", "network-egress", "DNS lookup failed in the sandbox: cannot resolve host names",
		`(?:ERR_NAME_NOT_RESOLVED|ERR_NAME_RESOLUTION_FAILED)|(?:getaddrinfo|\bEAI_AGAIN\b|\bENOTFOUND\b|(?i)\bcode EAI_)|(?:curl: \(6\)|(?i)Could not resolve (host|proxy)|Resolving timed out)|(?:(?i)dial tcp: lookup |: no such host\b|server misbehaving)|(?:(?i)Temporary failure in name resolution|Name or service not known|nodename nor servname|No address associated with hostname|\[Errno -[235]\]|gaierror|NameResolutionError|Failed to resolve ')|(?:UnknownHostException)|(?:(?i)Temporary failure resolving|Could not resolve ')`),
	known("connection-refused", "network-egress", "Connection refused by the host",
		`(?i)Connection refused|\bECONNREFUSED\b|curl: \(7\)|cURL error 7|Failed to connect to [^\n]* port|\[Errno 111\]|ConnectionRefusedError|ERR_CONNECTION_REFUSED`),
	known("network-unreachable", "network-egress", "Network is unreachable from the sandbox",
		`(?i)Network is unreachable|\bENETUNREACH\b|\[Errno 101\]|No route to host|\bEHOSTUNREACH\b|\[Errno 113\]|ERR_INTERNET_DISCONNECTED|ERR_ADDRESS_UNREACHABLE`),

	// sandbox/package-path
	// A locale that is named but not installed is a warning about the
	// image, not mangled text.
	known("locale-not-installed", "package-path", "Locale not installed: Setting locale failed",
		`(?i)Setting locale failed|setlocale: LC_\w+: cannot change locale|Cannot set LC_\w+ to default locale`),
	known("exec-format-error", "package-path", "Binary built for another architecture: exec format error",
		`(?i)exec format error|\bENOEXEC\b|\[Errno 8\]|cannot execute binary file`),
	known("tk-no-display", "package-path", "Tk needs an X display: no display name and no $DISPLAY",
		`(?i)_tkinter\.TclError|no display name and no \$DISPLAY`),
	known("qt-no-display", "package-path", "Qt needs an X display: could not connect to display",
		`(?i)QXcbConnection|Could not connect to display|cannot connect to X server|qt\.qpa\.xcb`),
	known("gtk-no-display", "package-path", "GTK or Electron needs an X display: cannot open display",
		`(?i)cannot open display|Unable to open X display|you may need xvfb|Missing X server`),
	known("latex-package-missing", "package-path", "LaTeX package not installed: .sty not found",
		`(?i)LaTeX Error: File [^\n]*not found|\.sty'? not found|tlmgr install`),
	known("font-missing", "package-path", "Font not installed: findfont: Font family not found",
		`(?i)findfont:|missing from current font|font family [^\n]*not found`),
	known("python-module-missing", "package-path", "Python module not installed: No module named",
		`(?i)ModuleNotFoundError|No module named|Missing optional dependency '`),
	known("glibc-too-old", "package-path", "C library older than the binary needs: version GLIBC_x not found",
		`(?i)version .(GLIBC_[^'\s]*|<name>)' not found|requires GLIBC\s*>=?`),
	known("chromedriver-version-mismatch", "package-path", "ChromeDriver and Chrome versions differ: only supports Chrome version",
		`(?i)only supports Chrome version|This version of ChromeDriver`),
	// Mesa's loader without its GL driver (swrast, a DRI or GBM module)
	// is the image's graphics stack, which one package fixes, not the
	// libraries beside it: in the 4 blind sets that hold both, 62 more
	// pairs of one mode are two causes than one. Of "failed to load
	// driver", only libGL's and libEGL's software rasterizer is a driver
	// not installed: a database's or a printer's driver is not Mesa's,
	// and a GPU's (iris, i965) is as often its device refused.
	known("mesa-driver-missing", "package-path", "Mesa GL driver not installed: MESA-LOADER: failed to open swrast",
		`(?i)(?:libGL|libEGL)[^\n]{0,20}failed to load driver: swrast\b|MESA-LOADER: failed to open \w+|_dri\.so\b`),
	known("shared-library-missing", "package-path", "Shared library missing: cannot open shared object file",
		`(?i)error while loading shared libraries|`+muslLibraryMissing+`|cannot open shared object file|Library not loaded|DLL load failed|Host system is missing (a few )?dependencies|missing dependencies to run browsers|install-deps|image not found|GLIBC_[0-9.]+' not found`),
	known("c-header-missing", "package-path", "C header missing for a native build: Python.h: No such file or directory",
		`(?i)\.h: No such file or directory|fatal error: [\w/.+-]+\.h\b|\bPython\.h\b`),
	known("browser-binary-missing", "package-path", "Browser binary not installed: Executable doesn't exist",
		`(?i)Executable doesn't exist|browserType\.launch: Executable|distribution \S+ is not found|playwright install|Could not find (expected )?(Chrome|Chromium|browser)|Failed to launch [^\n]*(no such file|ENOENT)|Browser was not found`),
	known("node-module-missing", "package-path", "Node.js module not installed: Cannot find module",
		`Cannot find module|ERR_MODULE_NOT_FOUND`),
	known("java-class-missing", "package-path", "Java class not on the classpath: ClassNotFoundException",
		`ClassNotFoundException|NoClassDefFoundError|Could not find or load main class`),
	// A compiler or linker the image lacks is one cause with any other
	// program it lacks: all 4 development halves that hold both label
	// them one.
	known("program-missing", "package-path", "Program not found when spawned: No such file or directory (ENOENT)",
		`(?i)linker [^\n]{0,20}not found|ld: cannot find|cannot find -l\w|unable to find (a )?(C )?compiler|No CMAKE_C?X*_COMPILER could be found|\b(gcc|cc|g\+\+|clang|make): (command )?not found|\b(gcc|cc|g\+\+|clang|make)`+commandNotFoundAfterName+`|error: linking with|\(spawning a compiler\)|`+programNotFound+`|executable file not found|\bENOENT\b|error=2\b|\[Errno 2\]|\[WinError 2\]|os error 2\b|No such file or directory|Cannot run program|cannot find the file specified`),
	known("shell-command-missing", "package-path", "Command not found in the shell",
		`(?im)command not found|`+commandNotFoundTranslated+`|: not found\s*$|is not recognized as an internal or external command`),

	// sandbox/filesystem-permissions
	known("noexec-mount", "filesystem-permissions", "Mount forbids executing: failed to map segment from shared object",
		`(?i)failed to map segment from shared object|\bnoexec\b`),
	known("read-only-filesystem", "filesystem-permissions", "Read-only file system",
		`(?i)Read-only file\s+system|\bEROFS\b|\[Errno 30\]`),
	known("no-writable-tmpdir", "filesystem-permissions", "No usable temporary directory",
		`(?i)No usable temporary directory`),
	known("site-packages-not-writable", "filesystem-permissions", "site-packages is not writable: pip cannot install",
		`(?i)Could not install packages due to an (EnvironmentError|OSError)|site-packages|dist-packages|/lib/python[0-9.]*/|/Library/Python/|--user install`),
	known("npm-eacces", "filesystem-permissions", "npm / Node.js: EACCES: permission denied",
		`(?i)npm (ERR!|error)[^\n]*EACCES|EACCES: permission denied, (mkdir|open|rename|symlink|access|unlink|scandir|rmdir|copyfile)`),
	// Docker's socket refused to the sandbox's user is one fix (the
	// user joins the socket's group, or the socket is not mounted), not
	// the file permissions beside it: in the 13 blind sets that hold both,
	// 221 pairs of a socket refusal and another permission denial are two
	// causes and 21 are one. The signature keeps the socket's name
	// (normalize.go), so another daemon's socket is not Docker's.
	known("docker-socket-denied", "filesystem-permissions", "Docker socket refused: permission denied on /var/run/docker.sock",
		`(?i)docker\.sock(?:[^.\w]|$)|Docker daemon socket|docker API at\b|Error while fetching server API version: [^\n]*Permission`),
	known("permission-denied", "filesystem-permissions", "Permission denied on a file: EACCES",
		`(?i)Permission denied|\bEACCES\b|\[Errno 13\]|Operation not permitted|\bEPERM\b|\[Errno 1\]|AccessDenied|access (is )?denied|UnauthorizedAccess|not permitted|insufficient permissions`),

	// sandbox/storage-persistence
	known("ephemeral-storage-eviction", "storage-persistence", "Evicted for ephemeral storage: the node was low on ephemeral-storage",
		`(?i)ephemeral-storage|ephemeral local storage`),
	known("stored-file-truncated", "storage-persistence", "Stored file cut short: failed finding central directory, ended before the end-of-stream marker",
		`(?i)failed finding central directory|PytorchStreamReader failed reading|BadZipFile|File is not a zip file|Compressed file ended before the end-of-stream|Not a gzipped file|unexpected end of (compressed|gzip)|truncated file: eof|pickle data was truncated|Unexpected EOF in archive|invalid compressed data--format violated`),
	known("mount-disconnected", "storage-persistence", "Mounted volume disconnected: Transport endpoint is not connected",
		`(?i)Transport endpoint is not connected|\[Errno 107\]|\bENOTCONN\b`),
	known("sqlite-locked", "storage-persistence", "SQLite database is locked: network volume",
		`(?i)database is locked|SQLITE_BUSY`),
	known("sqlite-corrupted", "storage-persistence", "SQLite file corrupted: database disk image is malformed",
		`(?i)database disk image is malformed|SQLITE_CORRUPT|file is not a database`),
	// A database's write-ahead log that does not replay was cut or
	// garbled when the session holding it was killed: the rows it held
	// are gone.
	known("wal-replay-failed", "storage-persistence", "Database write-ahead log corrupt: Failure while replaying WAL",
		`(?i)Corrupt WAL file|Failure while replaying WAL|WAL file[^\n]{0,40}\b(corrupt|checksum)|(corrupt|invalid)(ed)? (WAL|write-ahead log)`),
	// A disk that is full, a quota that is used up and SQLite's "database
	// or disk is full" are one cause to the people who fix it: of the 8
	// blind sets that hold a full disk and a quota, 6 label them one cause,
	// and both sets with SQLite's words beside a full disk do. Errno 28
	// is one unless "Invalid argument" follows (errno28Full). So are an
	// Android device too full to install a package, and apt's and
	// Postfix's disk without the free space they need.
	known("disk-full", "storage-persistence", "Disk full: No space left on device",
		`(?i)No space left on device|`+floodStageBlocked+`|failed to offload data block|max_temp_directory_size|\bENOSPC\b|`+errno28Full+`|Disk quota exceeded|\bEDQUOT\b|\[Errno 122\]|database or disk is full|SQLITE_FULL|\bINSTALL_FAILED_INSUFFICIENT_STORAGE\b|`+notEnoughFreeSpace),
	// Before the missing file: "magic bytes not found" is a file that
	// is there but is not what was written.
	known("data-file-corrupted", "storage-persistence", "Data file corrupted: Parquet magic bytes not found or corrupt footer",
		`(?i)`+corruptParquet),
	// Before the missing file: a report that the files are gone is data
	// lost without an error, which a loud ENOENT is not.
	known("files-lost", "storage-persistence", "Files written earlier were lost: they disappeared",
		`(?i)`+filesLost),
	known("file-missing", "storage-persistence", "File missing after it was written: No such file or directory",
		`(?i)No such file or directory|FileNotFoundError|\bENOENT\b|\[Errno 2\]|NoSuchFile|FileNotFound|does not exist|no longer exists|file not found|could not find (the )?file|missing after|not found`),

	// sandbox/process-spawn
	// inotify's watch limit (the sysctl fs.inotify.max_user_watches) is
	// another limit than the process's open files (ulimit -n): in the 10
	// blind sets that hold both, 157 pairs are two causes and 11 are one.
	// A line that says EMFILE is the open files, whatever sysctl its hint
	// names.
	known("inotify-watch-limit", "process-spawn", "File watcher limit reached: ENOSPC: System limit for number of file watchers",
		`(?i)`+inotifyWatchLimit).unlessSaid(`(?i)` + descriptorLimit),
	// Its inotify is the instances' limit (inotify_init out of
	// descriptors), which the watches' does not say.
	known("fd-limit", "process-spawn", "Open file limit reached: EMFILE: too many open files",
		`(?i)`+descriptorLimit+`|inotify`),
	known("chromium-root-no-sandbox", "process-spawn", "Chromium as root needs --no-sandbox",
		`(?i)without --no-sandbox|--no-sandbox is not supported`),
	known("seccomp-blocks-apt-verification", "process-spawn", "Syscall filter breaks apt's signature check: invalid signature",
		`(?i)At least one invalid signature was encountered|Couldn't create temporary file /tmp/apt|gpgv, gpgv2 or gpgv1 required|is not signed`),
	// Node refusing to spawn with an argument list over the kernel's
	// limit, or a command line over Windows' (ENAMETOOLONG): the
	// labellers called it the spawn's, and kept its records one cause.
	known("spawn-argument-list-too-long", "process-spawn", "Spawn refused, argument list too long: spawn E2BIG",
		spawnE2BIG),
	known("thread-or-process-limit", "process-spawn", "Thread or process limit reached: can't start new thread / fork: Resource temporarily unavailable",
		`(?i)can't start new[ \t]+thread|pthread_create|Resource temporarily unavailable|\bEAGAIN\b|\[Errno 11\]|RLIMIT_NPROC|Too many processes|pids limit|pids controller|reached its process limit|fork: retry|BlockingIOError|unable to create (new )?native thread|thread failed to start`),
	known("chromium-sandbox-unavailable", "process-spawn", "Chromium's sandbox cannot start: No usable sandbox",
		`(?i)No usable sandbox|Chromium sandboxing failed|Failed to move to new namespace|zygote_host_impl_linux|SUID sandbox helper|setuid sandbox|ZygoteHostImpl`),
	known("namespace-denied", "process-spawn", "Namespace creation denied: Operation not permitted",
		`(?i)namespac|unshare|CLONE_NEW|clone\(\) failed|user_namespaces`),
	known("seccomp-blocked-syscall", "process-spawn", "Syscall blocked by seccomp: Bad system call (SIGSYS)",
		`(?i)seccomp|Bad system call|\bSIGSYS\b|cannot start a stopped process|Failed to fdwalk|Failed to close file descriptor for child process`,
		159, -31),

	// sandbox/cpu-time
	known("mcp-request-timeout", "cpu-time", "MCP request timed out (-32001)",
		`(?i)`+mcpRequestTimeout+`|`+mcpTimeoutCode),
	known("notebook-cell-timeout", "cpu-time", "Notebook cell timed out: Timeout waiting for execute reply",
		`(?i)Timeout waiting for (execute reply|IOPub|kernel)|CellTimeoutError|Cell execution timed out|queue\.Empty`),
	known("subprocess-timeout", "cpu-time", "Subprocess timed out: TimeoutExpired",
		`(?i)TimeoutExpired|timed out after [^\n]*(seconds|<dur>)`),
	known("cpu-time-limit", "cpu-time", "CPU time limit exceeded",
		`(?i)SIGXCPU|RLIMIT_CPU|CPU time limit|cputime|Time limit exceeded|\bmaxCpu(Ms|Time|Seconds)?\b`,
		152, -24),

	// interface/protocol
	known("mcp-stale-session", "protocol", "MCP session unknown to the server: Session not found",
		`(?i)Session not found|No valid session ID|Invalid or missing session ID|Invalid or expired session ID|-?32600[^\n]{0,60}Invalid session ID|No transport found for session|Error sending message: (404|<n>)|session[^\n]{0,40}(expired|unknown)`),
	known("mcp-protocol-version", "protocol", "MCP protocol version not negotiated: Unsupported protocol version",
		`(?i)Unsupported protocol version|protocol version (mismatch|not supported|is not supported)|unsupported protocolVersion|Incompatible protocol version|protocol version [^\n]{0,60}\n?[^\n]{0,20}\bbut [^\n]{0,40}expects`),
	known("multipart-boundary-missing", "protocol", "Multipart body without its boundary: Boundary not found",
		`(?i)Boundary not found|multipart[^\n]{0,40}boundary`),
	known("jsonrpc-method-not-found", "protocol", "JSON-RPC method not found (-32601)",
		`(?i)-32601\b|Method not found|Method [^\s]+ not found|Unknown method|`+cdpMethodMissing),
	known("mcp-not-initialized", "protocol", "MCP request before initialization was complete",
		`(?i)before initialization was complete|before (the )?initialization|received before initialize`),
	known("mcp-connection-closed", "protocol", "MCP connection closed (-32000)",
		`(?i)-32000\b|Connection closed|transport (closed|error)|server (process )?(exited|disconnected)`),
	known("jsonrpc-invalid-json", "protocol", "Server wrote something other than JSON-RPC: not valid JSON",
		`(?i)is not valid JSON|JSON Parse error|Unexpected token [^\n]* in JSON|json_invalid|validation errors? for JSONRPCMessage|Failed to parse JSON-?RPC|-32700\b|\bParse error\b|Unexpected end of JSON|invalid character [^\n]* looking for beginning of value|Expecting value: line|EOF while parsing a value`),

	// interface/input-validation
	known("tool-arguments-rejected", "input-validation", "Tool arguments rejected: Invalid params (-32602)",
		`(?i)-32602\b|Invalid arguments|Invalid params|Invalid request parameters`),
	// Before the traversal: the server that says "Access denied" refused
	// the path, so the cause is a path it should have taken (a drive
	// letter's case, a symlink), not a hole.
	known("path-beyond-allowed-refused", "input-validation", "Path beyond the allowed directories refused: Access denied",
		`(?i)`+pathRefusedOutside),
	known("path-traversal-accepted", "input-validation", "Path traversal accepted outside the workspace",
		`(?i)\.\./|path traversal|directory traversal|/etc/(passwd|shadow|hosts)|outside (of )?(the )?(workspace|sandbox|allowed)|escapes? (the )?(workspace|sandbox|root)|no (path|input) validation|symlink escape`),

	// interface/message-size
	// Arguments over the kernel's limit on argv and the environment: a
	// payload passed on the command line that is too large for it. The
	// blind labellers called its words message-size 52 times in 15 sets
	// and process-spawn 16 times in 4 (Node's spawn E2BIG, all 8 of it
	// process-spawn, is spawn-argument-list-too-long).
	known("argument-list-too-long", "message-size", "Argument list too long: E2BIG",
		`(?i)\bE2BIG\b|Argument list too long|\[Errno 7\]`),
	known("tool-result-token-limit", "message-size", "Tool result larger than the client's token limit",
		`(?i)maximum allowed tokens|tokens\) exceeds|token limit`),
	known("child-output-maxbuffer", "message-size", "Child process output larger than maxBuffer",
		`(?i)maxBuffer|MAXBUFFER`),
	known("stdio-line-limit", "message-size", "Line longer than the stream reader's limit: chunk exceed the limit",
		`(?i)Separator is not found|chunk exceed the limit|LimitOverrunError|line too long|Line is too long`),
	known("transfer-cut-at-limit", "message-size", "Content truncated at a size limit in transfer",
		`^content truncated at a size limit in transfer\b`),
	known("http-payload-too-large", "message-size", "HTTP request entity too large (413)",
		`(?i)PayloadTooLargeError|entity too large|\b413\b|Payload Too Large|`+httpBodyOverLimit),
	known("rpc-message-too-large", "message-size", "RPC message larger than the maximum: RESOURCE_EXHAUSTED",
		`(?i)RESOURCE_EXHAUSTED|ResourceExhausted|larger than max|max(imum)? (receive |send )?message (size|length)`),

	// interface/null-byte
	// A NUL the error names in a file whose bytes the harness's counts
	// show grew on the way: written padded with zeros (see
	// withLogEvidence), whatever the reader then refused.
	known("nul-padded-in-transfer", "null-byte", "File padded with NUL bytes in transfer: bytes grew",
		`(?i)^bytes grew in transfer\b`),
	known("nul-in-source", "null-byte", "Source or text file holds NUL bytes: cannot contain null bytes",
		`(?i)source code( string)? cannot contain null bytes|line contains NUL|null bytes? in (the )?(source|file|input|csv|text)|file contains null`),
	known("nul-cut-payload", "null-byte", "Payload cut at a NUL byte",
		`(?i)^content cut short in transfer\b|(truncat|cut|chops?|stopp)[^\n]{0,60}\b(NUL|null)\b|\b(NUL|null)\)? (byte|character)[^\n]{0,100}(truncat|cut|chops?|stopp|terminat)`),
	known("nul-in-database-text", "null-byte", "Database text column refuses NUL: invalid byte sequence 0x00",
		`(?i)byte sequence for encoding[^\n]*0x00|character with value 0x00|\\u0000 cannot be converted|unsupported Unicode escape sequence|string literal cannot contain NUL|text fields cannot contain NUL|U\+0000|\b22P05\b`),
	known("nul-in-argument", "null-byte", "Path or argument holds a NUL byte: embedded null byte",
		`(?i)embedded null|null (byte|character)|\bNUL\b|\\x00|\\u0000|\\0\b|without null bytes|cannot contain null|zero byte`),

	// interface/encoding
	// A script or file whose line ends were rewritten to CRLF, in the
	// words of the shell, the loader, git, and the harness's log (see
	// crlfInLog).
	known("crlf-line-endings", "encoding", "Line endings rewritten to CRLF: ^M / $'\\r'",
		`(?i)`+crlfRewritten+`|\^M: (bad interpreter|no such file)|`+crlfLineEndings),
	known("non-ascii-under-c-locale", "encoding", "Non-ASCII text under a C/POSIX locale: unmappable characters",
		`(?i)unmappable character|Malformed input or input contains|ANSI_X3\.4-1968|'ascii' codec can't|\bLC_ALL\b|\bLANG=|POSIX locale|locale`),
	known("content-encoding-mismatch", "encoding", "Body not in its declared content-encoding: incorrect header check",
		`(?i)content-encoding|Error -3 while decompressing|incorrect header check|_decompressContent|failed to decode it`),
	known("base64-invalid", "encoding", "Base64 payload cut or invalid: Incorrect padding",
		`(?i)binascii\.Error|Incorrect padding|invalid base64|illegal base64|base64[^\n]*(decod|invalid|corrupt|truncat|length|padding)|Non-base64 digit|not a valid Base-64|Base-64 char|padding characters|InvalidCharacterError|Invalid symbol|Invalid character`),
	// Before the decoders': a transfer the harness's counts show
	// changed the bytes is the cause of what a decoder then refused.
	known("transfer-digest-mismatch", "encoding", "File changed in transfer: sha256 mismatch",
		`(?i)^bytes (grew|rewritten|decoded as text) in transfer\b|sha-?256 mismatch|(checksum|digest|hash) mismatch|round[- ]?trip mismatch|expected sha-?(256|1)|sha-?256[^\n]*(got|but|!=)|md5 mismatch|(expected|want|sha-?256|sha-?1|md5|checksum|digest|hash)\b[^\n]*<hex>[^\n]*\b(got|but|actual|received|computed|found|vs\.?|!=)\b[^\n]*<hex>|<hex>[^\n]*(!=|does not match|doesn't match|differs from)[^\n]*<hex>`),
	// After the transfer's own: its "hash mismatch" reads the words this
	// cause read, and it names the same cause.
	known("download-hash-mismatch", "encoding", "Download hash mismatch: the bytes differ from the published digest",
		`(?i)DO NOT MATCH THE HASHES|hashes from the requirements file|\bEINTEGRITY\b|integrity checksum failed|failed to verify the checksum of|(checksum|hash) did not match`),
	// Lone surrogates that an encoder refuses: bytes that were not UTF-8
	// carried through by Python's surrogateescape (a file name read from
	// disk), or half of a UTF-16 pair cut apart. Another cause than a code
	// page that refuses text, in 105 of the 154 pairs of the 14 labelled
	// sets that hold both.
	known("surrogates-not-encodable", "encoding", "Lone surrogates refused when written: surrogates not allowed",
		`(?i)surrogates not allowed`),
	// Before UTF-8's: a legacy code page that refuses text is another
	// cause than a binary read as UTF-8 (the normaliser keeps 'charmap'
	// and names the others <name>). Text it cannot encode is the same
	// cause the other way round: 6 of the 7 development halves holding
	// both label them one cause.
	known("legacy-codepage-decode-failed", "encoding", "Text in a legacy code page refused: codec can't decode or encode",
		`(?i)'(charmap|gbk|gb2312|gb18030|big5|shift_jis|euc-\w+|cp\d+|latin-?1|iso-?8859-\d+|<name>)' codec can't decode|illegal multibyte sequence|character maps to <undefined>|codec can't encode|UnicodeEncodeError|unmappable character`),
	known("utf8-decode-failed", "encoding", "Bytes decoded as UTF-8 that are not: codec can't decode",
		`(?i)codec can't decode|UnicodeDecodeError|invalid (utf-?8|start byte|continuation byte|byte sequence|multibyte)|multibyte inv[aá]lid|not valid UTF-?8|valid UTF-?8|MalformedInput|Invalid UTF-?8|malformed utf-?8|unexpected end of data|Utf8Error|FromUtf8Error|Input length = 1`),
	// browser tests' own element handling
	known("locator-strict-mode", "harness", "Locator matched several elements: strict mode violation",
		`(?i)strict mode violation`),
	known("stale-element", "harness", "Element no longer attached to the page: stale element reference",
		`(?i)stale element reference|StaleElementReferenceException|no longer attached to the DOM|not attached to the page document`),
	known("element-not-interactable", "harness", "Element cannot be clicked or typed in: not interactable / click intercepted",
		`(?i)element not interactable|ElementNotInteractableException|element click intercepted|ElementClickInterceptedException`),
	// test/harness
	known("registry-image-missing", "harness", "Image not in the registry: pull access denied, repository does not exist",
		`(?i)`+registryImageMissing),
	known("fixture-missing", "harness", "Test fixture not found",
		`(?i)fixture [^\n]{0,40}not found|fixture [^\n]{0,40}(is )?not defined|no fixture named|unknown fixture`),
	known("fixture-scope-mismatch", "harness", "Fixture used from a wider scope: ScopeMismatch",
		`(?i)ScopeMismatch|scoped fixture [^\n]* scoped request object`),
	known("test-collection-failed", "harness", "Test module cannot be collected: ImportError while loading conftest",
		`(?i)ImportError while (loading conftest|importing test module)|ERROR collecting|conftest|collection error|errors during collection`),
	known("jest-open-handles", "harness", "Jest left open handles: worker failed to exit gracefully",
		`(?i)detectOpenHandles|worker process has failed to exit gracefully|did not exit one second after|open handles`),
	known("async-fixture-loop", "harness", "Async fixture on another event loop: attached to a different loop",
		`(?i)attached to a different loop|loop_scope|different event loop`),
	known("go-test-timeout", "harness", "Go test binary timed out: panic: test timed out",
		`(?i)panic: test timed out after|test timed out after`),
	known("pytest-import-mismatch", "harness", "pytest import file mismatch: duplicate test module basename",
		`(?i)import file mismatch|unique basename for your test file|remove __pycache__`),
	known("navigation-race", "harness", "Test evaluated a page while it navigated: Execution context was destroyed",
		`(?i)Execution context was destroyed`),
	known("test-timeout", "harness", "Test or hook timed out in the test runner: Exceeded timeout",
		`(?i)Exceeded timeout of [^\n]*for a (test|hook)|Async callback was not invoked within|jest\.setTimeout|Timeout of [^\n]*exceeded\. For async tests and hooks|(Hook|Test) timed out in \d+ ?ms`),

	// Causes the fourth blind set's development half named.
	known("llm-tool-schema-rejected", "input-validation", "Tool schema rejected by the model's API: Invalid schema for function",
		`(?i)Invalid schema for function|invalid_function_parameters|array schema missing items|must have items|parameter missing items|Invalid JSON payload received\. Unknown name`),
	known("browser-invalid-url", "input-validation", "Browser asked to open an invalid URL",
		`(?i)Cannot navigate to invalid URL|params\.url|invalid URL`),
	known("argument-wrong-type", "input-validation", "Argument of the wrong type: ERR_INVALID_ARG_TYPE",
		`(?i)ERR_INVALID_ARG_(TYPE|VALUE)|argument must be of type`),
	known("tool-input-schema", "input-validation", "Tool input does not match its schema",
		`(?i)Invalid (input|arguments) for tool|must have required property|Additional properties are not allowed`),
	known("browser-not-running", "session-lifecycle", "Browser not running: its DevTools endpoint refused the connection",
		`(?i)`+devtoolsEndpointRefused),
	known("webdriver-session-gone", "session-lifecycle", "WebDriver session gone: invalid session id",
		`(?i)invalid session id|InvalidSessionIdException|no such session`),
	known("chrome-unreachable", "session-lifecycle", "Browser no longer reachable: chrome not reachable",
		`(?i)chrome not reachable|cannot connect to chrome at`),
	known("worker-timeout", "cpu-time", "Server worker killed for time: WORKER TIMEOUT",
		`WORKER TIMEOUT`),
	known("job-time-limit", "cpu-time", "Job ran past its maximum execution time",
		`(?i)maximum execution time|max(imum)? time limit|took longer than|took too long|Execution Timed Out|timeout running program`),
	known("function-timeout", "cpu-time", "Function or task hit its timeout",
		`(?i)hit its timeout|exceeded (its |the )?run ?time limit|FunctionTimeoutError|FUNCTION_INVOCATION_TIMEOUT|finished with status: .timeout`),
	known("gvisor-unsupported-syscall", "process-spawn", "gVisor: Unsupported syscall",
		`(?i)Unsupported syscall`),
	known("websocket-message-too-big", "message-size", "WebSocket closed: message too big (1009)",
		`(?i)`+websocketTooBig),
	known("utf16-read-as-bytes", "encoding", "UTF-16 text read as single bytes: NUL after every letter",
		`(?i)`+utf16AsNUL),
	known("browser-profile-locked", "session-lifecycle", "Browser profile in use by another browser: already running / SingletonLock",
		`(?i)`+browserProfileLocked),
	known("session-concurrency-limit", "session-lifecycle", "Too many concurrent sessions for the plan",
		`(?i)`+sessionConcurrencyLimit),
	known("volume-mount-failed", "storage-persistence", "Volume not mounted: Unable to attach or mount volumes",
		`(?i)Unable to (attach or )?mount volumes|MountVolume\.\w+ failed|FailedMount`),
	known("mcp-endpoint-mismatch", "protocol", "MCP client and server disagree on the endpoint: SSE 404",
		`(?i)\bSSE\b[^\n]{0,80}\b(404|405|<n>|Non-(200|<n>) status)|Cannot (GET|POST) /(sse|mcp|messages)\b|Failed to open SSE stream|/(sse|mcp|messages)\S* HTTP/[\d.<>n]+" (404|405)`),
}

// knownCauseIn returns the first known cause of primitive that text
// says, or nil.
func knownCauseIn(primitive, text string) *KnownCause {
	for i := range knownCauses {
		c := &knownCauses[i]
		if c.Primitive == primitive && c.says(text) {
			return c
		}
	}
	return nil
}

// knownCauseOfExit returns the known cause of primitive that exit code
// says when the words do not, or nil.
func knownCauseOfExit(primitive string, exitCode int64) *KnownCause {
	for i := range knownCauses {
		c := &knownCauses[i]
		if c.Primitive == primitive && slices.Contains(c.exitCodes, exitCode) {
			return c
		}
	}
	return nil

}

// inotifyWatchLimit is inotify out of watches: Node's and chokidar's
// ENOSPC on a watch, Python's watchdog, Java's WatchService, watchman's and
// JetBrains' hints, Rust's notify, and the watchers of watchOutOfSpace.
// The process-spawn rule reads its own narrower words: the model
// overrules it on Node's bare ENOSPC on a watch.
const inotifyWatchLimit = `limit for number of file watchers|inotify watch(?:es)? limit|limit of inotify watches|inotify watches reached|inotify\(7\) watch limit|max_user_watches|inotify_add_watch[^\n]*(?:No space left|ENOSPC)|OS file watch limit reached|\bwatch (\S+ )?ENOSPC\b|ENOSPC[^\n]{0,80}, watch '|` + watchOutOfSpace

// watchOutOfSpace is a watcher whose new watch the kernel refused with
// ENOSPC, which inotify_add_watch returns for its watch limit and never
// for a full disk: a Go watcher's "add watch: no space left on device",
// pyinotify's "add_watch: cannot watch …", tail's "cannot watch '…'" and
// pyuv's FSEventError -28 (<n> in a signature). The fd-limit rule reads
// it before the storage rule reads the words.
const watchOutOfSpace = `\b(?:add[ _]watch|cannot watch)\b[^\n]*no space left on device|FSEventError: \(-(?:28|<n>), 'no space left on device'\)`
