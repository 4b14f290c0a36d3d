package triage

import (
	"testing"
)

func TestKnownCauses(t *testing.T) {
	exit := func(n int64) *int64 { return &n }
	c := NewClassifier(nil)
	tests := []struct {
		name      string
		one, two  Failure
		wantCause string // "" when they must stay apart
	}{
		{"R's multibyte string refused in English and in Portuguese is one decoding",
			Failure{Error: "Error in tolower(x) : invalid multibyte string 3"},
			Failure{Error: "Erro em substr(x, 1, 4) : string multibyte inválida em '<e7>ao'"}, "utf8-decode-failed"},
		{"Puppeteer's and Playwright's tab crashes are one cause",
			Failure{Target: "browser", Error: "Error: Page crashed!"},
			Failure{Target: "browser", Error: "page.goto: Target crashed"}, "browser-renderer-crashed"},
		{"Elasticsearch's index blocked at the disk watermark is the full disk the shell reports",
			Failure{Error: "cluster_block_exception: index [logs] blocked by: [TOO_MANY_REQUESTS/12/disk usage exceeded flood-stage watermark, index has read-only-allow-delete block]"},
			Failure{Error: "cp: error writing '/data/out.bin': No space left on device"}, "disk-full"},
		{"a read-only file system wrapped across two lines is the one on one line",
			Failure{Error: "Failed to create //.cache for shader cache (Read-only file\nsystem)---disabling."},
			Failure{Error: "OSError: [Errno 30] Read-only file system: '/usr/lib/x'"}, "read-only-filesystem"},
		{"a full disk in Python and in the shell is one cause",
			Failure{Error: "OSError: [Errno 28] No space left on device: '/tmp/x/model.bin'"},
			Failure{Error: "mkdir: cannot create directory 'out': No space left on device"}, "disk-full"},
		{"bash's ^M and a shell's $'\\r' are one cause, line ends rewritten to CRLF",
			Failure{Error: "bash: ./build.sh: /bin/bash^M: bad interpreter: No such file or directory"},
			Failure{Error: "./configure: line 16: $'\\r': command not found"}, "crlf-line-endings"},
		{"DuckDB's full spill directory and a full disk are one cause",
			Failure{Error: "Out of Memory Error: failed to offload data block of size 34.7 MiB (187.3 GiB/187.3 GiB used). This limit was set by the 'max_temp_directory_size' setting."},
			Failure{Error: "OSError: [Errno 28] No space left on device: '/tmp/spill/x.parquet'"}, "disk-full"},
		{"a used-up quota and a full disk are one cause",
			Failure{Error: "OSError: [Errno 122] Disk quota exceeded: '/home/user/ckpt/epoch-2.pt'"},
			Failure{Error: "mkdir: cannot create directory 'out': No space left on device"}, "disk-full"},
		{"text a code page cannot decode and text it cannot encode are one cause",
			Failure{Error: "UnicodeDecodeError: 'gbk' codec can't decode byte 0xa6 in position 12: illegal multibyte sequence"},
			Failure{Error: "UnicodeEncodeError: 'charmap' codec can't encode character '\\u2192' in position 8: character maps to <undefined>"}, "legacy-codepage-decode-failed"},
		{"Playwright's missing host libraries and a shared object the loader cannot open are one cause",
			Failure{Target: "browser", Error: "browserType.launch: Host system is missing a few dependencies to run browsers."},
			Failure{Error: "error while loading shared libraries: libnss3.so: cannot open shared object file: No such file or directory"}, "shared-library-missing"},
		{"an Android device too full to install a package and a full disk are one cause",
			Failure{Error: "adb: failed to install app-debug.apk: Failure [INSTALL_FAILED_INSUFFICIENT_STORAGE]"},
			Failure{Error: "OSError: [Errno 28] No space left on device: '/tmp/x/model.bin'"}, "disk-full"},
		{"apt without room for its archives and a full disk are one cause",
			Failure{Error: "E: You don't have enough free space in /var/cache/apt/archives/."},
			Failure{Error: "OSError: [Errno 28] No space left on device: '/tmp/x/model.bin'"}, "disk-full"},
		{"Postfix's queue without free space and a full disk are one cause",
			Failure{Error: "postfix/smtpd[782]: warning: not enough free space in mail queue: 9679581184 bytes < 1.5*message size limit"},
			Failure{Error: "OSError: [Errno 28] No space left on device: '/tmp/x/model.bin'"}, "disk-full"},
		{"SQLite's full database and a full disk are one cause",
			Failure{Error: "sqlite3.OperationalError: database or disk is full"},
			Failure{Error: "OSError: [Errno 28] No space left on device: '/tmp/x/model.bin'"}, "disk-full"},
		{"a SIGKILL said in words or by exit code 137 alone is one cause",
			Failure{Error: "process exited with code 137 (SIGKILL): memory cgroup out of memory"},
			Failure{Error: "+ python train.py", ExitCode: exit(137), HarnessLayer: "sandbox", HarnessPrimitive: "memory"}, "oom-killed"},
		{"nginx's body over client_max_body_size and a 413 are one cause",
			Failure{Error: "2016/08/24 21:35:05 [error] 50785#0: *2 client intended to send too large body: 3520276 bytes, client: 127.0.0.1, server: localhost, request: \"POST /upload HTTP/1.1\""},
			Failure{Error: "413 Request Entity Too Large"}, "http-payload-too-large"},
		{"PHP's upload_max_filesize and a 413 are one cause",
			Failure{Error: "The uploaded file exceeds the upload_max_filesize directive in php.ini."},
			Failure{Error: "413 Request Entity Too Large"}, "http-payload-too-large"},
		{"pandas' missing optional dependency and a module not found are one cause",
			Failure{Error: "ImportError: Missing optional dependency 'openpyxl'.  Use pip or conda to install openpyxl."},
			Failure{Error: "ModuleNotFoundError: No module named 'openpyxl'"}, "python-module-missing"},
		{"Node's old JS Allocation failed and its heap out of memory are one cause",
			Failure{Error: "FATAL ERROR: JS Allocation failed - process out of memory\nAborted (core dumped)"},
			Failure{Error: "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory"}, "node-heap-exhausted"},
		{"V8's evacuation that failed to allocate and its heap out of memory are one cause",
			Failure{Error: "FATAL ERROR: Evacuation Allocation failed - process out of memory"},
			Failure{Error: "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory"}, "node-heap-exhausted"},
		{"a compiler not found in Spanish and in English is one cause, the image's toolchain",
			Failure{Error: "/bin/sh: gcc: orden no encontrada"},
			Failure{Error: "make: gcc: command not found"}, "program-missing"},
		{"runc's exec into a container that ran and stopped and Docker's container not running are one cause",
			Failure{Error: "rpc error: code = 13 desc = invalid header field value \"oci runtime error: exec failed: cannot exec a container that has run and stopped\\n\""},
			Failure{Error: "Error response from daemon: Container 28955ebe284a is not running"}, "container-not-running"},
		{"XLA's allocator out of memory and CUDA's are one cause, the accelerator's",
			Failure{Error: "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 7406166528 bytes."},
			Failure{Error: "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 128.00 MiB"}, "gpu-out-of-memory"},
		{"XLA's allocator out of memory is not the host's ENOMEM",
			Failure{Error: "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory allocating 20029400304 bytes."},
			Failure{Error: "OSError: [Errno 12] Cannot allocate memory"}, ""},
		{"GLib's fdwalk refused and a seccomp kill are one cause",
			Failure{Error: "Failed to execute child process \"bash\": Failed to fdwalk: Operation not permitted"},
			Failure{Error: "Bad system call (core dumped)"}, "seccomp-blocked-syscall"},
		{"runc's exec into a stopped container and Docker's container not running are one cause",
			Failure{Error: "OCI runtime exec failed: exec failed: cannot exec a container that has stopped: unknown"},
			Failure{Error: "Error response from daemon: Container 28955ebe284a is not running"}, "container-not-running"},
		{"bash's command not found in Chinese and in English is one cause",
			Failure{Error: "./test-claude.sh: 行 49: jq: 未找到命令"},
			Failure{Error: "bash: jq: command not found"}, "shell-command-missing"},
		{"a JSON-RPC method not found, said by two SDKs, is one cause",
			Failure{Error: "McpException: Code: -32601, message: Method not found"},
			Failure{Error: `data: {"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method list_tools not found"}}`}, "jsonrpc-method-not-found"},
		{"a C header missing is one cause, whether the compiler calls it fatal or not",
			Failure{Error: "src/raiser.c:4:10: fatal error: Python.h: No such file or directory"},
			Failure{Error: "pycldmodule.cc:5:20: error: Python.h: No such file or directory"}, "c-header-missing"},
		{"websockets in Python and Java closing for size are one cause",
			Failure{Error: "DEBUG:websockets.server:! failing connection with code 1009"},
			Failure{Error: "closed with exit code 1009 additional info: Max frame length of 65536 has been exceeded"}, "websocket-message-too-big"},
		{"PowerShell's UTF-16 said two ways is one cause",
			Failure{Error: "WSL help text prints extra null characters Powershell"},
			Failure{Error: "PowerShell commonly emits UTF-16LE, so command output and redirected files become corrupted"}, "utf16-read-as-bytes"},
		{"a compiler missing to pip's build and to cargo's is one cause",
			Failure{Error: "  File \"/usr/local/lib/python3.9/subprocess.py\", line 1837, in _execute_child\n    raise child_exception_type(errno_num, err_msg, err_filename)\nFileNotFoundError: [Errno 2] No such file or directory: 'gcc'"},
			Failure{Error: "error: linker `cc` not found\n  = note: No such file or directory (os error 2)"}, "program-missing"},
		{"an HDF5 file and a gzip file cut short are one cause, a stored file truncated",
			Failure{Error: "OSError: Unable to open file (truncated file: eof = 96, sblock->base_addr = 0, stored_eof = 2048)"},
			Failure{Error: "EOFError: Compressed file ended before the end-of-stream marker was reached"}, "stored-file-truncated"},
		{"DuckDB's corrupt WAL, said as its JSON error and through Go's driver, is one cause",
			Failure{Error: `{"exception_type":"IO","exception_message":"Failure while replaying WAL file \"/persistence/orders.db.wal\": Corrupt WAL file: entry at byte position 27020 computed checksum 79 does not match stored checksum 68"}`},
			Failure{Error: "open database: database/sql/driver: could not connect to database: INTERNAL Error: Failure while replaying WAL file"}, "wal-replay-failed"},
		{"fork's ENOMEM from nsenter and from a shell is one cause",
			Failure{Error: "nsenter: Unable to fork: Cannot allocate memory"},
			Failure{Error: "Fork /usr/bin/nice : can not allocate memory"}, "fork-enomem"},
		{"a compiler killed by a signal and a SIGKILL are one cause",
			Failure{Error: "c++: fatal error: signal terminated program cc1plus"},
			Failure{Error: "g++: fatal error: Killed signal terminated program cc1plus"}, "oom-killed"},
		{"a CDP method the browser lacks, said by Playwright and Puppeteer, is one cause",
			Failure{Error: "BrowserType.connect_over_cdp: Protocol error (Browser.setDownloadBehavior): Browser context management is not supported."},
			Failure{Error: "Error: Protocol error (Page.setLifecycleEventsEnabled): 'Page.setLifecycleEventsEnabled' wasn't found"}, "jsonrpc-method-not-found"},
		{"an MCP timeout in the TypeScript and Python SDKs is one cause",
			Failure{Error: "McpError: MCP error -32001: Request timed out"},
			Failure{Error: "mcp.shared.exceptions.McpError: Timed out while waiting for response to ClientRequest. Waited 5.0 seconds."}, "mcp-request-timeout"},
		{"a JVM heap said by the JVM and by Gradle's daemon is one cause",
			Failure{Error: "java.lang.OutOfMemoryError: Java heap space"},
			Failure{Error: "Expiring Daemon because JVM heap space is exhausted"}, "jvm-heap-exhausted"},
		{"Node's and Python's DNS failures are one cause, the sandbox's resolver",
			Failure{Error: "npm ERR! Error: getaddrinfo EAI_AGAIN registry.npmjs.org"},
			Failure{Error: "socket.gaierror: [Errno -3] Temporary failure in name resolution"}, "dns-lookup-failed"},
		{"a browser's and curl's DNS failures are one cause",
			Failure{Error: "page.goto: net::ERR_NAME_NOT_RESOLVED at https://docs.example.com/start"},
			Failure{Error: "curl: (6) Could not resolve host: files.example.org"}, "dns-lookup-failed"},
		{"a judge's execution timeout and the Go playground's are one cause",
			Failure{Error: "Execution Timed Out (12000 ms)"},
			Failure{Error: "timeout running program"}, "job-time-limit"},
		{"a name not resolved and a connection refused are two causes",
			Failure{Error: "curl: (6) Could not resolve host: files.example.org"},
			Failure{Error: "curl: (7) Failed to connect to files.example.org port 443: Connection refused"}, ""},
		{"a permission error on site-packages, which the normaliser hides behind <path>, is not one on a workspace file",
			Failure{Error: "OSError: [Errno 13] Permission denied: '/usr/local/lib/python2.7/dist-packages/pythonds'"},
			Failure{Error: "PermissionError: [Errno 13] Permission denied: '/home/user/out/report.txt'"}, ""},
		{"two permission errors on workspace files are one cause whatever the tool says",
			Failure{Error: "PermissionError: [Errno 13] Permission denied: '/home/user/out/report.txt'"},
			Failure{Error: "cp: cannot create regular file '/workspace/data.csv': Permission denied"}, "permission-denied"},
		{"a cause announced on a wrapper's first line and named on the next is the named cause",
			Failure{Error: "mcp error: MCP tool invocation failed:\nMCP error -32000: Connection closed"},
			Failure{Error: "McpError: MCP error -32000: Connection closed"}, "mcp-connection-closed"},
		{"the frames of a traceback do not name the cause",
			Failure{Error: "Traceback (most recent call last):\n  File \"/usr/lib/python3/site-packages/tool/io.py\", line 3, in save\n    open(p, 'w')\nPermissionError: [Errno 13] Permission denied: '/workspace/out.txt'"},
			Failure{Error: "PermissionError: [Errno 13] Permission denied: '/workspace/result.json'"}, "permission-denied"},
		{"a program Python cannot spawn is one cause with Go's and Node's",
			Failure{Error: "Traceback (most recent call last):\n  File \"/app/run.py\", line 4, in <module>\n    subprocess.run([\"ffmpeg\", \"-i\", p])\n  File \"/usr/lib/python3.11/subprocess.py\", line 1901, in _execute_child\n    raise child_exception_type(errno_num, err_msg, err_filename)\nFileNotFoundError: [Errno 2] No such file or directory: '/opt/tools/ffmpeg'"},
			Failure{Error: `exec: "pandoc": executable file not found in $PATH`}, "program-missing"},
		{"a program a wrapper could not find is one cause with a program subprocess could not spawn",
			Failure{Error: "RuntimeError: Failed to process string with tex because latex could not be found"},
			Failure{Error: "FileNotFoundError: [Errno 2] No such file or directory: 'latex': 'latex'"}, "program-missing"},
		{"a heap exhausted in Node and in a JVM are two causes",
			Failure{Error: "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory"},
			Failure{Error: "java.lang.OutOfMemoryError: Java heap space"}, ""},
		{"a rate limit is its own cause, even from the Hugging Face Hub",
			Failure{Error: "huggingface_hub.utils._errors.HfHubHTTPError: 429 Client Error: Too Many Requests"},
			Failure{Error: "requests.exceptions.HTTPError: 429 Client Error: Too Many Requests for url: http://sbert.net/m.zip"}, "egress-ip-rate-limited"},
		{"a dead WebDriver session is one cause in Python and in Java",
			Failure{Target: "browser", Error: "selenium.common.exceptions.InvalidSessionIdException: Message: invalid session id"},
			Failure{Target: "browser", Error: "Fatal error: invalid session id"}, "webdriver-session-gone"},
		{"a page evaluated as it navigates is the test's race in Puppeteer and Playwright",
			Failure{Target: "browser", Error: "PuppeteerSharp.EvaluationFailedException: Execution context was destroyed, most likely because of a navigation."},
			Failure{Target: "browser", Error: "page.$eval: Execution context was destroyed, most likely because of a navigation"}, "navigation-race"},
		{"an MCP protocol version refused on one line or negotiated over two is one cause",
			Failure{Error: `unsupported protocol version: "2025-11-25"`},
			Failure{Error: "MCP server failed to start: ... server reported protocol version 2024-11-05,\nbut this client expects 2025-06-18."}, "mcp-protocol-version"},
		{"a kubelet that cannot mount a volume is one cause however it says it",
			Failure{Error: "Unable to attach or mount volumes: unmounted volumes=[dags], unattached volumes=[config dags]: timed out waiting for the condition"},
			Failure{Error: `MountVolume.SetUp failed for volume "kube-dns-token-5nbrm" : couldn't propagate object cache: timed out waiting for the condition`}, "volume-mount-failed"},
		{"a path refused as beyond the allowed directories is one cause in two servers' words",
			Failure{Error: "Error: Access denied - path outside allowed directories: /mnt/obsidian/CS/logs not in /home/assistent/workspaces"},
			Failure{Error: `Access denied: The path "logs" resolves to a location outside the allowed base directory.`}, "path-beyond-allowed-refused"},
		{"a locale not installed, said by perl and by bash, is one cause",
			Failure{Error: "perl: warning: Setting locale failed."},
			Failure{Error: "/bin/bash: warning: setlocale: LC_ALL: cannot change locale (en_US.UTF-8)"}, "locale-not-installed"},
		{"a locale not installed and text the C locale cannot map are two causes",
			Failure{Error: "perl: warning: Setting locale failed."},
			Failure{Error: "UnicodeEncodeError: 'ascii' codec can't encode character '\\xe9' in position 3"}, ""},
		{"a Parquet file without magic bytes and one with a corrupt footer are one cause, not a missing file",
			Failure{Error: "pyarrow.lib.ArrowInvalid: Parquet magic bytes not found in footer. Either the file is corrupted or this is not a parquet file."},
			Failure{Error: "pyarrow.lib.ArrowIOError: Invalid parquet file. Corrupt footer."}, "data-file-corrupted"},
		{"files that disappeared and a workspace whose data is gone are one cause",
			Failure{Error: "I closed the jupyter notebook GUI and start it again, and all of my data disappeared."},
			Failure{Error: "After the restart the workspace files are gone"}, "files-lost"},
		{"files lost and a loud missing file are two causes",
			Failure{Error: "all of my data disappeared after the restart"},
			Failure{Error: "FileNotFoundError: [Errno 2] No such file or directory: '/home/user/out.csv'"}, ""},
		{"a refused path and an accepted traversal are two causes",
			Failure{Error: "Error: Access denied - path outside allowed directories: /etc/hostname"},
			Failure{Error: "write_file accepted path '../../../etc/cron.d/x' outside /workspace without validation"}, ""},
		{"Docker's socket refused, in the CLI's words and in a client's, is one cause",
			Failure{Error: `docker: Got permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Post "http://%2Fvar%2Frun%2Fdocker.sock/v1.24/containers/create": dial unix /var/run/docker.sock: connect: permission denied.`},
			Failure{Error: "Error: permission denied while trying to connect to the docker API at unix:///var/run/docker.sock"}, "docker-socket-denied"},
		{"a bare dial of Docker's socket refused is the CLI's refusal",
			Failure{Error: "dial unix /var/run/docker.sock: connect: permission denied"},
			Failure{Error: "docker: Got permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: connect: permission denied."}, "docker-socket-denied"},
		{"Docker's socket refused and a file refused are two causes",
			Failure{Error: "docker: Got permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: connect: permission denied."},
			Failure{Error: "PermissionError: [Errno 13] Permission denied: '/app/config/config.json'"}, ""},
		{"inotify out of watches, in Node's and in Python's words, is one cause",
			Failure{Error: "Error: ENOSPC: System limit for number of file watchers reached, watch '/app/src/components'"},
			Failure{Error: "OSError: [Errno 28] inotify watch limit reached"}, "inotify-watch-limit"},
		{"inotify out of watches and a process out of file descriptors are two causes",
			Failure{Error: "Error: ENOSPC: System limit for number of file watchers reached, watch '/app/src/components'"},
			Failure{Error: "OSError: [Errno 24] Too many open files: '/data/part-0001.csv'"}, ""},
		{"a TLS library's read that timed out is not a certificate refused",
			Failure{Error: "requests.exceptions.SSLError: HTTPSConnectionPool(host='data-api.example.org', port=443): Read timed out. (read timeout=30)"},
			Failure{Error: "requests.exceptions.SSLError: HTTPSConnectionPool(host='data-api.example.org', port=443): Max retries exceeded (Caused by SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: self-signed certificate in certificate chain')))"}, ""},
		{"Mesa's loader without its driver, as libGL and as libEGL, is one cause",
			Failure{Error: "libGL error: MESA-LOADER: failed to open swrast: /usr/lib/dri/swrast_dri.so: cannot open shared object file: No such file or directory (search paths /usr/lib/x86_64-linux-gnu/dri, suffix _dri)\nlibGL error: failed to load driver: swrast"},
			Failure{Error: "libEGL warning: MESA-LOADER: failed to open dri: /usr/lib/x86_64-linux-gnu/gbm/dri_gbm.so: cannot open shared object file: No such file or directory"}, "mesa-driver-missing"},
		{"Mesa's loader without its driver and a library the loader cannot find are two causes",
			Failure{Error: "libGL error: MESA-LOADER: failed to open swrast: /usr/lib/dri/swrast_dri.so: cannot open shared object file: No such file or directory (search paths /usr/lib/x86_64-linux-gnu/dri, suffix _dri)"},
			Failure{Error: "./chrome: error while loading shared libraries: libgbm.so.1: cannot open shared object file: No such file or directory"}, ""},
		{"Docker's socket refused by Node, Python and a rootless daemon is Docker's socket",
			Failure{Error: "Error: connect EACCES /var/run/docker.sock"},
			Failure{Error: "dial unix /run/user/1000/docker.sock: connect: permission denied"}, "docker-socket-denied"},
		{"docker-py that cannot fetch the server's API version for a permission is Docker's socket",
			Failure{Error: "docker.errors.DockerException: Error while fetching server API version: ('Connection aborted.', PermissionError(13, 'Permission denied'))"},
			Failure{Error: "PermissionError: [Errno 13] Permission denied: '/var/run/docker.sock'"}, "docker-socket-denied"},
		{"another daemon's socket refused is not Docker's",
			Failure{Error: "dial unix /run/php-fpm.sock: connect: permission denied"},
			Failure{Error: "dial unix /var/run/docker.sock: connect: permission denied"}, ""},
		{"containerd's socket refused is not Docker's",
			Failure{Error: "dial unix /run/containerd/containerd.sock: connect: permission denied"},
			Failure{Error: "dial unix /var/run/docker.sock: connect: permission denied"}, ""},
		{"Java's WatchService and inotify_add_watch out of watches are inotify's watch limit",
			Failure{Error: "java.io.IOException: User limit of inotify watches reached"},
			Failure{Error: "inotify_add_watch(/app/src) failed: No space left on device"}, "inotify-watch-limit"},
		{"surrogates refused by Python's encoder and by a database driver are one cause",
			Failure{Error: "UnicodeEncodeError: 'utf-8' codec can't encode character '\\udce4' in position 38: surrogates not allowed"},
			Failure{Error: "DB error: UnicodeEncodeError('utf-8', '/tv/S\\udcc3\\udca9rie', 4, 5, 'surrogates not allowed')"}, "surrogates-not-encodable"},
		{"surrogates refused and a code page that cannot encode are two causes",
			Failure{Error: "UnicodeEncodeError: 'utf-8' codec can't encode character '\\udce4' in position 38: surrogates not allowed"},
			Failure{Error: "UnicodeEncodeError: 'charmap' codec can't encode character '\\u2013' in position 5: character maps to <undefined>"}, ""},
		{"a Go watcher's and pyuv's watch refused for space are inotify's watch limit",
			Failure{Error: "filewatcher listener encountered error when add watch: no space left on device"},
			Failure{Error: "pyuv._cpyuv.error.FSEventError: (-28, 'no space left on device')"}, "inotify-watch-limit"},
		{"pyinotify's and tail's watch refused for space are inotify's watch limit",
			Failure{Error: "2017-10-19 08:54:02,971 pyinotify ERROR] add_watch: cannot watch /var/www/html/app/database WD=-1, Errno=No space left on device (ENOSPC)"},
			Failure{Error: "tail: cannot watch '/var/log/app.log': No space left on device"}, "inotify-watch-limit"},
		{"a watch refused for space and a write to a full disk are two causes",
			Failure{Error: "filewatcher listener encountered error when add watch: no space left on device"},
			Failure{Error: "OSError: [Errno 28] No space left on device: '/tmp/ckpt/epoch-3.pt'"}, ""},
		{"EMFILE on a watch, whatever sysctl its hint names, is the open file limit",
			Failure{Error: "Error: EMFILE: too many open files, watch '/app/src'; try: sysctl fs.inotify.max_user_watches=524288"},
			Failure{Error: "OSError: [Errno 24] Too many open files: '/data/part-0001.csv'"}, "fd-limit"},
		{"libGL's software rasterizer not loaded, on one line, is Mesa's driver",
			Failure{Error: "libGL error: failed to load driver: swrast"},
			Failure{Error: "libGL error: MESA-LOADER: failed to open swrast: /usr/lib/dri/swrast_dri.so: cannot open shared object file: No such file or directory"}, "mesa-driver-missing"},
		{"a database's driver that failed to load is a library missing, not Mesa's",
			Failure{Error: "sqlalchemy: failed to load driver: psycopg2: libpq.so.5: cannot open shared object file: No such file or directory"},
			Failure{Error: "./chrome: error while loading shared libraries: libgbm.so.1: cannot open shared object file: No such file or directory"}, "shared-library-missing"},
		{"a certificate refused with a timeout's name in its hint is still the certificate",
			Failure{Error: "x509: certificate signed by unknown authority; set GIT_HTTP_TIMEOUT to retry"},
			Failure{Error: "SSL: CERTIFICATE_VERIFY_FAILED certificate verify failed: unable to get local issuer certificate"}, "tls-verification-failed"},
		{"a NUL that chops a string and one cut from a payload are one cause",
			Failure{Error: "Parameter should maintain %00 (NUL) character but instead chops off the end of the\nstring at that character."},
			Failure{Error: "downloaded 4096 of 18234 bytes: content truncated at first NUL byte (offset 4096)"}, "nul-cut-payload"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			one, two := c.Classify(tt.one), c.Classify(tt.two)
			if tt.wantCause == "" {
				if one.ModeSignature() == two.ModeSignature() {
					t.Errorf("both got mode signature %q, want two", one.ModeSignature())
				}
				return
			}
			for _, cl := range []Classification{one, two} {
				name, _, ok := KnownCauseOf(cl.Cause)
				if !ok || name != tt.wantCause {
					t.Errorf("got cause %q for %q, want %s", cl.Cause, cl.Signature, tt.wantCause)
				}
			}
		})
	}
}

