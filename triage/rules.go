package triage

import (
	"regexp"

	"sandtrap"
)

func builtin(name, layer, primitive, errorRegex string) Rule {
	return Rule{Name: name, ErrorRegex: regexp.MustCompile(errorRegex), Layer: layer, Primitive: primitive}
}

// NoHostLookupRule is the By of a name lookup of no host name: a value,
// not a reading of words, so the model does not overrule it.
const NoHostLookupRule = "rule:lookup-of-no-host"

// weak returns r marked weak: it decides only when no other rule's text is
// found in the whole message.
func weak(r Rule) Rule {
	r.weak = true
	return r
}

func builtinExit(name, layer, primitive string, codes ...int64) Rule {
	return Rule{Name: name, ExitCodes: codes, Layer: layer, Primitive: primitive, weak: true}
}

const (
	iface   = sandtrap.LayerInterface
	sandbox = sandtrap.LayerSandbox
	test    = sandtrap.LayerTest
)

// Phrasings that both a rule and a known cause read, without flags:
// each reader sets its own.
const (
	// utf16AsNUL is UTF-16 text read as single bytes.
	utf16AsNUL = `PowerShell[^\n]{0,80}null characters|null characters[^\n]{0,80}PowerShell|UTF-?16(LE|BE)?[^\n]{0,160}(corrupt|garbled|mangled|null)`
	// forkENOMEM is fork refused with ENOMEM.
	forkENOMEM = `\bfork\b[^\n]{0,40}(cannot|can not|can't) allocate memory`
	// csrfCodeRefused is a CSRF token refused by a code or a class
	// (MediaWiki's badtoken, Laravel's TokenMismatchException), which
	// messages quote and the normaliser masks (maskedReadings).
	csrfCodeRefused = `\bbadtoken\b|TokenMismatchException`
	// sandboxWord is "sandbox" where it starts a word: at a line's start
	// or after a character that is no letter, digit, "/", "-" or newline,
	// so not inside an image's, a server's or a path's name (cs50/sandbox,
	// xml-sandbox, /sandbox/).
	sandboxWord = `(?:(?m:^)|[^/\w\n-])sandbox`
	// registryImageMissing is a container registry that holds no image
	// of the name asked for, as Docker and containerd print it.
	registryImageMissing = `pull access denied(?: for [^\s,]+)?, repository does not exist|repository [^\s:]+ not found: does not exist or no pull access`
	// nulEscaped is a NUL printed as the escape \0 ("A,B\0\n1",
	// '\005\026\a\0\002', "README.md\0.txt" and od -c's "\0  \0" with its
	// backslash doubled in a quoted log value), not a key's "=\0" nor a
	// folder named 0 in a Windows path (mlruns\0\meta.yaml), nor a file or
	// folder named 0 in one whose backslashes are doubled (Temp\\0.png).
	// After a \0 whose backslash is not doubled comes no word and no
	// backslash, or a backslash that starts an escape (another \0, an
	// octal number, \x or \u and a hex digit, a one-letter escape its word
	// does not go on from, a quote or a backslash); after a doubled \\0, a
	// space, a quote or the end. Case counts: \T and \N start folders, not
	// escapes. The normaliser masks the path it may sit in, so the failure
	// key keeps a mark of it (maskedReadings).
	nulEscaped = `(?-i:(?:^|[^=\s\\]|[^=]\s)\\0(?:$|[^\w\\])|\\\\0(?:$|[\s"'])|(?:^|[^=\s\\]|[^=]\s)\\0\\(?:0|[1-7][0-7]{0,2}(?:$|[^0-9a-fA-F])|[xu][0-9a-fA-F]|[nrtabfve](?:$|[^a-zA-Z_])|["'\\]))`
	// rustNULRefused is Rust's NulError and FromBytesWithNulError's
	// InteriorNul (a tuple before Rust 1.87, a struct since): a C string
	// that met a NUL inside it. The NUL-byte rule reads it, and it names
	// the NUL (nulNamed).
	rustNULRefused = `\bNulError\(\d+|\bInteriorNul(?:\(\d+|\s*\{\s*position:\s*\d+)`
	// apparmorProcessDenied is the kernel's audit line of AppArmor
	// refusing a process its own operation, its quotes JSON-escaped or
	// not. The key masks the quoted values, so it keeps a mark of the
	// reading (maskedReadings): an exec denied and a file's open denied
	// must not share a decision.
	apparmorProcessDenied = `apparmor=\\?"DENIED\\?"\s+operation=\\?"(?:exec|ptrace|signal|userns_create|change_onexec)\\?"`
	// tcmallocLargeAlloc is tcmalloc's warning of an allocation over its
	// report threshold, which two rules read: one beside a kernel's
	// restart, one alone.
	tcmallocLargeAlloc = `tcmalloc: large alloc`
	// websocketTooBig is a websocket closed with 1009, message too big.
	websocketTooBig = `(close|closed|closing|code|WebSocket connection)[^\n]{0,20}\b1009\b|\b1009\b[^\n]{0,20}too big`
	// fileOpNotPermitted is Node's EPERM on a file operation, which names
	// the call: a file the sandbox will not let it touch, not a process it
	// will not let it start.
	fileOpNotPermitted = `EPERM: operation not permitted, (open|copyfile|cp|mkdir|rmdir|unlink|rename|chmod|fchmod|chown|fchown|lchown|utime|futime|symlink|link|scandir|opendir|lstat|stat|access|write|mkdtemp)\b`
	// cjkAsCP1252 is UTF-8 Chinese, Japanese or Korean read as cp1252:
	// the lead byte (E4 to E9) becomes ä to é, the continuation bytes
	// cp1252's punctuation or Latin-1's symbols ("ä¸Šæµ·" for 上海).
	cjkAsCP1252 = `[äåæçèéêëì][€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ¡-¿]{2}`
	// cyrillicAsCP1252 is Cyrillic's UTF-8 read the same way: lead bytes
	// D0 and D1 shown as Ð and Ñ ("Ð”ÐµÐ»" for Дел), twice in a row.
	cyrillicAsCP1252 = `([ÐÑ][\x{80}-¿€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]){2}`
	// mojibake is UTF-8 shown as cp1252 or Latin-1 ("â€™", "ZÃ¼rich",
	// "Ð”ÐµÐ»"), often inside a quoted value the normaliser masks, so the
	// failure key keeps a mark of it (maskedReadings).
	mojibake = `â€[™œ“”˜]|` + cjkAsCP1252 + `|` + cyrillicAsCP1252 + `|Ã[\x{A0}-¿€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]|Ĺ[™‚ˇ]|Ă[©ˇ]`
	// mojibakeLeads are the letters a match of mojibake starts with, in
	// both cases, and the Ångström sign, which case folding reads as å.
	mojibakeLeads = "âÂãÃĺĹăĂðÐñÑäÄåÅ\u212BæÆçÇèÈéÉêÊëËìÌ"
	// landmarkPathMissing is a file missing under an installed package's
	// folder (site-packages, node_modules): the normaliser keeps the
	// folder, but not when the path climbs back out of it
	// ("site-packages/../tests/…"), so the failure key keeps a mark of it
	// (maskedReadings).
	landmarkPathMissing = `(ENOENT|No such file or directory)[^'"\n]*['"][^'"\n]*/(node_modules|site-packages|dist-packages)/`
	// crlfRewritten is a script or file whose line ends became CRLF, in
	// the shell's (zsh's among them: a carriage return read as a command
	// or inside a word, "command not found: ^M"; bash's in any of its
	// languages), the loader's and git's words.
	crlfRewritten = `command not found: \^M|parse error near [^\n]{0,80}\^M'|(?:not valid in this context|not an identifier): [\w./-]*\^M|\^M: bad interpreter|/bin/(ba)?sh\^M|['‘"][\w./-]+\\r['’"]: |\$'\\r': (?:command not found|` + commandNotFoundWords + `)|\b(CR)?LF will be replaced by (CR)?LF\b|\benv: [\w./-]+\\r: No such file or directory`
	// commandNotFoundWords is bash's "command not found" in its message
	// catalogues (bash 5.2's, all but Norwegian, whose words come before
	// the name): a sandbox whose locale is not English prints these.
	commandNotFoundWords = `Kommando nicht gefunden|commande introuvable|orden no encontrada|команда не найдена|未找到命令|指令找不到|コマンドが見つかりません|명령어를 찾을 수 없음|comando não encontrado|comando non trovato|nie znaleziono polecenia|opdracht niet gevonden|příkaz nenalezen|príkaz nenájdený|команду не знайдено|командата не е открита|kommandot finns inte|kommando ikke fundet|komentoa ei löydy|komut yok|parancs nem található|comandă negăsită|perintah tidak ditemukan|không tìm thấy lệnh|no s'ha trobat l'ordre|non se atopou a orde|naredba nije pronađena|komanda nerasta|käsku ei ole|εντολή δεν βρέθηκε|нема такве наредбе|ukaza ni mogoče najti|Komando ne trovita|bevel nie gevind nie|níor aimsíodh an t-ordú`
	// commandNotFoundAfterName is the words as bash prints them after the
	// command's name (French puts a space before the colon, Taiwanese
	// Chinese a full-width colon).
	commandNotFoundAfterName = `[ \x{a0}]?[:：] ?(?:` + commandNotFoundWords + `)`
	// commandNotFoundTranslated is bash's line itself, the words after a
	// name at the end of a line, so that a reply or an assertion that says
	// "Orden no encontrada" or "Команда не найдена" ("order not found",
	// "team not found") is not read as a missing program.
	commandNotFoundTranslated = commandNotFoundAfterName + `\.?[ \t]*$`
	// httpBodyOverLimit is a request body over a proxy's or a runtime's
	// cap in nginx's and PHP's (and Symfony's) words: the limit a 413
	// names, though PHP reports its own as an upload error.
	httpBodyOverLimit = `client intended to send too large (?:chunked )?body|exceeds (?:the|your) upload_max_filesize`
	// runcExecStopped is runc refusing to exec into a container that is
	// no longer running, in its older and newer words.
	runcExecStopped = `cannot exec in a stopped (?:state|container)|cannot exec a container that has (?:run and )?stopped`
	// phpUndefinedFunction is PHP's fatal call of a function no loaded
	// code defines, namespaced or not (a namespace's backslashes may come
	// doubled, escaped in JSON).
	phpUndefinedFunction = `Call to undefined function (?:[\w\\]+\\)?`
	// phpExtensionFunctionMissing is PHP calling a function of an
	// extension that is not loaded, by the functions' own names rather
	// than their prefixes, so that a script's own imageUrl() or
	// xml_to_array() is not read: mbstring, iconv, IMAP, cURL (but not
	// curl_exec, which only disable_functions takes away once curl_init
	// worked), fileinfo, zlib, OPcache, GD, XML, intl, BCMath, GMP,
	// sodium, ctype, the databases' (mysql_ and its kind were removed in
	// PHP 7: a script older than its runtime), LDAP, OpenSSL, gettext,
	// EXIF, and the PECL extensions APCu and YAML.
	phpExtensionFunctionMissing = phpUndefinedFunction + `(?:mb_\w+|iconv\w*|imap_\w+|curl_(?:init|setopt(?:_array)?|close|error|errno|getinfo|version|reset|escape|unescape|file_create|multi_init|share_init)|finfo_\w+|mime_content_type|gz(?:compress|uncompress|encode|decode|deflate|inflate|open)|opcache_\w+|imagecreate\w*|gd_info|xml_parser_create\w*|xmlwriter_\w+|simplexml_\w+|dom_import_simplexml|intl_\w+|intlcal_\w+|intltz_\w+|idn_to_\w+|numfmt_\w+|grapheme_\w+|bc(?:add|sub|mul|div|divmod|mod|pow|powmod|sqrt|comp|scale|floor|ceil|round)|gmp_\w+|sodium_\w+|ctype_\w+|mysqli_\w+|mysql_(?:connect|pconnect|query|select_db|real_escape_string|fetch_\w+|num_rows|error|close)|pg_(?:connect|pconnect|query|query_params|prepare|execute|escape_\w+|fetch_\w+)|sqlite_open|odbc_connect|ldap_(?:connect|bind|search|set_option|escape)|openssl_\w+|(?:d|dc)?n?gettext|textdomain|bindtextdomain|_|exif_read_data|exif_imagetype|apcu_\w+|yaml_(?:parse\w*|emit\w*))\(`
	// browserProfileLocked is a browser profile another browser holds.
	browserProfileLocked = `browser is already running for|SingletonLock|process_singleton|Browser is already in use for|user data directory is already in use`
	// sessionConcurrencyLimit is a plan's cap on concurrent sessions.
	sessionConcurrencyLimit = `Too many concurrent (active )?(sessions|browsers)|concurrent sessions? limit|maximum (number of )?concurrent sessions`
	// filesLost is a report that files written earlier are gone, said
	// without an error.
	filesLost = `\b(disappeared|disappear|vanished)\b|not persist(ed|ing)|persistence (was )?lost|\bwiped\b|(files|contents|workspace|data) (are|is|were|was) (all )?gone|data loss|loses (the |all )?(data|everything)|lost (all )?(my|their) (work|notes|data|files)`
	// corruptParquet is a Parquet file that is not what was written.
	corruptParquet = `Parquet magic bytes not found|No magic bytes found at end of file|Corrupt footer|Invalid parquet file`
	// floodStageBlocked is Elasticsearch refusing writes once its disk
	// passed the flood-stage watermark, in the block's own words: a bare
	// cluster_block_exception may be a cluster with no master.
	floodStageBlocked = `flood[- ]stage (?:disk )?watermark|read-only-allow-delete|index read-only / allow delete`
	// missingFixture is a file missing from a test's fixtures or data
	// folder: the test named a file it never shipped. The normaliser
	// masks the folder ("../<path>", "…/<file>"), so the failure key
	// keeps whether it matched (Classifier.failureKey).
	missingFixture = `(?:No such file or directory|ENOENT|does not exist|couldn't open file|cannot open)[^\n]*?[/\\'" ]` + fixtureDir + `|[/\\'" ]` + fixtureDir + `[^\s]*[:'"]? ?(?:No such file or directory|does not exist)|No such file or directory:? ['"](?:\./)?(?:tests?|fixtures?|testdata)/`
	// fixtureDir is a test's fixtures or data folder and the separator after it.
	fixtureDir = `(?:fixtures?|test[_-]?data|test-datasets?|tests?[/\\](?:data|fixtures|resources))[/\\]`
	// systemDirClimb is a path that climbs to a system folder
	// (../../etc/) or names the password files. The normaliser masks the
	// path, so the failure key keeps a mark of it (maskedReadings).
	systemDirClimb = `(\.\./){2,}(etc|root|proc|home|var|usr)/|/etc/(passwd|shadow)\b`
	// spawnE2BIG is Node refusing to spawn a program with an argument
	// list over the kernel's limit (E2BIG), or a command line over
	// Windows' (ENAMETOOLONG, which libuv passes on): the spawn-e2big
	// rule and the spawn-argument-list-too-long cause. The program may be
	// a Windows path with spaces, quoted or not. On Linux a spawn's
	// ENAMETOOLONG is a program path too long, which no labelled record
	// holds; it is read the same.
	spawnE2BIG = `\bspawn(?:Sync)?(?: \S+| "[^"\n]+"| [A-Za-z]:\\[^\n]*?)? (?:E2BIG|ENAMETOOLONG)\b`
	// lookupOfNoHost is a name lookup of no host name (the
	// lookup-of-no-host rule): Node's getaddrinfo or urllib3's connection
	// pool given undefined, null, a scheme, an address with its port or
	// (Node's) a whole URL, and curl, OpenDAP, ssh and Go's resolver given
	// undefined, null, None or a scheme. The normaliser masks the host, so
	// the failure key keeps a mark of it (maskedReadings); a hyphen or a
	// dot after the word makes it a real name (https-portal, null-db), and
	// so, after curl's, do a colon or a slash: curl's message may name the
	// whole URL it was given (https://shop.example), while Node's resolver
	// is handed a host alone, so a URL there was passed as one.
	lookupOfNoHost = `\bgetaddrinfo (?:ENOTFOUND|EAI_AGAIN) (?:(?:undefined|null|https?|\d{1,3}(?:\.\d{1,3}){3}:\d+)(?:[^\w.:-]|$)|[a-z][\w+.-]*://)|ConnectionPool\(host='(?:undefined|null|None|https?)'` +
		`|Could not resolve host: (?:undefined|null|None|https?)(?:[^\w.:/-]|$)|Couldn't resolve host '(?:undefined|null|None|https?):?'|Could not resolve hostname (?:undefined|null|None|https?):|\bdial (?:tcp|udp)[46]?: lookup (?:undefined|null|https?)(?::| on )`
	// mediaDevicesMissing is getUserMedia read off an undefined
	// navigator.mediaDevices: a page the test served from an insecure
	// origin (the harness-error rule). The normaliser masks the property's
	// name, so the failure key keeps a mark of it (maskedReadings).
	mediaDevicesMissing = `\(reading 'getUserMedia'\)`
	// httpAsLength is the first four bytes of an HTTP answer or request
	// ("HTTP", "GET ", "POST") read as a big-endian length: a ZooKeeper
	// or RCON client talking to an HTTP port, or an HTTP client to Kafka's
	// ("Packet len1213486160 is out of range!", "invalid packet size
	// (1213486160)"). The normaliser masks the number, so the failure key
	// keeps a mark of it (maskedReadings).
	httpAsLength = `(?:^|\D)(?:1213486160|1195725856|1347375956)(?:\D|$)`
	// timeLimitInUnits are the cpu-time rule's readings of a duration by
	// its unit: a timeout of seconds, minutes or hours spelt out ("Futures
	// timed out after [5 minutes]"), a time limit's, where a number of ms
	// is as often a connection's; and tools' own time limits in seconds or
	// ms. egressTimeoutInSeconds is libcurl's through PHP and R ("Timeout
	// of 30 seconds was reached"). The normaliser masks a duration whatever
	// its unit, so the failure key keeps a mark of each (maskedReadings).
	timeLimitInUnits       = `timed out after [^\n]*(?:\bseconds|\d ?(?:minutes?|mins?|hours?)\b)|Timeout exceeded: elapsed [\d.]+ seconds|Task timeout after \d+ seconds|exceeded (?:its |the )?\d+ ?m?s timeout|Timeout of \d+ seconds exceeded executing cell`
	egressTimeoutInSeconds = `Timeout of \d+ seconds was reached`
	// nothingParsed is Python's JSON decoder failing at the first byte of
	// its input: the peer answered with no JSON at all (an empty reply, an
	// HTML page, a banner), which is the conversation's failure; an error
	// further in ("line 4 column 1 (char 6)") is the document's own. The
	// normaliser masks the position, so the failure key keeps a mark of it
	// (maskedReadings).
	nothingParsed = `Expecting value: line 1 column 1 \(char 0\)`
	// nulWords are the words that name a NUL byte itself, which the
	// nul-byte rule reads and errorNamesNUL asks an error for. A NUL right
	// after ">" is a redirect to Windows' null device ("> nul"); the
	// blanks before it stay on its line, so that a match starts where the
	// word is and the signature takes that line. "null" right after "="
	// is a key's value, not a byte: a harness's log line
	// "structured=null bytes=522" names no NUL.
	nulWords = `(?:(?m:^)|[^>\s]|[-=]>)[ \t]*\bNUL\b|(?:(?m:^)|[^=\n])null (?:byte|character)|embedded null|cannot contain null|U\+0000|\\u0000`
	// caretNUL is a NUL in caret notation, as less, cat -v and a terminal
	// print it: after a word and before a blank, a bracket or the end
	// ("julian^@ )", "config.yaml^@}"), alone in double quotes ("\"^@"),
	// three in a row, or TeX's "^^@". A regular expression's "^@" in
	// quotes ("^@angular/"), git's "HEAD^@" and a class "[a-z^@]" are not
	// read. It is often inside a path or a quoted name the normaliser
	// masks, so the failure key keeps a mark of it (maskedReadings).
	caretNUL = `\w\^@(?:[\s)}]|$)|"\^@(?:["\s]|$)|(?:^|[^\[])\^\^@|(?:\^@){3}`
	// textFileSeenBinary is git's diffstat of a source file as "Bin": git
	// calls a file binary when a NUL is among its first bytes, so source
	// code shown that way holds one. An image shown so is only binary, and
	// so are files a .gitattributes marks binary or -diff, often lock
	// files and minified scripts, which are not read; nor are text files
	// Windows tools write as UTF-16 (.txt, .csv, .sql, .ps1), whose NULs
	// are the encoding's. A rename's "{a.py => b.py}" is read. The path is
	// one the normaliser masks, so the failure key keeps a mark of it
	// (maskedReadings).
	textFileSeenBinary = `(?i)(?:\.(?:c|h|cc|cpp|hpp|cs|go|rs|py|rb|php|java|kt|swift|m|mjs|cjs|jsx|ts|tsx|vue|svelte|toml|ini|cfg|conf|xml|html?|css|scss|md|rst|sh|bash|lua|pl|r|jl|ex|exs|dart|gradle|properties)|(?:[^k]|[^c]k|[^o]ck|[^l]ock)\.(?:json|ya?ml)|(?:[^n]|[^i]n|[^m]in|[^.]min)\.js)\}?[ \t]+\|[ \t]+Bin[ \t]+\d+[ \t]+->[ \t]+\d+[ \t]+bytes`
	// bomAsLatin1 is a UTF-8 byte order mark read as Latin-1, often at the
	// start of a quoted name the normaliser masks, so the failure key
	// keeps a mark of it (maskedReadings).
	bomAsLatin1 = "ï»¿"
	// httpStatus413 is the status 413, Payload Too Large: a 413 after
	// "http", "status" or "code" ("HTTP 413,", "statusCode":413), or one
	// standing as a word of its own: not after a colon, a dot, a comma, an
	// equals sign or a slash, nor before a comma or a dot, where it is as
	// often a line number ("aiori-POSIX.c:413", "line 413, in"), a log
	// time's milliseconds ("13:58:02,413"), a value (rss_mb=413), a
	// path's id or a duration (413.27s). The normaliser masks it in most
	// places, so the failure key keeps a mark of it (maskedReadings).
	httpStatus413 = `(?:^|[^\w:.,=/])413(?:[^,.\w]|$)|(?i:http|status|code)[ :"'=]{1,3}413\b`
	// torchSharedMemory is PyTorch's tensor that /dev/shm could not hold,
	// named by a file whose name the normaliser masks ("</torch_8289_…>"
	// is "</<file>>"), so the failure key keeps a mark of it
	// (maskedReadings).
	torchSharedMemory = `unable to write to file </torch_`
	// whichFoundNone is which(1) finding a program on no folder of the
	// PATH. RHEL's which prints its own path first ("/usr/bin/which: no
	// hostapd in (…)"), which the normaliser masks, so the failure key
	// keeps a mark of it (maskedReadings).
	whichFoundNone = `which: no [\w.+-]+ in \(`
	// zeroByteNamed is a byte or character named by its value, all zeros:
	// jparse's "byte[27]: 0x00", a harness's "first_byte=0x00" or "count
	// of 0x00 bytes", Jena's code point "(0;0x0000)", Direwolf's byte
	// printed in brackets, "<0x00>". The normaliser writes any all-zero
	// hex as 0x00, so the rule reads any count of zeros; a zero named
	// beside no byte word (a register, a reply code, a range's start) is
	// not read.
	zeroByteNamed = `(?:byte|char(?:acter)?|code ?point)s?(?:\[\d+\])?\s?[:=]\s?0x0+\b|\b0x0+ (?:bytes?|char(?:acter)?s?)\b|;0x0+\)|<0x0+>`
	// yamlCharZero is a YAML reader's refusal of NUL itself: PyYAML's and
	// ruamel's "#x0000", SnakeYAML's "(0x0)".
	yamlCharZero = `unacceptable (?:character|code point)\s*(?:#x0000\b|[^\n(]{0,12}\(0x0+\))`
	// yamlCharNotZero is a YAML reader's refusal of any other character
	// ("#x0080", SnakeYAML's "'?' (0xFFFD)"): a byte that was not the
	// text's encoding. The code is a number the failure key masks
	// (maskedReadings).
	yamlCharNotZero = `unacceptable (?:character|code point)\s*(?:#x(?:[1-9a-f][0-9a-f]{3}|0[1-9a-f][0-9a-f]{2}|00[1-9a-f][0-9a-f]|000[1-9a-f])|[^\n(]{0,12}\(0x0*[1-9a-f][0-9a-f]*\))`
	// asciiZeroRefused is BigQuery's refusal of a NUL byte in a row; the
	// zero is a number the failure key masks (maskedReadings).
	asciiZeroRefused = `Bad character \(ASCII 0\)`
	// jacksonZeroRefused is Jackson's refusal of a NUL, between a JSON
	// document's tokens or unescaped in a string ("Illegal character
	// ((CTRL-CHAR, code 0))"): 11 of 11 labelled records (four sets) are
	// null-byte, where another code is a control character of some other
	// cause (encoding or input-validation in four sets). The failure key
	// keeps a code's number, and folds spaces.
	jacksonZeroRefused = `\(CTRL-CHAR,\s+code\s+0\)`
	// bareProgramMissing is Python's missing file named without a folder
	// or an extension: a program it was asked to run. The normaliser masks
	// the name, so the failure key keeps a mark of it (maskedReadings).
	bareProgramMissing = `No such file or directory: '[A-Za-z][A-Za-z0-9_+-]*'(: '[A-Za-z][A-Za-z0-9_+-]*')?$`
	// envProgramMissing is env not finding the program it was to run,
	// named bare or quoted. The normaliser masks env's own path
	// (/usr/bin/env), so the failure key keeps a mark of it
	// (maskedReadings).
	envProgramMissing = `\benv: ['‘]?[\w.+-]+['’]?: No such file or directory`
	// pathRefusedOutside is a server refusing a path beyond the
	// directories it allows.
	pathRefusedOutside = `access denied[^\n]{0,40}\boutside\b|\boutside (the )?(allowed|approved) (base )?(directories|directory|paths)|resolves to a location outside the allowed`
	// mkdirAtRoot is a directory made straight under / that cannot be:
	// a server started with / as its working directory resolved its
	// output folder there, and / is not the sandbox's to write.
	mkdirAtRoot = `ENOENT: no such file or directory, mkdir '/[^/'\n]+'`
	// cdpMethodMissing is a DevTools method the browser does not implement.
	cdpMethodMissing = `Protocol error \([\w.]+\): ('[^'\n]+' wasn't found|[^\n]{0,80}\bis not supported)`
	// notEnoughFreeSpace is apt's and Postfix's disk without the free
	// space they need.
	notEnoughFreeSpace = `(?i)\bdon't\s+have\s+enough\s+free\s+space\s+in\s+/|\bnot\s+enough\s+free\s+space\s+in\s+mail\s+queue\b`
	// buildkitENOMEM is BuildKit's step that could not allocate memory:
	// `ResourceExhausted: process "/bin/sh -c …" did not complete
	// successfully: cannot allocate memory` (4 of 4 labelled records, two
	// sets). The command between may be longer than the failure key
	// keeps, so the key keeps a mark of it (maskedReadings).
	buildkitENOMEM = `ResourceExhausted:[^\n]*cannot\s+allocate\s+memory`
	// descriptorLimit is a process out of file descriptors.
	descriptorLimit = `\bEMFILE\b|too many open files|\[Errno 24\]|\bENFILE\b`
	// muslLibraryMissing is musl's loader missing a library or a symbol.
	muslLibraryMissing = `Error loading shared library|Error relocating [^\n]*symbol not found`
	// programNotFound is a program that is not installed, said by whoever
	// looked for it: Python's subprocess prints the missing program's name
	// twice (`No such file or directory: 'latex': 'latex'`), a wrapper
	// names what it could not find, a loader the program it could not run.
	programNotFound = `No such file or directory: '[^'\n]+': '[^'\n]+'|because [\w.+-]+ could not be found|No [\w.+-]+ executable found|Executable '[^'\n]+' not found|executable needs to be in PATH|Could not find [\w.+-]+ binary|Can't get directory of program name|\bexec [^\n]{0,40}failed: No such file or directory`
	// mcpRequestTimeout is an MCP client that gave up waiting for a
	// request's answer.
	mcpRequestTimeout = `Timed out while waiting for response|MCP request timed out|\bRequest timed out\b`
	// mcpTimeoutCode is the SDKs' code for a request timed out, which
	// servers also send for other errors (a session they do not know).
	mcpTimeoutCode = `-32001\b`
	// devtoolsEndpointRefused is a browser's DevTools endpoint on the
	// loopback refusing the connection: the browser is not running. It
	// names only the loopback forms whose port the normaliser keeps, since
	// a decision is cached by the signature ([::1]'s port is masked).
	devtoolsEndpointRefused = `connect_over_cdp[^\n]*(ECONNREFUSED|connection refused)|(127\.0\.0\.1|localhost):9222\b[^\n]*(ECONNREFUSED|connection refused)|/json/version[^\n]*(ECONNREFUSED|connection refused)|(ECONNREFUSED|connection refused) (127\.0\.0\.1|localhost):9222\b`
	// localService is a server's address on the sandbox's own loopback,
	// in the forms the normaliser keeps (after a space or a bracket, not
	// inside a URL or quotes) and with a port of four or five digits.
	localService = `(^|[\s(\[,=@])(127\.0\.0\.1|localhost):\d{4,5}\b`
	// errno28Full is Python's errno 28 for a full disk, in any language:
	// "Invalid argument" after it is Emscripten's EINVAL, whose number is
	// 28 too. Case-sensitive and across any spacing, since the normaliser
	// folds spaces and a rule must read every message of a failure key alike.
	errno28Full = `(?-i:\[Errno 28\]\s*(?:$|[^\sI]|I[^n]))`
	// unixSocketGone is Go's word for a Unix socket (stream, datagram or
	// packet) whose server refused, reset, broke the pipe or never made
	// it: the address is one token after "unix", the failing call's name
	// may stand before the reason.
	unixSocketGone = `\b(?:dial|read|write) unix(?:gram|packet)? \S{1,250}: (?:(?:connect|read|write|sendmsg): )?(?:connection refused|connection reset by peer|no such file or directory|broken pipe)`
)

