package triage

import (
	"bytes"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxSignatureLen caps a signature, in bytes, so that a pathological message
// cannot blow up the mode table or a page.
const maxSignatureLen = 400

// keptPathDirs is how many leading directories of a path a signature keeps;
// deeper ones collapse into "…". The top of a path tells read-only system
// trees from the workspace; the rest is what a workflow happened to name.
const keptPathDirs = 3

// normalize returns the signature of an error message: its meaningful line
// with the parts that vary between occurrences of one root cause (numbers,
// sizes, durations, ids, digests, addresses, hosts, URLs, timestamps, quoted
// names, file names) replaced by placeholders. Occurrences of one failure
// mode share a signature; docs/classification.md describes the scheme.
//
// normalize is a single pass over the bytes with no regular expressions,
// because the indexer runs it on every failure of a million-result run.
func normalize(msg string) string {
	return normalizeSource(signatureSource(msg, false))
}

// failureSource returns the text a failure's signature is made of and its
// error rules read: the meaningful line(s) of its error, or of its log tail
// when the error is empty.
func failureSource(f *Failure) string {
	if f.Error == "" && len(f.LogTail) == 0 && f.StepError != "" {
		return signatureSource(f.StepError, false)
	}
	if f.Error != "" || len(f.LogTail) == 0 {
		return signatureSource(f.Error, false)
	}
	const window = 4 << 10
	tail := f.LogTail
	if len(tail) > window {
		tail = tail[len(tail)-window:]
	}
	return signatureSource(string(tail), true)
}

// normalizeSource normalises text already reduced to its meaningful line(s).
func normalizeSource(src string) string {
	n := normalizer{out: make([]byte, 0, min(len(src), maxSignatureLen)+16)}
	n.text(src)
	return n.result()
}

// signatureSource picks the lines of msg that identify its root cause:
//   - a Python traceback's exception line (the first unindented line after
//     the last "Traceback" header), marked when the innermost frame is the
//     harness's own code;
//   - pip's first "ERROR:" line;
//   - otherwise the first unindented line that opens like an error (the last
//     one when fromLog, since logs end with the failure), else the first
//     that mentions a failure, else the first non-empty line;
//
// followed by " (cause: …)" with the last cause the message gives: pip's
// retry reason, or a "Caused by:" line (Java, Rust).
func signatureSource(msg string, fromLog bool) string {
	msg = strings.TrimSpace(msg)
	if strings.IndexByte(msg, '\n') < 0 {
		if cause := pipRetryCause(msg); cause != "" {
			return "retrying after connection broken (cause: " + cause + ")"
		}
		return msg
	}
	if i := strings.LastIndex(msg, "Traceback (most recent call last):"); i >= 0 {
		if line := pythonException(msg[i:]); line != "" {
			return line
		}
	} else if strings.HasPrefix(msg, `File "`) {
		// A traceback whose header was cut off with the lines above it:
		// its frames still say whose code raised.
		if line := pythonException("\n  " + msg); line != "" {
			return line
		}
	}
	var first, errLine, weakLine, pipError, cause string
	wantCause := false
	for rest := msg; rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || isBanner(trimmed) {
			continue
		}
		if wantCause {
			cause, wantCause = trimmed, false
			continue
		}
		if first == "" {
			first = trimmed
		}
		if c := pipRetryCause(trimmed); c != "" {
			cause = c
			continue
		}
		if c, ok := strings.CutPrefix(trimmed, "Caused by:"); ok {
			cause = strings.TrimSpace(c)
			wantCause = cause == ""
			continue
		}
		if strings.HasPrefix(trimmed, "ERROR: ") && pipError == "" {
			pipError = trimmed
		}
		if indented(line) {
			continue
		}
		if looksLikeError(trimmed) {
			if errLine == "" || fromLog {
				errLine = trimmed
			}
		} else if weakLine == "" && mentionsFailure(trimmed) {
			weakLine = trimmed
		}
	}
	head := first
	switch {
	case pipError != "":
		head = pipError
	case errLine != "":
		head = errLine
	case weakLine != "":
		head = weakLine
	case cause != "":
		head = "retrying after connection broken"
	case fromLog:
		head = lastLine(msg)
	}
	if cause != "" {
		return head + " (cause: " + cause + ")"
	}
	if i := strings.Index(msg, head); i >= 0 {
		// A JavaScript error thrown by the harness's own code is a test
		// bug, like a Python traceback's innermost frame in the harness.
		if file := jsHarnessFrame(msg[i+len(head):]); file != "" {
			file = strings.TrimRight(file[strings.LastIndexByte(file, '/')+1:], "0123456789:")
			return head + " (in harness/" + file + ")"
		}
	}
	return head
}

// isBanner reports a section banner of a test runner's report
// ("____ ERROR collecting tests/test_x.py ____", "==== FAILURES ===="): it
// names where the failure is reported, and the lines under it what failed.
func isBanner(line string) bool {
	return len(line) > 8 && (strings.HasPrefix(line, "___") && strings.HasSuffix(line, "___") ||
		strings.HasPrefix(line, "===") && strings.HasSuffix(line, "==="))
}