func TestDiskFullReadsErrnoTwentyEightByTheWordsAfterIt(t *testing.T) {
	tests := []struct {
		name, error, wantCause string // "" for no known cause
	}{
		{"Python's full disk in another language is still a full disk",
			"OSError: [Errno 28] Kein Speicherplatz mehr verfügbar: '/tmp/out.bin'", "disk-full"},
		{"HDF5's write that the disk refused is one",
			"OSError: [Errno 28] Can't write data (file write failed: time = Wed Nov 30 22:25:01 2022)", "disk-full"},
		{"Emscripten's invalid argument is no full disk",
			"OSError: [Errno 28] Invalid argument: 'folder1'", ""},
		{"nor with two spaces before it",
			"OSError: [Errno 28]  Invalid argument: 'folder1'", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			if c := knownCauseIn("storage-persistence", tt.error); c != nil {
				got = c.Name
			}
			if got != tt.wantCause {
				t.Errorf("got cause %q, want %q", got, tt.wantCause)
			}
		})
	}
}

func TestKnownCausesReadTheirOwnWords(t *testing.T) {
	tests := []struct {
		name, primitive, text, wantCause string
	}{
		{"a full disk that writes under a folder named watch is no watch limit",
			"process-spawn", "Error: ENOSPC: no space left on device, write '/srv/watch/out.log'", ""},
		{"a full disk under a folder named add watch is no watch limit",
			"process-spawn", "OSError: [Errno 28] No space left on device: '/srv/add watch/out.log'", ""},
		{"Node's ENOSPC on a watch is the watch limit",
			"process-spawn", "Error: ENOSPC: System limit for number of file watchers reached, watch '/app/src'", "inotify-watch-limit"},
		{"a timeout on a traceback's source line does not unsay the certificate on another line",
			"network-egress", "    resp = requests.get(URL, timeout=30)\nrequests.exceptions.SSLError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed", "tls-verification-failed"},
		{"a timeout on the certificate's own line unsays it",
			"network-egress", "requests.exceptions.SSLError: HTTPSConnectionPool(host='x.org', port=443): Read timed out.", ""},
		{"a setting named timeout on the certificate's line does not unsay it",
			"network-egress", "SSLError: certificate verify failed (connect timeout=10)", "tls-verification-failed"},
		{"a JDBC driver that failed to load is not Mesa's",
			"package-path", "java.sql.SQLException: failed to load driver: org.postgresql.Driver", ""},
		{"a GPU's driver that failed to load is not taken for a driver not installed",
			"package-path", "libGL error: failed to load driver: iris", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			if c := knownCauseIn(tt.primitive, tt.text); c != nil {
				got = c.Name
			}
			if got != tt.wantCause {
				t.Errorf("got cause %q, want %q", got, tt.wantCause)
			}
		})
	}
}

