package logview

import (
	"regexp"
	"slices"
	"strings"
)

// Credentials. A tool that fails often prints what it was given: a URL
// with its token, a connection string with its password. The campaign
// keeps that text whole; what sandtrap shows and sends on (pages,
// tickets, the API) has the values cut, and a failure that holds one is
// a security finding of its own.

// secretValue finds a credential given as a URL query, a key=value pair
// or a JSON member ("accessKey":"6a51e966-…"), issuedSecret one in a
// shape a provider issues (GitHub, GitLab, AWS, Slack, Stripe, Hugging
// Face, npm, PyPI, Google OAuth, OpenAI-style keys, the project key in an
// Infura or Alchemy node's URL, a Vault token) or a bearer token, and
// userinfoSecret a password in a URL (https://user:s3cret99@host) or a
// token in a URL's user place (https://<40 hex>@github.com,
// https://<token>:x-oauth-basic@github.com). A URL's password is one
// whatever its value: "password" is the password the tool was given, and
// of 86 blind records whose error holds a URL with one, the labellers
// called 85 a credential echoed, critical. botToken is a Telegram bot's
// token in its API's path and bareBotToken one given alone, as a bot's
// id, a colon and 35 characters from AA on (a bot's log prints it so when
// it tests its token), privateKey the body of a PEM private key,
// envSecret a credential in an environment variable's assignment
// (GITHUB_TOKEN=…), keystorePassword a Java keystore's password on a
// command line, basicAuth an Authorization header's Basic credentials and
// pdoPassword the password PHP's stack trace prints among the arguments of
// PDO's constructor, its first 15 characters and "..." when longer: a
// password whatever its value, as a URL's is (of 16 blind records whose
// error holds such a trace, the labellers called the 15 with arguments a
// credential echoed, critical).
// Google's browser keys (AIza…) are no shape of their own, since web
// pages publish them in the scripts they load (…/maps/api/js?key=…); given
// as an API call's key parameter (?key=…), as any API key is, they count:
// of 19 blind records whose error holds a key parameter, the labellers
// called 18 a credential echoed, critical, and the other a page's script.
var (
	secretValue      = regexp.MustCompile(`^(?i)(access_?token|access_?key|api[_-]?key|auth_?token|client_?secret|secret|token|key|(password|passwd|pwd))(?:=|: ?|"\s*:\s*")([A-Za-z0-9._~+/!@#$%^*-]{8,})`)
	issuedSecret     = regexp.MustCompile(`\bBearer [A-Za-z0-9._~+/-]*[0-9][A-Za-z0-9._~+/-]*[a-z][A-Za-z0-9._~+/-]{18,}|\b(ghp|gho|ghs|ghu|github_pat)_[A-Za-z0-9_]{20,}|\bAKIA[0-9A-Z]{16}\b|\bxox[abprs]-[A-Za-z0-9-]{10,}|\bsk-[A-Za-z0-9_-]{20,}|\bglpat-[A-Za-z0-9_-]{20,}|\bhf_[A-Za-z0-9]{30,}|\bnpm_[A-Za-z0-9]{36}\b|\bpypi-[A-Za-z0-9_-]{50,}|\b[rs]k_live_[A-Za-z0-9]{20,}|\bya29\.[A-Za-z0-9_-]{20,}|\binfura\.io/v3/[A-Za-z0-9]{20,}|\balchemy(api)?\.(com|io)/v2/[A-Za-z0-9_-]{20,}|\bhv[sbr]\.[A-Za-z0-9_-]{20,}`)
	userinfoSecret   = regexp.MustCompile(`://[^\s:/@?#]*:([^\s:/@?#]+)@`)
	userinfoToken    = regexp.MustCompile(`://([A-Za-z0-9_-]{20,}|[^\s:/@?#]+(?::x-oauth-basic))@`)
	botToken         = regexp.MustCompile(`/bot[^/\s:%]{4,}(?::|%3A)([A-Za-z0-9_-]{30,})`)
	bareBotToken     = regexp.MustCompile(`\b\d{8,10}:(AA[A-Za-z0-9_-]{33})\b`)
	privateKey       = regexp.MustCompile(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----\s*([A-Za-z0-9+/=][A-Za-z0-9+/=\s]{15,}[A-Za-z0-9+/=])`)
	envSecret        = regexp.MustCompile(`\b[A-Z][A-Z0-9]*_(?:[A-Z0-9]+_)*(?:TOKEN|SECRET|PASSWORD|API_KEY|ACCESS_KEY|SECRET_KEY)=["']?([^\s"'$<{,;]{4,})`)
	basicAuth        = regexp.MustCompile(`(?i)\bauthorization["']?\s*[:=]\s*["']?basic ([A-Za-z0-9+/]{16,}={0,2})`)
	keystorePassword = regexp.MustCompile(`(?i)\b(?:storepass|keypass|[a-z]*Store\.?Password|key\.password)=([^\s,;'"\]}]{3,})`)
	pdoPassword      = regexp.MustCompile(`PDO->__construct\('[^'\n]*', '[^'\n]*', '([^'\n]+)'`)
	uuidValue        = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
)

// otherSecrets are the other shapes a credential comes in, each with the
// fragments (in lower-case, found in any case) of which every match holds
// one.
var otherSecrets = [...]struct {
	marks *Marks
	rx    *regexp.Regexp
}{
	{NewMarks("/bot"), botToken},
	{NewMarks(":aa"), bareBotToken},
	{NewMarks("private key-----"), privateKey},
	{NewMarks("token=", "secret=", "password=", "key="), envSecret},
	{NewMarks("storepass", "keypass", "store.password", "key.password"), keystorePassword},
	{NewMarks("basic "), basicAuth},
}

// secretKeys (in any case) and issuedMarks are fragments of which every
// match of secretValue or of issuedSecret holds one: a secret is looked
// for in every failure's error, and most hold none of them.
var (
	secretKeys  = NewMarks("token", "key", "secret", "passw", "pwd")
	issuedMarks = []string{"Bearer ", "ghp_", "gho_", "ghs_", "ghu_", "github_pat_", "AKIA", "xox", "sk-", "glpat-", "hf_", "npm_", "pypi-", "k_live_", "ya29.", "infura.io/v3/", "alchemy", "hvs.", "hvb.", "hvr."}
)

// HoldsSecret reports whether text holds a credential in plain text (see
// secretSpans): a secret is looked for in every failure's error.
func HoldsSecret(text string) bool {
	return len(secretSpans(text, true)) > 0
}

// Redact returns text with the value of every credential it holds
// in plain text replaced by [redacted], and how many it replaced. The key
// and a provider's prefix stay (token=[redacted], ghp_[redacted]), so
// people know what to rotate; pages, tickets and the API show the rest
// of the text as it was.
func Redact(text string) (string, int) {
	spans := secretSpans(text, false)
	if len(spans) == 0 {
		return text, 0
	}
	var b strings.Builder
	at := 0
	for _, s := range spans {
		b.WriteString(text[at:s[0]])
		b.WriteString("[redacted]")
		at = s[1]
	}
	b.WriteString(text[at:])
	return b.String(), len(spans)
}

// RedactBytes is Redact for bytes: b itself when it holds no credential.
func RedactBytes(b []byte) ([]byte, int) {
	r, n := Redact(string(b))
	if n == 0 {
		return b, 0
	}
	return []byte(r), n
}

// secretSpans returns where the values of the credentials in text lie, in
// order and apart, or only the first one when first is set: a token or
// key of 16 characters or more, a password of 8 or more. A value without
// both letters and digits is a placeholder (?token=BROWSERLESS_TOKEN) or
// a word (password: incorrect), not one, and a token that is a UUID is an
// id (a judge's submission "token").
func secretSpans(text string, first bool) [][2]int {
	var spans [][2]int
	// cut notes a value's span, and says whether the search is done: with
	// first, the first value found is all that is asked for.
	cut := func(from, to int) bool {
		spans = append(spans, [2]int{from, to})
		return first
	}
	limit := -1
	if first {
		limit = 1
	}
	if slices.ContainsFunc(issuedMarks, func(m string) bool { return strings.Contains(text, m) }) {
		for _, m := range issuedSecret.FindAllStringIndex(text, limit) {
			if cut(m[0]+issuedPrefix(text[m[0]:m[1]]), m[1]) {
				return spans
			}
		}
	}
	if strings.Contains(text, "://") && strings.Contains(text, "@") {
		for _, m := range userinfoSecret.FindAllStringSubmatchIndex(text, -1) {
			// x-oauth-basic is GitHub's fixed word after a token.
			if v := text[m[2]:m[3]]; v != "x-oauth-basic" && !masked(v) {
				if cut(m[2], m[3]) {
					return spans
				}
			}
		}
		for _, m := range userinfoToken.FindAllStringSubmatchIndex(text, -1) {
			end := m[3]
			if v, ok := strings.CutSuffix(text[m[2]:m[3]], ":x-oauth-basic"); ok {
				end = m[2] + len(v)
			} else if !credentialLike(v) && !isHex(v) {
				continue
			}
			if !masked(text[m[2]:end]) && !overlaps(spans, m[2], end) {
				if cut(m[2], end) {
					return spans
				}
			}
		}
	}
	for _, p := range otherSecrets {
		if !p.marks.In(text) {
			continue
		}
		for _, m := range p.rx.FindAllStringSubmatchIndex(text, -1) {
			if !masked(text[m[2]:m[3]]) && !overlaps(spans, m[2], m[3]) {
				if cut(m[2], m[3]) {
					return spans
				}
			}
		}
	}
	if strings.Contains(text, "PDO->__construct(") {
		for _, m := range pdoPassword.FindAllStringSubmatchIndex(text, -1) {
			// PHP cuts a long argument at 15 characters and adds "...",
			// so an ellipsis here is no person's mask.
			v := strings.TrimSuffix(text[m[2]:m[3]], "...")
			if !masked(v) && !overlaps(spans, m[2], m[3]) {
				if cut(m[2], m[3]) {
					return spans
				}
			}
		}
	}
	if !secretKeys.In(text) {
		return sortedApart(spans)
	}
	// secretValue is anchored and tried only where a key can start, after
	// a delimiter: run unanchored over the whole error it cost a fifth of
	// reading a million results.
	for j := 1; j < len(text); j++ {
		if !strings.ContainsRune(secretDelimiters, rune(text[j-1])) || !strings.ContainsRune(secretKeyStarts, rune(text[j]|0x20)) {
			continue
		}
		m := secretValue.FindStringSubmatchIndex(text[j:])
		if m == nil {
			continue
		}
		key, password, value := text[j+m[2]:j+m[3]], m[4] >= 0, text[j+m[6]:j+m[7]]
		switch {
		case !password && len(value) < 16:
			// A token or key shorter than 16 is an id or a word; a
			// password is often that short.
		case strings.EqualFold(key, "token") && uuidValue.MatchString(value):
		case strings.EqualFold(key, "key") && text[j-1] != '?' && text[j-1] != '&':
			// A URL's key parameter is an API key (?key=…); a key
			// elsewhere is a cache's, a map's or an object's name.
		case strings.EqualFold(key, "key") && strings.HasPrefix(value, "AIza") && publishedScript(text[:j-1]):
			// A Google browser key in the script URL a page loads is
			// published by that page.
		case overlaps(spans, j+m[6], j+m[7]):
			// Already cut as a provider's key or a URL's password.
		case credentialLike(value):
			if cut(j+m[6], j+m[7]) {
				return spans
			}
			j += m[7] - 1
		}
	}
	return sortedApart(spans)
}

// publishedScript reports whether before, the text up to a parameter of
// a URL's query, is a script's URL (/maps/api/js?v=3, /sdk.js): a URL a web
// page loads.
func publishedScript(before string) bool {
	if q := strings.LastIndexByte(before, '?'); q > strings.LastIndexAny(before, " \t\n\"'") {
		before = before[:q]
	}
	return strings.HasSuffix(before, "/js") || strings.HasSuffix(before, ".js")
}

// overlaps reports whether [from, to) overlaps one of spans: a value
// already cut as another shape of credential.
func overlaps(spans [][2]int, from, to int) bool {
	return slices.ContainsFunc(spans, func(s [2]int) bool { return s[0] < to && from < s[1] })
}

// masked reports a value a tool or a person already hid: stars, x's or
// dots alone, a "redacted" mark, a <placeholder>, a {template}, a
// $variable or an ellipsis.
func masked(value string) bool {
	return strings.Trim(value, "*xX.•") == "" || strings.Contains(strings.ToLower(value), "redact") ||
		strings.IndexAny(value, "<{$") == 0 || strings.Contains(value, "...")
}

// credentialLike reports whether value holds both letters and digits.
func credentialLike(value string) bool {
	return strings.ContainsAny(value, "0123456789") && strings.ContainsAny(value, "abcdefghijklmnopqrstuvwxyz")
}

// isHex reports a value of hexadecimal digits alone: in a URL's
// password place, a token (an OAuth token printed as hex), not a word.
func isHex(value string) bool {
	return strings.Trim(value, "0123456789abcdefABCDEF") == ""
}

// issuedPrefix is how much of an issued credential's match stays shown:
// "Bearer ", the provider's prefix (ghp_, xoxb-, sk-, AKIA), or a node
// URL's path up to its key (infura.io/v3/).
func issuedPrefix(match string) int {
	for _, p := range []string{"Bearer ", "github_pat_", "sk_live_", "rk_live_", "ya29.", "hvs.", "hvb.", "hvr.", "infura.io/v3/", "alchemy.com/v2/", "alchemy.io/v2/", "alchemyapi.com/v2/", "alchemyapi.io/v2/"} {
		if strings.HasPrefix(match, p) {
			return len(p)
		}
	}
	if i := strings.IndexAny(match, "_-"); i > 0 && i < 12 {
		return i + 1
	}
	return min(4, len(match))
}

// sortedApart orders spans and drops any that overlap one before it: a
// provider's key may also be a URL's password.
func sortedApart(spans [][2]int) [][2]int {
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	out := spans[:0]
	for _, s := range spans {
		if len(out) > 0 && s[0] < out[len(out)-1][1] {
			continue
		}
		out = append(out, s)
	}
	return out
}

// secretDelimiters may stand before a credential's key, and
// secretKeyStarts are the first letters of the keys secretValue knows.
const (
	secretDelimiters = "?&;, \t\n\r\f\"'["
	secretKeyStarts  = "acstpk"
)