// pythonException returns the exception line of a traceback that starts at
// tb, with " (in harness/<file>)" appended when the innermost frame is the
// harness's own code: the same exception means a different root cause there.
func pythonException(tb string) string {
	var frameFile string
	for rest := tb[strings.IndexByte(tb, '\n')+1:]; rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		trimmed := strings.TrimSpace(line)
		if trimmed == "" {
			continue
		}
		if indented(line) {
			if f, ok := strings.CutPrefix(trimmed, `File "`); ok {
				frameFile, _, _ = strings.Cut(f, `"`)
			} else if strings.HasPrefix(trimmed, "raise child_exception") {
				// subprocess's own line, when the frames' file names
				// were trimmed away.
				frameFile = "subprocess.py"
			}
			continue
		}
		if isHarnessPath(frameFile) {
			return trimmed + " (in harness/" + frameFile[strings.LastIndexByte(frameFile, '/')+1:] + ")"
		}
		if strings.HasSuffix(strings.ReplaceAll(frameFile, "\\", "/"), "multiprocessing/synchronize.py") {
			// A semaphore that multiprocessing could not make or open: its
			// shared memory (/dev/shm) is missing or refused, whatever
			// the file or permission error says.
			return trimmed + " (creating a SemLock)"
		}
		if isSpawnPath(frameFile) && (strings.HasPrefix(trimmed, "FileNotFoundError") || strings.HasPrefix(trimmed, "OSError: [Errno 2]")) {
			// Python raises a missing program as a missing file, from
			// the frames that spawn it (Python 2 as an OSError). A
			// compiler is told apart:
			// the image lacks its toolchain, a cause of its own.
			if missingCompiler.MatchString(trimmed) {
				return trimmed + " (spawning a compiler)"
			}
			return trimmed + " (spawning a program)"
		}
		return trimmed
	}
	return ""
}

// missingCompiler is Python's missing file when the file is a C or C++
// compiler that a build spawned.
var missingCompiler = regexp.MustCompile(`No such file or directory: '([\w./-]*/)?([\w]+-linux-gnu-)?(gcc|cc|g\+\+|c\+\+|clang|clang\+\+)(-[\d.]+)?'$`)

// isHarnessPath reports whether a source file belongs to the test harness
// rather than to the workflow under test: the harness's own folders, test
// files and fixtures (test_x.py, x_test.py, x.spec.ts, x.test.js,
// __tests__/, tests/, fixtures/, conftest.py).
func isHarnessPath(path string) bool {
	if path == "" {
		return false
	}
	p := "/" + strings.TrimPrefix(strings.ReplaceAll(path, "\\", "/"), "/")
	for _, dir := range [...]string{"/harness/", "/tests/", "/test/", "/__tests__/", "/fixtures/", "/_pytest/", "/e2e/"} {
		if strings.Contains(p, dir) {
			return true
		}
	}
	base := p[strings.LastIndexByte(p, '/')+1:]
	if i := strings.IndexAny(base, ":"); i >= 0 {
		base = base[:i] // a JavaScript frame's file:line:column
	}
	return base == "conftest.py" || strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".py") ||
		strings.HasSuffix(base, "_test.py") || strings.HasSuffix(base, "_test.go") ||
		strings.Contains(base, ".spec.") || strings.Contains(base, ".test.")
}

// isSpawnPath reports whether a source file is the Python standard
// library's code that starts a program.
func isSpawnPath(path string) bool {
	base := strings.ReplaceAll(path, "\\", "/")
	base = base[strings.LastIndexByte(base, '/')+1:]
	return base == "subprocess.py" || base == "popen_posix.py" || base == "base_subprocess.py" || base == "unix_events.py" ||
		strings.HasSuffix(path, "/os.py") && strings.Contains(path, "python")
}

// jsHarnessFrame returns the file of the first frame of a JavaScript stack
// that follows line i of lines, when that frame is the harness's own code.
func jsHarnessFrame(stack string) string {
	for rest := stack; rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		t := strings.TrimSpace(line)
		if !strings.HasPrefix(t, "at ") {
			continue
		}
		file := t[3:]
		if i := strings.LastIndexByte(file, '('); i >= 0 {
			file = strings.TrimSuffix(file[i+1:], ")")
		}
		if isHarnessPath(file) {
			return file
		}
		return ""
	}
	return ""
}

// pipRetryCause condenses the reason of pip's "Retrying (Retry(...)) after
// connection broken by '…'" warning to "ExceptionName: reason", or returns ""
// if line is no such warning.
func pipRetryCause(line string) string {
	const marker = "after connection broken by '"
	i := strings.Index(line, marker)
	if i < 0 {
		return ""
	}
	cause := line[i+len(marker):]
	if j := strings.LastIndex(cause, "':"); j >= 0 {
		cause = cause[:j]
	}
	name := cause
	if j := strings.IndexAny(cause, "('\""); j >= 0 {
		name = cause[:j]
	}
	reason := cause[len(name):]
	if j := strings.LastIndex(reason, ": "); j >= 0 {
		reason = reason[j+2:]
	}
	return name + ": " + trimReprTail(strings.TrimLeft(reason, `('"`))
}

// trimReprTail strips the quotes and closing parentheses that end a Python
// repr, keeping the parentheses the text itself opened.
func trimReprTail(s string) string {
	open := strings.Count(s, "(") - strings.Count(s, ")")
	for s != "" {
		switch c := s[len(s)-1]; {
		case c == '\'' || c == '"' || c == ' ' || c == '>':
		case c == ')' && open < 0:
			open++
		default:
			return s
		}
		s = s[:len(s)-1]
	}
	return s
}

