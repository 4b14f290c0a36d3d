// Package sample holds tests that sandtrap's import tests run under
// gotestsum: one passes, one fails, one skips, and one has a passing and a
// failing subtest.
package sample

import (
	"fmt"
	"testing"
)

func TestWritesAFile(t *testing.T) {
	fmt.Println("wrote /tmp/out.png")
}

func TestReadsBack(t *testing.T) {
	t.Errorf("got %q, want %q", "h\u00e9llo", "hello")
}

func TestTrainsAModel(t *testing.T) {
	t.Skip("no GPU here")
}

func TestBrowser(t *testing.T) {
	t.Run("opens a page", func(t *testing.T) {})
	t.Run("submits a form", func(t *testing.T) { t.Fatal("net::ERR_CONNECTION_REFUSED") })
}
