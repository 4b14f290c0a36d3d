package logview

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"mime"
	"strings"
	"unicode/utf8"
)

// SHA256Hex returns the lower-case hex SHA-256 digest of b, the form of an
// artifact's expected_sha256.
func SHA256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// IsText reports whether b reads as text: valid UTF-8 without NUL, in which
// control characters other than tab, newline, carriage return, form feed
// and ESC (for ANSI colours) make up under one byte in a hundred.
func IsText(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	controls := 0
	for _, c := range b {
		switch {
		case c == 0:
			return false
		case c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == esc:
		case c < ' ' || c == 0x7f:
			controls++
		}
	}
	return controls == 0 || controls*100 < len(b)
}

// imageMagic lists the image formats a page may show inline, by the bytes
// their files start with. A zero byte in a signature matches any byte.
var imageMagic = []struct {
	mediaType string
	signature string
}{
	{"image/png", "\x89PNG\r\n\x1a\n"},
	{"image/jpeg", "\xff\xd8\xff"},
	{"image/gif", "GIF87a"},
	{"image/gif", "GIF89a"},
	{"image/webp", "RIFF\x00\x00\x00\x00WEBP"},
}

// InlineImage reports whether an artifact may be shown inline as an image:
// its declared media type must be an image type and its bytes must start
// like a PNG, JPEG, GIF or WebP file. It returns the type sniffed from the
// bytes, which is the one to serve; the declared type is never trusted
// alone, so an SVG or HTML file declared as image/png is refused.
func InlineImage(mediaType string, data []byte) (ok bool, sniffed string) {
	declared, _, err := mime.ParseMediaType(mediaType)
	if err != nil || !strings.HasPrefix(declared, "image/") {
		return false, ""
	}
	for _, m := range imageMagic {
		if hasSignature(data, m.signature) {
			return true, m.mediaType
		}
	}
	return false, ""
}

// hasSignature reports whether data starts with signature, where a zero
// byte in signature matches any byte.
func hasSignature(data []byte, signature string) bool {
	if len(data) < len(signature) {
		return false
	}
	for i := range len(signature) {
		if signature[i] != 0 && signature[i] != data[i] {
			return false
		}
	}
	return true
}

// SafeDownloadType returns the Content-Type to serve an artifact with and
// whether to serve it as an attachment, so that a browser never runs it.
// Images confirmed by their bytes keep their sniffed type and show inline.
// Plain text shows inline as text/plain. Everything else, including
// anything declared or looking like HTML, SVG, XML, JavaScript or PDF, is
// an application/octet-stream attachment.
func SafeDownloadType(mediaType string, data []byte) (contentType string, attachment bool) {
	if ok, sniffed := InlineImage(mediaType, data); ok {
		return sniffed, false
	}
	if IsText(data) && !declaredActive(mediaType) && !looksActive(data) {
		return "text/plain; charset=utf-8", false
	}
	return "application/octet-stream", true
}

// declaredActive reports whether mediaType names content a browser could
// render or run: HTML, SVG, XML, JavaScript or PDF.
func declaredActive(mediaType string) bool {
	t, _, _ := strings.Cut(strings.ToLower(mediaType), ";")
	for _, word := range []string{"html", "xml", "svg", "javascript", "ecmascript", "pdf"} {
		if strings.Contains(t, word) {
			return true
		}
	}
	return false
}

// looksActive reports whether data starts like markup (HTML, SVG, XML) or a
// PDF, after any byte order mark and white space.
func looksActive(data []byte) bool {
	data = bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n\f")
	return bytes.HasPrefix(data, []byte("<")) || bytes.HasPrefix(data, []byte("%PDF"))
}