func indented(line string) bool {
	return line != "" && (line[0] == ' ' || line[0] == '\t')
}

// looksLikeError reports whether a line opens with an error word or an
// exception name such as "java.io.IOException:" or "ModuleNotFoundError:".
func looksLikeError(line string) bool {
	for _, p := range [...]string{"Error", "error", "ERROR", "FATAL", "Fatal", "fatal", "panic:", "Exception", "Uncaught", "Killed", "E   "} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	head := line
	if i := strings.IndexAny(line, ": "); i >= 0 {
		head = line[:i]
	}
	return strings.HasSuffix(head, "Error") || strings.HasSuffix(head, "Exception") ||
		strings.HasSuffix(head, "Exit") || strings.HasSuffix(head, "Interrupt")
}

// mentionsFailure reports whether a line talks about a failure without
// opening with an error word ("Resolving x... failed: …").
func mentionsFailure(line string) bool {
	for _, w := range [...]string{"rror", "ailed", "atal", "denied", "not found", "nable to", "annot ", "imed out"} {
		if strings.Contains(line, w) {
			return true
		}
	}
	return false
}

func lastLine(msg string) string {
	msg = strings.TrimSpace(msg)
	return strings.TrimSpace(msg[strings.LastIndexByte(msg, '\n')+1:])
}

// normalizer writes the signature of a text into out.
type normalizer struct {
	out []byte
}

func (n *normalizer) result() string {
	out := n.out
	for len(out) > 0 && out[len(out)-1] == ' ' {
		out = out[:len(out)-1]
	}
	if bytes.Contains(out, restatedSize) {
		// "1190 bytes (1.16 KB)": one size, said twice, and only when
		// it is large enough; the line is the same event either way.
		out = bytes.ReplaceAll(out, restatedSize, []byte("<size>"))
	}
	if len(out) > maxSignatureLen {
		cut := maxSignatureLen
		for cut > 0 && !utf8.RuneStart(out[cut]) {
			cut--
		}
		out = out[:cut]
	}
	return string(out)
}

var restatedSize = []byte("<size> (<size>)")

func (n *normalizer) full() bool { return len(n.out) >= maxSignatureLen }

func (n *normalizer) space() {
	if len(n.out) > 0 && n.out[len(n.out)-1] != ' ' {
		n.out = append(n.out, ' ')
	}
}

// text normalises s. It is called again for parts of s, such as the
// directories of a path or the inside of a quoted path.
func (n *normalizer) text(s string) {
	for i := 0; i < len(s) && !n.full(); {
		c := s[i]
		boundary := i == 0 || !isWordByte(s[i-1])
		switch {
		case c == 0x1b:
			i = skipEscape(s, i)
		case c == ' ' || c < 0x20 || c == 0x7f:
			n.space()
			i++
			if ph, ok := n.contextPlaceholder(); ok && i < len(s) && !isQuote(s[i]) && !isSpace(s[i]) && !errnoNameAt(s, i) {
				n.out = append(n.out, ph...)
				i = skipNonSpace(s, i)
			}
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				n.out = append(n.out, "\uFFFD"...)
			case unicode.IsSpace(r):
				n.space()
			default:
				n.out = append(n.out, s[i:i+size]...)
			}
			i += size
		case isQuote(c) && boundary:
			i = n.quoted(s, i)
		case boundary && startsPath(s, i):
			i = n.path(s, i)
		case isDigit(c) && boundary:
			i = n.number(s, i)
		case isWordByte(c) && boundary:
			i = n.word(s, i)
		default:
			n.out = append(n.out, c)
			i++
		}
	}
}

// contextPlaceholder reports whether the word that follows the text written
// so far names something that varies by occurrence (a package, a program, a
// host) and, if so, its placeholder.
func (n *normalizer) contextPlaceholder() (string, bool) {
	out := n.out
	if len(out) < 6 || !contextEnds[out[len(out)-2]] {
		return "", false
	}
	for _, c := range nextWordContexts {
		if len(out) >= len(c.prefix) && string(out[len(out)-len(c.prefix):]) == c.prefix {
			return c.placeholder, true
		}
	}
	return "", false
}

// errnoNameAt reports whether s[i:] starts with an errno's name (EAGAIN,
// E2BIG): Node writes "spawn EAGAIN" when it failed before naming the
// program, and the code is what tells such failures apart.
func errnoNameAt(s string, i int) bool {
	j := i
	for j < len(s) && (s[j] >= 'A' && s[j] <= 'Z' || isDigit(s[j])) {
		j++
	}
	return j-i >= 4 && s[i] == 'E' && (j == len(s) || !isWordByte(s[j]))
}

// nextWordContexts are phrases after which the next word varies by
// occurrence although the tools print it unquoted.
var nextWordContexts = []struct{ prefix, placeholder string }{
	{"satisfies the requirement ", "<pkg>"},
	{"No matching distribution found for ", "<pkg>"},
	{"spawn ", "<cmd>"},
	{"No module named ", "<name>"},
	{"resolve host: ", "<host>"},
	{"resolve host ", "<host>"},
	{"Failed to connect to ", "<host>"},
	{"lookup ", "<host>"},
	{"ENOTFOUND ", "<host>"},
	{"EAI_AGAIN ", "<host>"},
	{"Temporary failure resolving ", "<host>"},
}

