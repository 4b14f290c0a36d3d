package triage

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"sandtrap"
	"sandtrap/logview"
)

// Evidence from the harness's own log lines. A harness records what it
// did around a failure: how many bytes it sent and how many came back, the
// file it wrote, the sandbox it restarted. Those lines say what the error
// cannot: that a download came back short though the tool said "ok", that
// a file the harness saw written is gone. They name paths and counts that
// change with every failure, so they are read per failure, after the
// cached decision, and only from the end of the log.

// CountsRule is the Classification.By of a failure whose log reports
// fewer or more bytes arriving than were sent.
const CountsRule = "rule:transfer-counts"

// LostFileRule is the Classification.By of a failure whose missing file
// the log shows written, or missing after the sandbox restarted.
const LostFileRule = "rule:file-lost-after-write"

// sentCountWords and gotCountWords name the two ends of one transfer in a
// harness's key=value counts: expected_bytes and written_bytes, size_in and
// size_stored, src_bytes and returned_bytes.
var (
	sentCountWords = []string{"expected", "expect", "want", "wanted", "sent", "src", "source", "orig", "original", "declared", "in", "input", "uploaded", "upload", "stat"}
	gotCountWords  = []string{"written", "wrote", "stored", "saved", "received", "recv", "got", "actual", "returned", "downloaded", "readback", "read", "ondisk", "disk"}
	sizeWords      = []string{"bytes", "byte", "size", "len", "length", "stdin"}
)

// sizeMarks are the fragments, in any case, of which a count's key holds
// at least one: every line without one is skipped before the regular
// expression, since the counts are read for every failure.
var sizeMarks = logview.NewMarks("byte", "size", "len", "stdin")

// countToken is a key=value (or key: value) pair whose value is a byte
// count, "1530498" or "56828B".
// A JSON key keeps its quotes: "written_bytes": 2056.
var countToken = regexp.MustCompile(`"?([A-Za-z][A-Za-z0-9_.-]*)"?\s?[=:]\s?(\d{1,15})(?:B|\s?bytes)?\b`)

// holdsCount reports whether line has what every match of countToken
// has, a = or : and then a digit, one space apart at most: most lines
// with a size's word have none, and the pattern is slow to say so.
func holdsCount(line string) bool {
	for i := 0; i < len(line); i++ {
		if line[i] != '=' && line[i] != ':' {
			continue
		}
		j := i + 1
		if j < len(line) && strings.IndexByte("\t\n\f\r ", line[j]) >= 0 {
			j++
		}
		if j < len(line) && '0' <= line[j] && line[j] <= '9' {
			return true
		}
	}
	return false
}

// countsBlock is how many lines apart two counts of one transfer may be
// when the log writes one key per line (bytes_expected=…, then
// bytes_received=…): such a harness puts them side by side. Counts on
// lines that say more are of two transfers.
const countsBlock = 4

// transferCounts returns the bytes sent (or expected) and received (or
// written) that one line near the end of the log reports for one
// transfer, the last such line, or two lines of a key-per-line log at
// most countsBlock apart that report one each. A count of zero received
// says nothing of how the bytes were cut.
func transferCounts(log []byte) (sent, got int64, ok bool) {
	text := tailBytes(log, wholeWindow)
	if !strings.ContainsAny(text, "=:") || !sizeMarks.In(text) {
		return 0, 0, false
	}
	// The lone counts of each end met last, scanning back: the nearest to
	// the line being read, with what their lines say besides.
	var lastSent, lastGot loneCount
	for rest, lineNo := text, int64(1); rest != ""; lineNo++ {
		// From the last line back, without splitting the log.
		var line string
		if i := strings.LastIndexByte(rest, '\n'); i >= 0 {
			rest, line = rest[:i], rest[i+1:]
		} else {
			rest, line = "", rest
		}
		if !sizeMarks.In(line) || !holdsCount(line) {
			continue
		}
		sent, got = -1, -1
		var local, remote int64 = -1, -1
		counts := countToken.FindAllStringSubmatch(line, -1)
		ends := 0
		for _, m := range counts {
			n, err := strconv.ParseInt(m[2], 10, 64)
			if err != nil {
				continue
			}
			switch countEnd(m[1]) {
			case "sent":
				sent = n
			case "got":
				got = n
			case "local":
				local = n
			case "remote":
				remote = n
			default:
				continue
			}
			ends++
		}
		switch copies := (local > 0) != (remote > 0); {
		case copies && sent > 0 && got <= 0:
			// One end named, and a copy: the copy is the other end.
			got = max(local, remote)
		case copies && got > 0 && sent <= 0:
			sent = max(local, remote)
		case local > 0 && remote > 0 && sent <= 0 && got <= 0:
			// The local and the remote copy of one file: which was sent
			// is what the line did with it, or the lines just before.
			dir := transferDirection(line)
			if dir == "" {
				dir = transferDirection(lastLines(rest, countsBlock))
			}
			switch dir {
			case "up":
				sent, got = local, remote
			case "down":
				sent, got = remote, local
			}
		}
		switch {
		case sent > 0 && got > 0:
			return sent, got, true
		case sent <= 0 && got <= 0 || ends != 1:
		case sent > 0:
			this := newLoneCount(sent, lineNo, line, counts)
			if lastGot.n > 0 && lineNo-lastGot.line <= countsBlock && oneTransfer(this, lastGot) {
				return sent, lastGot.n, true
			}
			lastSent = this
		case got > 0:
			this := newLoneCount(got, lineNo, line, counts)
			if lastSent.n > 0 && lineNo-lastSent.line <= countsBlock && oneTransfer(lastSent, this) {
				return lastSent.n, got, true
			}
			lastGot = this
		}
	}
	return 0, 0, false
}

// loneCount is a line's count of one end of a transfer, and what the line
// says besides: nothing else (bare), the files it names, and whether it
// reports that its call succeeded.
type loneCount struct {
	n, line   int64
	bare      bool
	files     []string
	succeeded bool
}

// newLoneCount is the count n of line lineNo, whose countToken matches
// are counts.
func newLoneCount(n, lineNo int64, line string, counts [][]string) loneCount {
	bare := len(counts) == 1 && strings.TrimRight(strings.TrimSpace(line), ",") == counts[0][0]
	return loneCount{n: n, line: lineNo, bare: bare, files: fileNames(line), succeeded: callSucceeded.MatchString(line)}
}

// oneTransfer reports whether a line counting what was sent and one
// counting what arrived count one transfer: two bare counts of a
// key-per-line log, or a call and its answer that reports success
// (tool=files.upload … declared_bytes=…, then result={"ok":true,
// "bytes_written":…}) and names no other file (fetch a.jpg
// expected_bytes=…, then saved b.png written_bytes=… are two).
func oneTransfer(sent, got loneCount) bool {
	if sent.bare && got.bare {
		return true
	}
	return got.succeeded && (len(sent.files) == 0 || len(got.files) == 0 ||
		slices.ContainsFunc(sent.files, func(n string) bool { return slices.Contains(got.files, n) }))
}

// callSucceeded finds a harness's word that a call succeeded: "ok": true,
// isError=false, status=ok, tool_result=success.
var callSucceeded = regexp.MustCompile(`(?i)"?\b(?:ok|success|succeeded)"?\s*[:=]\s*"?(?:true|yes)\b|\bisError"?\s*[:=]\s*"?false\b|\b\w*(?:status|result)"?\s*[:=]\s*"?(?:ok|success|succeeded|done)\b`)

// fileName finds a name with an extension in a harness's line: a.jpg,
// scoreboardstats-0.9.jar.
var fileName = regexp.MustCompile(`[\w-]+\.[A-Za-z][A-Za-z0-9]{0,6}\b`)

// fileNames returns the lower-cased names with an extension that line holds.
func fileNames(line string) []string {
	names := fileName.FindAllString(line, -1)
	for i, n := range names {
		names[i] = strings.ToLower(n)
	}
	return names
}

// keyWords splits a count's key into its lower-case words:
// "stdout_bytes" gives stdout and bytes.
func keyWords(key string) []string {
	return strings.FieldsFunc(strings.ToLower(key), func(r rune) bool { return r < 'a' || r > 'z' })
}

// countEnd says which end of a transfer a count's key names, "sent" or
// "got", or which copy, "local" (or the client's) or "remote", whose
// direction the line decides; "" when it names a size of neither or of
// both.
func countEnd(key string) string {
	words := keyWords(key)
	var size, sent, got, local, remote bool
	for _, w := range words {
		size = size || slices.Contains(sizeWords, w)
		sent = sent || slices.Contains(sentCountWords, w)
		got = got || slices.Contains(gotCountWords, w)
		local = local || w == "local" || w == "client"
		// The sandbox is the far end of every transfer a campaign's
		// harness makes: sandbox_bytes is what arrived there or left it.
		remote = remote || w == "remote" || w == "sandbox"
	}
	switch {
	case !size:
		return ""
	case sent != got:
		if sent {
			return "sent"
		}
		return "got"
	case sent || local == remote:
		return ""
	case local:
		return "local"
	}
	return "remote"
}

