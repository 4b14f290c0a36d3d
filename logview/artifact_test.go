package logview

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"testing"
)

// encoded returns a small image in the format that encode writes.
func encoded(t *testing.T, encode func(*bytes.Buffer, image.Image) error) []byte {
	t.Helper()
	img := image.NewPaletted(image.Rect(0, 0, 4, 4), color.Palette{color.Black, color.White})
	img.SetColorIndex(1, 1, 1)
	var b bytes.Buffer
	if err := encode(&b, img); err != nil {
		t.Fatalf("encoding a test image: %v", err)
	}
	return b.Bytes()
}

func TestSHA256Hex(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"empty input has the well-known digest", "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"abc has the FIPS 180-2 test digest", "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SHA256Hex([]byte(tt.in)); got != tt.want {
				t.Errorf("SHA256Hex(%q) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

func TestIsText(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want bool
	}{
		{"empty input is text", "", true},
		{"JSON is text", `{"path": "/tmp/a.txt", "mode": 420}` + "\n", true},
		{"coloured output is text", "\x1b[32mok\x1b[0m\r\n\tdone\n", true},
		{"non-ASCII UTF-8 is text", "naïve € 😀", true},
		{"a rare control in long text is text", "\x07" + string(bytes.Repeat([]byte("x"), 200)), true},
		{"a NUL makes binary", "text\x00", false},
		{"invalid UTF-8 makes binary", "caf\xe9", false},
		{"many controls make binary", "\x01\x02\x03abc\x04", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsText([]byte(tt.in)); got != tt.want {
				t.Errorf("IsText(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestInlineImage(t *testing.T) {
	pngData := encoded(t, func(b *bytes.Buffer, img image.Image) error { return png.Encode(b, img) })
	jpegData := encoded(t, func(b *bytes.Buffer, img image.Image) error { return jpeg.Encode(b, img, nil) })
	gifData := encoded(t, func(b *bytes.Buffer, img image.Image) error { return gif.Encode(b, img, nil) })
	webpData := []byte("RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00")
	tests := []struct {
		name        string
		mediaType   string
		data        []byte
		wantOK      bool
		wantSniffed string
	}{
		{"a real PNG is accepted", "image/png", pngData, true, "image/png"},
		{"a media type with parameters is understood", "Image/PNG; name=a.png", pngData, true, "image/png"},
		{"a real JPEG is accepted", "image/jpeg", jpegData, true, "image/jpeg"},
		{"a real GIF is accepted", "image/gif", gifData, true, "image/gif"},
		{"a WebP is accepted", "image/webp", webpData, true, "image/webp"},
		{"a mislabelled image is served as what its bytes are", "image/gif", pngData, true, "image/png"},
		{"an SVG claiming to be a PNG is refused", "image/png", []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`), false, ""},
		{"HTML claiming to be a PNG is refused", "image/png", []byte("<html><script>alert(1)</script></html>"), false, ""},
		{"an SVG declared as SVG is refused", "image/svg+xml", []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`), false, ""},
		{"a PNG not declared as an image is refused", "application/octet-stream", pngData, false, ""},
		{"a truncated signature is refused", "image/png", pngData[:4], false, ""},
		{"an unparseable media type is refused", "image/png;;;=", pngData, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ok, sniffed := InlineImage(tt.mediaType, tt.data)
			if ok != tt.wantOK || sniffed != tt.wantSniffed {
				t.Errorf("InlineImage(%q, %.16q) = %v, %q, want %v, %q", tt.mediaType, tt.data, ok, sniffed, tt.wantOK, tt.wantSniffed)
			}
		})
	}
}

func TestSafeDownloadType(t *testing.T) {
	pngData := encoded(t, func(b *bytes.Buffer, img image.Image) error { return png.Encode(b, img) })
	const octets = "application/octet-stream"
	tests := []struct {
		name           string
		mediaType      string
		data           string
		wantType       string
		wantAttachment bool
	}{
		{"a real image is served inline as its sniffed type", "image/png", string(pngData), "image/png", false},
		{"plain text is served inline as text", "text/plain", "hello\n", "text/plain; charset=utf-8", false},
		{"JSON is served inline as text", "application/json", `{"ok": true}`, "text/plain; charset=utf-8", false},
		{"HTML is an attachment", "text/html", "<!doctype html><script>alert(1)</script>", octets, true},
		{"SVG is an attachment", "image/svg+xml", `<svg xmlns="http://www.w3.org/2000/svg"/>`, octets, true},
		{"HTML declared as text is an attachment", "text/plain", "\ufeff \n<html><body>hi</body></html>", octets, true},
		{"XML is an attachment", "application/xml", "<?xml version=\"1.0\"?><a/>", octets, true},
		{"JavaScript is an attachment even though it reads as text", "application/javascript", "alert(1)", octets, true},
		{"a PDF is an attachment", "application/pdf", "%PDF-1.7\n", octets, true},
		{"a PDF declared as text is an attachment", "text/plain", "%PDF-1.7\n", octets, true},
		{"unknown binary is an attachment", "", "\x00\x01\x02\xff", octets, true},
		{"a fake image that reads as text is served as text", "image/png", "not really a png", "text/plain; charset=utf-8", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gotType, gotAttachment := SafeDownloadType(tt.mediaType, []byte(tt.data))
			if gotType != tt.wantType || gotAttachment != tt.wantAttachment {
				t.Errorf("SafeDownloadType(%q, %.16q) = %q, %v, want %q, %v", tt.mediaType, tt.data, gotType, gotAttachment, tt.wantType, tt.wantAttachment)
			}
		})
	}
}