// contextEnds holds the last byte before the space of every context
// phrase, to skip the phrase comparisons after most words.
var contextEnds = func() (ends [256]bool) {
	for _, c := range nextWordContexts {
		ends[c.prefix[len(c.prefix)-2]] = true
	}
	return ends
}()

// quoted handles a quote at s[i]. A quoted single token is a name that varies
// (a module, a fixture, a program) unless it is a path, host or URL, which get
// their own placeholders, or a constant kept as written: a dictionary or JSON
// key, an encoding name, a qualified code name ("std::bad_alloc"). A quote
// around a phrase is kept and the phrase normalised.
func (n *normalizer) quoted(s string, i int) int {
	q := s[i]
	end := -1
	for j := i + 1; j < len(s) && j-i <= 256; j++ {
		if s[j] == q {
			end = j
			break
		}
		if isSpace(s[j]) || s[j] < 0x20 {
			break
		}
	}
	if end < 0 || !hasWordByte(s[i+1:end]) {
		n.out = append(n.out, q)
		return i + 1
	}
	content := s[i+1 : end]
	n.out = append(n.out, q)
	switch {
	case isMapKey(s, i, end) || keptQuoted(content) || strings.Contains(content, "::"):
		n.out = append(n.out, content...)
	case strings.ContainsAny(content, "/\\") || isHostOrIP(content) || isDigit(content[0]):
		n.text(content)
	default:
		n.out = append(n.out, "<name>"...)
	}
	n.out = append(n.out, q)
	return end + 1
}

// isMapKey reports whether the quoted token s[open:close+1] is a key of a
// JSON object or Python dict: opened after '{' or ',' and followed by ':'.
func isMapKey(s string, open, close int) bool {
	if close+1 >= len(s) || s[close+1] != ':' {
		return false
	}
	j := open - 1
	for j >= 0 && s[j] == ' ' {
		j--
	}
	return j >= 0 && (s[j] == '{' || s[j] == ',')
}

// keptQuoted reports whether a quoted token is a constant worth keeping:
// codec names, which tell encoding failures apart.
func keptQuoted(s string) bool {
	switch strings.ToLower(s) {
	case "utf-8", "utf8", "utf-16", "utf-32", "ascii", "latin-1", "latin1", "charmap", "cp1252", "iso-8859-1", "base64":
		return true
	}
	return false
}

// startsPath reports whether s[i:] opens a file path: "/x", "./x", "../x"
// or "~/x".
func startsPath(s string, i int) bool {
	rest := s[i:]
	switch {
	case strings.HasPrefix(rest, "../") || strings.HasPrefix(rest, "./") || strings.HasPrefix(rest, "~/"):
		return true
	case rest[0] == '/':
		return len(rest) > 1 && isPathByte(rest[1]) && rest[1] != '/'
	}
	return false
}

// path writes a path's shape: its first keptPathDirs directories (their
// numbers and ids normalised), "…" for deeper ones (naming a landmark
// among them, "…/site-packages/…/"), and "<file>" plus the
// extension for the last component. A path that climbs with ".." becomes
// "../<path>": where it climbs to is the occurrence, the traversal the cause.
func (n *normalizer) path(s string, i int) int {
	end := i
	for end < len(s) && isPathByte(s[end]) {
		end++
	}
	for end > i+1 && s[end-1] == '.' {
		end--
	}
	p := s[i:end]
	if p == "/" || p == "./" || p == "~/" || p == "/etc/passwd" || p == "/etc/shadow" || strings.TrimRight(p, "/") == "/dev/shm" {
		// The accounts files are what a traversal probe reads, and
		// /dev/shm the shared memory a browser or a worker pool ran out
		// of: the cause, not an occurrence like /dev/ttyACM0.
		n.out = append(n.out, p...)
		return end
	}
	if strings.Contains(p, "..") && (strings.HasPrefix(p, "../") || strings.Contains(p, "/../") || strings.HasSuffix(p, "/..")) {
		n.out = append(n.out, "../<path>"...)
		return end
	}
	switch {
	case p[0] == '/':
		n.out = append(n.out, '/')
		p = p[1:]
	default: // "./" or "~/"
		n.out = append(n.out, p[:2]...)
		p = p[2:]
	}
	trailingSlash := strings.HasSuffix(p, "/")
	p = strings.TrimRight(p, "/")
	dirs, leaf := "", p
	if j := strings.LastIndexByte(p, '/'); j >= 0 {
		dirs, leaf = p[:j], p[j+1:]
	}
	kept := 0
	for dirs != "" {
		var dir string
		dir, dirs, _ = strings.Cut(dirs, "/")
		if dir == "" {
			continue
		}
		if kept == keptPathDirs {
			n.out = append(n.out, "…/"...)
			if landmark, deeper := landmarkDir(dir + "/" + dirs); landmark != "" {
				n.out = append(n.out, landmark+"/"...)
				if deeper {
					n.out = append(n.out, "…/"...)
				}
			}
			break
		}
		n.text(dir)
		n.out = append(n.out, '/')
		kept++
	}
	if keptLeaves[leaf] {
		n.out = append(n.out, leaf...)
	} else {
		n.out = append(n.out, "<file>"...)
		if len(leaf) > 1 {
			if dot := strings.IndexByte(leaf[1:], '.'); dot >= 0 {
				n.extension(leaf[dot+2:])
			}
		}
	}
	if trailingSlash {
		n.out = append(n.out, '/')
	}
	return end
}