// upWords and downWords name what a harness's line did with a file that
// has a local and a remote copy: sent it to the sandbox, or fetched it.
var (
	upWords   = []string{"upload", "uploaded", "write", "wrote", "written", "put", "push", "send", "sent"}
	downWords = []string{"download", "downloaded", "read", "get", "fetch", "fetched", "pull"}
)

// lastLines returns the last n lines of text.
func lastLines(text string, n int) string {
	i := len(text)
	for ; n > 0 && i > 0; n-- {
		i = strings.LastIndexByte(text[:i], '\n')
		if i < 0 {
			return text
		}
	}
	return text[i:]
}

// transferDirection says whether line moved a file up to the remote end
// ("up"), down from it ("down"), or does not say ("").
func transferDirection(line string) string {
	var up, down bool
	for _, w := range keyWords(line) {
		up = up || slices.Contains(upWords, w)
		down = down || slices.Contains(downWords, w)
	}
	switch {
	case up == down:
		return ""
	case up:
		return "up"
	}
	return "down"
}

// transferDamage is the interface primitive that turns sent bytes into
// got, and the words for it. Bytes that grew were decoded as text or
// re-encoded on the way. Bytes cut at a round size hit a size limit. A few
// bytes lost (at least minKeptShare of them arrived) were rewritten as
// text: line ends, a byte order mark, bytes a decoder dropped. Cut
// anywhere else, the content decided where they stopped, which is what a
// NUL byte read as the end of a string does.
func transferDamage(sent, got int64) (primitive, what string) {
	switch {
	case got > sent:
		return "encoding", "bytes grew in transfer"
	case atSizeLimit(got):
		return "message-size", "content truncated at a size limit in transfer"
	case float64(got) >= minKeptShare*float64(sent):
		return "encoding", "bytes rewritten in transfer"
	}
	return "null-byte", "content cut short in transfer"
}

// minKeptShare is the share of the bytes sent that arrived, at or above
// which the ones missing were rewritten rather than cut. Of the blind
// sets' development halves whose log counts a transfer that lost bytes
// off any round size, 21 of the 23 that kept 95 % or more were labelled
// encoding, and 20 of the 26 that kept under half a NUL byte.
const minKeptShare = 0.95

// atSizeLimit reports whether n looks like a limit someone set: a whole
// number of KiB or of thousands of bytes, or the largest number of a
// binary width (65535, 2147483647: a signed 32-bit length).
func atSizeLimit(n int64) bool {
	return n >= 1024 && (n%1024 == 0 || n%1000 == 0) || n >= 1023 && n&(n+1) == 0
}

// atBufferSize reports whether n is a power of two from 4 KiB to 16 MiB,
// the sizes of pipes' and streams' buffers.
func atBufferSize(n int64) bool {
	return n >= 4<<10 && n <= 16<<20 && n&(n-1) == 0
}

// countsDecide reports whether a transfer's counts (or the bytes it
// dumped) decide over the rules' out for f: when nothing spoke or only a
// guess did, or when the words said the content was corrupted, cut or
// truncated, but not how (an archive that does not open, a package whose
// hash does not match, is the transfer's fault once the log shows the
// transfer changed it). A download whose hash does not match is
// encoding's, so corruptsContent covers it. So is a loader that found no
// ELF header in a library or an addon: alone a module built for another
// platform, which the package rule reads, but the logs of all 16 such
// labelled records show the upload changed its bytes (three sets, all
// encoding).
func countsDecide(f *Failure, out Classification) bool {
	return onlyGuessed(out) || corruptsContent(out) || out.By == storageTruncatedRule.By() || weakBuiltin[out.By] ||
		strings.Contains(f.Error, "invalid ELF header")
}

// onlyGuessed reports a class no rule gave: nothing decided it, or a
// guess did. The harness's evidence overrules such a class.
func onlyGuessed(cl Classification) bool {
	return cl.By == ByNone || strings.HasPrefix(cl.By, GuessBy)
}

// missingMarks are fragments of which every match of missingFile holds
// one, in any case, checked before the regular expressions.
var missingMarks = logview.NewMarks("no such file", "filenotfound", "enoent", "nosuchfile", "file not found", "does not exist", "checkpoint", "cannot find the file", "from scratch", "new experiment")

// missingFile finds a line that says a file is missing, or that a run
// found none of the checkpoints it was to resume from.
var missingFile = regexp.MustCompile(`(?i)No such file or directory|FileNotFoundError|\bENOENT\b|NoSuchFile|file not found|does not exist|No (local |valid )?checkpoints? (was |were |is )?found|Can't find a valid checkpoint|cannot find the file specified|will now start a new experiment|(start(ing|s)?|train(ing)?) from scratch`)

// wroteFile finds a harness line that records a successful write, and the
// path written: "write_file out/summary.csv ok", "wrote /data/a.npy".
var (
	wroteFile   = regexp.MustCompile(`(?i)\b(write_file|write|wrote|saved?|upload(ed)?|put_file|files\.write|create_file)\b[^\n]*?\s(?:path=)?['"]?([\w./~-]*[\w-]\.[\w]{1,8}|/[\w./-]+)['"]?(?:\s|$)[^\n]*\b(ok|success|succeeded|done|saved|written|true|created|isError=false)\b`)
	restartLine = regexp.MustCompile(`(?i)(\b|_)(restart(ed|ing)?|re-?created|rebuilt|recycled|respawned|resumed|reconnected to a new)(\b|_)|\brestarts=[1-9]|\bresume(_from)?\s*[=:]\s*["']?(true|yes|[\w.~-]*/)`)
)

// restartMarks, wroteMarks and wroteFirstMarks gate restartLine, wroteFile
// and wroteFileFirst: each match holds one of them, and every failure that
// says a file is missing is read for them.
var (
	restartMarks    = logview.NewMarks("restart", "recreated", "re-created", "rebuilt", "recycled", "respawned", "resume", "reconnected to a new")
	wroteMarks      = logview.NewMarks("write", "wrote", "save", "upload", "put_file", "create_file")
	wroteFirstMarks = logview.NewMarks("uploaded", "wrote", "written", "saved")
)

// wroteFileFirst finds a tool's answer that reports the write first, and
// the path written: {"status":"ok","message":"Uploaded: a.zip → /workspace/a.zip"}.
var wroteFileFirst = regexp.MustCompile(`(?i)\b(ok|success|succeeded)\b[^\n]*\b(uploaded|wrote|written|saved)\b[^\n]*?[\s:]['"]?([\w./~-]*[\w-]\.[\w]{1,8}|/[\w./-]+)['"]?(?:\s|$|,)`)

// unixSocket finds a path named as a Unix socket conventionally is,
// /run/cups/cups.sock, and not one that only starts so (x.sock.json), or
// as PostgreSQL names its own (/var/run/postgresql/.s.PGSQL.5432).
var unixSocket = regexp.MustCompile(`\.sock(?:$|[^\w.-])|/\.s\.PGSQL\.\d+\b`)

// connectFoundNothing finds a connection to a local server that found no
// socket to connect to: psql's "could not connect to server: No such file
// or directory" (whose socket, .s.PGSQL.5432, it names on a later line),
// connect(/run/kamailio//kamailio_ctl)'s. The word stands alone, not in a
// path or a name (connect.log, kafka-connect/), whose file can be lost.
var connectFoundNothing = regexp.MustCompile(`(?i)(?:^|[^/\w.-])connect(?:[(\s][^\n]{0,40})?: No such file or directory`)

// lostAfterWrite reports whether f's error or log says a file is missing
// that the log shows written successfully, or that went missing after the
// sandbox restarted or when the run resumed from it: the storage lost what
// it had, silently, which no error of the program that looked for the
// file can say.
func lostAfterWrite(f *Failure) bool {
	log := tailBytes(f.LogTail, wholeWindow)
	if log == "" {
		return false
	}
	errEnd := tail(f.Error, wholeWindow)
	if !missingMarks.In(log) && !missingMarks.In(errEnd) {
		return false
	}
	restarted := restartMarks.Admits(log) && restartLine.MatchString(log)
	if !restarted && !(wroteMarks.Admits(log) && wroteFile.MatchString(log)) && !(wroteFirstMarks.Admits(errEnd) && wroteFileFirst.MatchString(errEnd)) {
		return false
	}
	text := log + "\n" + errEnd
	loc := missingFile.FindStringIndex(text)
	if loc == nil {
		return false
	}
	missing := lineAt(text, loc)
	if unixSocket.MatchString(missing) || connectFoundNothing.MatchString(missing) {
		// A daemon's socket is made by the daemon when it starts, not
		// kept by the storage: gone after a restart, it is the service
		// that did not come back.
		return false
	}
	// Only the harness's lines before the missing file count: a restart
	// after it, or one the program's own error mentions, explains nothing.
	if restartLine.MatchString(log[:min(loc[0], len(log))]) {
		return true
	}
	for _, m := range wroteFile.FindAllStringSubmatch(log, -1) {
		if name := baseName(m[3]); name != "" && strings.Contains(missing, name) {
			return true
		}
	}
	// The tool's own answer reported the write, and the harness's check
	// after it found nothing there.
	for _, m := range wroteFileFirst.FindAllStringSubmatch(errEnd, -1) {
		if name := baseName(m[3]); name != "" && strings.Contains(missing, name) && strings.Contains(log, name) {
			return true
		}
	}
	return false
}