func TestKnownCauseModes(t *testing.T) {
	c := NewClassifier(nil)
	cl := c.Classify(Failure{Target: "browser", Error: "Error: Page crashed!"})
	g := NewGrouper()
	a := g.Assign(cl.Layer, cl.Primitive, cl.ModeSignature())
	b := g.Assign(cl.Layer, cl.Primitive, c.Classify(Failure{Target: "browser", Error: "GError: Page crashed!"}).ModeSignature())
	if a.ModeID != b.ModeID {
		t.Errorf("got modes %s and %s, want one", a.ModeID, b.ModeID)
	}
	if got, want := a.Template.Template, cl.Cause; got != want {
		t.Errorf("got template %q, want the cause's signature %q", got, want)
	}
	if got, want := Title(cl.Layer, cl.Primitive, a.Template.Template), "Browser renderer crashed: Page crashed / Target crashed (memory)"; got != want {
		t.Errorf("got title %q, want %q", got, want)
	}
	if got, want := a.ModeID, ModeID(cl.Layer, cl.Primitive, "[known:browser-renderer-crashed]"); got != want {
		t.Errorf("got id %s, want %s, minted from the cause's name alone", got, want)
	}
	// A restart restores the template with its title.
	h := NewGrouper()
	h.Restore(a.Template)
	if id, ok := h.Lookup(cl.Layer, cl.Primitive, cl.ModeSignature()); !ok || id != a.ModeID {
		t.Errorf("after a restore got %s, %v, want %s", id, ok, a.ModeID)
	}
	if got := h.Templates(); len(got) != 1 || got[0].Template != cl.Cause {
		t.Errorf("after a restore got templates %+v, want the cause's signature", got)
	}
}