// keptLeaves are the file names that are the cause, not an occurrence:
// Docker's socket is the daemon a sandbox reaches or is refused, and
// another daemon's socket is another cause.
var keptLeaves = map[string]bool{"docker.sock": true}

// landmarkDirs are the directories that say what a path is, however deep
// they sit: a package's install location is not a workspace file.
var landmarkDirs = [...]string{"site-packages", "dist-packages", "node_modules"}

// landmarkDir returns the deepest landmark among the directories of dirs,
// or "", and whether directories follow it.
func landmarkDir(dirs string) (landmark string, deeper bool) {
	for rest := dirs; rest != ""; {
		var dir string
		dir, rest, _ = strings.Cut(rest, "/")
		for _, l := range landmarkDirs {
			if dir == l {
				landmark, deeper = l, strings.Trim(rest, "/") != ""
			}
		}
	}
	return landmark, deeper
}

// kindExtensions are the extensions that say what kind of thing failed
// (package metadata, a shared library, a socket); a data file's extension
// (".csv", ".png") is the occurrence, since an agent that loses a report
// loses its charts for the same reason.
var kindExtensions = map[string]bool{
	"dist-info": true, "egg-info": true, "pth": true, "whl": true, "egg": true,
	"so": true, "dll": true, "dylib": true, "sock": true, "pid": true, "lock": true,
}

// extension writes a file's extension when it names a kind of file (see
// kindExtensions); version suffixes such as ".so.1" lose their digits.
func (n *normalizer) extension(ext string) {
	// A name such as "numpy-1.26.4.dist-info" keeps only what follows its
	// last number: the package and version are the occurrence.
	for j := len(ext) - 1; j >= 0; j-- {
		if isDigit(ext[j]) {
			if k := strings.IndexByte(ext[j:], '.'); k >= 0 {
				ext = ext[j+k+1:]
			} else {
				return
			}
			break
		}
	}
	if ext == "" || len(ext) > 16 {
		return
	}
	if !kindExtensions[strings.ToLower(ext)] {
		return
	}
	n.out = append(n.out, '.')
	n.out = append(n.out, ext...)
}

// number handles a token that starts with a digit: timestamps, times, hex
// literals and digests, UUIDs, IPv4 addresses, durations, sizes and plain
// numbers. Exit codes, errnos, signals and HTTP statuses are kept (see
// keepsNumber), since they tell root causes apart.
func (n *normalizer) number(s string, i int) int {
	if end := matchTimestamp(s, i); end > i {
		n.out = append(n.out, "<ts>"...)
		return end
	}
	if end := matchClock(s, i); end > i {
		n.out = append(n.out, "<time>"...)
		return end
	}
	if end := matchUUID(s, i); end > i {
		n.out = append(n.out, "<uuid>"...)
		return end
	}
	if s[i] == '0' && i+2 < len(s) && (s[i+1] == 'x' || s[i+1] == 'X') && isHex(s[i+2]) {
		end := i + 2
		for end < len(s) && isHex(s[end]) {
			end++
		}
		if strings.Trim(s[i+2:end], "0") == "" {
			// A zero is a NUL byte or a null pointer: the cause, not a
			// variable part, and not the byte a decoder choked on.
			n.out = append(n.out, "0x00"...)
			return end
		}
		n.out = append(n.out, "<hex>"...)
		return end
	}
	if i > 0 && s[i-1] == '\\' {
		end := i
		for end < len(s) && isDigit(s[end]) {
			end++
		}
		if strings.Trim(s[i:end], "0") == "" {
			// An escaped zero ('\0') is a NUL byte, as 0x00 is: the
			// cause, where another escaped number ('\65279') is the
			// character a parser refused.
			n.out = append(n.out, '0')
			return end
		}
	}
	if end := matchIPv4(s, i); end > i {
		if strings.HasPrefix(s[i:end], "127.") {
			// Loopback is a service of the sandbox's own, not a host
			// outside: the address is a constant and tells the two apart.
			n.out = append(n.out, s[i:end]...)
			return end
		}
		n.out = append(n.out, "<ip>"...)
		return end
	}
	wordEnd := i
	for wordEnd < len(s) && isWordByte(s[wordEnd]) {
		wordEnd++
	}
	if isHexDigest(s[i:wordEnd], 4) || isPrefixedID(s, i, wordEnd) {
		n.out = append(n.out, "<hex>"...)
		return wordEnd
	}
	end := scanDecimal(s, i)
	if unitEnd, placeholder := matchUnit(s, end); unitEnd > end {
		n.out = append(n.out, placeholder...)
		return unitEnd
	}
	if end == wordEnd && (keepsNumber(s, i) || loopbackPort(s, i)) && end-i <= 6 && !strings.Contains(s[i:end], ".") {
		n.out = append(n.out, s[i:end]...)
		return end
	}
	n.out = append(n.out, "<n>"...)
	// Letters glued to the number ("3rd", "4xx") are kept as written.
	for end < wordEnd {
		n.out = append(n.out, s[end])
		end++
	}
	return end
}