// Findings of the harness's evidence start a signature: a failure with
// one is a mode apart from the same failure without it (see findings).
const (
	filesDisappeared = "files written earlier disappeared"
	traversalFound   = "path traversal accepted"
	errorPageSaved   = "an error page saved as the file"
	toolSucceeded    = "the tool reported success"
)

// exitField finds an exit code in a harness's log line: exit=0,
// "exit_code": 1, rc=0, returncode=137, exit=ok.
var exitField = regexp.MustCompile(`(?i)\b(?:exit|exit_?code|rc|return_?code)["']?[\t\f\r ]*[=:][\t\f\r ]*["']?(-?\d+|ok)\b`)

// statusField finds a harness's word for how a call ended: status=ok,
// "status": "success", restore_status_reported=completed,
// state=completed. A number (an HTTP status) says nothing of it, nor does
// a header's (Proxy-Status: squid).
var statusField = regexp.MustCompile(`(?i)(?:^|[^\w-])(?:\w*status\w*|state)["']?[\t\f\r ]*[=:][\t\f\r ]*["']?([A-Za-z]+)\b`)

// successWords are the words of statusField that say the call succeeded,
// unsuccessWords those that say it did not. Any other word (running, sent,
// active) says neither, and the harness's own exit code decides.
var (
	successWords   = []string{"ok", "success", "succeeded", "successful", "completed", "complete", "done"}
	unsuccessWords = []string{"error", "errored", "fail", "failed", "failure", "killed", "crashed", "aborted", "timeout", "cancelled", "canceled", "rejected", "denied", "refused", "invalid", "exception", "stopped", "terminated", "signaled", "signalled", "dead", "err", "nonzero", "interrupted", "hung", "expired", "lost", "incomplete"}
)

// exitKeyMarks and statusMarks are checked before exitField and
// statusField, each match of which holds one: every failure with a log
// is read for them.
var (
	exitKeyMarks = logview.NewMarks("exit", "rc", "return")
	statusMarks  = logview.NewMarks("status", "state")
	exitMarks    = logview.NewMarks("exit", "rc", "return", "status", "state")
)

// reportedSuccess reports whether the last word f's log records on how
// its call ended, an exit code or a status, says it succeeded, or, where
// the log records none, whether the harness's exit code is 0: the tool
// said so, and the failure is what the harness's own check found
// afterwards, a wrong result returned as success. Of the 121 records of
// the blind campaigns whose log ends with an exit of 0, 112 were rated
// critical; of the 43 more whose log ends with a status of success, 42.
// Of the failed results whose exit code is 0, 3,107 of 3,487 in 727 blind
// sets were rated critical; over the ten folds' test halves, reading the
// exit code found 211 more criticals and rated 54 more falsely.
func reportedSuccess(f *Failure, out Classification) bool {
	if success, found := loggedOutcome(f); found {
		return success
	}
	return f.Status == sandtrap.StatusFailed && f.ExitCode != nil && *f.ExitCode == 0 && !died(f, out)
}

// testOrTimeLimit reports whether out blames the test or a time limit:
// such a failure takes no mark of success, since a bug in the test stays
// the test's and a client that gave up waited on a tool that ran on.
func testOrTimeLimit(out Classification) bool {
	return out.Layer == sandtrap.LayerTest || out.Primitive == "cpu-time"
}

// diedRules are the rules whose decision is that the failure's process
// was killed or crashed: an exit code of 0 beside one says nothing of
// success.
var diedRules = []string{OOMKilledRule, PidsLimitRule, RendererCrashedRule, killedRule.By(), exitOOMKillRule.By(), browserCrashRule.By()}

// diedWords are a process's death in its own output.
var diedWords = regexp.MustCompile(`\bKilled\b|(?i:segmentation fault|core dumped|signal: killed)|\bSIG(?:KILL|SEGV|ABRT|BUS)\b`)

// died reports whether out, f's error or its MCP step's error says f's
// process was killed or crashed.
func died(f *Failure, out Classification) bool {
	return slices.Contains(diedRules, out.By) || diedWords.MatchString(tail(f.Error, wholeWindow)) || diedWords.MatchString(f.StepError)
}

// loggedOutcome reports whether the last word f's log records on how its
// call ended says it succeeded, and whether the log records one.
func loggedOutcome(f *Failure) (success, found bool) {
	log := tailBytes(f.LogTail, wholeWindow)
	if !exitMarks.In(log) {
		return false, false
	}
	// Neither field crosses a line (their spaces are \s but the newline),
	// so the last line that holds one holds the last word, and the lines
	// before it need not be read.
	for rest := log; rest != ""; {
		var line string
		if i := strings.LastIndexByte(rest, '\n'); i >= 0 {
			rest, line = rest[:i], rest[i+1:]
		} else {
			rest, line = "", rest
		}
		exitKey, status := exitKeyMarks.In(line), statusMarks.In(line)
		if !exitKey && !status {
			continue
		}
		at, success, found := -1, false, false
		if exitKey {
			if all := exitField.FindAllStringSubmatchIndex(line, -1); len(all) > 0 {
				m := all[len(all)-1]
				v := line[m[2]:m[3]]
				at, success, found = m[0], v == "0" || strings.EqualFold(v, "ok"), true
			}
		}
		if status {
			if all := statusField.FindAllStringSubmatchIndex(line, -1); len(all) > 0 && all[len(all)-1][0] > at {
				m := all[len(all)-1]
				v := line[m[2]:m[3]]
				said := func(w string) bool { return strings.EqualFold(w, v) }
				switch {
				case slices.ContainsFunc(successWords, said):
					success, found = true, true
				case slices.ContainsFunc(unsuccessWords, said):
					success, found = false, true
				default:
					// The last word says neither: the lines before it
					// are of earlier steps, and the harness's column
					// decides, unless the same line's exit code
					// said the call failed.
					if found && !success {
						return false, true
					}
					return false, false
				}
			}
		}
		if found {
			return success, true
		}
	}
	return false, false
}

// BrowserLoadRule is the Classification.By of a browser that closed under
// the workflow while the harness's log shows it near its memory or moving
// a payload too large for one DevTools message.
const BrowserLoadRule = "rule:browser-load"

// memoryFigure finds a harness's note of a process's memory: rss_mb=2789,
// renderer_rss_peak_mb=2011, "heap": 3.1gb, mem=2147483648.
var memoryFigure = regexp.MustCompile(`(?i)\b(\w*(?:rss|mem|memory|heap)\w*)["']?\s*[=:]\s*["']?(\d+(?:\.\d+)?)\s*(gi?b|mi?b|ki?b)?\b`)

// limitFigure finds a harness's note of a limit, of memory or of time:
// container_limit_mb=1024, mem_limit=2gb, limit_s=1800, timeout_ms=30000,
// "deadline": 60. sizeFigure tells the two apart.
var limitFigure = regexp.MustCompile(`(?i)\b(\w*(?:limit|timeout|deadline|budget)\w*)["']?\s*[=:]\s*["']?(\d+(?:\.\d+)?)\s*(gi?b|mi?b|ki?b|ms|s|m)?\b`)

// sizeKeyMarks are the words of a figure's key that name a size.
var sizeKeyMarks = logview.NewMarks("mb", "gb", "kb", "bytes", "mem")

// sizeFigure reports whether a figure's key or unit names a size (a
// memory limit) rather than a time.
func sizeFigure(key, unit string) bool {
	k := strings.ToLower(key)
	return strings.HasSuffix(strings.ToLower(unit), "b") || sizeKeyMarks.In(k)
}

// payloadKeyMarks are the words of a count's key that name a payload's
// size: file_bytes, "size".
var payloadKeyMarks = logview.NewMarks("bytes", "size")

// browserLoadMarks are checked before the figures: every failure whose
// browser closed is read for them.
var browserLoadMarks = logview.NewMarks("rss", "mem", "heap", "bytes", "size", "oom")

