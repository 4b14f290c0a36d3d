// Package static holds the stylesheet and scripts sandtrap serves. The
// Datastar bundle is not committed: `make build` fetches the pinned version
// through the Go module proxy, checks its sha256 and puts it here.
package static

import "embed"

// FS holds every asset.
//
//go:embed *.css *.js
var FS embed.FS