// word handles a token that starts with a letter or underscore: URLs, host
// names, hex digests, random ids, and identifiers whose long digit runs vary.
func (n *normalizer) word(s string, i int) int {
	end := i
	for end < len(s) && isWordByte(s[end]) {
		end++
	}
	if strings.HasPrefix(s[end:], "://") {
		end += 3
		for end < len(s) && !isSpace(s[end]) && !strings.ContainsRune(`'"<>()[]{}`+"`", rune(s[end])) {
			end++
		}
		for end > i && strings.ContainsRune(".,;:", rune(s[end-1])) {
			end--
		}
		n.out = append(n.out, "<url>"...)
		return end
	}
	if end < len(s) && (s[end] == '.' || s[end] == '-') {
		dotted := end
		for dotted < len(s) && (isWordByte(s[dotted]) || s[dotted] == '.' || s[dotted] == '-') {
			dotted++
		}
		for dotted > end && (s[dotted-1] == '.' || s[dotted-1] == '-') {
			dotted--
		}
		if isHostOrIP(s[i:dotted]) {
			n.out = append(n.out, "<host>"...)
			return dotted
		}
		if isSharedLibrary(s[i:dotted]) {
			n.out = append(n.out, "lib<name>.so"...)
			return dotted
		}
		if dot := strings.LastIndexByte(s[i:dotted], '.'); dot > 0 && fileExtensions[strings.ToLower(s[i+dot+1:dotted])] {
			n.out = append(n.out, "<file>"...)
			return dotted
		}
	}
	if matchUUID(s, i) > i {
		n.out = append(n.out, "<uuid>"...)
		return matchUUID(s, i)
	}
	w := s[i:end]
	switch {
	case isHexDigest(w, 6):
		n.out = append(n.out, "<hex>"...)
	case isRandomID(w):
		n.out = append(n.out, "<id>"...)
	default:
		n.identifier(w)
	}
	if end+1 < len(s) && s[end] == '-' && isDigit(s[end+1]) && keepsDashNumber(w) {
		end++
		start := end
		for end < len(s) && (isDigit(s[end]) || s[end] == '-' && end+1 < len(s) && isDigit(s[end+1])) {
			end++
		}
		n.out = append(n.out, '-')
		n.out = append(n.out, s[start:end]...)
	}
	return end
}

// identifier writes w with digit runs of four or more replaced by "<n>"
// ("ipykernel_48213"), keeping short ones that are part of a name
// ("python3", "sha256", "x86_64").
func (n *normalizer) identifier(w string) {
	for j := 0; j < len(w); {
		if !isDigit(w[j]) {
			n.out = append(n.out, w[j])
			j++
			continue
		}
		k := j
		for k < len(w) && isDigit(w[k]) {
			k++
		}
		if k-j >= 4 {
			n.out = append(n.out, "<n>"...)
		} else {
			n.out = append(n.out, w[j:k]...)
		}
		j = k
	}
}

// keepsDashNumber reports whether the number after "word-" is part of a
// name, as in "utf-8", "sha-256" or "iso-8859-1".
func keepsDashNumber(word string) bool {
	switch strings.ToLower(word) {
	case "utf", "ucs", "iso", "latin", "sha", "windows", "x86":
		return true
	}
	return false
}

// keepsNumber reports whether the number at s[i] follows a word that makes
// it a code: "Errno 13", "error=1", "exit code 137", "signal 9",
// "HTTP 404", "error -32700", "curl: (6)".
func keepsNumber(s string, i int) bool {
	j := i
	for skipped := 0; j > 0 && skipped < 4 && strings.IndexByte(` =:"'(-#[`, s[j-1]) >= 0; skipped++ {
		j--
	}
	if j == i && i > 0 {
		return false
	}
	k := j
	for k > 0 && (isLetter(s[k-1]) || s[k-1] == '_') {
		k--
	}
	switch strings.ToLower(s[k:j]) {
	case "errno", "error", "code", "status", "signal", "http", "rc", "returncode",
		"exit_code", "exitcode", "exit", "curl", "sig":
		return true
	}
	return false
}

// loopbackPort reports a port of the loopback address (127.0.0.1:9222,
// localhost:9222): which of the sandbox's own services refused, such as a
// browser's DevTools endpoint, is a constant of the workflow.
func loopbackPort(s string, i int) bool {
	if i == 0 || s[i-1] != ':' {
		return false
	}
	host := s[:i-1]
	if rest, ok := strings.CutSuffix(host, "localhost"); ok && (rest == "" || !isWordByte(rest[len(rest)-1])) {
		return true
	}
	j := len(host)
	for j > 0 && (isDigit(host[j-1]) || host[j-1] == '.') {
		j--
	}
	return strings.HasPrefix(host[j:], "127.") && matchIPv4(host, j) == len(host)
}

// matchUnit matches a duration or size unit right after a number, glued
// ("120ms", "1m30s", "512M") or after one space ("300 s", "12 MB"), and
// returns where it ends and the placeholder; end == i if there is none.
func matchUnit(s string, i int) (int, string) {
	if i < len(s) && (isLetter(s[i]) || s[i] == 0xc2) { // 0xc2 opens "µ"
		u := unitWord(s, i)
		if kind := unitKind(s[i:u], true); kind != "" {
			end := u
			// Go durations chain: "1m30.5s".
			for kind == "<dur>" && end < len(s) && isDigit(s[end]) {
				d := scanDecimal(s, end)
				u2 := unitWord(s, d)
				if unitKind(s[d:u2], true) != "<dur>" {
					break
				}
				end = u2
			}
			return end, kind
		}
		return i, ""
	}
	if i+1 < len(s) && s[i] == ' ' && (isLetter(s[i+1]) || s[i+1] == 0xc2) {
		u := unitWord(s, i+1)
		if kind := unitKind(s[i+1:u], false); kind != "" {
			return u, kind
		}
	}
	return i, ""
}