// browserOOMKilled starts the signature of a closed browser whose log shows
// the OOM killer: the known cause oom-killed reads it.
const browserOOMKilled = "browser OOM-killed"

// oomKill finds the kernel's or a container runtime's note that it killed
// a process for memory, with a count above zero where it gives one
// (oom_kill 1, oom_kill_events=2, not oom_kill_events=0). All 35 blind
// records with one in the log were labelled memory.
var oomKill = regexp.MustCompile(`(?i)\bOOMKilled\b|Out of memory: Kill|invoked oom-killer|oom-kill:|oom[-_ ]?kill(?:_events)?\s*[=: ]\s*[1-9]`)

// Thresholds of browserLoad: a renderer of 1.5 GB is near any sandbox's
// limit, and 30 MB in one DevTools message is near the browser's.
const (
	nearMemoryLimitMB   = 1500
	nearLimitShare      = 0.8 // of a limit the log names
	overMessageLimitB   = 30 << 20
	megabytesPerGB      = 1024
	bytesPerMB          = 1 << 20
	plainBytesAboveSize = 1 << 24 // a bare memory figure this large is in bytes
)

// browserLoad reports what the log says a browser that closed under the
// workflow was doing: "memory" when a memory figure is 1.5 GB or more,
// or 80 % of a limit the log names, else "message-size" when a payload
// is 30 MB or more. The 23 labelled records it reads (four campaigns)
// were 14 memory and 9 message size, all read right; "Target closed"
// alone had made them the session's. A log that shows the OOM killer
// says "memory" too, and oomKilled says so.
func browserLoad(f *Failure) (primitive string, oomKilled, ok bool) {
	log := tailBytes(f.LogTail, wholeWindow)
	if !browserLoadMarks.In(log) {
		return "", false, false
	}
	if oomKill.MatchString(log) {
		return "memory", true, true
	}
	if memoryNearLimit(log) {
		return "memory", false, true
	}
	// A payload's size is a count whose key names bytes or a size:
	// file_bytes=108289219, "size": 52733639.
	for _, m := range countToken.FindAllStringSubmatch(log, -1) {
		if !payloadKeyMarks.In(m[1]) {
			continue
		}
		if n, err := strconv.ParseInt(m[2], 10, 64); err == nil && n >= overMessageLimitB {
			return "message-size", false, true
		}
	}
	return "", false, false
}

// memoryCapMarks are the words of a memory figure's key that name a cap
// on memory rather than memory used: mem_limit_mb, "mem_max_mib" (cgroup
// v2's memory.max), memory_quota. A usage's peak (rss_max, max_rss)
// names no cap.
var memoryCapMarks = logview.NewMarks("limit", "cap", "quota", "mem_max", "memory_max", "memory.max", "max_mem")

// memoryNearLimit reports whether a memory figure in log is 80 % of the
// smallest memory limit the log names or, when it names none, 1.5 GB or
// more: a training run's 2.5 GB under a 16 GB limit is far from it.
func memoryNearLimit(log string) bool {
	limit := smallestLimit(log, true)
	for _, m := range memoryFigure.FindAllStringSubmatch(log, -1) {
		if memoryCapMarks.In(strings.ToLower(m[1])) {
			continue
		}
		if mb := megabytes(m[1], m[2], m[3]); limit == 0 && mb >= nearMemoryLimitMB || limit > 0 && mb >= nearLimitShare*limit {
			return true
		}
	}
	return false
}

// countKeyMarks name a limit on a count, not on time (compile_process_limit,
// pids_limit, max_rows_limit): such a figure without a unit is no time
// limit unless its key also names time (timeKeyMarks: process_timeout) or
// ends in a unit of time that seconds reads (timeUnitEnd: job_limit_s; an
// hour's _h it does not, so such a key stays a count). Read as seconds, an
// ESPHome build's process limit of 6 made every compiler it had killed
// for memory a run stopped at its time limit, and a cgroup's count of
// hits on its memory limit (limit_hits=58) a limit of 58 seconds.
var (
	timeKeyMarks  = logview.NewMarks("timeout", "deadline", "time", "sec", "wall", "dur")
	countKeyMarks = logview.NewMarks("proc", "pid", "thread", "file", "fd", "open", "conn", "retr", "rate", "request", "row", "item", "line", "token", "concurren", "job", "worker", "parallel", "depth", "size", "count", "char", "length", "len", "hits")
	timeUnitEnd   = regexp.MustCompile(`(?i)_(?:s|ms|min)$`)
	countWordEnd  = regexp.MustCompile(`(?i)(?:^|_)(?:hits|count|counts)$`)
)

// countKey reports whether a limit figure's key counts something rather
// than naming a time: a key that ends in a count word does whatever else
// it names (timeout_hits=3 counts timeouts), and one with a count word
// does unless it names time too.
func countKey(key string) bool {
	if countWordEnd.MatchString(key) {
		return true
	}
	return countKeyMarks.In(key) && !timeKeyMarks.In(key) && !timeUnitEnd.MatchString(key)
}

// connectKeyMarks name a limit on a connection's opening (connect_timeout_ms,
// client_connect_timeout_s); notConnectKeyMarks name others that hold the
// word: a connection's idle or pool wait, a reconnect's or a disconnect's,
// a connector's.
var (
	connectKeyMarks    = logview.NewMarks("connect")
	notConnectKeyMarks = logview.NewMarks("connection", "reconnect", "disconnect", "interconnect", "connector", "connectivity", "connected")
)

// windowKeyMarks name the window or interval of a rate limit
// (RateLimitIntervalSec, rate_limit_window_s); windowTimeoutMarks, beside
// them, name a timeout all the same (timeoutIntervalForRequest,
// window_timeout_s).
var (
	windowKeyMarks     = logview.NewMarks("window", "interval")
	windowTimeoutMarks = logview.NewMarks("timeout", "deadline")
)

// rateWindow reports whether a limit's key names a rate limit's window
// rather than a timeout.
func rateWindow(key string) bool {
	return windowKeyMarks.In(key) && !windowTimeoutMarks.In(key)
}

// connectLimit reports whether a limit's key names a connection's opening.
func connectLimit(key string) bool {
	return connectKeyMarks.In(key) && !notConnectKeyMarks.In(key)
}

// smallestLimit returns the smallest limit log names of one kind, memory
// in megabytes when sizes is set, else time in seconds, or 0 for none. A
// time limit on a connection's opening (connectLimit) and a rate limit's
// window (rateWindow) are not counted.
func smallestLimit(log string, sizes bool) float64 {
	limit := 0.0
	for _, m := range limitFigure.FindAllStringSubmatch(log, -1) {
		if sizeFigure(m[1], m[3]) != sizes || !sizes && m[3] == "" && countKey(m[1]) {
			continue
		}
		// A connect timeout bounds a connection's opening, not the run: a
		// run that took it never reached its host. Of the labelled records
		// this reads otherwise, 53 of 53 are network-egress, nine sets.
		if !sizes && connectLimit(m[1]) {
			continue
		}
		// A rate limit's window bounds how fast a run writes, not how long
		// it runs: journald's RateLimitIntervalSec=30s beside a job of
		// 31.2 s is a rate cap's, not a time limit's.
		if !sizes && rateWindow(m[1]) {
			continue
		}
		v := seconds(m[1], m[2], m[3])
		if sizes {
			v = megabytes(m[1], m[2], m[3])
		}
		if v > 0 && (limit == 0 || v < limit) {
			limit = v
		}
	}
	if sizes {
		// A cap named in memory's words: "mem_max_mib": 4096.
		for _, m := range memoryFigure.FindAllStringSubmatch(log, -1) {
			if !memoryCapMarks.In(strings.ToLower(m[1])) {
				continue
			}
			if v := megabytes(m[1], m[2], m[3]); v > 0 && (limit == 0 || v < limit) {
				limit = v
			}
		}
	}
	return limit
}

// megabytes reads a memory figure in megabytes from its key (rss_mb,
// heap_gb), its unit (3.1gb) or, bare, its size.
func megabytes(key, value, unit string) float64 {
	v, err := strconv.ParseFloat(value, 64)
	if err != nil {
		return 0
	}
	u := strings.ToLower(unit)
	k := strings.ToLower(key)
	switch {
	case strings.HasPrefix(u, "g") || strings.HasSuffix(k, "_gb") || strings.HasSuffix(k, "gib"):
		return v * megabytesPerGB
	case strings.HasPrefix(u, "m") || strings.HasSuffix(k, "_mb") || strings.HasSuffix(k, "mib"):
		return v
	case strings.HasPrefix(u, "k") || strings.HasSuffix(k, "_kb") || strings.HasSuffix(k, "kib"):
		return v / 1024
	case v >= plainBytesAboveSize:
		return v / bytesPerMB
	}
	return v
}