// builtinRules are the rules that classify what the tools print, in the
// order they are tried. The first that matches wins, so specific causes come
// before the generic texts they contain: a NUL truncation before other
// truncations, network failures before the protocol errors that wrap them,
// a missing program (ENOENT) before a refused one. docs/classification.md
// explains each decision.
var builtinRules = []Rule{
	// pytest reports a test whose setup, fixture or teardown raised as
	// ERROR, and one whose check failed as FAILED: the first is the
	// test's own. So is a module a test file imports that pytest cannot
	// find, which it prints after its "E" marker: all 11 labelled records
	// (7 sets) are the harness's.
	builtin("pytest-setup-error", test, "harness",
		`(?m)^ERROR [\w/.-]+\.py::\S+ - |^E +(?:ModuleNotFoundError|ImportError): No module named`),
	// Python's "An attempt has been made to start a new process before
	// the current process has finished its bootstrapping phase" is a script
	// that starts processes with no `if __name__ == "__main__":` guard: 14
	// of 15 labelled records (five sets) are the test's. So is Python's
	// import "most likely due to a circular import": a module of the
	// test's own that imports itself back, or a file of its own named
	// like the package it imports (9 of 10 labelled records, four sets;
	// the package-path rule read each as a package missing a name; the
	// tenth, labelled package-path, is a loop inside an installed
	// package, which the words do not tell apart). Each is a rule of its
	// own, so that the model, which reads their fork and import words as
	// a process refused or a package missing, weighs each by its own
	// record, not by the harness-error rule's.
	builtin("process-before-bootstrap", test, "harness",
		`(?i)start a new process before the(?:\s|\\n)+current process has finished its bootstrapping phase`),
	builtin("circular-import", test, "harness", `most likely due to a circular import`),
	// WP-CLI run outside WordPress's folder ("This does not seem to be a
	// WordPress install. Pass --path=…") is the test's: 14 of 14 labelled
	// records, five sets. JUnit that finds no test method in a class, or
	// no constructor it can call, is refusing the test class itself (or a
	// runner of another JUnit than its annotations): the suite's own
	// setup (realworld917's 3 records). coreutils' timeout refusing its
	// own duration ("timeout: invalid time interval '5.0m'") was handed
	// a bad argument by the test: all 6 labelled records, two sets, are
	// the harness's, which the model read as a time limit by its word;
	// sleep's is the same usage error. pip that cannot open the
	// requirements file it was named (12 of 12 labelled records, three
	// sets) and SQLAlchemy's pool run out of connections not given back
	// (6 of 6, two sets, which the egress rule read by its "connection
	// timed out") are the test's too.
	builtin("harness-error", test, "harness",
		`(?i)This\s+does\s+not\s+seem\s+to\s+be\s+a\s+WordPress\s+install|(?:timeout|sleep): invalid time interval|java\.lang\.Exception: (?:No runnable methods|Test class should have exactly one public (?:zero-argument )?constructor)|(?-i:NotFittedError)|(?:too many|not enough) values to unpack|The model \S+ does not exist or you do not have access to it|Error loading ASGI app\. (?:Could not import module|Attribute )|(?:OS|IO)Error: invalid pixel size|bad_data: [^\n]{0,80}parse error|invalid parameter \\?["'][^"'\n]+\\?["']:[^\n]{0,40}parse error|\bis not fitted yet\b|Invalid parameter \S+ for estimator|jq: error\b[^\n]*Cannot (?:index|iterate over)|jq: error: syntax error|go\.mod file not found in current directory|Remote branch \S+ not found in upstream origin|Could not find remote branch \S+ to clone|(?:page\.goto|PlaywrightException): Download is starting|XPathEvalError: Invalid (?:expression|predicate)|XPath error : Invalid expression|exceeded while waiting for event "|Timeout while waiting for event "|No elements found for include in page|requires to be run in an Angular project|context has already been set|error validating (engine|containers) configs?:|errors in crontab file, can't install|ConcretizationTypeError|Checkpoint path should be absolute|Repository Not Found for url|cannot be called from a running event loop|There is no current event loop in thread|Password authentication in git is no longer supported|Jest has detected the following \d+ open handles?|timeout of \d+ ?ms exceeded\. Ensure the done\(\) callback|Failed to construct '[^'\n]+': Invalid URL|Value not in list: [^\n]* not in \['|CategoricalDistribution does not support dynamic value space|Validation of YAML front matter failed|Could not find Prisma Schema|No config file '[^'\n]+' found, or file has no '|Could not locate Gemfile|Could not open requirements file|QueuePool limit of size \d+ overflow -?\d+ reached|Source directory doesn.t contain conf\.py|No targets given and there is no package in the current directory|DagNotFound|Dag ['"][^'"\n]+['"] could not be found|`+missingFixture+`|Expected an image \d+px by \d+px, received|Image difference greater than threshold|MSB1009: Project file does not exist|illegal in state \w+, only allowed in states?|forbidden by policy|Policy forbids issuing|Map container not found|\bhttps?://https?://|undefined prefix|Undefined namespace prefix|does not provide attribute '|FindFailed: |openBinaryFile: does not exist|autograder failed to execute correctly|open '(?:null|undefined)/|Can't open perl script|\bNo test files found\b|No such file or directory:? ['"]--[A-Za-z]|found broken links|Duplicated timeseries in CollectorRegistry|unable to parse '[^']*': missing fields|Non-base32 digit found|Failed to read the 'contentDocument' property|appears to be a text format dump|does not appear to be a valid archive|is not a local folder and is not a valid model identifier|Could not make proto path relative|No scheme supplied\. Perhaps you meant|unsupported protocol scheme ""|Cannot write to '[^'\n]*' as folder is not empty|\bno such option: -|Missing required options? \[|(COPY|ADD) failed: (file not found in build context|stat )|Error reading storage state from|Error HH601: Script [^\n]* doesn't exist|HH700: Artifact for contract|EnvironmentFileNotFound|could not find pixi\.toml|No .pyproject\.toml. found in current directory|`+mediaDevicesMissing+`|^harness error\b|\bfixture '[^']*' not found|INTERNALERROR>|ERROR collecting |ImportError while (importing test module|loading conftest)|errors? during collection|import file mismatch|unique basename for your test file|panic: test timed out after|detectOpenHandles|worker process has failed to exit gracefully|did not exit one second after|attached to a different loop|loop_scope|Exceeded timeout of \d+ ?ms for a (test|hook)|Async callback was not invoked within|jest\.setTimeout|ERROR at (setup|teardown) of|ScopeMismatch|^pytest: error:|\bharness (crashed|bug|exception)|Execution context was destroyed|Timeout of \d+ ?ms exceeded\. For async tests and hooks|"(before|after) (all|each)" hook|(Hook|Test) timed out in \d+ ?ms|strict mode violation|stale element reference|StaleElementReferenceException|no longer attached to the DOM|element not interactable|ElementNotInteractableException|element click intercepted|ElementClickInterceptedException|error: unrecognized arguments|is not installable\. (Neither 'setup\.py'|File 'setup\.py' not found)|NameNotFound: Environment|UnregisteredEnv|No registered env with id|Working outside of (the )?(application|request) context|Config file '[^'\n]+' does not exist|Given variables file [^\n]+ does not exist|Unknown board ID|Unable to find Electron app at|Can't pickle (<function|local object)|Manifest file is missing or unreadable|Could not find task \x60|Cannot find target '[^'\n]+' for project|Failed to resolve module specifier`),

	// A name lookup of something that is no host name: "undefined" or
	// "null" from a variable the test never set, a scheme left in the host
	// ("https" of "wss://https://…"), or an address with its port glued on
	// (127.0.0.1:5000), whether Node, urllib3, curl, ssh or Go's resolver
	// looked it up. The test wrote the URL wrong; the network did nothing.
	// All 19 such labelled records (12 sets) were the test's. So is a
	// whole URL handed to Node's resolver as the host ("getaddrinfo
	// ENOTFOUND http://google.com"): 7 of 7, two sets. Java's
	// UnknownHostException is not read so: Jenkins prints the URL it could
	// not reach there.
	builtin("lookup-of-no-host", test, "harness", lookupOfNoHost),

	builtin("tool-arguments-malformed", iface, "input-validation",
		`(?i)Could not parse tool (input|arguments)|tool (call )?arguments? (is|are) not valid JSON|the arguments is not valid JSON|Failed to parse tool (call )?arguments`),
	// The two ends of an HTTP connection disagree on its protocol: a TLS
	// handshake sent to a server that speaks plain HTTP (werkzeug's "Bad
	// request version" shows the handshake's NUL bytes, Django says so),
	// a body longer than its declared length, an HTTP/2 upgrade refused.
	// So is an HTTP answer or request read as a binary protocol's length
	// field (httpAsLength).
	// The ws library's "Invalid WebSocket frame: invalid payload length
	// 126" (or status code, or opcode) is a frame the other end did not
	// write as the protocol says (11 of 11, five sets); its invalid UTF-8
	// is the encoding's.
	builtin("http-framing", iface, "protocol",
		`Invalid WebSocket frame: invalid (?:payload length|status code|opcode)|Bad request version \(|accessing the development server over HTTPS|Too much data for declared Content-Length|unable to upgrade to h2c|`+httpAsLength),
	// UTF-16 read as single bytes shows a NUL after every ASCII letter:
	// the text's encoding, not a NUL in the data.
	builtin("utf16-as-nul", iface, "encoding",
		`(?i)`+utf16AsNUL),
	// A store out of room or damaged on disk (LMDB's or libmdbx's map,
	// LevelDB's or RocksDB's files, a disk quota, an image store's layers,
	// IndexedDB's failure "unrelated to the database itself", Redis's
	// append-only file, InnoDB's data file, mamba's repodata cache, opkg's
	// overlay counted short: "Only have 412kb available on filesystem
	// /overlay"), whatever a limit's, a checksum's, a kill's or a parser's
	// words.
	// Elasticsearch past its flood-stage disk watermark blocks writes
	// (floodStageBlocked): a full disk, not a request refused, 18 of 18
	// labelled records in five sets. The storage rule read it among its
	// many phrasings, and the model overruled that rule for six of them.
	// SQLite's integrity check that reports damage ("*** in database main
	// ***" before its pages' errors) is a damaged store: 8 of 8 labelled
	// records, four sets.
	builtin("store-full-or-damaged", sandbox, "storage-persistence",
		`(?i)`+floodStageBlocked+`|\*\*\* in database main \*\*\*|Only have \d+\s?\w* available (?:blocks )?on filesystem|(?-i:MDBX?_MAP_FULL|\bCorruption: (block checksum mismatch|bad magic number|not an sstable)|\bDamaged layer\b)|disk quota exceeded|layer not found in layer tree|The operation failed for reasons unrelated to the database itself|Bad file format reading the append only file|Could not read JSON repodata file|AOF is not valid|auto-extending data file \S+ is of a different size`),
	// Airflow's task log that is not on the worker's disk, whatever the
	// empty host or the fetch it then tries says.
	builtin("task-log-missing", sandbox, "storage-persistence",
		`\*\*\* Log file does not exist: `),
	// Read before the NUL byte's "control characters are not allowed":
	// the character the reader names decides. Of the labelled records,
	// all 13 that name another character are encoding (4 sets), all 22
	// that name NUL null-byte (9 sets).
	builtin("yaml-character-not-nul", iface, "encoding", `(?i)`+yamlCharNotZero),
	// A decoder that refused bytes and shows them: Python's
	// UnicodeDecodeError as a value, an MQTT client's payload it could not
	// decode, Ruby's Encoding errors. A NUL among the bytes shown is one of
	// the bytes, not the cause: of the labelled records, 49 of 53 are
	// encoding (4 are a file damaged on disk).
	builtin("bytes-not-decoded", iface, "encoding",
		`(?i)(?:can't|cannot|exception|error|failed to|unable to) decod(?:e|ing) payload:? b['"]|(?-i:UnicodeDecodeError\('[\w-]+', b['"]|\bEncoding::(?:InvalidByteSequenceError|UndefinedConversionError|CompatibilityError)\b)`),
	// All 6 labelled records that show a source file as "Bin" (two sets)
	// are null-byte; realworld85's images are encoding.
	builtin("text-file-seen-binary", iface, "null-byte", textFileSeenBinary),
	// An escaped zero is a NUL, but not as a setting's value: DuckDB
	// prints its CSV dialect beside its errors, `escape = \0` (no escape
	// character) among it, nor a Windows path's folder named 0
	// (nulEscaped). NightConfig's "Not enough data available" is a
	// config file of NULs, as a crash leaves it (8 of 8 labelled records,
	// three sets). Rust's NulError and InteriorNul (rustNULRefused): 15
	// of 15, seven sets; its NotNulTerminated is a missing terminator, no
	// NUL in the data.
	builtin("nul-byte", iface, "null-byte",
		`(?i)(?-i:`+rustNULRefused+`)|nightconfig\.core\.io\.ParsingException:\s+Not\s+enough\s+data\s+available|invalid XML character \(Unicode: ?0x0\)|`+asciiZeroRefused+`|`+jacksonZeroRefused+`|`+yamlCharZero+`|'0x00' is an invalid start of a value|string without null bytes|Illegal XML character: 0x0\b|control characters are not allowed|expects parameter 1 to be a valid path|Char 0x0 out of allowed range|hexadecimal value 0x00, is an invalid character|hexadecimal value 0x00 is an invalid character|шестнадцатеричное значение 0x00|`+caretNUL+`|invalid token: 0x00|`+zeroByteNamed+`|[a-z]\\x00[a-z]\\x00|`+nulWords+`|byte sequence for encoding[^\n]*0x00|character with value 0x00|\\u0000 cannot be converted|unsupported Unicode escape sequence|\\x00(?:[^-]|$)|`+nulEscaped+`|\b22P05\b|invalid message format`),
	// asyncio's IncompleteReadError is a stream that ended before the
	// frame its reader was promised: the peer closed it mid-message, a
	// protocol failure, not a size limit (12 of 13 labelled records, five
	// sets; the other a browser session). http.client's IncompleteRead, a
	// body cut short, stays truncation's.
	builtin("stream-ended-mid-frame", iface, "protocol", `(?i)\bIncompleteReadError\b`),
	// An HTTP client that refuses a URL for the characters in it is
	// input refused before anything was sent: Python's "URL can't contain
	// control characters" and Node's ERR_UNESCAPED_CHARACTERS (11 of 11
	// labelled records, two sets).
	builtin("url-characters-refused", iface, "input-validation",
		`(?i)URL\s+can't\s+contain\s+control\s+characters|Request\s+path\s+contains\s+unescaped\s+characters|\bERR_UNESCAPED_CHARACTERS\b`),
	builtin("truncation", iface, "message-size",
		`(?i)\[archiver\] input file too short|\bDecodeError: (-+ )?Truncated (message|string)|zip: not a valid zip file|Truncated tar archive|got more than \d+ bytes|MessageTooLong \{ size|xref not found|unable to find trailer dictionary|can.t find startxref|Unclosed root tag|Not enough image data|short read|IncompleteRead|corrupted on transfer: sizes differ|downloaded \d+ of \d+ bytes|truncated (to|after|at) \d+|(response|output|content|payload|body) (was )?truncated|content-length mismatch|CONTENT_LENGTH_MISMATCH`),
	// An accelerator's allocator says RESOURCE_EXHAUSTED too, and
	// BuildKit's gRPC status ResourceExhausted carries a build step's
	// ENOMEM, on the CPU too (buildkitENOMEM), not a message over its size
	// limit.
	builtin("accelerator-oom", sandbox, "memory",
		`(?i)RESOURCE_EXHAUSTED: (?:Out of memory|Ran out of memory|Failed to allocate)|`+buildkitENOMEM+`|session crashed after using all available RAM|Heap exhausted|use '--shm-size' flag|shared memory pool size|Unable to commit \d+ bytes of memory|Out-of-memory event detected|OOM when allocating|CUDA out of memory|CUDA error: out of memory|out of memory on device|ResourceExhaustedError`),
	// A framed stream that reads a length where its peer printed text
	// (an SSH shell's banner, a native-messaging host's log line, an
	// HTTP/1 answer to gRPC's HTTP/2 preface): the
	// "length" is four ASCII bytes (1349281121 is "Plea"), the stream is
	// not the protocol, and nothing was too long.
	builtin("length-read-from-text", iface, "protocol",
		`(?i)Content-Length not found in header|error reading server preface: http2: frame too large|Received message too long \d{9,}|(?m:Received message too long\s*$)|Packet length \d{9,} exceeds max length|(send|sending) a message (of|that is) \d{9,} bytes`),
	// Node's spawn failing with E2BIG names the spawn (spawn, spawnSync,
	// with or without the program): all 8 labelled records of it (3 sets)
	// were process-spawn, where the kernel's "Argument list too long" below
	// was message-size 52 times in 15 sets and process-spawn 16 times in 4.
	// Its ENAMETOOLONG (spawnE2BIG) was process-spawn in 6 of 6 labelled
	// records, one set.
	builtin("spawn-e2big", sandbox, "process-spawn", spawnE2BIG),
	// apt's "You don't have enough free space in /var/cache/apt/archives/"
	// and Postfix's "not enough free space in mail queue" are a full disk,
	// though Postfix's line goes on to name its message size limit (11 of
	// 11 labelled records, three sets). Only these shapes: a heap, a GPU,
	// a buffer or /dev/shm short of free space is memory.
	builtin("not-enough-free-space", sandbox, "storage-persistence", notEnoughFreeSpace),
	// V8's "RangeError: Invalid string length" is a string past the
	// engine's largest: all 58 labelled records (18 sets) are message-size.
	// Python's struct "format requires 0 <= number <= 4294967295" is a
	// value past its field's width, signed or not, of 16 bits or more
	// (15 of 15, 6 sets); a byte's range is more often a wrong value.
	// Python's JSON decoder at a string that never ends: the document was
	// cut (28 of 33 labelled records, 11 sets; the other five, one set,
	// encoding).
	// Go's bufio.Scanner at a line longer than its buffer: "token too
	// long" (12 of 12 labelled records, five sets).
	// A request body over a proxy's or a runtime's cap says so in nginx's
	// and PHP's words too (httpBodyOverLimit; 31 of 31, sixteen sets).
	// Python's "write could not complete without blocking" is output
	// written faster than a non-blocking pipe drains, lost past the pipe's
	// size (9 of 9 labelled records, two sets); its [Errno 11] is not the
	// fork refused that the process-spawn rule reads in it.
	builtin("message-size", iface, "message-size",
		`(?i)bufio\.Scanner: token too long|Unterminated string starting at: line \d+ column \d+|Invalid string length|\bE2BIG\b|Argument list too long|\[Errno 7\]|Ice\.MessageSizeMax|Ice::MemoryLimitException|protocol error: memory limit exceeded|Unfinished JSON term at EOF|Huge input lookup|array cannot contain more than \d+ bytes|would exceed 2\^31-1 bytes|strings are limited to 2\^31-1 bytes|password cannot be longer than \d+ bytes|\bStd(?:out|err)StreamTooLong\b|Transfer interrupted before complete|Client Error: File too large|File too large\. (?:Limit for project|for url:)|<title>(?:\d+\s*)?File too large|Large object of size [^\n]* detected in task graph|Sending large graph of size|Premature end of data in tag|Unexpected response code: 431\b|Requested array size exceeds VM limit|Required array length \d+ \+ \d+ is too large|exceeds the limit: \d+ code points|User data is limited to \d+ bytes|tarball is too big|Data too long for column|snapshot missing hash|string or blob too big|tokens \+ .max_new_tokens. must be <=|.inputs. must have less than \d+ tokens|UTFDataFormatException: encoded string [^\n]*too long|File too large\. for url|distribution file too large|HTTP element \w+ is longer than|overflowing header size|\bM_TOO_LARGE\b|Size threshold reached \d+ >= \d+|image file is truncated|Truncation of a record occurred|Truncation occurred, \d+ >= \d+|bytes with no newline delimiter|extends past end of the module|expected \d+ bytes, fell off end|is disallowed on the main thread, if the buffer size is larger than|Too large HTTP header|Maximum Payload Violation|format requires -?\d+ <= number <= \d{5,}|upstream sent too big header|Data cannot be cloned, out of memory|The stub received bad data|ERROR_TOO_BIG_|must be between \d+ and \d+ characters|is longer than \d+ characters|\blost \d[\d,]* (chunks|events)\b|Pending lost events|Lost events - \d|SIGXFSZ|output limit exceeded|超过输出限制|maximum of \d+ \w+ can be created per request|EOF marker (was )?not found|_find_eof_marker|\bcommand too long\b|contains files larger than|upload a crate it may be too large|A protocol message was rejected because it was too big|send queue is full|IOPub data rate exceeded|offset overflow|evicted from inspector cache|Message (length )?exceeded maximum allowed (length|size)|log exceeded limit of \d+ bytes|Log Output Exceeds Maxsize|too many parameters\. The server supports a maximum|too many SQL variables|is over the \d+ ?[KMG]i?B limit|truncating input prompt|at least one immense term|UTF-?8 encoding is longer than the max(imum)? length|output clipped, log limit|JsonReader at line \d+ column \d{7,}|Cannot upload file \(>|ArrowCapacityError|message size|Packet for query is too large|max_allowed_packet|Got a packet bigger than|(payload|message|request|response|result|body|frame|content|argument|output) (is )?too (large|big|long)|entity too large|exceeds (the )?(maximum|max|limit)[^.]*\b(size|bytes|length)|max(imum)? (message|payload|frame|response) size|size limit|MESSAGE_TOO_LARGE|maximum allowed tokens|tokens\) exceeds|exceeds the context window|maximum context length|context_length_exceeded|huge text node|or fewer in length|BASE_TYPE_MAX_LENGTH|maxBuffer|MAXBUFFER|Separator is not found, and chunk exceed|chunk exceed the limit|LimitOverrunError|RESOURCE_EXHAUSTED|ResourceExhausted|larger than max\b|\bENOBUFS\b|exceeded (the )?(maximum|max) (buffer |message )?size|`+httpStatus413+`|Too long: must have at most|Cannot create a string longer than|write could not complete without blocking|`+httpBodyOverLimit+`|`+websocketTooBig),
	// Go's module checksum database: the download differs from what the
	// world saw, before any transport could mangle it.
	builtin("module-checksum", sandbox, "network-egress",
		`verifying \S+: checksum mismatch`),
	// A UTF-8 byte order mark shows as "ï»¿" read as Latin-1, and as "ef bb
	// bf" in a dump of the bytes. Protobuf's "DecodeError: Error parsing
	// message" is bytes that are no message of the type, changed or read as
	// text on their way: all 13 labelled records (four sets) are encoding.
	// Go's JSON decoder meets \x, an escape JSON has not: bytes that were
	// no UTF-8, escaped as a program prints them (4 of 4, two sets).
	// Java's MalformedInputException: bytes that are not the charset
	// read as (25 of 25, eleven sets). The word "mojibake" is read as a
	// word, not inside a file's or a folder's name: the normaliser masks
	// the name, and a key must be decided alike for all its messages.
	builtin("encoding", iface, "encoding",
		`(?i)\bMalformedInputException\b|invalid character 'x' in string escape code|DecodeError: Error parsing message|Illegal query string \(not an? UTF-8 string\)|Invalid string\. Length must be a multiple of \d+|invalid character 'ï' looking for beginning of value|please make sure the data is not gzipped|(?-i:Illegal character \(d[89a-f][0-9a-f]{2}\))|net::ERR_CONTENT_DECODING_FAILED|The encoded data was not valid for encoding utf-8|Content is not allowed in prolog|Unicode strings with encoding declaration are not supported|internationalized messages should not contain the '\\r' escape sequence|Invalid unicode \(byte sequence mismatch\)|Cannot convert argument to a ByteString|native name encoding of latin1|commitBuffer: invalid argument \(invalid character\)|unrecognised field or section: "\\\d+|character '+\\[1-9]\d{3,}'|illegal character:? '\\u(?:[1-9a-f][0-9a-f]{3}|0[1-9a-f][0-9a-f]{2}|00[1-9a-f][0-9a-f]|000[1-9a-f])'|Invalid PEM formatted message|Failed to parse private key|invalid signature: TSIG|bad base64 encoding|invalid wire type|\?{5,}|Failed to execute 'atob'|characters outside of the Latin1 range|failed crc32 validation|PNG file has invalid signature|Unable to verify integrity of data upload|"\\x[0-9A-F]{2}" (on|from|to) (US-ASCII|ASCII-8BIT|UTF-8)|Utf8Error \{ valid_up_to|UnmappableCharacterException|PCDATA invalid Char value|Invalid 2-byte UTF8 found in input|UTF8 codes > 3 bytes|Irregular whitespace not allowed|binascii\.Error|does not match the provided media type|media type, but the image appears to be|\x{FFFD}|\\u[fF]{3}[dD]|decode (a )?(text )?frame as UTF-?8|Incorrect string value: '\\x|Unexpected token \x{FEFF}|`+bomAsLatin1+`|\bef bb bf\b|Failed to find a valid digest in the 'integrity' attribute|invalid (leading )?UTF-8 octet|Incorrect padding|invalid base64|illegal base64|base64[^\n]*(decod|invalid|corrupt)|Non-base64 digit|content-encoding: \w+, but failed to decode|Error -3 while decompressing|only supports characters in the BMP|incorrect header check|_decompressContent|not a valid Base-64|Base-64 char|padding characters|unmappable character|Malformed input or input contains|ANSI_X3\.4-1968|Unicode(De|En)codeError|codec can't (de|en)code|a bytes-like object is required, not 'str'|invalid (utf-?8|byte sequence|start byte|continuation byte)|invalid multibyte (string|sequence|char)|multibyte inv[aá]lid|did not contain valid UTF-?8|could not decode to UTF-?8|malformed utf-?8|round[- ]?trip mismatch|sha-?256 mismatch|(checksum|digest|hash) mismatch|surrogates not allowed|(no|invalid|lone|unpaired|missing) (low|high) surrogate|(lone|unpaired) surrogate|\bBadDigest\b|XAmzContentSHA256Mismatch|\bMd5Mismatch\b|Content-MD5 you specified did not match|MD5 value specified in the request did not match|cloud-supplied digest|CONTENT_DOWNLOAD_MISMATCH|as we received it, did not match|(?:^|[^\w/.-])mojibake(?:$|[^\w./-]|\.(?:\s|$))|\bU\+FFFD\b|\bmime type mismatch|binary files?[^\n]{0,40}\bcorrupt|corrupt[^\n]{0,40}\bbinary files?|\bnot (valid )?UTF-?8\b|`+mojibake),
	// A script whose lines end in CRLF names its interpreter with a
	// carriage return ("env: 'sh\r': No such file", "/bin/sh^M: bad
	// interpreter"): its bytes were rewritten as text on the way in, not
	// a program missing. Git's warning that it will rewrite a file's line
	// endings says the same of a file it carries.
	builtin("crlf-line-endings", iface, "encoding",
		`(?i)`+crlfRewritten),
	builtin("digest-mismatch", iface, "encoding",
		`(?i)ChecksumMismatchError|SHA256 sum doesn't match expectation|\b(expected|want(ed)?|sha-?256|sha-?1|md5|checksum|digest|hash)\b[^\n]{0,80}\b[0-9a-f]{32,64}\b[^\n]{0,80}\b(got|but|actual|received|computed|found|vs\.?|!=)[^\n]{0,40}\b[0-9a-f]{32,64}\b|corrupted on transfer: \w+ hash differ|failed verification -- update (retained|discarded)`),
	// A class compiled against another version of a library than the one
	// loaded: the JVM's NoSuchMethodError and NoSuchFieldError (and its
	// IncompatibleClassChangeError and AbstractMethodError, a class or an
	// interface changed under it), and .NET's
	// binder's own words, "MissingMethodException: Method not found:"
	// (which the protocol rule would read as JSON-RPC's unknown method)
	// and "MissingFieldException: Field not found:". Groovy's
	// MissingMethodException ("No signature of method") and .NET's
	// missing constructor are the code's, not a library's.
	builtin("library-version-skew", sandbox, "package-path",
		`java\.lang\.(?:NoSuchMethodError|NoSuchFieldError|IncompatibleClassChangeError|AbstractMethodError)\b|\bMissingMethodException: Method not found:|\bMissingFieldException: Field not found:`),
	builtin("jsonrpc-parse", iface, "protocol",
		`(?i)Header must provide a Content-Length|`+nothingParsed+`|Failed to parse JSON-?RPC|prepared statement \\?"\w+\\?" (already exists|does not exist)|Invalid JSON: EOF while parsing|Multipart: Boundary not found|multipart[^\n]{0,40}boundary|validation errors? for JSONRPCMessage|is not valid JSON|json_invalid|-32700\b|before initialization was complete|before (the )?initialization|received before initialize`),
	// A bare "parse error" is a frame's most often (Node's HTTP parser,
	// Puma's, a language server's incoming message), but also jq's, a
	// TOML or SAM file's: of the labelled records it decided, 36 were
	// right and 25 wrong, against 263 of 286 for the frames' own words
	// above. A rule of its own, so its record is its own and the learned
	// model weighs it apart from theirs.
	builtin("parse-error", iface, "protocol",
		`(?i)\bParse error\b`),
	// gdb's "Remote 'g' packet reply is too long" is a stub whose register
	// layout is not the one gdb expects, a protocol's version skew (9 of 9
	// labelled records, three sets). The normaliser masks the packet's
	// quoted name, so any name is read.
	builtin("protocol-version", iface, "protocol",
		`(?i)Remote\s+'[^'\n]+'\s+packet\s+reply\s+is\s+too\s+long|cannot parse reserved wire type|rsync error: protocol incompatibility|Mismatched versions found|VersionMismatchWarning|unknown command HELLO, with args|Protocol error \([\w.]+\): Invalid parameters \(?(?:\w*Id|handle): string value expected|Protocol error \([\w.]+\): Invalid parameters Failed to deserialize params\.\w*Id\b|(?m:Protocol error \([\w.]+\): Invalid parameters\s*$)|In-memory PM2 is out-of-date|No inspectable targets|Couldn't find open server|SWANK-DATA-ERROR|reader macro #A used without a rank integer|: Method not found|validation errors? for CallToolResult|MCP server process exited unexpectedly|TTransportException: Invalid status -128|Required field\s'?client.protocol'? is unset|server version \(\d+\) doesn.t match this client|Incompatible API version with plugin|differs with (?:the )?server version|\bTool \S+ not found\b|Function returned an invalid response|Invalid API Gateway Response Keys|Received invalid response from the daemon|exec plugin: invalid apiVersion|exec plugin is configured to use API version|Trying to connect an http1\.x server|exception in RPC call|unexpected RPC data format|unacceptable protocol version|incorrect protocol version|Unsupported protocol version|Invalid protocol version|Invalid version of \w+ protocol|InvalidFrameProtocolException|unsupported protocol \d+\b|protocol version (mismatch|not supported|is not supported)|unsupported protocolVersion|Incompatible protocol version|protocol version [^\n]{0,60}\n?[^\n]{0,20}\bbut [^\n]{0,40}expects|client version [\d.]+ is too new|Maximum supported API version|API (number|version) is not compatible`),
	// A download whose bytes differ from their published digest (pip's
	// hashes, npm's integrity, cargo's checksum) changed on the way: 117
	// of the 158 labelled records are encoding (28 sets), 36
	// network-egress (seven sets, the earliest among them), 4
	// message-size and 1 storage; and two different digests of one
	// transfer are the interface's encoding, critical.
	builtin("download-hash-mismatch", iface, "encoding",
		`(?i)DO NOT MATCH THE HASHES|hashes from the requirements file|failed to verify the checksum of|\bEINTEGRITY\b|integrity checksum failed|Hash mismatch for|(checksum|hash) (mismatch|did not match)[^\n]{0,80}download|download[^\n]{0,80}(checksum|hash) (mismatch|did not match)`),
	// Gradio's refusal of a file outside its allowed folders ("Cannot move
	// … to the gradio cache dir because it was not created by the
	// application") is a path refused (10 of 10 labelled records, three
	// sets). So is a NaN or an infinity handed to a JSON encoder that
	// refuses it ("Out of range float values are not JSON compliant", 11 of
	// 11, three sets).
	builtin("input-validation", iface, "input-validation",
		`(?i)Out of range float values are not JSON compliant|to\s+the\s+gradio\s+cache\s+dir\s+because\s+it\s+was\s+not\s+created\s+by\s+the\s+application|Invalid input of type: '[^'\n]+'\. Convert to a|Invalid filename: '[^'\n]*' contains illegal characters|Invalid experiment ID: |WebDriver::Error::InvalidArgumentError|invalid argument: File not found|'[^'\n]+' item contains newlines|invalid reference format|String should match pattern|Unsafe file name|Cannot take screenshot with 0 (?:width|height)|Variable "\$\w+" of required type "[^"\n]+" was not provided|which was not provided a runtime value|Access to the file is not allowed|The file "[^"\n]+" is not writable|cannot read file outside of project root|openout_any|\["can.t be blank"\]|InvalidTopicNameError|Invalid topic( name)?:|not valid in Graph Resource Name|InvalidNodeNameError|Unknown permission: \w+|is not a valid value for enumeration PermissionName|ENAMETOOLONG|File name too long|\[Errno 36\]|Input should be (a valid|greater|less)|`+systemDirClimb+`|path traversal|directory traversal|accepted (path|input|file ?name|symlink)|outside (of )?(the )?(/workspace|workspace|sandbox|allowed)|escapes? (the )?(workspace|sandbox|root)|without validation|no (path|input) validation|no containment check|without (a |any )?containment check|symlink escape|Invalid params|-32602\b|ValidationError|validation error|Invalid schema for function|invalid_function_parameters|array schema missing items|Cannot navigate to invalid URL|Invalid parameters|ERR_INVALID_ARG_(TYPE|VALUE)|argument must be of type|Invalid (input|arguments) for tool|must have required property|Additional properties are not allowed|"isError":\s*false[^\n]{0,200}\.\./|\.\./[^\n]{0,300}"isError":\s*false|Invalid JSON payload received\. Unknown name|must have items|must be (inside|within) (an |the )?allowed|Invalid url|\binvalid_type\b|Refusing websocket connection from Origin|Rejected an incoming WebSocket connection from|InvalidDimensionException|Vector dimension error|does not match (collection|index) dimensionality|[Uu]nsupported (screenshot )?mime type|`+pathRefusedOutside+``),

	// A Chrome DevTools method the browser does not implement: the
	// client and the browser disagree on the protocol. So do they on a
	// target, tab or context the client names after the browser dropped it.
	// Page.printToPDF's "Printing is not available" is a headed browser
	// asked for what only a headless one does (6 of 6 labelled records,
	// three sets).
	builtin("cdp-method-unsupported", iface, "protocol",
		cdpMethodMissing+`|No target with given id|No tab with given id|Cannot find context with specified id|Printing\s+is\s+not\s+available`),

	// Jupyter's server forgetting a notebook's session is the kernel's
	// session gone, not an MCP session.
	builtin("jupyter-session-gone", sandbox, "session-lifecycle",
		`(NotebookApp|ServerApp|jupyter_server)\][^\n]{0,20}Session not found`),
	// An MCP server may quote the session id it no longer knows
	// (`Session "1E09C2C3-…" not found`).
	builtin("mcp-session", iface, "protocol",
		`(?i)session has been terminated or no longer exists on the server|(Streamable HTTP|mcp-session-id|-?32600|jsonrpc|\bSSE\b|\bMCP\b)[^\n]*Session (?:\\?"[^"\n]{1,80}\\?" )?(not found|terminated)|(?-i:(^|[\s"'\x60“:])Session (not found|terminated)\b)|Session not found[^\n]*(-32600|jsonrpc)|No valid session ID|Invalid or expired session ID|Invalid or missing session ID|-?32600[^\n]{0,60}Invalid session ID|MCP session is unknown|transport error[^\n]{0,80}\b404\b[^\n]{0,20}session not found|Error during WebSocket handshake|No transport found for session(Id| ID)?|SseClientTransport[^\n]*Error sending message: 404|\bSSE\b[^\n]{0,80}\b(404|405|Non-(200|<n>) status)|Cannot (GET|POST) /(sse|mcp|messages)\b|"(GET|POST) /(sse|mcp|messages)\S* HTTP/[\d.]+" (404|405)`),
	// A sandbox that reports a command timed out ended it at its deadline
	// ("sandbox error: command timed out"): time, not the session.
	builtin("command-timeout", sandbox, "cpu-time",
		`(?i)Terminated signal terminated program|\bcommand timed out\b|Liveness probe failed[^\n]*(Client\.Timeout|context deadline exceeded)|\btimed out and (was )?killed\b|compiler timed out`),
	// A read through a proxy that timed out, even one on the sandbox's own
	// host (the loopback's 3128 or 1080), waited on the way out.
	builtin("proxy-read-timeout", sandbox, "network-egress",
		`(?i)ProxyError[^\n]*Read timed out|host=u?'(?:localhost|127(?:\.\d{1,3}){3})', port=(?:3128|1080)\): Read timed out`),
	// A read from a service on the sandbox's own host that timed out
	// (urllib3's host='localhost' … Read timed out) crossed no network:
	// the service was slow (21 of 21 labelled records, 8 sets, cpu-time).
	builtin("local-service-read-timeout", sandbox, "cpu-time",
		`(?i)host=u?'(?:localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|::1)', port=\d+\): Read timed out`),
	// A sandbox client that blames the network for an execution that
	// timed out ended at the sandbox's time limit: all 7 blind records.
	builtin("execution-timeout-blamed-on-network", sandbox, "cpu-time",
		`(?i)upstream timed out \((?:110: )?(?:Connection|Operation) timed out\) while reading response header from upstream|likely a network issue[^\n]*Error: timed out`),
	// tcmalloc warns "large alloc" of any allocation over its report
	// threshold, granted or not; beside a notebook kernel's restart it is
	// the allocation that took the kernel down: 6 of 6 labelled records,
	// three sets, are memory, which the session rule read by the restart.
	// Alone, the weak rule below reads it, when nothing else is read.
	builtin("tcmalloc-large-alloc", sandbox, "memory",
		`(?s)`+tcmallocLargeAlloc+`.*KernelRestarter|KernelRestarter.*`+tcmallocLargeAlloc),
	// Jupyter's "the kernel appears to have died" is a kernel killed from
	// outside, most often for memory: 22 of 38 blind records were memory,
	// 12 the session's.
	builtin("kernel-appears-died", sandbox, "memory",
		`(?i)kernel appears to have died`),
	// A container runtime's exec that cannot find the program, and a
	// browser profile's lock it may not create, are not the session's
	// end, whatever the runtime's words around them (nor is a program,
	// module, toolchain or package for another platform that is not
	// installed: python -m's, CmdStan, npm's EBADPLATFORM, Ansible's
	// become without setfacl, an interpreter a shebang names by its
	// absolute path, in zsh's and bash's order, with no ^M in it); a SUID
	// helper that is
	// not root's with mode 4755 and a USB device the user may not open are
	// a file's permissions, not a process refused.
	builtin("exec-not-on-path", sandbox, "package-path",
		`\bEBADPLATFORM\b|No CmdStan installation found|Failed to set permissions on the temporary files Ansible needs[^\n]*chmod: invalid mode|target may not be installed|\bbinary does not exist\b|Attempt to load network entity|No available image handler|Electron failed to install correctly|CHROME_PATH must be set to executable|character map file [^\n]{1,60} not found|No version set for command |(?m:^(?:/\S*|python[\d.]*): No module named )|Python interpreter \S+ not found|bad interpreter: /[\w/.+-]+: [Nn]o such file|: /[\w/.+-]+: bad interpreter: No such file or directory|Can't locate \S+\.pm in @INC|couldn't connect to display|failed to run external extractor|\bcould not be found on host\b|No command "[^"]+" found on host|\bis not available on your system\b|executable file not found in \$PATH`),
	builtin("file-permission-before-process", sandbox, "filesystem-permissions",
		`Failed to set permissions on the temporary files Ansible needs|Could not acquire workspace lock on path|xsltDocumentElem: unable to save to|Could not write file to specified directory|Cannot write into index directory|No subuid ranges found for user|Credentials cache permissions incorrect|SingletonLock: Permission denied|SUID sandbox helper binary was found, but is not configured correctly|LIBUSB_ERROR_ACCESS`),
	// AppArmor refusing a process its own operation (exec, ptrace, a
	// signal, a user namespace, a change of profile on exec) is a refused
	// process, where its refusals of a file's (mknod, mount) are the
	// files': all 15 labelled records of the first kind (six sets) are
	// process-spawn, 14 of them read by this rule (the fifteenth's error
	// opens with docker's own "permission denied", which the files' rule
	// reads), and both of the second kind filesystem-permissions.
	builtin("apparmor-denied-process", sandbox, "process-spawn", apparmorProcessDenied),
	// A kernel setting refused by a read-only or forbidden /proc/sys,
	// through sysctl or written to the file, names its key, and the
	// process rule reads the key's inotify ("fs.inotify.max_user_watches")
	// or perf_event: all 26 labelled records of the refusal (seven sets)
	// are a file's permissions.
	builtin("proc-sys-refused", sandbox, "filesystem-permissions",
		`sysctl: (?:error )?setting key [^\n]*: Read-only file system|sysctl: permission denied on key|error: "Read-only file system" setting key|(?i:/proc/sys/\S+: (?:read-only file system|permission denied))`),
	// A web application's refusal of a form's or request's CSRF token is
	// the session that issued the token gone or expired: Laravel's
	// TokenMismatchException, MediaWiki's badtoken, Flask-WTF's "The CSRF
	// session token is missing", Django's "CSRF verification failed" and
	// "CSRF cookie not set", Jenkins's "No valid crumb", and the same
	// words from csurf, lusca, Rails, GLPI and SeaSurf. 114 of the 122
	// labelled records whose error holds one (33 sets) are the session's;
	// the others are realworld208's test and realworld567's and
	// realworld669's input validation. Flask-WTF's "The CSRF token is
	// missing", a request sent without one, is not read, nor "CSRF token
	// not found" (a page without its token's meta tag) nor Django's
	// "CSRF Failed: Origin checking failed" (the server's trusted
	// origins). Its own rule, so that its record, and not the session
	// rule's broader one, weighs the model's overrule.
	builtin("csrf-token-rejected", sandbox, "session-lifecycle",
		`(?i)`+csrfCodeRefused+`|Invalid CSRF token|The\s+CSRF\s+session\s+token\s+is\s+missing|CSRF token (?:has expired|mismatch|is invalid|could not be verified|missing or incorrect)|CSRF verification fail(?:ed|ure)|CSRF check failed|verify CSRF token authenticity|CSRF Failed: CSRF (?:token|cookie)|CSRF cookie not set|No valid crumb|invalid or missing CSRF`),
	// Proxmox's "401 permission denied - invalid PVE ticket" is its login
	// ticket expired (5 of 5, two sets), not a file's permissions.
	// So is oauthlib's TokenExpiredError and an API's "token has expired",
	// whatever the harness logs of the token's lifetime.
	// OPC UA's Bad_SessionClosed, BadSessionIdInvalid and
	// BadSessionNotActivated (gopcua's StatusBadSessionIDInvalid): the
	// server no longer holds the client's session (9 of 9 labelled
	// records, two sets). Keycloak's introspection of a token it no
	// longer holds says "Token is not active" (6 of 6, three sets).
	// Xlib's "XIO: fatal IO error 11 (Resource temporarily unavailable) on
	// X server" and GDK's "Fatal IO error 11 (…) on X server :1." are the
	// display gone under the client, not a process limit (10 of 12
	// labelled records, four sets; the other two are one set's). The
	// errno is whatever the last call left, almost always 11 or 0, so
	// any is read. runc refusing to exec into a container that stopped
	// (runcExecStopped) is the container gone under the session. A
	// sandbox not found, expired, timed out or shut down is read only
	// where "sandbox" starts a word: inside an image's, a server's or a
	// path's name (cs50/sandbox, xml-sandbox, /sandbox/) the session
	// had ended in 1 of the 10 labelled records that print it so.
	builtin("session-lifecycle", sandbox, "session-lifecycle",
		`(?i)(?:\b|Status)Bad_?Session(?:Closed|IdInvalid|NotActivated)\b|Minion did not return\. \[Not connected\]|failed to create sandbox(?:[^:]|$)|process with PID \d+ unexpectedly ended: signal: killed|\bToken\s+is\s+not\s+active|fatal\s+IO\s+error\s+\d+\s+\([^)\n]*\)\s+on\s+X\s+server|daemon-socket/socket'?: (?:Connection refused|No such file or directory)|docker\.sock[^\n]*(no such file|connection refused)|ExpiredToken|Expired token|(?-i:TokenExpired(?:Error|Exception)\b)|\btoken (?:has |is )?expired\b|You are logged out|Is Streamlit still running|already fatally failed and can no longer be used|PRECONDITION_FAILED - (?:delivery acknowledgement|consumer ack)|Bad credentials|invalid PVE ticket|not matched to a runner|Task request timed out|ERR_NGROK_3200|Tunnel \S+ not found|repository is already locked|unable to create lock in backend|invalid_grant|RefreshError|oauth2: cannot fetch token|Culling '?idle'? kernel|session[^\n]{0,80}\b(expired|timed out|terminated|not found|no longer exists|does not exist|was closed by the server)|`+sandboxWord+`[^\n]{0,40}\b(not found|expired|was terminated|has been (killed|terminated|stopped|deleted|paused)|is not running|does not exist|timed out)|SandboxNotFound|SessionExpired|idle timeout|No such container|container [^\n]{0,80}(is not running|not found)|`+runcExecStopped+`|`+sandboxWord+` .{0,20}(was )?(shut ?down|reclaimed)|Kernel died|DeadKernelError|Kernel didn't respond|kernel (is dead|died|restarting)|invalid session id|InvalidSessionIdException|no such session|Kernel does not exist|Exception restarting kernel|Job has timed-?out|session timed out|WebSocket is not open|Kernel crashed|Kernel has died|lost communication with the server|`+sandboxWord+`[^\n]{0,40}\b(wasn't|was not|could not be) found|No sandbox found|Is the docker daemon running|KernelRestarter: restarting kernel|kernel process died|not connected to DevTools|likely due to sandbox timeout|`+sessionConcurrencyLimit+`|`+browserProfileLocked),
	// A registry that has no such image ("pull access denied for x,
	// repository does not exist or may require 'docker login'") names an
	// image, not a file nor a session: none of the 14 labelled records
	// that print it is filesystem-permissions or storage, which its
	// "access denied" and "does not exist" read before. Whose the image
	// is, the labellers split: the test's that named it (4 records of
	// one set, and "manifest unknown" in 11 of three sets) or the
	// platform's package path (8 of one set, and 8 "manifest unknown" of
	// another). The rule says the test's, as the sets before these two
	// did; an expired registry token stays the session rule's, before.
	builtin("registry-image-missing", test, "harness", `(?i)`+registryImageMissing),
	// Python's multiprocessing without its semaphores (no /dev/shm, or
	// sem_open refused) cannot start its workers: 13 of 14 labelled
	// records were process-spawn, though the message may name /dev/shm,
	// as Ansible's "Unable to use multiprocessing" does (4 of 4, one set).
	builtin("multiprocessing-semaphores", sandbox, "process-spawn",
		`(?i)\bSemLock\b|\bsem_open\b|functionality of Python's multiprocessing|multiprocessing module is not available|Unable to use multiprocessing`),
	// Node's spawnSync that ran past its timeout option: the child ran
	// out of time, not a connection.
	builtin("spawn-sync-timeout", sandbox, "cpu-time",
		`spawnSync [^\n]*ETIMEDOUT`),
	// A TLS client that got plain bytes back (an implicit-TLS client on a
	// STARTTLS port) disagrees with the server on the protocol.
	builtin("tls-wrong-version", iface, "protocol",
		`(?i)WRONG_VERSION_NUMBER|\bwrong version number\b`),
	// PHP's disable_functions refusing the functions that start processes:
	// PHP 7 says they were disabled, PHP 8 that they are undefined (in a
	// namespace too, since a call falls back to the global function).
	// Only PHP's core process functions are read undefined as disabled:
	// pcntl_fork undefined is more often its extension not built.
	builtin("php-process-functions-disabled", sandbox, "process-spawn",
		`relies on proc_open, which is not available|(proc_open|shell_exec|exec|system|passthru|popen|escapeshellcmd|escapeshellarg|pcntl_fork)\(\) has been disabled|`+phpUndefinedFunction+`(?i:proc_open|shell_exec|exec|system|passthru|popen|escapeshellcmd|escapeshellarg)\(\)`),
	// Chrome that refuses to run as root without --no-sandbox may not start
	// its sandbox, whatever the launcher around it says of a crash (78 of
	// 78 blind records).
	builtin("chrome-root-needs-no-sandbox", sandbox, "process-spawn",
		`pass no_sandbox=True|when you are running as root|Running as root without --no-sandbox is not supported`),
	// Chrome's zygote that may not set a renderer's OOM score was refused
	// a write to /proc by the sandbox, and is short of no memory, though
	// the memory rule reads "OOM": of the 7 labelled records (three
	// sets), 4 are process-spawn (two sets), 3 a file's permissions, none
	// memory.
	builtin("oom-score-not-adjusted", sandbox, "process-spawn", `Failed to adjust OOM score of renderer`),
	// ChromeDriver that does not support the Chrome beside it says so
	// after whatever it says of the start, and before the crash rule
	// reads a log's /dev/shm.
	builtin("chromedriver-version-mismatch", sandbox, "package-path",
		`(?i)only\s+supports\s+Chrome\s+version`),
	// ChromeDriver's "Chrome failed to start: crashed" is a browser that
	// never came up, not one that ran out of memory: of the 16 labelled
	// records (nine sets), 12 are process-spawn (six sets), none memory,
	// though a log's /dev/shm would have the crash rule read it so. Weak:
	// what ChromeDriver says after it (a Chrome it does not support)
	// decides.
	weak(builtin("chrome-start-crashed", sandbox, "process-spawn",
		`(?i)Chrome\s+failed\s+to\s+start:\s+crashed`)),
	builtin("browser-crash", sandbox, "memory",
		`(?i)\bRender process gone\b|Target crashed|Page crashed|Abnormal renderer termination|page crash\b|tab crashed|/dev/shm|renderer (process )?(crashed|was killed|gone)|Aw, Snap|RESULT_CODE_KILLED|SBOX_FATAL_MEMORY`),
	// A launcher's "Browser closed unexpectedly:" goes on with the
	// browser's own words, on the next lines, which decide.
	weak(builtin("browser-closed-unexpectedly", sandbox, "memory", `Browser closed unexpectedly`)),
	// Chrome's first DevTools calls failing with "Target closed" is a
	// browser that died as it launched (its sandbox, its libraries), not
	// a session that ended: 15 of 29 such labelled records were process
	// spawn, 6 package path, 4 the test's, 3 the session's.
	builtin("browser-died-at-launch", sandbox, "process-spawn",
		`\bIsSingleThreaded\b|Target\.(setDiscoverTargets|setAutoAttach)\)?:? ?Target closed`),
	// A PDF comes back from Chrome as one DevTools message: a large one
	// over the WebSocket's limit drops the connection, and the page is
	// "closed" (13 of 16 such labelled records, in two sets; 3 in a
	// third were a small /dev/shm).
	builtin("cdp-pdf-over-message-limit", iface, "message-size",
		`printToPDF[^\n]{0,40}Target closed`),
	builtin("browser-closed", sandbox, "session-lifecycle",
		`(?i)Target closed|connect_over_cdp: Connection closed|Target page, context or browser has been closed|browser has been closed|browser has disconnected|Most likely the page has been closed|Session closed\.`),
	// Py4J's gateway answering nothing is the JVM behind it gone, almost
	// always the driver out of heap.
	builtin("jvm-gateway-gone", sandbox, "memory",
		`Answer from Java side is empty`),
	// A pickle that starts with '<', or a reader that found an HTML page
	// where its format begins, reads a web page saved in the file's place:
	// the download got an error or a login page.
	builtin("html-page-saved", sandbox, "network-egress",
		`(?i)invalid load key, '<'|found b?'<(!DOCTYP|html)`),
	// undici ends a response whose body stalls past its timeout: on an
	// MCP client that is an event stream the server let go quiet.
	// A WebSocket endpoint that answered the upgrade as plain HTTP speaks
	// another protocol than the client expects, wherever it listens.
	builtin("websocket-not-upgraded", iface, "protocol",
		`(?i)WebSocket is closed before the connection is established|was not upgraded to websocket|Expected HTTP 101|did not (upgrade|switch) protocols`),
	builtin("stream-body-timeout", iface, "protocol",
		`terminated: Body Timeout Error|UND_ERR_BODY_TIMEOUT`),
	// A program that needs a terminal, started without one: the shell's
	// and Python's /dev/tty that cannot be opened (ENXIO, "[Errno 6] No
	// such device or address: '/dev/tty'") and gpg's pinentry with no tty
	// to ask on. All 23 labelled records (18 without their variants, five
	// sets) are the refused process's; the model read most as a missing
	// device or file.
	builtin("no-controlling-terminal", sandbox, "process-spawn",
		`/dev/tty'?:? No such device or address|No such device or address:? '/dev/tty'|gpg: [^\n]*Inappropriate ioctl for device`),
	builtin("thread-start", sandbox, "process-spawn",
		`(?i)OutOfMemoryError: pthread_create|Failed to create a thread: retVal|failed to create OS thread|thread failed to start|Unsupported syscall|unable to create (a )?(new )?native thread|_dl_allocate_tls_init`),
	builtin("volume-mount", sandbox, "storage-persistence",
		`(?i)Unable to (attach or )?mount volumes|(Mount|Attach)Volume\.\w+ failed|Failed(Mount|AttachVolume)|Multi-Attach error`),
	// A process out of file descriptors fails whatever it was doing,
	// often a DNS lookup or a connect: the limit is the cause. So is a
	// watcher out of inotify watches, whose "no space left on device"
	// the storage rule would read as a full disk and the model, which
	// knows those words, would take there from the process rule.
	builtin("fd-limit", sandbox, "process-spawn",
		`(?i)`+descriptorLimit+`|`+watchOutOfSpace),
	// A DevTools endpoint that refuses the connection is a browser that
	// is not running, not blocked egress: it listens on the sandbox's own
	// loopback.
	// A dev server that refuses the preview's host name checks its input
	// and refuses what it should take.
	builtin("dev-server-host-refused", iface, "input-validation",
		`(?i)Invalid Host header|This host \("?[^)\n]{1,200}\)? is not allowed|Blocked cross-origin request to [^\n]{0,40}dev resource`),
	// A client speaking TLS to a server answering plain HTTP disagree on
	// the protocol, whatever carried it.
	builtin("http-to-https-client", iface, "protocol",
		`server gave HTTP response to HTTPS client`),
	builtin("mcp-unknown-tool", iface, "protocol",
		`(?i)\bUnknown tool\b|\btool not found\b`),
	// Deno's permissions: the runtime refuses the network or the files
	// until a flag grants them.
	builtin("deno-net-permission", sandbox, "network-egress",
		`Requires net access|--allow-net flag`),
	builtin("deno-fs-permission", sandbox, "filesystem-permissions",
		`Requires (read|write) access|--allow-(read|write) flag`),
	builtin("devtools-endpoint-refused", sandbox, "session-lifecycle",
		`(?i)`+devtoolsEndpointRefused),
	// A proxy that refuses (any proxyconnect, or Squid's 3128 and SOCKS's
	// 1080 on the loopback) is the way out that is closed.
	builtin("loopback-proxy-refused", sandbox, "network-egress",
		`(?i)proxyconnect tcp:[^\n]*(ECONNREFUSED|connection refused)|(ECONNREFUSED|connection refused)[^\n]{0,20}\b(127\.0\.0\.1|localhost):(3128|1080)\b`),
	// Any other server on the sandbox's own loopback that refuses the
	// connection is not running there (gone with the session that started
	// it, or never started): not egress, which leaves the sandbox. Only an
	// address the normaliser keeps (after a space or bracket: not inside a
	// URL or quotes, which it masks), with a port of four or five digits (a
	// resolver's 53 and a sinkholed 80 or 443 are the way out), and not the
	// source address of a lookup ("127.0.0.1:49521->127.0.0.53:53"). A
	// Unix socket gone (unixSocketGone) never leaves the sandbox either:
	// its daemon is (Go's "dial unix …: connect: connection refused",
	// snapd's "read unix …: connection reset by peer"): 21 of 21 labelled
	// records, seven sets.
	builtin("local-server-refused", sandbox, "session-lifecycle",
		`(?i)(ECONNREFUSED|connection refused|Error 111 connecting to)[^\n>]{0,20}?`+localService+`|`+localService+`[^\n>]{0,40}(ECONNREFUSED|connection refused)|`+unixSocketGone),
	// Chrome's crash handler started without its database folder (HOME or
	// XDG_CONFIG_HOME not writable) is the folder's permissions, though the
	// browser's launch then reports a reset connection: 13 of 13 labelled
	// records, five sets. Before the network rule, which reads the reset
	// when the whole message is read; a reset line taken as the message's
	// meaningful line is still the network rule's (2 of the 13). A rule of
	// its own has a record of its own, which the model weighs.
	builtin("crashpad-database-unwritable", sandbox, "filesystem-permissions",
		`(?i)crashpad_handler:\s+--database\s+is\s+required`),
	// Hugging Face's hub client that reached neither the hub nor a cached
	// copy: LocalEntryNotFoundError, or "cannot find the appropriate
	// snapshot folder for the specified revision on the local disk" (32 of
	// 32 labelled records, twelve sets). Its words of disks and folders
	// are the cache it fell back on, not a disk that failed. The network
	// rule read the class's name; a rule of its own has a record of its
	// own, which the model weighs before it overrules.
	builtin("hub-unreachable", sandbox, "network-egress",
		`(?i)\bLocalEntryNotFoundError\b|snapshot\s+folder\s+for\s+the\s+specified\s+revision`),
	// OpenLDAP's client that reached no server (14 of 14, three sets).
	// wandb's "Network error (ConnectTimeout), entering retry loop" (or
	// ConnectionError, HTTPError, TransientError) is its client retrying
	// what the network did not give it: 16 of 16 labelled records, three
	// sets. Its run's initialisation then times out, which a log's time
	// limit would otherwise read as the limit's.
	// Chromium's and Firefox's CORS refusals are read by the words the
	// failure key keeps: a header's name in quotes is masked, so any
	// header "is present on the requested resource" (Chromium's words).
	builtin("network-egress", sandbox, "network-egress",
		`(?i)Can't contact LDAP server|Network error \(\w+\), entering retry loop|failed to download from \w+://|\b(?:Temporary)?NameServerFailure\b|Error reading from the remote cache|I/O Error in remote cache|`+egressTimeoutInSeconds+`|check connectivity between servers|(?-i:\bESOCKETTIMEDOUT\b)|socket\.timeout: timed out|FailedConnectionException|blocked by CORS policy|Cross-Origin Request Blocked: The Same Origin Policy|preflight request (?:doesn['’]t|does not) pass access control check|No '[^'\n]+' header is present on the requested resource|must not be the wildcard '[^'\n]*' when the request's credentials mode|with 0 bytes received|Communications link failure|NS_ERROR_NET_ON_CONNECTING_TO|did not return a 200\b|Failed to update metadata after|(sendto|sendmsg)[^\n]{0,20}: [Oo]peration not permitted|ping_send failed|Error reading SSH protocol banner|CloudflareError 1020|used Cloudflare to restrict access|CloudflareChallengeError|Cloudflare version 2 challenge|Download failed: Timer expired|could not detect network \(event="noNetwork"|STUN allocate request timed out|returned an error with code=70[01]\b|curl: \((5|6|7|22|28|35|52|56|60|97)\)|no server suitable for synchronization|Network is unreachable|Temporary failure in name resolution|Name or service not known|nodename nor servname|No address associated with hostname|Could not resolve (host|proxy)|Resolving timed out|getaddrinfo|(?-i:\b(ENOTFOUND|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH|ECONNREFUSED|ETIMEDOUT|ECONNRESET)\b)|Connection refused|Connection reset by peer|Connection timed out|Couldn't connect to server|No route to host|\[Errno (101|110|111|113|-2|-3|-5)\]|Max retries exceeded|NewConnectionError|ProxyError|Tunnel connection failed|Proxy Authentication Required|tunneling socket could not be established|CONNECT tunnel failed|Proxy CONNECT aborted|SSLError|CERTIFICATE_VERIFY_FAILED|SSL_ERROR_SYSCALL|SSL_connect|Read timed out|ReadTimeoutError|ConnectTimeoutError|Could not find a version that satisfies the requirement[^\n]*\(from versions: none\)|No matching distribution found|(?:net::|\b)ERR_(NAME_NOT_RESOLVED|NAME_RESOLUTION_FAILED|CONNECTION_REFUSED|CONNECTION_RESET|CONNECTION_CLOSED|CONNECTION_FAILED|CONNECTION_TIMED_OUT|TIMED_OUT|INTERNET_DISCONNECTED|TUNNEL_CONNECTION_FAILED|PROXY_CONNECTION_FAILED|ADDRESS_UNREACHABLE|NETWORK_ACCESS_DENIED|SSL_PROTOCOL_ERROR|CERT_AUTHORITY_INVALID|EMPTY_RESPONSE|SOCKS_CONNECTION_FAILED)|no such host|i/o timeout|Client\.Timeout|UnknownHostException|run the library in offline mode|Could not transfer artifact|Temporary failure resolving|unable to resolve host|Recv failure|Empty reply from server|couldn't connect to|Failed to establish a new connection|socket hang up|fetch failed|network unreachable|Unable to update registry|spurious network error|Couldn't resolve host|failed to resolve address|\bDNS (lookup|resolution|error|failure)|dns error|UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|unable to get local issuer certificate|self[- ]signed certificate|x509: certificate|PKIX path building failed|SunCertPathBuilderException|tls: failed to verify|invalid peer certificate|API rate limit exceeded|toomanyrequests|pull rate limit|secondary rate limit|429 Too Many Requests|Too Many Requests|\bdial (tcp|udp)\b|server misbehaving|GnuTLS recv error|temporary error \(try again later\)|RPC failed; curl|received 429 status code|status code 429`),
	builtin("cpu-time", sandbox, "cpu-time",
		`(?i)all fuel consumed|GlobalTimeoutError|(?-i:\*\*\* HARAKIRI ON\b)|Timeout exceeded rendering page|Launch timed out, (space|workload) was not healthy|<kill-timeout reached>|exited due to time ?out|No output has been received in the last|exceeded its maximum wait time|time ?out[^\n]{0,40}(signal: killed|(?-i:\bKilled\b))|compile timed out|exceeded the compile timeout|CPU time|TimeLimitExceeded|CANCELLED AT \S+ DUE TO TIME LIMIT|MPIEXEC_TIMEOUT|exceeded (its |the )?timeout\b|processing time exceeded|TIME_LIMIT_EXCEEDED|exceeded (its |the )?run ?time limit|cputime|\bmaxCpu(Ms|Time|Seconds)?\b|timeout running program|process took too long|SIGXCPU|Navigation timeout|page\.goto: Timeout|RLIMIT_CPU|time limit exceeded|execution (time )?(exceeded|timed out)|Execution timed out|wall ?time limit|TimeoutExpired|`+timeLimitInUnits+`|exceeded the (time|execution|wall[- ]clock) (limit|budget)|wall[- ]clock (limit|timeout)|cell execution timed out|CellTimeoutError|Timeout waiting for (kernel|execution|execute reply|IOPub)|exceeded its (time|execution) (limit|budget)|WORKER TIMEOUT|maximum execution time|max(imum)? time limit|(execution )?took longer than|hit its timeout|FunctionTimeoutError|FUNCTION_INVOCATION_TIMEOUT|finished with status: .timeout|context deadline exceeded|DEADLINE_EXCEEDED`),
	// A FUSE mount whose daemon went away answers every file call with
	// ENOTCONN: the volume is gone from under the workflow. A socket's
	// ENOTCONN comes with the network's words, whose rule reads first.
	builtin("mount-disconnected", sandbox, "storage-persistence",
		`Transport endpoint is not connected|\[Errno 107\]`),
	// Python's zipfile whose member's bytes fail their CRC was handed an
	// archive changed on the way, not one cut short (16 of 16 labelled
	// records encoding, five sets). The key masks the CRC's width.
	builtin("zip-crc-mismatch", iface, "encoding", `Bad\s+CRC-\d+\s+for\s+file\b`),
	// safetensors' HeaderTooLarge is a file that does not start with a
	// safetensors header: a Git LFS pointer or a download cut short stored
	// in its place (11 of 16 labelled records, 5 of 6 sets; the other set's
	// harness counted the bytes, whose reading decides those).
	builtin("storage-truncated", sandbox, "storage-persistence",
		`(?i)Error while deserializing header: HeaderTooLarge|moov atom not found|no .moov. atom found|data size field is 0|InvalidJfrFileException|Found event with invalid size|ephemeral-storage|ephemeral local storage|failed finding central directory|PytorchStreamReader failed reading|Compressed file ended before the end-of-stream|BadZipFile|File is not a zip file|Not a gzipped file|database is locked|SQLITE_BUSY|database or disk is full|SQLITE_FULL|database disk image is malformed|SQLITE_CORRUPT|file is not a database|Corrupt WAL file|Failure while replaying WAL|truncated file: eof|File corrupted while reading|MetadataIncompleteBuffer|Unexpected EOF in archive|invalid compressed data--format violated|does not appear to be JSON: ''|End.of.central.directory (record )?signature not found|Internal error opening backing store|Lost inputs no longer available remotely|EBML header parsing failed|(?:More than )?\d+% of the data file is corrupt|run xapian-check on this database|xapian error 'Expected block \d+ to be level|xapian-check: DatabaseError: Block \d+ item \d+|DatabaseCorruptError`),
	// fork's ENOMEM is the kernel refusing another task, which a sandbox's
	// RAM cap makes it do long before a pids limit: of the blind sets'
	// failures that print it, 15 were labelled memory and 9 process-spawn.
	builtin("fork-enomem", sandbox, "memory",
		`(?i)`+forkENOMEM),
	// DuckDB reports a full temp directory as "Out of Memory Error:
	// failed to offload data block": the disk it spills to, not memory.
	builtin("spill-directory-full", sandbox, "storage-persistence",
		`(?i)failed to offload data block|max_temp_directory_size`),
	// PyTorch's "unable to write to file </torch_…>" is a tensor shared
	// with a DataLoader worker through /dev/shm, full: all 13 blind
	// records of six sets are memory. Its own rule, since the "No space
	// left on device" beside it lets the model overrule the memory rule.
	builtin("torch-shared-memory", sandbox, "memory", torchSharedMemory),
	// io_uring refused at setup is the sandbox's seccomp or its limit on
	// locked memory, whatever errno it gives (ENOSYS, EPERM, or ENOMEM,
	// "Cannot allocate memory", which the memory rule below would read):
	// 8 of 8 labelled records, four sets, are process-spawn. Only its
	// refusal's own line is read, and late, since MariaDB warns so at each
	// start under seccomp and then runs on without io_uring: a later
	// failure the network's or an earlier rule reads is that cause's. Every
	// later rule (memory, a file's permissions, a kill, the storage's, the
	// test's) and every guess come after it, so such a failure beside the
	// warning is read as the refusal; two labelled records are the warning
	// alone.
	builtin("io-uring-refused", sandbox, "process-spawn",
		`(?i)io_uring_queue_init[^\n]{0,80}(?:failed|ENOSYS|EPERM|ENOMEM|Cannot allocate memory|Operation not permitted|Not supported)|(?:ENOSYS|EPERM|ENOMEM|Cannot allocate memory|Operation not permitted|Not supported)[^\n]{0,40}io_uring_queue_init`),
	// System V shared memory full (shmget's ENOSPC) is memory, though it
	// says "No space left on device": 7 of 7 labelled records, four sets,
	// three of them realworld715's, which arrived after it was written.
	// .NET's "GC heap initialization failed" (E_OUTOFMEMORY) is a heap the
	// runtime could not reserve: 7 of 7 labelled records, three sets. Its
	// "Failed to create CoreCLR" without it is memory in one set and, in
	// MSBuild's words, a pids limit's in another.
	// Rust's "thread 'main' has overflowed its stack" and a sanitizer's
	// "ThreadSanitizer failed to allocate 0x… bytes" are memory the
	// process could not have, though they name a thread: all 26 labelled
	// records, six sets, are memory (the model put 5 of them in
	// process-spawn, by the thread). A test's own thread, named by its
	// path ("tests::parse_deeply_nested"), is more often the test's own
	// recursion on Rust's default 2 MiB stack, and is not read.
	builtin("memory", sandbox, "memory",
		`(?i)GC heap initialization failed|thread '(?:[^':\n]|:[^':\n])*' has overflowed its stack|Sanitizer failed to allocate|(?:^|[^/\w.])shmget(?:$|[^\w./\n])[^\n/]{0,39}No space left on device|could not create shared memory segment: No space left on device|memusage_exceeded|Memory usage exceeded \S+\. Shutting down|Stack space overflow: current size|Allowed memory size of \d+ bytes exhausted|\blive WebGL contexts\b|out of memory|\bOOM(?:[^\w-]|$|[-_ ]?kill|_score)|canvas memory use exceeds|circuit_breaking_exception|CircuitBreakingException|oom[-_ ]?kill|MemoryError|Cannot allocate memory|(?-i:\bENOMEM\b)|\[Errno 12\]|bad_alloc|OutOfMemoryError|heap out of memory|Java heap space|memory cgroup|memory limit|GC overhead limit exceeded|DaemonDisappearedException|daemon (has )?disappeared|Allocation failed|insufficient shared memory|shared memory \(shm\)|\bBus error\b|memory budget|Last few GCs|Reached heap limit|heap space is exhausted|unable to write to file </torch_|TeX capacity exceeded|could not resize shared memory segment|NCCL WARN[^\n]{0,80}No space left|/dev/shm[^\n]{0,80}No space left|No space left[^\n]{0,80}/dev/shm|cache resources exhausted`),
	weak(builtin("tcmalloc-large-alloc-alone", sandbox, "memory", tcmallocLargeAlloc)),
	// libjpeg's "Corrupt JPEG data: premature end of data segment" is an
	// image cut before its end (9 of 9 labelled records, four sets). It is
	// a warning libjpeg recovers from, printed before failures of other
	// causes too, so it decides only when nothing else is read.
	weak(builtin("jpeg-cut-short", iface, "message-size", `Corrupt JPEG data: premature end of data segment`)),
	// A kill alone is the OOM killer's most often, but a time limit ends a
	// run the same way: the harness's log may tell (see endedByTimeLimit).
	builtin("killed", sandbox, "memory",
		`(?i)signal: killed\b|waitpid returned 9\b|(?-i:\bKilled\b)|exit code 137|with code 137|status 137|SIGKILL|signal 9\b|signal terminated program`),
	// An emulator that needs KVM on a host without it: the platform does
	// not offer hardware virtualisation, whatever package is installed.
	builtin("no-hardware-virtualization", sandbox, "process-spawn",
		`(?i)emulation currently requires hardware acceleration|KVM requires a CPU that supports`),
	builtin("noexec-mount", sandbox, "filesystem-permissions",
		`(?i)failed to map segment from shared object|\bnoexec\b`),
	// Among the package-path rule's readings, which(1)'s "which: no
	// hostapd in (/sbin:/bin…)" is a program on no folder of the PATH, and
	// PyVista's "does not appear to be running an xserver" a display the
	// image has none of (Xvfb). Go's "fork/exec <path>: no such file or
	// directory" is a program that is not where the caller looked, and so
	// is "not a directory" or an empty path: 18 of 18 labelled records,
	// eight sets (the last two were read as a refused spawn). PyTorch's
	// "Torch not compiled with CUDA enabled", "Found no NVIDIA driver on
	// your system" and "The NVIDIA driver on your system is too old" are a
	// GPU stack the sandbox lacks, raised as the library's AssertionError,
	// not the test's: all 17 labelled records, two sets, are package-path.
	// PHP's "Call to undefined function" of a function an extension
	// defines (mb_strlen, iconv, imap_open, curl_init) is the extension
	// not installed or not loaded: all 27 labelled records, eight sets,
	// are package-path. The functions disable_functions takes away (exec,
	// proc_open, shell_exec) are the php-process-functions-disabled rule's,
	// before this one; getmypid, which some hosts disable too, is read by
	// neither and left to the model.
	builtin("package-path", sandbox, "package-path",
		`(?im)`+phpExtensionFunctionMissing+`|you might need a \S+ helper program|Torch not compiled with CUDA enabled|The NVIDIA driver on your system is too old|Found no NVIDIA driver on your system|no such module: VirtualSpatialIndex|SpatiaLite database without first loading the SpatiaLite module|Moment Timezone has no data for|not found on the specified binary path|Please correct the Binary Path|\bUnableToSpawnCCompiler\b|`+envProgramMissing+`|Fontconfig error: Cannot load default config file|No such file or directory: '(?:/usr)?(?:/local)?/s?bin/[^/'\n]+'|^(?:/usr)?(?:/local)?/s?bin/[^/:\s]+: No such file or directory|could not open extension control file|extension "[^"\n]+" is not available|extconf\.rb failed|Failed to build gem native extension|Can't find the 'libpq-fe\.h header|mysql client is missing|libmysqlclient is missing|unrecognized engine \S+ must be one of|Couldn't find appropriate backend to handle uri|Unknown compiler\(s\)|execvp\(\): No such file or directory|can't find command '|The provider '[^'\n]+' could not be found|could not find a supported CD ISO creation command|is not defined by "[^"\n]+" in|ERR_PACKAGE_PATH_NOT_EXPORTED|package is not available in your environment|runInteractiveProcess: exec: does not exist|Unmet build dependencies|Could not find any factory for identifier|(?-i:\bno element "[\w-]+")|\.so[.\d]* not found in any environmental path|main CUDA runtime library was not detected|Unable to load backend CMDSTANPY|SolverFactory was unable to create the solver|SYSTEM-NOT-FOUND|not possible to find any installed \.NET|No database found to handle jdbc|No available video device|Unknown input format: '\w+'|\bNo dirmngr\b|CUDA_HOME does not exist|Cannot open load file|Could not locate \S+ on classpath|module '[^'\n]+' not found:\s+no field package\.preload|(can.t|Can not|cannot) find Rust compiler|dotnet-\w+ does not exist|Error displaying widget: model not found|unable to find a build program corresponding to|Unable to find chromedriver|invalid target release: \d+|Failed to find Build Tools revision|cmdline-tools component is missing|MissingDependencyError: |Failed to open X display|Failed to obtain a valid EGL display|Failed to find any class that implements Connector|Failed to load connector from|could not find java; set JAVA_HOME|has been moved to the .[\w-]+. package|requires PHP extension \S+ but it is missing from your system|(?-i:\bClass '[\w\\]+' not found)|vendor/autoload\.php\): failed to open stream|not found in the Nix search path|delegate failed |uv_spawn '[^'\n]+'|spawn (?:\S+\s+)?ENOENT|Command failed with ENOENT|failed to start (?:the )?\w+ '[^'\n]+': No such file or directory|in .(?:exec|spawn|system|popen\w*)': No such file or directory|\bexec: No such file or directory|Failed to execute child process [^\n]{0,80}\(No such file or directory\)|java\.awt\.HeadlessException|Protocol "?https"? not supported or disabled in libcurl|requested PHP extension \S+ is missing|linked against (?:a different )?version of wasm-bindgen|sndfile library not found|did not manage to locate a library|Problems running dot|g\+\+ not detected|there is no c\+\+ compiler|execution of command failed with code: 127|libGL error: failed to load driver|problem accessing the ecCodes library|could not access file "|Error creating WebGL context|\.so[.\d]* => not found|Could not find Google Chrome executable|is not recognized as an internal or external command|JAVA_HOME is not set and no 'java' command|JAVA_HOME is set to an invalid directory|JAVA_HOME not set|/bin/sh: [^\n:]*python[0-9.]*: No such file or directory|org\.freedesktop\.secrets was not provided|module '[\w.]+' has no attribute|as dependency, which is currently missing|without having git-lfs installed|Unsupported model IR version|max supported IR version|Authentication plugin '[^'\n]+' cannot be loaded|aborting because of server version mismatch|Module kheaders not found|Unable to find kernel headers|/lib/modules/[^\s/]+/build\b|Please use the NLTK Downloader|Missing character: There is no|missing the MySQL extension which is required|Descriptors cannot not be created directly|program not found or is not executable|ExecutableNotFound|executables not found|executables are on your systems' PATH|available on system PATH|reporter could not be loaded|could not find a copy/paste mechanism|not found in the pkg-config search path|No package '[^'\n]+' found|ESLint couldn't find the plugin|unsupported (argument 'fuzzer' to option 'fsanitize='|option '-fsanitize=fuzzer')|no such subcommand|Unknown system error -86\b|Bad CPU type in executable|`+landmarkPathMissing+`|git: '[\w-]+' is not a git command|ModuleNotFoundError|No module named|cannot import name|^ImportError|error while loading shared libraries|`+muslLibraryMissing+`|command '[\w./+-]*(gcc|cc|g\+\+|clang)' failed: No such file|unable to execute '[\w./+-]*(gcc|cc|g\+\+|clang)'|Unsupported gpu architecture|cannot open shared object file|Library not loaded|DLL load failed|GLIBC_[0-9.]+' not found|requires GLIBC\s*>=?|command not found|`+commandNotFoundTranslated+`|(?-i:: not found)$|spawn(Sync)? \S+ ENOENT|error=2, No such file or directory|Cannot find module|ClassNotFoundException|NoClassDefFoundError|Could not find or load main class|executable file not found|exec: \\?"[^"\\\n]+\\?": stat [^\n:]+: no such file or directory|Could not load dynamic library|not installed|could not find a usable|No such command|externally-managed-environment|not on PATH|ld-linux[-\w.]*\.so|failed to open elf|Status code was: 127\b|Executable doesn't exist|distribution '[^'\n]+' is not found|exec format error|no display name and no \$DISPLAY|does not appear to be running an xserver|`+whichFoundNone+`|(cannot|can.t) open display|Unable to open X display|Could not connect to display|DISPLAY environment variable is missing|cannot connect to X server|you may need xvfb|QXcbConnection|LaTeX Error: File [^\n]*not found|\.sty'? not found|findfont: Font family|missing from current font|Host system is missing (a few )?dependencies|Ensure it is available on the path|missing dependencies to run browsers|install-deps|linker [^\n]{0,60}not found|ld: cannot find|cannot find -l\w|unable to find (a )?(C )?compiler|No CMAKE_C?X*_COMPILER could be found|(fatal )?error: [^\s:]+\.h(pp)?: No such file or directory|`+bareProgramMissing+`|`+programNotFound+`|Could not find directory of [\w.+-]+ installation|Setting locale failed|setlocale: LC_\w+: cannot change locale|Cannot find proj\.db|Cannot set LC_\w+ to default locale|has not been booted with systemd as init system|Couldn't find ffmpeg|VK_ERROR_INCOMPATIBLE_DRIVER|ErrorIncompatibleDriver|vkCreateInstance: Found no drivers|No Chrome installations found|No recommended backend was available|Error opening data file [^\n]*\.traineddata|Could not find a package configuration file|Java gateway process exited before sending|Cypress binary is missing|--load-extension is not allowed|subsystem request failed on channel|icu is not installed|Unable to detect ICU prefix|icu-config failed|unsupported locale setting|Cannot exec: No such file or directory|Cannot find ffmpeg|ffprobe or avprobe not found|Unknown (en|de)coder '|no decode delegate for this image format|^(make|sh|bash|/bin/sh|/bin/bash|env|xargs): [^\s:]+: No such file or directory|fork/exec [^\n:]*: (?:no such file or directory|not a directory)|No interpreter found in managed installations|^(FileNotFoundError|OSError)\b.*\(spawning a (program|compiler)\)$|Can't find a pure Python 3 wheel|Microsoft Visual C\+\+ [\d.]+ or greater is required|binary incompatibility|NODE_MODULE_VERSION|compiled against a different Node\.js version|(?:NoBackendError|ValueError): No backend available`),
	// bubblewrap that could not set up its child's namespaces: create
	// them, map its ids, make its new root private, read the kernel's
	// overflow ids (the file's name is masked in the key, its folder is
	// not) or raise its loopback. Its own rule, since "Permission denied"
	// in these lines would otherwise be read as a file's: all 37 blind
	// records of eight sets are process-spawn, while bwrap's "Can't
	// access" and "Can't find source path" stay the files'.
	builtin("bubblewrap-namespace", sandbox, "process-spawn",
		`(?:^|[^\w/.-])bwrap: (?:Creating new namespace failed|No permissions to creat(?:e|ing) new namespace|setting up [ug]id map|Failed to make / (?:r?slave|private)|Can't read /proc/sys/kernel/|loopback: Failed RTM_NEWADDR)`),
	// Open MPI refusing to start more ranks than the sandbox gives it
	// slots for could not spawn them: all 13 blind records of two sets.
	// nsenter refused a namespace (`nsenter: cannot open /proc/1/ns/ipc:
	// Permission denied`) could not start its process there: 4 of 4
	// labelled records, two sets, whatever the permission's words. Its
	// other errors (a program it could not run, a full disk) are not.
	// PostgreSQL's background workers are processes it starts on demand:
	// none free is a process it could not start (5 of 5 labelled records,
	// one set). newuidmap, newgidmap and a /proc/…/uid_map or gid_map
	// written or opened map a new user namespace's ids: whatever the error
	// says there (Permission denied, Invalid argument, No such file), the
	// process could not start: 29 of 32 labelled records, ten sets, are
	// process-spawn (the other three, one set, the files').
	// SELinux denying a process a permission of its own (executable
	// memory, heap or stack for a JIT, a change of user or group) is a
	// refused process, where its denials of a file's permissions (write,
	// unlink, getattr) are the files': the 9 labelled records of the first
	// kind (execmem, setuid, setgid; three sets) are process-spawn, the 5
	// of the second (four sets) filesystem-permissions. Only a list of
	// such permissions alone is read, with any spacing the key folds.
	builtin("process-spawn", sandbox, "process-spawn",
		`(?i)avc:\s+denied\s+\{(?:\s+(?:execmem|execstack|execheap|setuid|setgid))+\s+\}|no available background worker slots|out of background workers|failed to start a background worker|background worker limit of \d+ exceeded|There are not enough slots available in the system|No agent running|can.t connect to the agent|fork/exec [^\n]{0,300}: permission denied|Read -1, expected \d+, errno = 1\b|fuse: device not found|Module fuse not found|setschedparam|sched_setscheduler|SCHED_FIFO|forkpty\(3\) failed|fork\(pty3\) failed|failed to launch REPL process|icmp open socket: Operation not permitted|libpcap error: socket: Operation not permitted|permission denied \(are you root\?\)|perf_event_open[^\n]{0,80}(Permission denied|Operation not permitted)|perf_event_paranoid|SYS_PTRACE capability|out of pty devices|in _open_terminal|failed to create a child event loop|Cannot run program|spawn(Sync)? (\S+ )?(EPERM|EAGAIN)|could not execute process|error=(1|11|13), |Bad system call|SIGSYS|seccomp|fork: |can't start new[ \t]+thread|pthread_create|Resource temporarily unavailable|\[Errno 11\]|fork/exec|posix_spawn|(user|pid|mount|network|new) namespace|\bunshare\b|CLONE_NEW\w+|No usable sandbox|SUID sandbox helper|\bsetns\b|\bnsenter: (?:cannot open /proc/\S+/ns/|reassociate to namespace)|user_namespaces|RLIMIT_NPROC|Too many processes|pids limit|pids controller|BlockingIOError|without --no-sandbox|Chromium sandboxing failed|limit for number of file watchers|inotify|At least one invalid signature was encountered|Couldn't create temporary file /tmp/apt|gpgv, gpgv2 or gpgv1 required|\bwatch (\S+ )?ENOSPC\b|syscall: 'watch'|\b[ug]id map\b|\bnew[ug]idmap\b|/proc/[^/\s]+/[ug]id_map\b|\bsetgroups\b|DevToolsActivePort file doesn't exist|items of ancdata|Can't get attribute '[^'\n]+' on <module '__main__'|\bio_uring|Function not implemented|\bfork\b[^\n]{0,20}\b(refused|blocked|denied|not permitted)|-shell-escape flag|runsystem\([^\n]*disabled`),
	// A folder or file "is not owned by" the user that runs the tool (pip's
	// cache, Wine's prefix, Qt's runtime directory): 17 of 17 labelled
	// records, 7 sets, four of them left unclassified before. Only the
	// user, not a package, an account or a thread, owns a file so.
	// GnuPG that will not use a home folder or file it deems unsafe:
	// "gpg: WARNING: unsafe ownership on homedir" (9 of 10 labelled
	// records, three sets; the tenth is its agent that could not start,
	// which the process rule before reads). git's "detected dubious
	// ownership in repository" is a checkout another user owns (18 of 18,
	// three sets).
	builtin("filesystem-permissions", sandbox, "filesystem-permissions",
		`(?i)detected\s+dubious\s+ownership\s+in\s+repository|gpg: WARNING: unsafe (?:ownership|permissions|enclosing directory (?:ownership|permissions)) on|hook was ignored because it's not set as executable|\bis not owned by (?:you\b|the (?:current|executing) (?:user|uid)\b|UID \d)|Bad owner or permissions on |权限不够|state directory \[[^\]\n]*\] doesn't exist and couldn't be created|FilePermissionException|no permission to install to directory|has permission to write to that directory|usb_open error -3|Please fix the device permissions|_XSERVTransmkdir|set utime on [^\n]*: Operation not permitted|Unwritable directory|Can't create directory|Capabilities insufficient|failed to find a pre-opened file descriptor|cookie file \S+ must be accessible by owner only|NetCDF: Write to read only|No writable cache directories|I can't write on file|has unsafe permissions|unable to open (log file )?\S+ for writing|Permission denied|EACCES|\[Errno 13\]|Read-only file\s+system|(?-i:\bEROFS\b)|\[Errno 30\]|Operation not permitted: ['"]?/|changing (permissions|ownership) of|AccessDeniedException|access denied|No usable temporary directory|\b(chmod|chown|lchown|mkdir|rmdir|unlink|rename|open) [^\n]{0,200}: operation not permitted|`+fileOpNotPermitted+`|is not a writable directory|attempt to write a readonly database|SQLITE_READONLY|Could not create local repository|\bnot writable\b|NotWritableError|does not have write permissions?|unable to open database file|executable may have wrong permissions|Failed - Insufficient Permissions|`+mkdirAtRoot),
	builtin("process-spawn-eperm", sandbox, "process-spawn",
		`(?i)Operation not permitted|\bEPERM\b|\[Errno 1\]`),
	// Among the storage rule's readings, "errno -28" is ENOSPC negated, as
	// libav and npm print it ("avio_open2 failed, errno -28"), and git's
	// "error: unable to write file" a checkout the disk could not hold (7
	// of 7 labelled records, three sets). Errno 28 is a full disk
	// unless "Invalid argument" follows (errno28Full). Android's
	// INSTALL_FAILED_INSUFFICIENT_STORAGE is a device too full for the
	// package (13 of 13, four sets).
	builtin("storage-persistence", sandbox, "storage-persistence",
		`(?i)(?m:^)error: unable to write file |\bINSTALL_FAILED_INSUFFICIENT_STORAGE\b|Value not in list: [^\n]* not in \[\]|\berrno -28\b|\{:?error, ?:?enospc\}|Failed to fetch log file|No log file available|Log file isn.t local|dependencies reference nonexistent parent node|is over \d+% full|temporary upload location \[[^\]]*\] is not valid|Orphaned print file|database space exceeded|Disk utilization projected to reach threshold|disk I/O error|could not extend file|Only \d+ of \d+ bytes written|MISCONF Redis is configured to save RDB snapshots|bad draw, expecting \d+ items, found|last page of the wal is torn|unexpected first record, dropping buffer|No cached version listing for|Failed to execute 'setItem' on 'Storage'|Cache '[0-9a-f]+' not found|do not exist neither locally nor on remote|storage quota|storageQuotaExceeded|no longer available on disk|Short write to |No space left on device|cluster_block_exception|curl: \(23\)|(?-i:\b(ENOSPC|EDQUOT|ENOENT|ESTALE)\b)|`+errno28Full+`|Disk quota exceeded|\[Errno 122\]|File too large|\[Errno 27\]|FileNotFoundError|No such file or directory|NoSuchFileException|Stale file handle|appears to be corrupted|files? (\w+ )?(disappear|vanish)|does not exist|QuotaExceededError|DOMException: Quota exceeded|`+corruptParquet+`|`+filesLost),

	// GNU grep that will not print the lines it matched because it took
	// the input for binary: NUL bytes in it, or bytes not valid in the
	// locale (an encoding's fault, which this reads as a NUL too). "Binary
	// file (standard input) matches", or since grep 3.5 "grep: x.log:
	// binary file matches". All 18 labelled records that print it, in seven
	// sets, are null-byte; the folds read five as encoding or
	// input-validation. Late in the list: an agent's grep over .pyc or .git
	// files prints it beside whatever else failed, whose own rule decides.
	builtin("grep-binary-file", iface, "null-byte",
		`(?m)^Binary file [^\n]{1,200} matches[ \t\r]*$|^grep: [^\n]{1,200}: binary file matches[ \t\r]*$`),
	// An MCP request that timed out is a tool that ran past the client's
	// wait, not a broken protocol: 31 of the 53 blind records of it say
	// cpu-time, 22 protocol, in both halves alike.
	builtin("mcp-request-timeout", sandbox, "cpu-time",
		`(?i)`+mcpRequestTimeout),
	// The code alone is weak: the words of a later line decide. Without
	// them it is the protocol's: servers send it for other errors too (an
	// unknown session), and of the 17 blind records it decided as cpu-time,
	// 10 were labelled protocol and 1 cpu-time.
	weak(builtin("mcp-request-timeout-code", iface, "protocol", mcpTimeoutCode)),
	// A Jupyter message whose HMAC does not match: client and kernel
	// disagree on the session key.
	builtin("kernel-message-signature", iface, "protocol",
		`ValueError: Invalid Signature: |Bad kernel_info reply`),
	// Postgres prints this after any unclean stop, a kill's or a full
	// disk's among them, whose words the rules above read first; alone it
	// says the server was stopped under it: the sandbox paused or
	// restarted.
	builtin("database-crash-recovery", sandbox, "session-lifecycle",
		`database system was not properly shut down; automatic recovery in progress`),

	// The catch-all of JSON-RPC codes and transport words is weak: an MCP
	// error often wraps the cause a later line names.
	weak(builtin("protocol", iface, "protocol",
		`(?i)\[vite\] failed to connect to websocket|Invalid HTTP request received|Already connected to a transport|(?-i:Unknown command:? ["'\w])|Received invalid command\b|"unknown_command"|Invalid VarInt found|Host header is specified and is not an IP address or localhost|Cached ForwardMsg MISS|\bpacket reply is too long\b|Error displaying widget: model not found|received bogus greeting from client|Malformed or inaccessible DAP|expecting SCAN_ATTR or SCAN_DATASET|-32700|-32600|-32601|-32603|-32000|JSON[- ]RPC(?:[^\w-]|$)|jsonrpc|\bMCP error|McpError|Parse error|Invalid Request|Method not found|Connection closed|stream closed|transport (closed|error)|unexpected end of JSON|Unexpected token [^\n]* in JSON|Unexpected end of JSON|invalid character [^\n]* looking for|Broken pipe|(?-i:\bEPIPE\b)|unknown message type|protocol version|Request timed out|McpError|\bNot connected\b|SSE (error|stream|connection)|Error POSTing to endpoint|unknown message ID|does not support (tools|resources|prompts|sampling)|Unexpected content type|invalid JSON-RPC|ClosedResourceError|BrokenResourceError|EndOfStream|could not unmarshal event|unhandled page event`)),

	// Chrome that cannot be reached is a symptom: WebDriver adds the cause
	// on a later line (a driver built for another Chrome, a full /dev/shm).
	weak(builtin("chrome-unreachable", sandbox, "session-lifecycle",
		`(?i)chrome not reachable|cannot connect to chrome at`)),
	// A test called flaky is the test's to mend unless a line names what
	// the platform did.
	weak(builtin("flaky-test", test, "harness", `(?i)\bflak(y|iness)\b`)),

	// A shell reports a signal as 128 + its number, Python's subprocess as
	// its negative: SIGKILL (9, the OOM killer's), SIGXCPU (24), SIGSYS (31).
	builtinExit("exit-oom-kill", sandbox, "memory", 137, -9),
	builtinExit("exit-time-limit", sandbox, "cpu-time", 124, 152, -24),
	builtinExit("exit-sigsys", sandbox, "process-spawn", 159, -31),

	builtin("harness-traceback", test, "harness",
		`^(KeyError|TypeError|AttributeError|IndexError|NameError|UnboundLocalError|ZeroDivisionError|ValueError|AssertionError)\b.*\(in harness/[^)]*\)$`),
	builtin("harness-assert", test, "harness",
		`^AssertionError\b|^E\s+(assert|AssertionError)\b`),
	// An element the test waited for that never became actionable: its
	// selector or its wait is wrong far more often than the page.
	builtin("locator-timeout", test, "harness",
		`(?i)\blocator\.\w+: (Test )?Timeout \d+ ?ms exceeded|Cause: Locator\.\w+|waitForSelector: Timeout|\bstill not (visible|displayed|existing|clickable|enabled|selected|stable) after \d+ ?ms`),
	// Playwright's bare timeout, once a locator's is the test's: a wait
	// for the page that ran out, as a navigation's does.
	builtin("page-wait-timeout", sandbox, "cpu-time",
		`(?i)\bTimeoutError: Timeout \d+ ?ms exceeded|Unable to load the page: timeout reached`),
	builtin("navigation-aborted", test, "harness",
		`net::ERR_ABORTED`),
}