// unitWord returns the end of the letters at s[i], counting "µ" as one.
func unitWord(s string, i int) int {
	j := i
	for j < len(s) {
		if isLetter(s[j]) {
			j++
		} else if strings.HasPrefix(s[j:], "µ") {
			j += len("µ")
		} else {
			break
		}
	}
	return j
}

// unitKind returns "<dur>" or "<size>" for a unit word. Single letters count
// only when glued to the number, where "m" is minutes and "M" is mega.
func unitKind(u string, glued bool) string {
	switch u {
	case "ns", "us", "µs", "ms", "s", "sec", "secs", "second", "seconds", "min", "mins",
		"minute", "minutes", "hr", "hrs", "hour", "hours", "milliseconds", "millisecond",
		"microseconds", "nanoseconds":
		return "<dur>"
	case "B", "bytes", "byte", "KB", "kB", "KiB", "MB", "MiB", "GB", "GiB", "TB", "TiB",
		"Ki", "Mi", "Gi", "kb", "mb", "gb":
		return "<size>"
	}
	if glued {
		switch u {
		case "m", "h":
			return "<dur>"
		case "K", "k", "M", "G", "T":
			return "<size>"
		}
	}
	return ""
}

// scanDecimal returns the end of the digits at s[i], with any ".digits"
// groups ("1.5", "1.26.4").
func scanDecimal(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	for i+1 < len(s) && s[i] == '.' && isDigit(s[i+1]) {
		i += 2
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	return i
}

// matchTimestamp matches an RFC 3339 or log-style date and time at s[i]
// ("2026-06-30", "2026-06-30T08:31:02.5Z", "2026/06/30 08:31:02,123",
// "2026-06-30 08:31:02+02:00") and returns its end, or i.
func matchTimestamp(s string, i int) int {
	if !digitsAt(s, i, 4) || i+10 > len(s) || (s[i+4] != '-' && s[i+4] != '/') ||
		s[i+7] != s[i+4] || !digitsAt(s, i+5, 2) || !digitsAt(s, i+8, 2) {
		return i
	}
	end := i + 10
	if end+1 < len(s) && (s[end] == 'T' || s[end] == ' ') {
		if t := matchClock(s, end+1); t > end+1 {
			end = t
		}
	}
	if end < len(s) && s[end] == 'Z' {
		return end + 1
	}
	if end+3 <= len(s) && (s[end] == '+' || s[end] == '-') && digitsAt(s, end+1, 2) {
		end += 3
		if end+3 <= len(s) && s[end] == ':' && digitsAt(s, end+1, 2) {
			end += 3
		} else if digitsAt(s, end, 2) {
			end += 2
		}
	}
	return end
}

// matchClock matches "H:MM:SS" or "HH:MM:SS" with optional fractions at s[i]
// and returns its end, or i.
func matchClock(s string, i int) int {
	j := i
	switch {
	case digitsAt(s, j, 2):
		j += 2
	case digitsAt(s, j, 1):
		j++
	default:
		return i
	}
	if j+6 > len(s) || s[j] != ':' || !digitsAt(s, j+1, 2) || s[j+3] != ':' || !digitsAt(s, j+4, 2) {
		return i
	}
	j += 6
	if j+1 < len(s) && (s[j] == '.' || s[j] == ',') && isDigit(s[j+1]) {
		j++
		for j < len(s) && isDigit(s[j]) {
			j++
		}
	}
	if j < len(s) && isWordByte(s[j]) && s[j] != 'Z' {
		return i
	}
	return j
}

// matchUUID matches a UUID (8-4-4-4-12 hex digits) at s[i] and returns its
// end, or i.
func matchUUID(s string, i int) int {
	if i+36 > len(s) || (i+36 < len(s) && isWordByte(s[i+36])) {
		return i
	}
	for k := range 36 {
		c := s[i+k]
		switch k {
		case 8, 13, 18, 23:
			if c != '-' {
				return i
			}
		default:
			if !isHex(c) {
				return i
			}
		}
	}
	return i + 36
}

// matchIPv4 matches a dotted-quad IPv4 address at s[i] and returns its end,
// or i.
func matchIPv4(s string, i int) int {
	j := i
	for part := range 4 {
		if part > 0 {
			if j >= len(s) || s[j] != '.' {
				return i
			}
			j++
		}
		start := j
		for j < len(s) && isDigit(s[j]) && j-start < 3 {
			j++
		}
		if j == start {
			return i
		}
	}
	if j < len(s) && (isWordByte(s[j]) || s[j] == '.' && j+1 < len(s) && isDigit(s[j+1])) {
		return i
	}
	return j
}

// isHostOrIP reports whether s is an IPv4 address or a dotted host name
// under a common top-level domain. Requiring a known TLD keeps file names
// ("chart.png") and dotted identifiers ("numpy.linalg") out.
func isHostOrIP(s string) bool {
	if s == "" {
		return false
	}
	if host, _, ok := strings.Cut(s, ":"); ok {
		s = host
	}
	if matchIPv4(s, 0) == len(s) {
		return true
	}
	dot := strings.LastIndexByte(s, '.')
	if dot <= 0 || dot == len(s)-1 {
		return false
	}
	for k := 0; k < len(s); k++ {
		c := s[k]
		if !isLetter(c) && !isDigit(c) && c != '-' && c != '.' {
			return false
		}
	}
	return topLevelDomains[strings.ToLower(s[dot+1:])]
}

// topLevelDomains are the TLDs a host name is recognised by. Ambiguous ones
// that are also file extensions (.py, .sh, .md, .so) are left out.
var topLevelDomains = map[string]bool{
	"com": true, "org": true, "net": true, "io": true, "dev": true, "ai": true,
	"co": true, "app": true, "cloud": true, "internal": true, "local": true,
	"edu": true, "gov": true, "uk": true, "de": true, "fr": true, "jp": true,
	"cn": true, "info": true, "biz": true, "us": true, "me": true, "test": true,
	"example": true, "invalid": true, "localhost": true, "svc": true, "corp": true,
	"lan": true, "eu": true, "ru": true, "nl": true, "ca": true, "au": true,
}

// fileExtensions are the extensions by which a bare file name ("chart.png",
// "weights.bin") is recognised and replaced by "<file>": an artifact's name
// and type are the occurrence. Source and library extensions (.py, .so) are
// left out: those names identify code, not data.
var fileExtensions = map[string]bool{
	"png": true, "jpg": true, "jpeg": true, "gif": true, "svg": true, "webp": true,
	"pdf": true, "csv": true, "tsv": true, "json": true, "jsonl": true, "txt": true,
	"html": true, "xml": true, "parquet": true, "pt": true, "pth": true, "ckpt": true,
	"bin": true, "zip": true, "gz": true, "tgz": true, "tar": true, "whl": true,
	"ipynb": true, "log": true, "yaml": true, "yml": true, "npy": true, "npz": true,
	"pkl": true, "xlsx": true, "xls": true, "docx": true, "wav": true, "mp3": true,
	"mp4": true, "db": true, "sqlite": true, "dat": true, "out": true, "safetensors": true,
}

// isHexDigest reports whether w is a hex digest or id of at least minLen
// characters with both digits and hex letters ("9b1c07…", "4f2a91c0").
func isHexDigest(w string, minLen int) bool {
	if len(w) < minLen {
		return false
	}
	var digit, letter bool
	for k := 0; k < len(w); k++ {
		c := w[k]
		switch {
		case isDigit(c):
			digit = true
		case c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F':
			letter = true
		default:
			return false
		}
	}
	return digit && letter
}

// isPrefixedID reports whether s[i:end] is the all-digit body of a
// generated id with a prefix ("sbx-74096212"): one id in 40 or so has no
// hex letter, and it must share a signature with "sbx-4f2a91c0".
func isPrefixedID(s string, i, end int) bool {
	if end-i < 6 || i < 2 || s[i-1] != '-' || !isLetter(s[i-2]) {
		return false
	}
	for k := i; k < end; k++ {
		if !isDigit(s[k]) {
			return false
		}
	}
	return true
}

// isRandomID reports whether an identifier looks generated: at least eight
// characters with three or more separate digit runs ("tmpk3j2_x9a1").
func isRandomID(w string) bool {
	if len(w) < 8 {
		return false
	}
	runs := 0
	for k := 0; k < len(w); k++ {
		if isDigit(w[k]) && (k == 0 || !isDigit(w[k-1])) {
			runs++
		}
	}
	return runs >= 3
}

// skipEscape skips an ANSI escape sequence starting at s[i].
func skipEscape(s string, i int) int {
	i++
	if i < len(s) && s[i] == '[' {
		i++
		for i < len(s) && s[i] >= 0x20 && s[i] <= 0x3f {
			i++
		}
		if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
			i++
		}
		return i
	}
	if i < len(s) {
		i++
	}
	return i
}