// ReplacedBytesRule is the Classification.By of a failure whose log
// shows the bytes a transfer stored holding U+FFFD, the replacement
// character, as UTF-8: EF BF BD.
const ReplacedBytesRule = "rule:replacement-bytes"

// bytesDecodedAsText starts the signature of a failure that
// ReplacedBytesRule placed.
const bytesDecodedAsText = "bytes decoded as text in transfer"

// hexRun is a run of hex digits, or of hex bytes apart, as a harness
// dumps the head of a file: 89504e47, 50 4b 03 04, and xxd's two-byte
// groups, efbf bd50 4e47.
var hexRun = regexp.MustCompile(`(?i)\b[0-9a-f]{6,}\b|\b[0-9a-f]{2}(?: [0-9a-f]{2}){2,}\b|\b[0-9a-f]{4}(?: [0-9a-f]{4})+\b`)

// replacementMarks are U+FFFD's bytes in hex, as dumps group them.
var replacementMarks = logview.NewMarks("efbfbd", "ef bf bd", "efbf bd", "ef bfbd")

// replacedBytes reports whether the end of log dumps bytes that hold EF
// BF BD on a byte boundary: where a binary was read as UTF-8 on its way,
// each byte that was not UTF-8 became U+FFFD. All 75 blind records with
// these bytes in the log or the error were interface/encoding when it was
// written; a later set's 4 whose error names the NUL the database refused
// beside them are null-byte (see errorNamesNUL).
func replacedBytes(log []byte) bool {
	text := tailBytes(log, wholeWindow)
	// xxd groups two bytes: "efbf bd50", or "..ef bfbd" across groups.
	if !replacementMarks.In(text) {
		return false
	}
	for _, run := range hexRun.FindAllString(text, -1) {
		hex := strings.ToLower(strings.ReplaceAll(run, " ", ""))
		for i := 0; i+6 <= len(hex); i += 2 {
			if hex[i:i+6] == "efbfbd" {
				return true
			}
		}
	}
	return false
}

// CRLFRule is the Classification.By of a failure whose log shows a file
// whose lines end in CRLF.
const CRLFRule = "rule:crlf-in-log"

// crlfLineEndings starts the signature of a failure that CRLFRule placed;
// the known cause crlf-line-endings reads it.
const crlfLineEndings = "script with CRLF line endings"

// crlfShown finds a log's view of a line that ends in CRLF: file(1)'s
// "with CRLF line terminators", od -c's "\r  \n" (escaped once more
// inside a JSON log line), cat -A's "^M$".
var crlfShown = regexp.MustCompile(`with CRLF line terminators|\\{1,2}r +\\{1,2}n|\^M\$`)

// notRunnable finds an error that says a program or its interpreter
// could not run, or that a shell could not parse a script: what a line
// ending in a carriage return makes shells and loaders say.
var notRunnable = regexp.MustCompile(`(?i)No such file or directory|bad interpreter|command not found|exec format error|\bENOENT\b|syntax error|illegal option|unexpected end of file|\bexit(ed)?( with)?( code| status)?[ =:]*127\b`)

// crlfInLog reports whether the end of f's log shows a file whose lines
// end in CRLF while its error says a program could not run (or nothing
// but a guess placed it, out): all 42 blind records with both were
// interface/encoding. A file written on Windows has CRLF line ends
// whatever else is wrong with it, so CRLF beside an error of another
// kind (UTF-16's NUL bytes) says nothing.
func crlfInLog(f *Failure, out Classification) bool {
	// Read per failure: most logs hold none of crlfShown's marks, and a
	// look for them costs a fraction of the expression's.
	end := f.LogTail[max(0, len(f.LogTail)-wholeWindow):]
	if !bytes.Contains(end, []byte("CRLF")) && !bytes.Contains(end, []byte(`\r`)) && !bytes.Contains(end, []byte("^M$")) {
		return false
	}
	return crlfShown.Match(end) && (notRunnable.MatchString(f.Error) || onlyGuessed(out))
}

// LimitReachedRule is the Classification.By of a failure that no rule
// placed whose log shows its run reached the time limit the log names.
const LimitReachedRule = "rule:time-limit-reached"

// timeLimitReached starts the signature of a failure that
// LimitReachedRule placed.
const timeLimitReached = "the run reached its time limit"

// elapsedFigure finds a harness's note of how long a run took:
// elapsed_s=1801, wall_ms=31910, "duration": 62, cpu_used_s=180.02.
var elapsedFigure = regexp.MustCompile(`(?i)\b(\w*(?:elapsed|wall|duration|waited|took|runtime|cpu_used)\w*)["']?\s*[=:]\s*["']?(\d+(?:\.\d+)?)(ms|s|m)?\b`)

// limitMarks are checked before the figures.
var limitMarks = logview.NewMarks("limit", "timeout", "deadline", "budget")

// reachedTimeLimit reports whether log shows its run took as long as the
// shortest time limit it names (within 2 %): the limit ended it. Of the
// 51 labelled records whose log shows so, 37 were cpu-time.
func reachedTimeLimit(log string) bool {
	if !limitMarks.In(log) {
		return false
	}
	limit := smallestLimit(log, false)
	if limit == 0 {
		return false
	}
	for _, m := range elapsedFigure.FindAllStringSubmatch(log, -1) {
		// wall_limit_s names a limit, not the time a run took.
		if limitMarks.In(m[1]) {
			continue
		}
		if seconds(m[1], m[2], m[3]) >= limit*0.98 {
			return true
		}
	}
	return false
}

// PidsLimitRule is the Classification.By of a failure whose log shows its
// processes at the pids limit of its cgroup.
const PidsLimitRule = "rule:process-limit-reached"

// processLimitReached starts the signature of a failure that PidsLimitRule
// placed.
const processLimitReached = "the run reached its process limit"

// pidsFigure finds a harness's note of a cgroup's process count or cap:
// pids.current=629, pids_max=128, cgroup_pids_max=64, "pids_current": 64,
// and pids.max=max, a cap that is no cap.
var pidsFigure = regexp.MustCompile(`(?i)(?:\b|_)pids[._](current|max)["']?\s*[=:]\s*"?(\d+|max)\b`)

// pidsRefused finds the cgroup's count of forks its cap refused, on one
// line: pids.events max=29, "pids.events: max 29".
var pidsRefused = regexp.MustCompile(`(?i)\bpids\.events["']?[ \t]*[=:]?[ \t]*"?max["']?[ \t]*[=: \t][ \t]*"?[1-9]`)

// pidsMarks are checked before the figures.
var pidsMarks = logview.NewMarks("pids")

// reachedPidsLimit reports whether log shows its processes at the pids cap
// of their cgroup: a count at or over the cap on its line, or else the
// last cap named before it, or forks the cap refused. A count is not held
// against a cap named later or on another cgroup's line, which may be
// another cgroup's or a cap changed since. All 749 labelled records whose
// log shows so were process-spawn, whatever their error said: "Cannot
// allocate memory" from fork, a worker that "exited unexpectedly", a
// thread that could not start.
func reachedPidsLimit(log string) bool {
	if !pidsMarks.In(log) {
		return false
	}
	if pidsRefused.MatchString(log) {
		return true
	}
	limit := 0 // the cap in force; 0 is none
	for line := range strings.Lines(log) {
		if !pidsMarks.In(line) {
			continue
		}
		figures := pidsFigure.FindAllStringSubmatch(line, -1)
		for _, m := range figures {
			if strings.EqualFold(m[1], "max") {
				limit, _ = strconv.Atoi(m[2]) // "max", or a figure past int, is no cap
			}
		}
		for _, m := range figures {
			if n, err := strconv.Atoi(m[2]); err == nil && strings.EqualFold(m[1], "current") && limit > 0 && n >= limit {
				return true
			}
		}
	}
	return false
}

// ReadOnlyMountRule is the Classification.By of a failure that only the
// storage rules or a guess placed whose log shows a filesystem mounted
// read-only.
const ReadOnlyMountRule = "rule:read-only-mount"

// readOnlyMount finds a harness's note of a filesystem mounted read-only:
// "mount: /etc/localtime ro,bind", findmnt's "options=ro,relatime",
// "overlay on / type overlay (ro,relatime)", "mount=overlay(ro=true)". A
// note that the mount is not read-only ("ro=false") is not one.
var readOnlyMount = regexp.MustCompile(`(?im)(?:\bmount|\bfindmnt|\bopts?=|\boptions=|\btype \w+ \(|\bmounted)[^\n]{0,80}?[\s(,=]ro(?:[,)\s;]|$)|\bro=true\b`)

