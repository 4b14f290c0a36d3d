package logview

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"
)

// Real files of each format, made by the standard library's encoders.
func testImage() image.Image {
	img := image.NewPaletted(image.Rect(0, 0, 40, 30), color.Palette{color.Black, color.White, color.RGBA{200, 30, 30, 255}})
	for y := range 30 {
		for x := range 40 {
			img.SetColorIndex(x, y, uint8((x*y+x)%3))
		}
	}
	return img
}

func pngFile(t *testing.T) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, testImage()); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func jpegFile(t *testing.T) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, testImage(), nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func gifFile(t *testing.T) []byte {
	var b bytes.Buffer
	if err := gif.Encode(&b, testImage(), nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func zipFile(t *testing.T) []byte {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	f, err := w.Create("data/rows.csv")
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte(strings.Repeat("region,orders\nnorth,1200\n", 200)))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func gzipFile(t *testing.T) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(strings.Repeat("epoch,loss\n1,0.52\n", 300)))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// textPDF is a PDF with no binary stream, so without a NUL byte.
const textPDF = "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"

// cutAtNUL is b up to its first NUL byte.
func cutAtNUL(b []byte) []byte { return b[:bytes.IndexByte(b, 0)] }

// flipped is b with one byte in its middle changed.
func flipped(b []byte) []byte {
	out := bytes.Clone(b)
	out[len(out)/2] ^= 0x5a
	return out
}

// asText is b decoded as UTF-8 the lenient way, as a transport that takes
// bytes for text does.
func asText(b []byte) []byte { return []byte(strings.ToValidUTF8(string(b), "\uFFFD")) }

func TestRoundTripDamage(t *testing.T) {
	pngB, jpegB, gifB, zipB, gzB := pngFile(t), jpegFile(t), gifFile(t), zipFile(t), gzipFile(t)
	tests := []struct {
		name      string
		got, sent []byte
		want      Damage
	}{
		{"a PNG cut at its first NUL byte says so without the original", cutAtNUL(pngB), nil, DamageCutAtNUL},
		{"a JPEG cut at its first NUL byte says so", cutAtNUL(jpegB), nil, DamageCutAtNUL},
		{"a GIF cut at its first NUL byte says so", cutAtNUL(gifB), nil, DamageCutAtNUL},
		{"a zip cut at its first NUL byte says so", cutAtNUL(zipB), nil, DamageCutAtNUL},
		{"a gzip file cut at its first NUL byte says so", cutAtNUL(gzB), nil, DamageCutAtNUL},
		{"a PNG cut in the middle lacks its end", pngB[:len(pngB)/2], nil, DamageCutShort},
		{"a JPEG cut in the middle lacks its end", jpegB[:len(jpegB)/2], nil, DamageCutShort},
		{"a zip cut in the middle lacks its directory", zipB[:len(zipB)/2], nil, DamageCutShort},
		{"a text PDF cut in the middle lacks its end, though it has no NUL", []byte(textPDF[:60]), nil, DamageCutShort},
		{"a whole text PDF with a byte changed does not say how", flipped([]byte(textPDF)), nil, DamageUnknown},
		{"a gzip file cut in the middle does not say so", gzB[:len(gzB)/2], nil, DamageUnknown},
		{"a PNG with a byte changed does not say how", flipped(pngB), nil, DamageUnknown},
		{"a PNG decoded as text is mangled", asText(pngB), nil, DamageMangled},
		{"a JPEG decoded as text is mangled", asText(jpegB), nil, DamageMangled},
		{"a CSV with a byte changed does not say how", flipped([]byte(strings.Repeat("a,b\n1,2\n", 20))), nil, DamageUnknown},
		{"text that holds U+FFFD of its own is not mangled", []byte("name\nJos\uFFFD\n"), nil, DamageUnknown},
		{"nothing at all does not say how", nil, nil, DamageUnknown},
		{"beside the original, a prefix that stops before a NUL was cut there", pngB[:bytes.IndexByte(pngB, 0)], pngB, DamageCutAtNUL},
		{"beside the original, a prefix that stops elsewhere was cut short", gzB[:len(gzB)/2+1], gzB, DamageCutShort},
		{"beside the original, U+FFFD where there was none is mangling", asText(gzB), gzB, DamageMangled},
		{"beside the original, a changed byte does not say how", flipped(gzB), gzB, DamageUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RoundTripDamage(tt.got, tt.sent); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDamageDescribe(t *testing.T) {
	for _, d := range []Damage{DamageMangled, DamageCutAtNUL, DamageCutShort} {
		if d.Describe() == "" {
			t.Errorf("Damage %q has no description", d)
		}
	}
	if got := DamageUnknown.Describe(); got != "" {
		t.Errorf("got %q for unknown damage, want none", got)
	}
}