func skipNonSpace(s string, i int) int {
	for i < len(s) && !isSpace(s[i]) {
		i++
	}
	return i
}

func digitsAt(s string, i, count int) bool {
	if i+count > len(s) {
		return false
	}
	for k := i; k < i+count; k++ {
		if !isDigit(s[k]) {
			return false
		}
	}
	return true
}

func hasWordByte(s string) bool {
	for i := 0; i < len(s); i++ {
		if isWordByte(s[i]) {
			return true
		}
	}
	return false
}

func isDigit(c byte) bool    { return c >= '0' && c <= '9' }
func isLetter(c byte) bool   { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isWordByte(c byte) bool { return isLetter(c) || isDigit(c) || c == '_' }
func isSpace(c byte) bool    { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
func isQuote(c byte) bool    { return c == '\'' || c == '"' || c == '`' }
func isHex(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// isPathByte reports whether c can be part of a path as tools print them.
func isPathByte(c byte) bool {
	return isWordByte(c) || strings.IndexByte("/.-+@~%", c) >= 0 || c >= utf8.RuneSelf
}

// isSharedLibrary reports whether w names a shared library ("libGL.so.1",
// "libpangocairo-1.0.so.0"): which one is missing is the occurrence, a
// library missing from the image the cause.
func isSharedLibrary(w string) bool {
	if !strings.HasPrefix(w, "lib") {
		return false
	}
	j := strings.Index(w, ".so")
	if j < 4 {
		return false
	}
	rest := w[j+3:]
	for _, c := range []byte(rest) {
		if c != '.' && !isDigit(c) {
			return false
		}
	}
	return true
}