// mountMarks are fragments of which every match of readOnlyMount holds
// one, checked before the expression.
var mountMarks = logview.NewMarks("mount", "findmnt", "opt", "type ", "ro=true")

// readOnlyMountShown reports whether log, the end of a failure's log,
// shows a filesystem mounted read-only, and its error errText does not say
// a disk is full. Over the labelled sets, of the 98 records with such a
// note that only the storage rules or a guess placed, 96 were
// filesystem-permissions: a write the mount refused, whatever the program
// said of it (ENOENT on mkdir, "Device or resource busy", a
// database that "could not be opened").
func readOnlyMountShown(log, errText string) bool {
	return mountMarks.In(log) && readOnlyMount.MatchString(log) && !storageFull.MatchString(tail(errText, wholeWindow))
}

// WrongPortRule is the Classification.By of a failure refused a
// connection to a port on the sandbox's own host that nothing listened
// on, while its log shows the server listening on another: the test
// named the wrong port.
const WrongPortRule = "rule:wrong-port"

// wrongPort starts the signature of a failure that WrongPortRule placed.
const wrongPort = "the test connected to a port no server listens on"

// connRefused finds a refused connection in an error.
var connRefused = regexp.MustCompile(`(?i)ECONNREFUSED|connection refused|ERR_CONNECTION_REFUSED|\b(?:Errno|Error|os error) 111\b`)

// refusedMarks are checked before connRefused.
var refusedMarks = logview.NewMarks("refused", "111")

// refusedLocalPort finds a port on the sandbox's own host in an error:
// 127.0.0.1:3000, [::1]:4242, curl's "localhost port 3000".
var refusedLocalPort = regexp.MustCompile(`(?i)(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]|::1)(?::| port )(\d{2,5})\b`)

// targetPort finds the port on the sandbox's own host that a harness's
// line says a test connected to, for an error that names none:
// target=127.0.0.1:8098, baseURL=http://localhost:3000/.
var targetPort = regexp.MustCompile(`(?i)(?:target|base_?url|url|goto|navigat\w*|connect\w*)[=: ]+["']?(?:\w+://)?(?:localhost|127\.0\.0\.1|0\.0\.0\.0):(\d{2,5})\b`)

// listeningPort finds a port a log shows a server listening on: ss's
// "LISTEN 0 511 0.0.0.0:3080", "listen=127.0.0.1:8089", "listening on
// :8081", Vite's "Local: http://localhost:5173/", "running on
// http://127.0.0.1:8000", "started on port 3000", "ss -ltn: 127.0.0.1:8089".
var listeningPort = regexp.MustCompile(`(?i)(?-i:\bLISTEN\b)(?:\s+\d+\s+\d+)?\s+\S*?:(\d{2,5})\b` +
	`|\blisten(?:ing)?(?:[ _-]?addr(?:ess)?)?(?:=|: | on | at )\s*(?:\w+://)?` + listenHost + `:(\d{2,5})\b` +
	`|\bLocal:\s+https?://[^\s:/]+:(\d{2,5})\b` +
	`|\b(?:running|serving|started|listening)\b[^\n]{0,30}?\b(?:on|at)\s+(?:\w+://)?` + listenHost + `:(\d{2,5})\b` +
	`|\b(?:listening|started|running|serving)\b[^\n]{0,30}?\bport[ =:]+(\d{2,5})\b` +
	`|\bss -\w*l\w*\b[^\n]*?(?:->|: |stdout=)\s*"?(?:127\.0\.0\.1|0\.0\.0\.0|\*|\[::\]|localhost):(\d{2,5})\b`)

// anyPort finds a port an error names, on any host.
var anyPort = regexp.MustCompile(`(?i)(?::| port )\d{2,5}\b`)

// listenHost is the host a server listens on: none, localhost, an IPv4
// address, a bracketed IPv6 one or a wildcard; not the hour of a
// timestamp ("started at 10:15:07").
const listenHost = `(?:localhost|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-fA-F:]*\]|\*)?`

// listenerGone finds a log's word that a server it saw listening is gone
// or was restarted: then the refused port is the platform's loss, not the
// test's mistake.
var listenerGone = regexp.MustCompile(`(?i)no listener|not listening|nothing listening|no process|\b(?:resumed|restarted|rebooted)\b|boot_id[^\n]*differs`)

// connectedToWrongPort reports whether errText was refused a connection
// to ports on the sandbox's own host (named in the error, or else the
// port the log says the test targeted) of which the end of the log, log,
// shows none listening, while it shows a server listening on another
// port, and says nothing of that server going away. Every one of the 20
// labelled records that reads so is test/harness: a test that named the
// wrong port (Vite's 5173 against a test's 8080, an upstream left at
// 3000).
func connectedToWrongPort(errText, log string) bool {
	errText = tail(errText, wholeWindow)
	if !refusedMarks.In(errText) || !connRefused.MatchString(errText) {
		return false
	}
	refused := refusedLocalPort.FindAllStringSubmatch(errText, -1)
	if len(refused) == 0 && !anyPort.MatchString(errText) {
		// An error that names no port at all: the port the test aimed at.
		// One that names a remote host's was refused out there.
		refused = targetPort.FindAllStringSubmatch(log, -1)
	}
	if len(refused) == 0 || listenerGone.MatchString(log) {
		return false
	}
	listening := map[string]bool{}
	for _, m := range listeningPort.FindAllStringSubmatchIndex(log, -1) {
		if rest := log[m[1]:]; len(rest) > 1 && rest[0] == ':' && rest[1] >= '0' && rest[1] <= '9' {
			// A time of day (10:15:07), not a port.
			continue
		}
		for i := 2; i < len(m); i += 2 {
			if m[i] >= 0 {
				listening[log[m[i]:m[i+1]]] = true
			}
		}
	}
	if len(listening) == 0 {
		return false
	}
	for _, m := range refused {
		if listening[m[1]] {
			return false
		}
	}
	return true
}

// TestValueRule is the Classification.By of a failure whose error names a
// value (a path, a file, a URL, a host and port, a quoted string) that the
// log shows the test's fixture or configuration supplied.
const TestValueRule = "rule:test-supplied-value"

// testSuppliedValue starts the signature of a failure that TestValueRule
// placed.
const testSuppliedValue = "the error names a value the test supplied"

// testAttribution finds a log line that says the test's own fixture or
// configuration gave what follows: "fixture target=...", "fixture:
// PROJ_AUX_DB=...", conftest.py, "test_config tunnel.upstream=...". A
// word that only ends in fixture (dc-fixture, a folder's name) is not one.
var testAttribution = regexp.MustCompile(`(?i)(?:^|[\s"'{,(\[])(?:fixtures?|conftest(?:\.py)?|test[_ ]?config)\b`)

// attributionMarks are fragments of which every match of testAttribution
// holds one, checked on the whole log before its lines are split.
var attributionMarks = logview.NewMarks("fixture", "conftest", "test_config", "test config", "testconfig")

// namedValue finds a value an error names: a path, a file name with an
// extension, a quoted string, a host and port, a URL.
var namedValue = regexp.MustCompile(`(?:/[\w.@%+~-]+)+|\b[\w.-]+\.[A-Za-z]{2,5}\b|'[^'\n]{3,80}'|"[^"\n]{3,80}"|\b(?:localhost|127\.0\.0\.1|[\w-]+(?:\.[\w-]+)+):\d{2,5}\b|https?://[^\s'"<>]+`)

// sourceFile finds a program's source file, which a traceback names
// whatever supplied the value that failed.
var sourceFile = regexp.MustCompile(`\.(?:py|js|go|rb|java|c|so)$`)

// valueFromTest reports whether errText names a value of four characters
// or more that a line of log, the end of a failure's log, attributes to
// the test's fixture or configuration: the test gave the path, URL or
// host that failed. All 154 labelled records that read so are
// test/harness.
func valueFromTest(errText, log string) bool {
	if !attributionMarks.In(log) {
		return false
	}
	errText = tail(errText, wholeWindow)
	if storageFull.MatchString(errText) {
		// A full disk fails whatever path the test gave it.
		return false
	}
	var lines []string
	for _, line := range strings.Split(log, "\n") {
		// A fixture's line that reports an error echoes the failure; it
		// does not say the test gave the value.
		if testAttribution.MatchString(line) && !reportsError.MatchString(line) {
			lines = append(lines, line)
		}
	}
	if len(lines) == 0 {
		return false
	}
	for _, v := range namedValue.FindAllString(errText, -1) {
		v = strings.Trim(v, `'"`)
		if len(v) < 4 || sourceFile.MatchString(v) {
			continue
		}
		for _, line := range lines {
			if holdsWholeValue(line, v) {
				return true
			}
		}
	}
	return false
}

// reportsError finds a line that reports an error or a failure.
var reportsError = regexp.MustCompile(`(?i)\b(?:error|failed|failure|exception|raised|traceback)\b`)