func TestKnownCauseSeverityFollowsItsWords(t *testing.T) {
	tests := []struct {
		name, primitive, cause, want string
	}{
		{"an accepted traversal is critical", "input-validation", "path-traversal-accepted", "critical"},
		{"a locale that is not installed is medium", "package-path", "locale-not-installed", "medium"},
		{"a corrupted data file is critical", "storage-persistence", "data-file-corrupted", "critical"},
		{"files lost without an error are critical", "storage-persistence", "files-lost", "critical"},
		{"a write-ahead log that does not replay is critical", "storage-persistence", "wal-replay-failed", "critical"},
		{"a stored file cut short is critical", "storage-persistence", "stored-file-truncated", "critical"},
		{"a mounted volume that went away under writes is critical", "storage-persistence", "mount-disconnected", "critical"},
		{"a file missing after it was written is critical", "storage-persistence", "file-missing", "critical"},
		{"a full disk says so, so high", "storage-persistence", "disk-full", "high"},
		{"a volume that was never mounted is high", "storage-persistence", "volume-mount-failed", "high"},
		{"an eviction for ephemeral storage is high", "storage-persistence", "ephemeral-storage-eviction", "high"},
		{"a locked SQLite database is high", "storage-persistence", "sqlite-locked", "high"},
		{"a path refused as beyond the allowed directories is medium", "input-validation", "path-beyond-allowed-refused", "medium"},
		{"a digest mismatch is critical", "encoding", "transfer-digest-mismatch", "critical"},
		{"a legacy code page that refuses text is text read in the wrong encoding, so critical", "encoding", "legacy-codepage-decode-failed", "critical"},
		{"non-ASCII text under a C locale is refused or mangled on its way, so critical", "encoding", "non-ascii-under-c-locale", "critical"},
		{"bytes that are not UTF-8 may be a binary read as text, so critical", "encoding", "utf8-decode-failed", "critical"},
		{"a Node heap out of memory does not say what took the memory, so high", "memory", "node-heap-exhausted", "high"},
		{"a Java heap out of space does not say what took it either, so high", "memory", "jvm-heap-exhausted", "high"},
		{"a GPU out of memory names what it could not allocate, so medium", "memory", "gpu-out-of-memory", "medium"},
		{"a SIGKILL for memory is high", "memory", "oom-killed", "high"},
		{"seccomp's SIGSYS is high", "process-spawn", "seccomp-blocked-syscall", "high"},
		{"a sandbox Chromium cannot start does not say what refused it, so high", "process-spawn", "chromium-sandbox-unavailable", "high"},
		{"a namespace refused does not say by what, so high", "process-spawn", "namespace-denied", "high"},
		{"an open file limit names the limit, so medium", "process-spawn", "fd-limit", "medium"},
		{"a file watcher limit names the limit, so medium", "process-spawn", "inotify-watch-limit", "medium"},
		{"an argument list too long names the limit, so medium", "process-spawn", "spawn-argument-list-too-long", "medium"},
		{"Chromium as root names the flag it needs, so medium", "process-spawn", "chromium-root-no-sandbox", "medium"},
		{"a JSON-RPC method the server lacks is named, so medium", "protocol", "jsonrpc-method-not-found", "medium"},
		{"lone surrogates came out changed, so critical", "encoding", "surrogates-not-encodable", "critical"},
		{"a worker a server killed for time does not say what held it, so high", "cpu-time", "worker-timeout", "high"},
		{"a CPU time limit names the limit, so medium", "cpu-time", "cpu-time-limit", "medium"},
		{"a job's maximum execution time names the limit, so medium", "cpu-time", "job-time-limit", "medium"},
		{"a notebook cell's timeout names the limit, so medium", "cpu-time", "notebook-cell-timeout", "medium"},
		{"a function's timeout names the limit, so medium", "cpu-time", "function-timeout", "medium"},
		{"a subprocess's TimeoutExpired names the caller's timeout, so medium", "cpu-time", "subprocess-timeout", "medium"},
		{"an MCP request's timeout names how long the client waited, so medium", "cpu-time", "mcp-request-timeout", "medium"},
		{"a browser navigation that timed out does not say what held the page, so high", "cpu-time", "browser-navigation-timeout", "high"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sig string
			for _, k := range knownCauses {
				if k.Name == tt.cause {
					sig = k.Signature()
				}
			}
			if sig == "" {
				t.Fatalf("no known cause %s", tt.cause)
			}
			layer := layerOfPrimitive[tt.primitive]
			if got, _ := Severity(layer, tt.primitive, sig); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestKnownCausesAreWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range knownCauses {
		if seen[k.Name] {
			t.Errorf("cause %s is listed twice", k.Name)
		}
		seen[k.Name] = true
		if _, ok := layerOfPrimitive[k.Primitive]; !ok {
			t.Errorf("cause %s has primitive %q, which no layer has", k.Name, k.Primitive)
		}
		if name, title, ok := KnownCauseOf(k.Signature()); !ok || name != k.Name || title != k.Title {
			t.Errorf("KnownCauseOf(%q) = %q, %q, %v, want %q, %q", k.Signature(), name, title, ok, k.Name, k.Title)
		}
	}
}

func TestTwoDigestsAreATransferMismatch(t *testing.T) {
	c := NewClassifier(nil)
	tests := []struct {
		name      string
		failure   Failure
		wantCause string
	}{
		{"sha256sum's output beside the published digest in the log is a mismatch",
			Failure{Error: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  ghidra_9.0.zip",
				LogTail: []byte("the site publishes this SHA-256 hash:\n3b65d29024b9decdbb1148b12fe87bcb7f3a6a56ff38475f5dc9dd1cfc7fd6b2  ghidra_9.0.zip")}, "transfer-digest-mismatch"},
		{"one digest printed twice is not a mismatch",
			Failure{Error: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  a.zip",
				LogTail: []byte("sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")}, ""},
		{"two ids without a word of digests are not a mismatch",
			Failure{Error: "job 0123456789abcdef0123456789abcdef failed after 0123456789abcdef0123456789abcdee"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cl := c.Classify(tt.failure)
			name, _, _ := KnownCauseOf(cl.Cause)
			if name != tt.wantCause {
				t.Errorf("got cause %q (%s/%s by %s), want %q", name, cl.Layer, cl.Primitive, cl.By, tt.wantCause)
			}
			if tt.wantCause != "" && (cl.Layer != "interface" || cl.Primitive != "encoding") {
				t.Errorf("got %s/%s, want interface/encoding", cl.Layer, cl.Primitive)
			}
		})
	}
}

func TestPrimitivesOfSandboxTools(t *testing.T) {
	c := NewClassifier(nil)
	tests := []struct {
		name, error, wantPrimitive, wantCause string
	}{
		{"a Go test binary that hit its deadline is the harness's", "panic: test timed out after 10m0s\nrunning tests:\n\tTestDownload (10m0s)", "harness", "go-test-timeout"},
		{"a Jest test over its time budget is the harness's", `thrown: "Exceeded timeout of 5000 ms for a test."`, "harness", "test-timeout"},
		{"Chromium started as root without --no-sandbox is a spawn failure", "[12:12:0101/000000.000:ERROR:zygote_host_impl_linux.cc(90)] Running as root without --no-sandbox is not supported.", "process-spawn", "chromium-root-no-sandbox"},
		{"a refused DevTools endpoint is a browser not running", "Error: connect ECONNREFUSED 127.0.0.1:9222", "session-lifecycle", "browser-not-running"},
		{"connecting over CDP to nothing is a browser not running", "BrowserType.connect_over_cdp: connect ECONNREFUSED 127.0.0.1:9222", "session-lifecycle", "browser-not-running"},
		{"too many open files is a spawn limit", "Error: EMFILE: too many open files, watch '/app/src'", "process-spawn", "fd-limit"},
		{"a native module on a noexec mount is a filesystem permission", "Error: /tmp/x/build/Release/addon.node: failed to map segment from shared object: Operation not permitted", "filesystem-permissions", "noexec-mount"},
		{"a tool result over the client's token limit is a message size", `Error: MCP tool "list" response (30000 tokens) exceeds maximum allowed tokens (25000).`, "message-size", "tool-result-token-limit"},
		{"a child's output over maxBuffer is a message size", "RangeError [ERR_CHILD_PROCESS_STDIO_MAXBUFFER]: stdout maxBuffer length exceeded", "message-size", "child-output-maxbuffer"},
		{"an MCP session the server forgot is a protocol failure", `{"jsonrpc":"2.0","id":"server-error","error":{"code":-32600,"message":"Session not found"}}`, "protocol", "mcp-stale-session"},
		{"a NUL refused by a database text column is a null byte", `error: invalid byte sequence for encoding "UTF8": 0x00`, "null-byte", "nul-in-database-text"},
		{"a legacy code page that refuses text is its own cause", "UnicodeDecodeError: 'gbk' codec can't decode byte 0xa4 in position 22: illegal multibyte sequence", "encoding", "legacy-codepage-decode-failed"},
		{"Windows' charmap refusing a byte is a legacy code page too", "UnicodeDecodeError: 'charmap' codec can't decode byte 0x90 in position 287: character maps to <undefined>", "encoding", "legacy-codepage-decode-failed"},
		{"UTF-8 refusing a binary's first byte is not a legacy code page", "UnicodeDecodeError: 'utf-8' codec can't decode byte 0x89 in position 0: invalid start byte", "encoding", "utf8-decode-failed"},
		{"pip's failed hash check is a download whose bytes changed on the way", "ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE.", "encoding", "download-hash-mismatch"},
		{"cargo's failed checksum is the same cause", "error: failed to verify the checksum of `tokio v1.37.0`", "encoding", "download-hash-mismatch"},
		{"npm's integrity check failing is the same cause", "npm ERR! code EINTEGRITY\nnpm ERR! sha512-abc integrity checksum failed when using sha512: wanted sha512-abc but got sha512-def. (5318 bytes)", "encoding", "download-hash-mismatch"},
		{"a notebook kernel that died is the session's", "RuntimeError: Kernel died before replying to kernel_info", "session-lifecycle", "notebook-kernel-died"},
		{"the kernel's argument list too long is a message size", "bash: /usr/bin/grep: Argument list too long", "message-size", "argument-list-too-long"},
		{"Python's errno 7 is the same message size", "OSError: [Errno 7] Argument list too long: 'ffmpeg'", "message-size", "argument-list-too-long"},
		{"Node's spawn E2BIG is the spawn's own cause", "Error: spawn E2BIG\n    at ChildProcess.spawn (node:internal/child_process:421:11)", "process-spawn", "spawn-argument-list-too-long"},
		{"pytest's banner does not hide what failed under it", "_____ ERROR collecting tests/test_io.py _____\nimport file mismatch:\nHINT: remove __pycache__ / .pyc files and/or use a unique basename for your test file modules", "harness", "pytest-import-mismatch"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cl := c.Classify(Failure{Status: "failed", Error: tt.error})
			name, _, _ := KnownCauseOf(cl.Cause)
			if cl.Primitive != tt.wantPrimitive || name != tt.wantCause {
				t.Errorf("got %s/%s cause %q (by %s), want %s cause %q", cl.Layer, cl.Primitive, name, cl.By, tt.wantPrimitive, tt.wantCause)
			}
		})
	}
}