// builtinNamed returns the built-in rule called name, and panics at start-up
// when there is none, so that a renamed rule cannot go unread.
func builtinNamed(name string) *Rule {
	for i := range builtinRules {
		if builtinRules[i].Name == name {
			return &builtinRules[i]
		}
	}
	panic("triage: no built-in rule " + name)
}

var (
	// nulByteRule is the built-in rule that reads a NUL byte in words.
	nulByteRule = builtinNamed("nul-byte")
	// encodingRule and bytesNotDecodedRule read bytes a decoder or a
	// converter refused.
	encodingRule        = builtinNamed("encoding")
	bytesNotDecodedRule = builtinNamed("bytes-not-decoded")
	// storageTruncatedRule says content was damaged but not how, which a
	// transfer's counts then say.
	storageTruncatedRule = builtinNamed("storage-truncated")
	// browserClosedRule reads a browser that went away, and killedRule and
	// exitOOMKillRule a kill that a time limit may explain instead.
	browserClosedRule = builtinNamed("browser-closed")
	killedRule        = builtinNamed("killed")
	exitOOMKillRule   = builtinNamed("exit-oom-kill")
	// browserCrashRule reads a browser or its renderer that crashed.
	browserCrashRule = builtinNamed("browser-crash")
	// apparmorDeniedRule reads AppArmor refusing a process its own
	// operation, which a renderer that then crashed does not overrule.
	apparmorDeniedRule = builtinNamed("apparmor-denied-process")
)

// weakBuiltin holds the By of each weak built-in rule: what it read, a
// word any JSON-RPC frame holds or an exit code alone, the harness's
// evidence overrules.
var weakBuiltin = func() map[string]bool {
	weak := map[string]bool{}
	for i := range builtinRules {
		if builtinRules[i].weak {
			weak[builtinRules[i].By()] = true
		}
	}
	return weak
}()