// holdsWholeValue reports whether line holds v as a whole value: not the
// start of a longer path (/data in /data/imagenet) or a part of a word.
func holdsWholeValue(line, v string) bool {
	for i := 0; ; {
		j := strings.Index(line[i:], v)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(v)
		// A host or a file name may sit inside a URL or a path, and a
		// path may end a longer one (./utils/setup.php where the fixture
		// gave /srv/app/utils/setup.php); a path may not begin one.
		inPath := !strings.Contains(v, "/")
		if (start == 0 || strings.IndexByte(valueBounds, line[start-1]) >= 0 || line[start-1] == '/' || strings.HasPrefix(v, "/")) &&
			(end == len(line) || strings.IndexByte(valueBounds, line[end]) >= 0 || line[end] == '/' && inPath) {
			return true
		}
		i = start + 1
	}
}

// valueBounds are the bytes that may stand either side of a whole value in
// a harness's line: space, quotes, brackets, and the = or : of a key.
const valueBounds = " \t'\"`()[]{},;=:"

// testValueDoubted reports whether out is a class that a value the test
// got wrong reads as: a file not there, a host not reached, a program or
// module not found, a session or path refused.
func testValueDoubted(out Classification) bool {
	switch out.Primitive {
	case "storage-persistence", "network-egress", "package-path", "session-lifecycle", "input-validation", "filesystem-permissions":
		return true
	}
	return false
}

// UnansweredRule is the Classification.By of a failure whose log shows a
// connection the network never answered, or a name it never resolved.
const UnansweredRule = "rule:connection-unanswered"

// networkUnanswered starts the signature of a failure that UnansweredRule
// placed.
const networkUnanswered = "the network never answered"

// unanswered finds a harness's note of a connection that got no answer
// or a name that did not resolve: ss's SYN-SENT, "no SYN-ACK", a SYN
// retransmitted or timed out, getent hosts' exit status 2 (the name was
// not found). A firewall's rules (iptables -P OUTPUT DROP) say what
// would be dropped, not that anything was.
var unanswered = regexp.MustCompile(`(?i)SYN[-_ ]?SENT|no syn[-_]?ack|syn[-_]?ack\w*[=:] *(?:0|none)(?:[\s,;)]|$)|syn[-_]?ack[^\n]{0,20}(?:missing|never)|timed? ?out[^\n]{0,40}\bSYN\b|\bSYN\b[^\n]{0,40}(?:no reply|no answer|retrans)|\bgetent\s+a?hosts\b[^\n]{0,60}\bexit(?: status)?[= :(]*2\b`)

// unansweredMarks are fragments of which every match of unanswered holds
// one, checked before the expression.
var unansweredMarks = logview.NewMarks("syn", "getent")

// networkNeverAnswered reports whether log, the end of a failure's log,
// shows a connection the network never answered or a name it never
// resolved. All 1,144 labelled records whose log shows so are
// network-egress, whatever their error said: a tool's time-out, a time
// limit the wait ran into, a package or file that never arrived.
func networkNeverAnswered(log string) bool {
	return unansweredMarks.In(log) && unanswered.MatchString(log)
}

// logOutcome is an outcome a harness's log records in so many words,
// whatever the tool said of it: a program the log looked for and did not
// find, NUL bytes found in the data, a renderer the browser reported
// crashed. Each decides its class over the words of the error, but not
// over another of the harness's figures.
type logOutcome struct {
	by        string
	layer     string
	primitive string
	// marks are fragments of which every match of shown holds one.
	marks *logview.Marks
	shown *regexp.Regexp
	// reads reports whether a class the rules gave is one the outcome
	// overrules; a guess always is.
	reads func(Classification) bool
}

// Bys of the log's outcomes.
const (
	ProgramAbsentRule   = "rule:program-not-installed"
	NULFoundRule        = "rule:nul-bytes-found"
	RendererCrashedRule = "rule:renderer-crashed"
	OOMKilledRule       = "rule:oom-killed"
	CPUThrottledRule    = "rule:cpu-throttled"
	ReplacedCountRule   = "rule:replacement-characters-counted"
)

// oomKilled finds the kernel's or the cgroup's record of an OOM kill:
// oom_kill=1 in memory.events, "invoked oom-killer", "Out of memory:
// Killed process".
var oomKilled = regexp.MustCompile(`(?i)oom_kill[=: ]+[1-9]|oom-kill[^\n]{0,40}\b[1-9]|Out of memory: Killed process|invoked oom-killer`)

// logOutcomes are read in order; the first the log shows decides.
var logOutcomes = []logOutcome{
	{
		// which or command -v finding nothing, dpkg's package not
		// installed: all 373 labelled records whose log shows so are
		// package-path, whatever the tool made of the absence (a file
		// not found, a spawn refused).
		by: ProgramAbsentRule, layer: sandtrap.LayerSandbox, primitive: "package-path",
		marks: logview.NewMarks("which", "command -v", "dpkg"),
		shown: regexp.MustCompile(`(?i)\b(?:which|command -v)\s+[\w.+-]+\s*(?:->|:)\s*(?:exit[= ]*1\b|\(none\)|not found)|\bwhich: no \S+ in \(|dpkg[^\n]{0,80}(?:not installed|no packages found)`),
		reads: func(out Classification) bool { return out.Layer != sandtrap.LayerInterface },
	},
	{
		// The offset of the first NUL the harness found in the bytes, or
		// their count: all 132 labelled records are null-byte, whatever
		// decoder or assertion then failed on them, but one that read
		// UTF-16.
		by: NULFoundRule, layer: sandtrap.LayerInterface, primitive: "null-byte",
		marks: logview.NewMarks("0x00", "nul_byte"),
		shown: regexp.MustCompile(`(?i)first_0x00_at|\bnul_bytes?[=: ]+[1-9]|0x00 at (?:offset|byte|position)`),
		// UTF-16 shows a NUL after every ASCII letter: its encoding, not
		// a NUL in the data, however many the harness counted.
		reads: func(out Classification) bool { return out.By != "rule:utf16-as-nul" },
	},
	{
		// The kernel's or the cgroup's OOM kill: all 330 labelled records
		// whose log shows one are memory, whatever the tool said as it
		// died (and 11 of 11 in the three batches that came after it was
		// first counted).
		by: OOMKilledRule, layer: sandtrap.LayerSandbox, primitive: "memory",
		marks: logview.NewMarks("oom", "out of memory"),
		shown: oomKilled,
		reads: func(Classification) bool { return true },
	},
	{
		// cpu.stat's nr_throttled above zero: the cgroup's CPU quota held
		// the run back; all 330 labelled records that show it are
		// cpu-time.
		by: CPUThrottledRule, layer: sandtrap.LayerSandbox, primitive: "cpu-time",
		marks: logview.NewMarks("nr_throttled"),
		shown: regexp.MustCompile(`(?i)\bnr_throttled[=: ]+[1-9]`),
		reads: func(out Classification) bool { return out.Layer != sandtrap.LayerInterface },
	},
	{
		// A count of U+FFFD the harness found in text it received: bytes
		// decoded with the wrong codec. All 58 labelled records are
		// encoding.
		by: ReplacedCountRule, layer: sandtrap.LayerInterface, primitive: "encoding",
		marks: logview.NewMarks("replacement_char", "u+fffd"),
		shown: regexp.MustCompile(`(?i)replacement_chars?[=: ]+[1-9]|U\+FFFD[^\n]{0,30}[1-9]`),
		reads: func(out Classification) bool { return out.Layer != sandtrap.LayerInterface },
	},
	{
		// DevTools' Inspector.targetCrashed: the renderer died, and 77
		// of the 83 labelled records that show it are memory, whatever
		// the client said of the page it lost. The four whose error is
		// AppArmor refusing Chrome's ptrace are that refusal's (one set);
		// the other two (one set) a protocol's.
		by: RendererCrashedRule, layer: sandtrap.LayerSandbox, primitive: "memory",
		marks: logview.NewMarks("targetcrashed"),
		shown: regexp.MustCompile(`(?i)\btargetCrashed\b`),
		reads: func(out Classification) bool { return out.By != apparmorDeniedRule.By() },
	},
}

// outcomeShown returns the first of logOutcomes that log, the end of a
// failure's log, shows and that overrules out, for a harness that gave
// the layer harnessLayer (or none).
func outcomeShown(log string, out Classification, harnessLayer string) (logOutcome, bool) {
	if slices.Contains(notOverruled, out.By) {
		return logOutcome{}, false
	}
	for _, o := range logOutcomes {
		if harnessLayer != "" && harnessLayer != o.layer || out.Primitive == o.primitive {
			continue
		}
		if !onlyGuessed(out) && !o.reads(out) {
			continue
		}
		if o.marks.In(log) && o.shown.MatchString(log) {
			return o, true
		}
	}
	return logOutcome{}, false
}

// storageFull finds an error that says a disk or a quota is full: a
// read-only mount elsewhere in the log does not explain it.
var storageFull = regexp.MustCompile(`(?i)No space left|\bENOSPC\b|Disk quota exceeded|\bEDQUOT\b|disk (is )?full`)

// seconds reads a time figure in seconds from its unit (30000ms) or its
// key (timeout_ms, limit_min); a bare figure is in seconds.
func seconds(key, value, unit string) float64 {
	v, err := strconv.ParseFloat(value, 64)
	if err != nil {
		return 0
	}
	k, u := strings.ToLower(key), strings.ToLower(unit)
	switch {
	case u == "ms" || strings.HasSuffix(k, "ms"):
		return v / 1000
	case u == "m" || strings.HasSuffix(k, "_m") || strings.HasSuffix(k, "_min"):
		return v * 60
	}
	return v
}

// ErrorPageRule is the Classification.By of a failure whose file does not
// open as its format because the download saved a web page or an API's
// error body in its place.
const ErrorPageRule = "rule:error-page-saved"

// webPageServed finds a harness's note that a response was a web page or
// an API's JSON body: content_type=text/html, "Content-Type": "application/json".
var webPageServed = regexp.MustCompile(`(?i)content[-_ ]?type["']?\s*[=:]\s*["']?(text/html|application/json)`)

// contentTypeMarks are checked before webPageServed: every failure with a
// log is read for it.
var contentTypeMarks = logview.NewMarks("type")

// notItsFormat finds a reader that says a file is not of its format: not
// a zip, a gzip, a PDF, an image or a pickle.
var notItsFormat = regexp.MustCompile(`(?i)not a zip file|bad magic number|EOF marker not found|not a gzipped file|starts with '[<{]|invalid load key|not a valid (zip|pdf|archive|image|gzip)|cannot identify image file|not a PDF|is not a zip`)

// errorPageDownloaded reports whether f's file did not open as its format
// and the harness's log shows the response it was saved from was a web
// page or a JSON body: egress to the real file was refused or redirected,
// and the download reported success.
func errorPageDownloaded(f *Failure) bool {
	log := tailBytes(f.LogTail, wholeWindow)
	return contentTypeMarks.In(log) && webPageServed.MatchString(log) && notItsFormat.MatchString(tail(f.Error, wholeWindow))
}

// TraversalRule is the Classification.By of a failure whose tool reported
// success for arguments that climb out of their directory.
const TraversalRule = "rule:traversal-accepted"

// saysSucceeded finds an error that reports success: the tool did what it
// was asked, and the harness failed the workflow for what it was asked.
var saysSucceeded = regexp.MustCompile(`(?i)\b(success(fully)?|succeeded|written to|saved to|created)\b|\bok["']?\s*:\s*true\b`)

// climbsOut finds a path in a tool call's arguments that climbs out of its
// directory: "../" or "..\\" after a quote, an equals sign or a slash.
var climbsOut = regexp.MustCompile(`["'=/\\]\.\.[/\\]`)

// traversalAccepted reports whether f's tool reported success though the
// harness's log shows it was given a path that climbs out of its
// directory: a traversal accepted, which no refusal will ever report.
func traversalAccepted(f *Failure) bool {
	log := tailBytes(f.LogTail, wholeWindow)
	if !strings.Contains(log, "..") || !climbsOut.MatchString(log) {
		return false
	}
	return saysSucceeded.MatchString(tail(f.Error, wholeWindow))
}

func baseName(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		path = path[i+1:]
	}
	return path
}

// secretLeaked starts the signature of a failure whose error holds a
// credential in plain text, a security hole whatever else failed.
const secretLeaked = "secret leaked in the error"

// SecretShownRule is the Classification.By of a failure whose error
// holds a credential in plain text, outside the test's own code: the
// interface showed it, whatever else failed. Of 349 blind records whose
// error holds one, the labellers put 269 in input-validation and 37 in
// network-egress, the failure the URL holding the key was part of.
const SecretShownRule = "rule:secret-shown"

// leaksSecret reports whether f's error, which the campaign keeps and
// tickets quote, holds a credential in plain text (see
// logview.HoldsSecret).
func leaksSecret(f *Failure) bool {
	return logview.HoldsSecret(tail(f.Error, wholeWindow))
}

// BufferCutRule is the Classification.By of a failure whose output ended
// in the middle of its JSON and whose log shows the output was exactly a
// buffer's size.
const BufferCutRule = "rule:output-cut-at-buffer"

// endedEarly are the words of a parser saying its input stopped in the
// middle of a value: Go's and Node's "unexpected end of JSON input",
// Jackson's end-of-input, Python's and Node's unterminated string, serde's
// EOF while parsing, jq's unfinished string or term at EOF.
var endedEarly = logview.NewMarks("end of json input", "end of input", "end-of-input", "jsoneofexception", "unterminated string starting at", "unterminated string in json", "eof while parsing", "unfinished string at eof", "unfinished json term at eof")

// outputWords name an output's count in a key (stdout_bytes, out_len,
// consumer_received); settingWords name a size someone set instead
// (max_output_length, chunk_size, page_size).
var (
	outputWords  = []string{"stdout", "output", "out", "received", "recv", "returned", "read", "got"}
	settingWords = []string{"limit", "max", "min", "buffer", "buf", "chunk", "page", "capacity", "cap", "window"}
)

// cutAtBuffer reports whether f's error says its JSON ended early and its
// log counts the output at a buffer's size (atBufferSize): a pipe or a
// stream buffer where the output was cut, not a parser that met something
// other than JSON. All 11 labelled records that show both were
// message-size; the error alone also reads npm's half-written cache and a
// server's log line on stdout.
func cutAtBuffer(f *Failure) bool {
	if !endedEarly.In(tail(f.Error, wholeWindow)) {
		return false
	}
	for _, m := range countToken.FindAllStringSubmatch(tailBytes(f.LogTail, wholeWindow), -1) {
		words := keyWords(m[1])
		if !slices.ContainsFunc(words, func(w string) bool { return slices.Contains(outputWords, w) }) ||
			slices.ContainsFunc(words, func(w string) bool { return slices.Contains(settingWords, w) }) {
			continue
		}
		if n, err := strconv.ParseInt(m[2], 10, 64); err == nil && atBufferSize(n) {
			return true
		}
	}
	return false
}

// memoryRule is the built-in rule that reads memory's words, its pattern
// gated: a kill whose error holds none of them runs none of its branches.
var memoryRule = sync.OnceValue(func() *Rule {
	rules := builtinGated()
	return &rules[slices.IndexFunc(rules, func(r Rule) bool { return r.Name == "memory" })]
})

// namesMemory reports whether text holds the memory rule's words.
func namesMemory(text string) bool {
	return memoryRule().errorMatches(text, gateFold(text))
}

// endedByTimeLimit reports whether log, the end of f's log, shows its run
// took the time limit the log names, or got the CPU-time limit's signal,
// for a failure no rule placed or one the rules made memory without the
// error naming memory: a kill alone (the "killed" rule, exit 137) or
// memory's words in the log only (memory cgroup). The OOM killer's
// SIGKILL is also how a time limit ends a run, so such a kill is the
// limit's unless the log shows memory near a limit.
func endedByTimeLimit(f *Failure, out Classification, log string) bool {
	killed := out.Primitive == "memory" && (out.By == killedRule.By() || out.By == exitOOMKillRule.By() || out.By == memoryRule().By()) &&
		!namesMemory(tail(f.Error, wholeWindow))
	if !onlyGuessed(out) && !killed {
		return false
	}
	if oomKilled.MatchString(log) {
		// The kernel's OOM kill ended it, whatever time it took.
		return false
	}
	if cpuLimitSignal.MatchString(log) {
		// Only RLIMIT_CPU sends SIGXCPU: the kill that follows it is the
		// limit's, however near its limit memory was.
		return true
	}
	if !reachedTimeLimit(log) {
		return false
	}
	return !killed || !memoryNearLimit(log)
}

// cpuLimitSignal finds a log's note that a process got the signal of its
// CPU-time limit (killed by SIGXCPU, SIGXCPU@3600s, the shell's "CPU time
// limit exceeded"), not a list that names it (trap: ignoring SIGXCPU).
var cpuLimitSignal = regexp.MustCompile(`(?i)(?:killed by|received|got|caught|terminated by|after|action[=:]|signals?[: =]+\[?)\s*SIGXCPU\b|\]\s*SIGXCPU\b|\bSIGXCPU\s*(?:@|at\b|after\b|then\b|sent|delivered|received)|CPU time limit exceeded`)
